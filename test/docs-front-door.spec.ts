import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The README is a front door a newcomer reads in ten minutes; everything it held before moved to docs/, where
 * docs/README.md is the map. These checks keep both so.
 */
const ROOT = path.resolve(__dirname, '..');

/** The headings of the README before it was cut to a front door, each with the page that holds its section now. */
const MOVED_HEADINGS: Readonly<Record<string, string>> = {
  'Search analytics': 'README.md',
  'The two commands': 'docs/development.md',
  'Signing a request (copy, paste, run)': 'docs/api/authentication.md',
  'Sending search events': 'docs/api/events.md',
  'Clicks and conversions': 'docs/api/events.md',
  'Clicks and conversions from browsers: `POST /1/events`': 'docs/api/events.md',
  'Which terms shoppers searched: `GET /search-terms`': 'docs/api/search-terms.md',
  "Analytics: date ranges, trends, a term's history, totals, CSV": 'docs/api/search-terms.md',
  'Annotations: notes on the charts': 'docs/api/annotations.md',
  'The dashboard: `/dashboard`': 'docs/dashboard.md',
  'Catalogue documents and the ranking-mix data check': 'docs/api/catalogue.md',
  'Webhooks, entities and notifications': 'docs/api/webhooks.md',
  Alerts: 'docs/api/webhooks.md',
  'Kafka and the distributed deployment': 'docs/distributed.md',
  Configuration: 'docs/configuration.md',
  Authentication: 'docs/api/authentication.md',
  'The API contract: OpenAPI and a typed client': 'docs/api/openapi.md',
  Layout: 'docs/development.md',
  Benchmarks: 'docs/benchmarks/README.md',
};

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

  it('keeps every heading the README had, on the page its section moved to, which the map of the docs reaches', () => {
    const pages = reachable('docs/README.md');
    const headingsOf = (page: string) =>
      [...readFileSync(path.join(ROOT, page), 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1].trim());
    const lost = Object.entries(MOVED_HEADINGS).filter(([heading, page]) => !pages.has(page) || !headingsOf(page).includes(heading));
    expect(lost).toEqual([]);
  });
});
