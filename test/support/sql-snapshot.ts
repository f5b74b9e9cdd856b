/**
 * SQL snapshots of the analytics repositories (docs/decisions/0035-readable-sql.md): a test runs a
 * handler for fixed requests at a fixed `now` on top of the real repository, whose ClickHouse client is a recording
 * fake (RecordingClickHouse). Every statement the repository sends is written, formatted, into a committed .sql file
 * beside the repository; the test fails when the SQL differs from that file. `UPDATE_SQL=1 npx jest <test file>` rewrites
 * the files. No engine, no real clock, no random ids, nothing that depends on the machine's time zone.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { ClickHouseService, type QueryParams } from '@app/clickhouse';
import { CUSTOMER, FIXED_NOW, INSTANCE, fixedClock } from './analytics-fakes';

/** One statement sent: the repository method that sent it, its SQL and its parameters as sent. */
export interface Statement {
  method: string;
  sql: string;
  params: QueryParams;
}

/**
 * The ClickHouseService surface the repositories use (table, query, rawStream), recording what is sent instead of
 * running it. Tables are named by the real ClickHouseService.table, on the default database. `rows` answers each
 * query (by the method that sent it); the default is one row holding every column some analytics query returns.
 */
export class RecordingClickHouse {
  readonly statements: Statement[] = [];
  readonly database = 'search_analytics';

  constructor(private readonly rows: (method: string) => object[] = () => [ANY_ROW]) {}

  get service(): ClickHouseService {
    return this as unknown as ClickHouseService;
  }

  table(name: string): string {
    return ClickHouseService.prototype.table.call(this, name);
  }

  query<T>(sql: string, params: QueryParams = {}): Promise<T[]> {
    const method = this.record(sql, params);
    return Promise.resolve(this.rows(method) as T[]);
  }

  rawStream(sql: string, params: QueryParams = {}): Promise<Readable> {
    this.record(sql, params);
    return Promise.resolve(Readable.from([]));
  }

  private record(sql: string, params: QueryParams): string {
    // The caller's frame: `at SearchTermsRepository.terms (...)`.
    const caller = /at (\w+Repository\.\w+) /.exec(new Error().stack ?? '');
    const method = caller?.[1] ?? 'unknown';
    this.statements.push({ method, sql, params: structuredClone(params) });
    return method;
  }
}

/** A row with every column an analytics query reads, so that each handler runs its whole way. */
export const ANY_ROW = {
  phrase: 'summer dress',
  count: '3',
  previous_count: '2',
  handlers: [],
  total: '1',
  term: 'summer dress',
  hour_ms: String(FIXED_NOW - (FIXED_NOW % 3_600_000)),
  searches_n: '3',
  zero_n: '1',
  newest: String(FIXED_NOW),
  language: 'de',
  current_n: '1',
  previous_n: '1',
  spelling: 'Summer Dress',
  n: '3',
  // The engagement counts (EngagementRepository).
  tracked: '4',
  clicked: '2',
  clicks_n: '3',
  pos_sum: '7',
  converted: '1',
  rev_cur: ['EUR'],
  rev_val: ['12.5'],
  pos: '1',
  object_id: 'sku-1',
  conversions_n: '1',
};

/** One case of a snapshot: a request, and what sends its statements (a handler run on a RecordingClickHouse). */
export interface SqlCase {
  name: string;
  /** The request's path and query parameters, for the header. */
  path: string;
  query: Record<string, string>;
  /** Runs the case; every statement sent to `ch` is written. */
  run: (ch: RecordingClickHouse) => Promise<unknown>;
  /** The rows the fake answers (default: ANY_ROW for every query). */
  rows?: (method: string) => object[];
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*):([^{}]+)\}/g;
const RULE = `-- ${'='.repeat(116)}`;

/** A parameter as a line of the header; times in seconds (`*_from`, `*_to`) also as ISO-8601. */
function paramLine(name: string, value: unknown): string {
  const time =
    typeof value === 'number' && /_(from|to)$/.test(name) ? ` (${new Date(value * 1000).toISOString().replace('.000Z', 'Z')})` : '';
  return `--   ${name} = ${JSON.stringify(value)}${time}`;
}

function renderStatement(c: SqlCase, s: Statement, index: number, count: number): string {
  const used = new Set([...s.sql.matchAll(PLACEHOLDER)].map((m) => m[1]));
  const missing = [...used].filter((name) => !Object.prototype.hasOwnProperty.call(s.params, name));
  if (missing.length > 0) {
    throw new Error(`${c.name}, ${s.method}: no value for the query parameters ${missing.join(', ')}`);
  }
  const names = Object.keys(s.params).sort();
  return [
    `-- ${c.name} (${index + 1}/${count}): ${s.method}`,
    `-- GET ${c.path}${Object.keys(c.query).length > 0 ? '?' : ''}${Object.entries(c.query)
      .map(([k, v]) => `${k}=${v}`)
      .join('&')}`,
    '-- params:',
    ...names.map((name) => paramLine(name, s.params[name]) + (used.has(name) ? '' : ' (sent, not used)')),
    `${formatSql(s.sql)};`,
  ].join('\n');
}

/** Runs every case on a fresh RecordingClickHouse and renders its statements, cases in order. */
export async function renderSqlCases(title: string, cases: readonly SqlCase[]): Promise<string> {
  const parts: string[] = [];
  for (const c of cases) {
    const ch = new RecordingClickHouse(c.rows);
    await c.run(ch);
    if (ch.statements.length === 0) {
      throw new Error(`${c.name}: no statement was sent`);
    }
    parts.push([RULE, ...ch.statements.map((s, i, all) => renderStatement(c, s, i, all.length))].join('\n\n'));
  }
  const header = [
    `-- ${title}`,
    `-- Every statement the repository sends for each case, at now = ${new Date(FIXED_NOW).toISOString()},`,
    `-- customer ${CUSTOMER}, instance ${INSTANCE}. Only whitespace is changed from what is sent; the \`;\` is added here.`,
    `-- Written by ${specPath()}; do not edit by hand.`,
    `-- After an intended change: UPDATE_SQL=1 npx jest ${specPath()}`,
  ];
  return `${[header.join('\n'), ...parts].join('\n\n')}\n`;
}

const ROOT = resolve(__dirname, '../..');

/** A path relative to the repository's root, with forward slashes (the same text from any working directory). */
function fromRoot(file: string): string {
  return relative(ROOT, file).split('\\').join('/');
}

function specPath(): string {
  return fromRoot(expect.getState().testPath ?? '');
}

/**
 * The committed file must equal `rendered`; with UPDATE_SQL=1 it is (re)written instead. Fails with the lines
 * that differ and the command that updates the file.
 */
export function expectSqlFile(file: string, rendered: string): void {
  const name = fromRoot(file);
  const update = `UPDATE_SQL=1 npx jest ${specPath()}`;
  if (process.env.UPDATE_SQL === '1') {
    // A CI run checks the committed files; it never writes them.
    if (process.env.CI) {
      throw new Error('UPDATE_SQL=1 is for a local run; CI checks the committed SQL files');
    }
    writeFileSync(file, rendered);
    return;
  }
  if (!existsSync(file)) {
    throw new Error(`There is no ${name}. Write it, review it and commit it: ${update}`);
  }
  const committed = readFileSync(file, 'utf8');
  if (committed === rendered) {
    return;
  }
  throw new Error(
    `The SQL sent differs from ${name}.\nIf the change is intended, update the file, review its diff and commit it:\n  ${update}\n\n` +
      `--- ${name} (committed)\n+++ rendered now\n${lineDiff(committed, rendered)}`,
  );
}

/**
 * The suite of one repository's snapshot: at FIXED_NOW, the SQL of `cases` must equal the committed `file` (beside
 * the repository, named after it).
 */
export function describeSqlSnapshot(title: string, file: string, cases: readonly SqlCase[]): void {
  describe(`${title} (${basename(file)})`, () => {
    fixedClock();

    it('sends the SQL of the committed file for each case', async () => {
      expectSqlFile(file, await renderSqlCases(title, cases));
    });
  });
}

/** The changed lines of a line diff (longest common subsequence), with two lines of context, at most 60 lines. */
export function lineDiff(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  // Common prefix and suffix first: the table below covers only the lines between them.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) {
    start++;
  }
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) {
    end++;
  }
  const n = a.length - end - start;
  const m = b.length - end - start;
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[start + i] === b[start + j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  /** The lines of both, in order: ' ' in both, '-' only before, '+' only after; with its line number in its file. */
  const lines: Array<{ sign: ' ' | '-' | '+'; no: number; text: string }> = [];
  a.slice(0, start).forEach((text, k) => lines.push({ sign: ' ', no: k + 1, text }));
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      lines.push({ sign: ' ', no: start + i + 1, text: a[start + i] });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      lines.push({ sign: '-', no: start + i + 1, text: a[start + i] });
      i++;
    } else {
      lines.push({ sign: '+', no: start + j + 1, text: b[start + j] });
      j++;
    }
  }
  a.slice(a.length - end).forEach((text, k) => lines.push({ sign: ' ', no: a.length - end + k + 1, text }));
  const near = (k: number) => lines.slice(Math.max(0, k - 2), k + 3).some((l) => l.sign !== ' ');
  const shown: string[] = [];
  lines.forEach((l, k) => {
    if (!near(k)) {
      return;
    }
    if (shown.length > 0 && !near(k - 1)) {
      shown.push('  ...');
    }
    shown.push(`${l.sign} ${String(l.no).padStart(5)}  ${l.text}`);
  });
  return shown.length > 60 ? `${shown.slice(0, 60).join('\n')}\n  ... (${shown.length - 60} more lines)` : shown.join('\n');
}

/** Lines longer than this are broken (wrapLine). */
const WIDTH = 120;

/**
 * Where `text` (one line of SQL) has parentheses, commas and the words AND and OR outside string literals, quoted
 * names and placeholders, at the depth of parentheses given: [index, depth, character or word].
 */
function structure(text: string): Array<{ at: number; depth: number; mark: string }> {
  const marks: Array<{ at: number; depth: number; mark: string }> = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") {
      for (i++; i < text.length && text[i] !== "'"; i++) {
        if (text[i] === '\\') {
          i++;
        }
      }
    } else if (c === '`' || c === '{') {
      i = text.indexOf(c === '`' ? '`' : '}', i + 1);
    } else if (c === '(') {
      marks.push({ at: i, depth: depth++, mark: c });
    } else if (c === ')') {
      depth = Math.max(0, depth - 1);
      marks.push({ at: i, depth, mark: c });
    } else if (c === ',') {
      marks.push({ at: i, depth, mark: c });
    } else if (/^ (AND|OR) /.test(text.slice(i, i + 5))) {
      marks.push({ at: i + 1, depth, mark: text.slice(i + 1, i + 4).trim() });
    }
  }
  return marks;
}

/** `text` cut before (AND, OR) or after (commas) the marks given. */
function splitAt(text: string, marks: ReadonlyArray<{ at: number; mark: string }>): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const { at, mark } of marks) {
    const cut = mark === ',' ? at + 1 : at;
    pieces.push(text.slice(from, cut).trim());
    from = cut;
  }
  pieces.push(text.slice(from).trim());
  return pieces.filter((p) => p !== '');
}

/**
 * A line longer than WIDTH broken: at its commas outside parentheses (a SELECT list, the rest indented), else inside
 * its longest parentheses, one argument (or one AND or OR condition) per line, each broken again where still too long.
 */
function wrapLine(text: string, indent: number): string[] {
  const pad = ' '.repeat(indent);
  if (indent + text.length <= WIDTH) {
    return [pad + text];
  }
  const marks = structure(text);
  // A comma that ends the line stays with it (an argument of the line before).
  const commas = marks.filter((m) => m.depth === 0 && m.mark === ',' && m.at < text.length - 1);
  if (commas.length > 0) {
    const [first, ...rest] = splitAt(text, commas);
    return [...wrapLine(first, indent), ...rest.flatMap((piece) => wrapLine(piece, indent + 2))];
  }
  let best: { open: number; close: number } | undefined;
  for (const open of marks.filter((m) => m.depth === 0 && m.mark === '(')) {
    const close = marks.find((m) => m.at > open.at && m.depth === 0 && m.mark === ')');
    if (close && (!best || close.at - open.at > best.close - best.open)) {
      best = { open: open.at, close: close.at };
    }
  }
  if (!best) {
    return [pad + text];
  }
  const inner = text.slice(best.open + 1, best.close);
  const innerMarks = structure(inner).filter((m) => m.depth === 0);
  const byComma = innerMarks.filter((m) => m.mark === ',');
  const byOr = innerMarks.filter((m) => m.mark === 'OR');
  const byAnd = innerMarks.filter((m) => m.mark === 'AND');
  const pieces = splitAt(inner, byComma.length > 0 ? byComma : byOr.length > 0 ? byOr : byAnd);
  return [
    ...wrapLine(text.slice(0, best.open + 1), indent),
    ...pieces.flatMap((piece) => wrapLine(piece, indent + 2)),
    ...wrapLine(text.slice(best.close), indent),
  ];
}

/** Tokens of SQL text: a string literal, a quoted name, a {name:Type} placeholder, a word, a parenthesis or comma, other. */
const TOKEN = /\s+|'(?:[^'\\]|\\.|'')*'|`[^`]*`|\{[^{}]*\}|[A-Za-z_][A-Za-z0-9_]*|[(),]|[^\s'`{}A-Za-z_(),]+/gy;
/** Keywords that begin a clause of a SELECT: each starts a line. */
const CLAUSES = new Set(['SELECT', 'FROM', 'WHERE', 'GROUP BY', 'HAVING', 'ORDER BY', 'LIMIT', 'UNION ALL', 'LEFT JOIN', 'FORMAT']);

/**
 * SQL laid out for reading, changing nothing but whitespace: each clause on a line of its own, a subquery's clauses
 * indented inside its parentheses, the conditions of WHERE and HAVING one per line (AND at the clause's level).
 * Whitespace inside string literals and quoted names is kept.
 */
export function formatSql(sql: string): string {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < sql.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(sql);
    if (!match) {
      throw new Error(`formatSql: cannot read the SQL at ${at}: ${sql.slice(at, at + 40)}`);
    }
    tokens.push(match[0]);
  }
  const lines: string[] = [];
  let line = '';
  let space = false;
  /** Open parentheses: whether each holds a subquery, and the clause the subquery is in. */
  const stack: Array<{ subquery: boolean; clause: string }> = [{ subquery: true, clause: '' }];
  const depth = () => stack.filter((p) => p.subquery).length - 1;
  const startLine = (indent: number) => {
    if (line.trim() !== '') {
      lines.push(line.trimEnd());
    }
    line = ' '.repeat(indent);
    space = false;
  };
  const emit = (text: string) => {
    if (space && line.trim() !== '' && !line.endsWith('(') && text !== ')' && text !== ',') {
      line += ' ';
    }
    line += text;
    space = false;
  };
  const nextWord = (k: number) => tokens.slice(k + 1).find((t) => !/^\s/.test(t)) ?? '';
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k];
    const top = stack[stack.length - 1];
    if (/^\s/.test(token)) {
      space = true;
      continue;
    }
    const pair = `${token} ${nextWord(k)}`;
    const clause = CLAUSES.has(pair) ? pair : CLAUSES.has(token) ? token : undefined;
    if (top.subquery && clause) {
      startLine(2 * depth());
      top.clause = clause;
      emit(clause);
      if (clause !== token) {
        k = tokens.indexOf(nextWord(k), k + 1);
      }
      if (clause === 'UNION ALL') {
        startLine(2 * depth());
      }
      continue;
    }
    if (top.subquery && token === 'AND' && (top.clause === 'WHERE' || top.clause === 'HAVING')) {
      startLine(2 * depth() + 2);
      emit(token);
      continue;
    }
    if (token === '(') {
      const subquery = nextWord(k) === 'SELECT';
      emit(token);
      stack.push({ subquery, clause: '' });
      if (subquery) {
        startLine(2 * depth());
      }
      continue;
    }
    if (token === ')') {
      const closed = stack.pop();
      if (!closed || stack.length === 0) {
        throw new Error('formatSql: unbalanced parentheses');
      }
      if (closed.subquery) {
        startLine(2 * depth());
      }
      emit(token);
      continue;
    }
    emit(token);
  }
  if (stack.length !== 1) {
    throw new Error('formatSql: unbalanced parentheses');
  }
  startLine(0);
  const formatted = lines.flatMap((l) => wrapLine(l.trimStart(), l.length - l.trimStart().length)).join('\n');
  // Only whitespace changed: the same tokens in the same order.
  const words = (text: string) => (text.match(TOKEN) ?? []).filter((t) => !/^\s/.test(t)).join(' ');
  if (words(formatted) !== words(sql)) {
    throw new Error('formatSql changed more than whitespace');
  }
  return formatted;
}
