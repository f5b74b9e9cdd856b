import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The README is a front door a newcomer reads in ten minutes; everything it held before moved to docs/, where
 * docs/README.md is the map. These checks keep both so.
 */
const ROOT = path.resolve(__dirname, '..');

/** The headings of the README before it was cut to a front door: each is now a heading of a page the map reaches. */
const MOVED_HEADINGS = [
  'Search analytics',
  'The two commands',
  'Signing a request (copy, paste, run)',
  'Sending search events',
  'Clicks and conversions',
  'Clicks and conversions from browsers: `POST /1/events`',
  'Which terms shoppers searched: `GET /search-terms`',
  "Analytics: date ranges, trends, a term's history, totals, CSV",
  'Annotations: notes on the charts',
  'The dashboard: `/dashboard`',
  'Catalogue documents and the ranking-mix data check',
  'Webhooks, entities and notifications',
  'Alerts',
  'Kafka and the distributed deployment',
  'Configuration',
  'Authentication',
  'The API contract: OpenAPI and a typed client',
  'Layout',
  'Benchmarks',
];

/** The Markdown pages reachable from `start` by relative links, `start` included. */
function reachable(start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) {
      continue;
    }
    seen.add(file);
    // Links in code (a template's placeholder) are not links: fenced blocks and inline code are left out.
    const prose = readFileSync(path.join(ROOT, file), 'utf8')
      .replace(/^```[\s\S]*?^```/gm, '')
      .replace(/`[^`\n]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)#\s]+\.md)(#[^)]*)?\)/g)) {
      if (!/^[a-z]+:/i.test(match[1])) {
        queue.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1])));
      }
    }
  }
  return seen;
}

describe('the front door', () => {
  it('is a README of at most 12 KB', () => {
    expect(statSync(path.join(ROOT, 'README.md')).size).toBeLessThanOrEqual(12_288);
  });

  it('keeps every heading the README had, on a page the map of the docs reaches', () => {
    const pages = [...reachable('docs/README.md')];
    const headings = new Set(
      pages.flatMap((page) => [...readFileSync(path.join(ROOT, page), 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1].trim())),
    );
    expect(MOVED_HEADINGS.filter((heading) => !headings.has(heading))).toEqual([]);
  });
});
