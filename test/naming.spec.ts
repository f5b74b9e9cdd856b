import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

describe('names (docs/decisions.md, "Issue 27: names agree")', () => {
  it('answer classes end in View; a Dto answers only where the route echoes its request body', () => {
    const offenders: string[] = [];
    for (const file of [...sources('apps'), ...sources('libs')]) {
      const text = readFileSync(file, 'utf8');
      for (const [, name] of text.matchAll(/@Api\w*Response\(\{[^}]*?\btype: \[?(\w+)/g)) {
        const echoedBody = name.endsWith('Dto') && text.includes(`@Body() body: ${name}`);
        if (!name.endsWith('View') && !echoedBody) {
          offenders.push(`${path.relative(ROOT, file)}: ${name}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
