import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Classes named as an answer: in @Api…Response({ type }), ApiResponse({ type }) and @ApiPage(type). */
const ANSWER_TYPES = [/@?Api\w*Response\(\{[^}]*?\btype: \[?(\w+)/g, /@ApiPage\((\w+)/g];

describe('names (docs/decisions/0034-names-agree.md)', () => {
  it('answer classes end in View (ConfigurationDto is both the body and the answer of PUT /configuration)', () => {
    const offenders: string[] = [];
    let answers = 0;
    for (const file of [...sources('apps'), ...sources('libs')]) {
      const text = readFileSync(file, 'utf8');
      for (const [, name] of ANSWER_TYPES.flatMap((pattern) => [...text.matchAll(pattern)])) {
        answers++;
        if (!name.endsWith('View') && name !== 'ConfigurationDto') {
          offenders.push(`${path.relative(ROOT, file)}: ${name}`);
        }
      }
    }
    expect(offenders).toEqual([]);
    expect(answers).toBeGreaterThanOrEqual(30);
  });
});
