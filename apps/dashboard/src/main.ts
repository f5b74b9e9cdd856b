/**
 * The dashboard (docs/decisions.md, issue 15): a single page on the analytics API, credentials in sessionStorage only.
 * Views: sign-in, overview, top terms, zero-result terms, a term's detail; the filters live in the URL.
 */
import './style.css';
import {
  ApiError,
  basic,
  credential,
  getJson,
  request,
  signIn,
  signOut,
  type Instances,
  type Stats,
  type Term,
  type TermDetail,
} from './api';
import { bucketStates, intervalOf, timeChart } from './chart';
import {
  el,
  formatChange,
  formatGrowth,
  formatMoment,
  formatNumber,
  formatPointChange,
  formatRate,
  formatTermChange,
  isoDayIn,
  scrollBox,
} from './dom';
import {
  PAGE_SIZE,
  PRESETS,
  apiWindow,
  browserZone,
  csvFileName,
  readFilters,
  windowOf,
  writeFilters,
  type Filters,
  type View,
} from './filters';

const app = document.getElementById('app')!;
let instances: string[] = [];
/** Each render's number: an answer for an older render is dropped, never drawn over a newer page. */
let rendering = 0;

function navigate(f: Filters, replace = false): void {
  const url = `${location.pathname}${writeFilters(f)}`;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  const focused = document.activeElement?.id;
  void render().then(() => {
    // Keyboard users keep their place: the control they used, when the new page has it.
    const again = focused ? document.getElementById(focused) : null;
    (again ?? document.getElementById('content'))?.focus();
  });
}

function leave(): void {
  signOut();
  instances = [];
}

function alertBox(message: string): HTMLElement {
  return el('p', { role: 'alert', class: 'alert' }, message);
}

// ---- sign-in ----

function signInView(message?: string): HTMLElement {
  const login = el('input', { id: 'login', name: 'login', autocomplete: 'username', required: true });
  const password = el('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const token = el('textarea', { id: 'jwt', name: 'jwt', rows: '3', required: true });
  const status = el('div', { class: 'status' });
  if (message) status.append(alertBox(message));
  const attempt = async (authorization: string) => {
    status.replaceChildren();
    try {
      await request('/instances', undefined, 'application/json', authorization);
      signIn(authorization);
      navigate(readFilters(), true);
    } catch (err) {
      // The service's message names the rule that failed (wrong Basic credentials, an expired token, ...).
      status.append(alertBox(`Sign-in failed: ${(err as Error).message}.`));
    }
  };
  const basicForm = el(
    'form',
    { class: 'card', 'aria-labelledby': 'basic-title' },
    el('h2', { id: 'basic-title' }, 'Sign in'),
    el('label', { for: 'login' }, 'Login'),
    login,
    el('label', { for: 'password' }, 'Password'),
    password,
    el('button', { type: 'submit' }, 'Sign in'),
  );
  basicForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(basic(login.value, password.value));
  });
  const jwtForm = el(
    'form',
    { class: 'card', 'aria-labelledby': 'jwt-title' },
    el('h2', { id: 'jwt-title' }, 'Or use a token'),
    el('label', { for: 'jwt' }, 'JWT'),
    token,
    el('button', { type: 'submit' }, 'Use token'),
  );
  jwtForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void attempt(`Bearer ${token.value.trim().replace(/^Bearer\s+/i, '')}`);
  });
  return el('section', { class: 'sign-in' }, el('h1', {}, 'Search analytics'), status, basicForm, jwtForm);
}

// ---- filters and navigation ----

type Language = Stats['languages'][number];

/**
 * The language select: "All languages", then the languages of the period (GET /search-stats `languages`, most searched
 * first) once they are known; the chosen one stays offered when the period has none of its searches.
 */
function languageSelect(f: Filters): { select: HTMLSelectElement; offer: (languages: Language[]) => void } {
  const select = el('select', { id: 'language', name: 'language' });
  const fill = (languages: Language[]) => {
    const chosen = select.options.length > 0 ? select.value : f.language;
    const options = [el('option', { value: '' }, 'All languages')];
    for (const { language, searches } of languages)
      options.push(el('option', { value: language }, `${language} (${formatNumber(searches)} ${searches === 1 ? 'search' : 'searches'})`));
    if (chosen && !languages.some((l) => l.language === chosen))
      options.push(el('option', { value: chosen }, `${chosen} (no searches in this period)`));
    select.replaceChildren(...options);
    select.value = chosen;
  };
  fill([]);
  return { select, offer: fill };
}

function filtersForm(f: Filters): { form: HTMLElement; offerLanguages: (languages: Language[]) => void } {
  const period = el('select', { id: 'period', name: 'period' });
  for (const [value, label] of [...PRESETS, ['custom', 'Custom range']])
    period.append(el('option', { value, selected: value === f.period }, label));
  const from = el('input', { id: 'from', name: 'from', type: 'date', value: f.from });
  if (!PRESETS.some(([value]) => value === f.period) && f.period !== 'custom')
    period.append(el('option', { value: f.period, selected: true }, f.period));
  const to = el('input', { id: 'to', name: 'to', type: 'date', value: f.to });
  const custom = el(
    'div',
    { class: 'custom', hidden: f.period !== 'custom' },
    el('label', { for: 'from' }, 'From'),
    from,
    el('label', { for: 'to' }, 'To (exclusive)'),
    to,
  );
  period.addEventListener('change', () => (custom.hidden = period.value !== 'custom'));
  const zones = el('datalist', { id: 'zones' });
  for (const zone of (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [])
    zones.append(el('option', { value: zone }));
  const tz = el('input', { id: 'tz', name: 'tz', list: 'zones', value: f.tz });
  const { select: language, offer: offerLanguages } = languageSelect(f);
  const bots = el('input', { id: 'bots', name: 'bots', type: 'checkbox', checked: f.bots });
  const instance = el('select', { id: 'instance', name: 'instance' });
  for (const name of instances) instance.append(el('option', { value: name, selected: name === (f.instance || instances[0]) }, name));
  const form = el(
    'form',
    { class: 'filters', 'aria-label': 'Filters' },
    el('div', {}, el('label', { for: 'period' }, 'Period'), period),
    custom,
    el('div', {}, el('label', { for: 'tz' }, 'Time zone'), tz, zones),
    el('div', {}, el('label', { for: 'language' }, 'Language'), language),
    el('div', { class: 'check' }, bots, el('label', { for: 'bots' }, 'Include bot traffic')),
    el('div', {}, el('label', { for: 'instance' }, 'Instance'), instance),
    el('button', { type: 'submit' }, 'Apply'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (period.value === 'custom' && (!from.value || !to.value)) {
      form.append(alertBox('Choose both dates of the custom range.'));
      return;
    }
    navigate({
      ...f,
      period: period.value,
      from: from.value,
      to: to.value,
      tz: tz.value.trim() || browserZone(),
      language: language.value,
      bots: bots.checked,
      instance: instance.value,
      page: 0,
    });
  });
  return { form, offerLanguages };
}

function nav(f: Filters): HTMLElement {
  const link = (view: View, label: string) => {
    const target = { ...f, view, page: 0 };
    const a = el('a', { href: writeFilters(target), 'aria-current': f.view === view ? 'page' : undefined }, label);
    a.addEventListener('click', (e) => {
      e.preventDefault();
      navigate(target);
    });
    return a;
  };
  const out = el('button', { type: 'button', class: 'secondary' }, 'Sign out');
  out.addEventListener('click', () => {
    leave();
    void render();
  });
  return el(
    'nav',
    { 'aria-label': 'Views' },
    link('overview', 'Overview'),
    link('terms', 'Top terms'),
    link('zero', 'Zero-result terms'),
    out,
  );
}

// ---- views ----

function termLink(f: Filters, t: { id: string; search_phrase: string }): HTMLElement {
  const target = { ...f, view: 'term' as const, id: t.id, page: 0 };
  const a = el('a', { href: writeFilters(target) }, t.search_phrase);
  a.addEventListener('click', (e) => {
    e.preventDefault();
    navigate(target);
  });
  return a;
}

const handlerText = (h: { type: string; id: string }) => `${h.type}: ${h.id}`;

function handlersText(t: { status: Term['status'] }): string {
  if (!t.status) return '';
  return t.status.handled ? t.status.handlers.map(handlerText).join(', ') : 'unhandled';
}

/** What a list's count counts: the top terms count searches that found results, the zero-result terms the others. */
const countLabel = (zero: boolean) => (zero ? 'Searches without results' : 'Searches with results');
const COUNTS_NOTE =
  'Top terms count the searches that found results, zero-result terms those that found none; ' +
  "a term's page shows all its searches and both parts.";

/** A table in a box of its own that scrolls sideways on a narrow screen (the page never does). */
/** The terms, by count (most searched first) or, with compare, by growth: count - previous count, largest first. */
function termsTable(f: Filters, caption: string, terms: Term[], zero: boolean, compare: boolean): HTMLElement {
  if (terms.length === 0) return el('p', { class: 'empty' }, `${caption}: none in this period.`);
  const count = countLabel(zero);
  const head = ['Term', count, ...(compare ? ['Previous period', 'Growth', 'Change'] : []), ...(zero ? ['Handled by'] : [])];
  const numeric = new Set([count, 'Previous period', 'Growth', 'Change']);
  const sorted = compare ? 'Growth' : count;
  const title = compare ? `${caption}, largest growth in searches first` : caption;
  const table = el(
    'table',
    {},
    el('caption', {}, title),
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...head.map((h) =>
          el('th', { scope: 'col', class: numeric.has(h) ? 'num' : undefined, 'aria-sort': h === sorted ? 'descending' : undefined }, h),
        ),
      ),
    ),
    el(
      'tbody',
      {},
      ...terms.map((t) =>
        el(
          'tr',
          {},
          el('td', {}, termLink(f, t)),
          el('td', { class: 'num' }, formatNumber(t.count)),
          ...(compare
            ? [
                el('td', { class: 'num' }, formatNumber(t.previous_count ?? 0)),
                el('td', { class: 'num' }, formatGrowth(t.count - (t.previous_count ?? 0))),
                el('td', { class: 'num' }, formatTermChange(t.change)),
              ]
            : []),
          ...(zero ? [el('td', {}, handlersText(t))] : []),
        ),
      ),
    ),
  );
  return scrollBox(table, title);
}

function kpi(label: string, value: string, change: string): HTMLElement {
  return el('div', { class: 'kpi' }, el('h3', {}, label), el('p', { class: 'value' }, value), el('p', { class: 'change' }, change));
}

async function overview(f: Filters, offerLanguages: (languages: Language[]) => void): Promise<HTMLElement> {
  const window = apiWindow(f);
  const { body: stats, updatedAt } = await getJson<Stats>(`/search-stats?${window}&compare=previous`, f.instance);
  offerLanguages(stats.languages);
  const section = el('section', { 'aria-labelledby': 'overview-title' }, el('h2', { id: 'overview-title' }, 'Overview'));
  if (stats.totals.searches === 0) {
    section.append(el('p', { class: 'empty' }, 'No searches in this period. Choose a longer period or another instance.'));
    return section;
  }
  const { totals } = stats;
  // A period reaching past the current hour (a custom range ending in the future) has hours still to come: its totals
  // would be compared with a whole previous period and show a drop that is only time not yet passed.
  const unfinished = Date.parse(stats.to) > Date.now() + 3_600_000;
  const previous = unfinished ? undefined : stats.previous;
  if (updatedAt) section.append(el('p', { class: 'updated' }, `Newest search counted: ${formatMoment(Date.parse(updatedAt), f.tz)}`));
  const starts = stats.series.map((b) => Date.parse(b.start));
  const states = bucketStates(starts, stats.interval, f.tz, { from: Date.parse(stats.from), to: Date.parse(stats.to) }, Date.now());
  section.append(
    el(
      'div',
      { class: 'kpis' },
      kpi('Searches (all)', formatNumber(totals.searches), formatChange(totals.searches, previous?.searches)),
      kpi('Zero-hit rate', formatRate(totals.zero_hit_rate), formatPointChange(totals.zero_hit_rate, previous?.zero_hit_rate)),
      kpi('Distinct terms', formatNumber(totals.distinct_terms), formatChange(totals.distinct_terms, previous?.distinct_terms)),
    ),
    ...(unfinished
      ? [el('p', { class: 'partial-period' }, 'The period has not ended yet: its totals are not compared with the previous period.')]
      : []),
    timeChart(
      `All searches and zero-hit rate per ${stats.interval}`,
      stats.series.map((b) => b.start),
      [
        { label: 'Searches (all)', values: stats.series.map((b) => b.searches), format: formatNumber, color: '#1f5fa8' },
        {
          label: 'Zero-hit rate',
          values: stats.series.map((b) => (b.searches === 0 ? null : b.zero_hit_rate)),
          format: formatRate,
          color: '#c0392b',
          right: true,
        },
      ],
      { tz: f.tz, interval: stats.interval, states },
    ),
  );
  const [top, zero] = await Promise.all([
    getJson<Term[]>(`/search-terms?${window}&_end=10`, f.instance),
    getJson<Term[]>(`/search-terms?${window}&hits=false&_end=10`, f.instance),
  ]);
  section.append(
    el(
      'div',
      { class: 'side-by-side' },
      termsTable(f, 'Top terms', top.body, false, false),
      termsTable(f, 'Zero-result terms', zero.body, true, false),
    ),
    el('p', { class: 'hint' }, COUNTS_NOTE),
  );
  return section;
}

function listQuery(f: Filters, zero: boolean): URLSearchParams {
  const q = apiWindow(f);
  if (zero) q.set('hits', 'false');
  if (zero && f.unhandled) q.set('handled', 'false');
  if (f.sort === 'rising') q.set('sort', 'rising');
  return q;
}

async function download(f: Filters, zero: boolean, button: HTMLButtonElement, status: HTMLElement): Promise<void> {
  button.disabled = true;
  try {
    const res = await request(`/search-terms?${listQuery(f, zero)}&format=csv`, f.instance, 'text/csv');
    const url = URL.createObjectURL(await res.blob());
    const name = csvFileName(f, zero, instances[0], (ms) => isoDayIn(ms, f.tz));
    const a = el('a', { href: url, download: name, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return signedOut(err);
    status.replaceChildren(alertBox(`The download failed: ${(err as Error).message}`));
  } finally {
    button.disabled = false;
  }
}

async function termsView(f: Filters, zero: boolean): Promise<HTMLElement> {
  const title = zero ? 'Zero-result terms' : 'Top terms';
  const start = f.page * PAGE_SIZE;
  const { body, total = 0 } = await getJson<Term[]>(
    `/search-terms?${listQuery(f, zero)}&_start=${start}&_end=${start + PAGE_SIZE}`,
    f.instance,
  );
  if (start > 0 && start >= total) {
    // A page past the end (an old link): the last page instead.
    navigate({ ...f, page: Math.max(0, Math.ceil(total / PAGE_SIZE) - 1) }, true);
    return el('p', {}, 'Loading…');
  }
  const sort = el(
    'select',
    { id: 'sort' },
    el('option', { value: 'count', selected: f.sort === 'count' }, 'Most searched'),
    el('option', { value: 'rising', selected: f.sort === 'rising' }, 'Rising: growth vs previous period'),
  );
  sort.addEventListener('change', () => navigate({ ...f, sort: sort.value === 'rising' ? 'rising' : 'count', page: 0 }));
  const controls = el('div', { class: 'controls' }, el('label', { for: 'sort' }, 'Sort by'), sort);
  if (zero) {
    const unhandled = el('input', { id: 'unhandled', type: 'checkbox', checked: f.unhandled });
    unhandled.addEventListener('change', () => navigate({ ...f, unhandled: unhandled.checked, page: 0 }));
    controls.append(el('span', { class: 'check' }, unhandled, el('label', { for: 'unhandled' }, 'Unhandled only')));
  }
  const status = el('div');
  const csv = el('button', { type: 'button', class: 'secondary' }, 'Download CSV');
  csv.addEventListener('click', () => void download(f, zero, csv, status));
  controls.append(csv);
  const pager = el('div', { class: 'pager' });
  const prev = el('button', { type: 'button', disabled: f.page === 0 }, 'Previous page');
  const next = el('button', { type: 'button', disabled: start + PAGE_SIZE >= total }, 'Next page');
  prev.addEventListener('click', () => navigate({ ...f, page: f.page - 1 }));
  next.addEventListener('click', () => navigate({ ...f, page: f.page + 1 }));
  pager.append(
    prev,
    el(
      'span',
      { class: 'range' },
      total === 0 ? 'No terms' : `${formatNumber(start + 1)}–${formatNumber(Math.min(start + PAGE_SIZE, total))} of ${formatNumber(total)}`,
    ),
    next,
  );
  return el(
    'section',
    { 'aria-labelledby': 'list-title' },
    el('h2', { id: 'list-title' }, title),
    controls,
    status,
    el('p', { class: 'hint' }, COUNTS_NOTE),
    termsTable(f, title, body, zero, f.sort === 'rising'),
    pager,
  );
}

async function termView(f: Filters): Promise<HTMLElement> {
  let t: TermDetail;
  try {
    t = (await getJson<TermDetail>(`/search-terms/${encodeURIComponent(f.id)}?${apiWindow(f)}`, f.instance)).body;
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
    return el('p', { class: 'empty' }, 'This term was not searched in this period. Choose a longer period.');
  }
  const starts = t.series.map((b) => Date.parse(b.start));
  const interval = intervalOf(starts);
  const states = bucketStates(starts, interval, f.tz, windowOf(f, Date.now()), Date.now());
  const spellings = el(
    'table',
    {},
    el('caption', {}, 'Original spellings'),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'As typed'), el('th', { scope: 'col', class: 'num' }, 'Searches (all)'))),
    el(
      'tbody',
      {},
      ...t.variants.map((v) => el('tr', {}, el('td', {}, el('code', {}, v.phrase)), el('td', { class: 'num' }, formatNumber(v.count)))),
    ),
  );
  const handlers = t.status.handled
    ? el('ul', {}, ...t.status.handlers.map((h) => el('li', {}, handlerText(h))))
    : el('p', {}, 'No entity handles this term.');
  return el(
    'section',
    { 'aria-labelledby': 'term-title' },
    el('h2', { id: 'term-title' }, `“${t.search_phrase}”`),
    el(
      'div',
      { class: 'kpis' },
      kpi('All searches', formatNumber(t.count), 'with results or not'),
      kpi('With results', formatNumber(t.count - t.zero_hit_count), 'as counted in the top terms'),
      kpi('Without results', formatNumber(t.zero_hit_count), t.count ? `${formatRate(t.zero_hit_count / t.count)} of all` : ''),
    ),
    timeChart(
      'Searches of the term over time',
      t.series.map((b) => b.start),
      [
        { label: 'All searches', values: t.series.map((b) => b.count), format: formatNumber, color: '#1f5fa8' },
        { label: 'Without results', values: t.series.map((b) => b.zero_hit_count), format: formatNumber, color: '#c0392b' },
      ],
      { tz: f.tz, interval, states },
    ),
    scrollBox(spellings, 'Original spellings'),
    el('h3', {}, 'Handled by'),
    handlers,
  );
}

// ---- the page ----

function signedOut(err: ApiError): void {
  leave();
  app.replaceChildren(signInView(`Signed out: ${err.message}. Sign in again.`));
}

async function render(): Promise<void> {
  const mine = ++rendering;
  if (!credential()) {
    app.replaceChildren(signInView());
    document.getElementById('login')?.focus();
    return;
  }
  let f = readFilters();
  const content = el('div', { class: 'content', id: 'content', tabindex: '-1' }, el('p', {}, 'Loading…'));
  try {
    if (instances.length === 0) instances = (await getJson<Instances>('/instances')).body.instances;
    if (!instances.includes(f.instance)) {
      // No instance, or one this credential may not use (an old or shared link): the first it may use.
      f = { ...f, instance: instances[0] };
      history.replaceState(null, '', `${location.pathname}${writeFilters(f)}`);
    }
    if (mine !== rendering) return;
    const filters = filtersForm(f);
    app.replaceChildren(el('header', {}, el('h1', {}, 'Search analytics'), nav(f), filters.form), content);
    // The languages of the period for the select: the overview's statistics carry them, other views ask for them.
    if (f.view !== 'overview')
      getJson<Stats>(`/search-stats?${apiWindow(f)}`, f.instance).then(
        ({ body }) => mine === rendering && filters.offerLanguages(body.languages),
        () => undefined, // the view shows the error, if any; the select keeps the chosen language
      );
    const view =
      f.view === 'overview'
        ? await overview(f, filters.offerLanguages)
        : f.view === 'term'
          ? await termView(f)
          : await termsView(f, f.view === 'zero');
    if (mine === rendering) content.replaceChildren(view);
  } catch (err) {
    if (mine !== rendering) return;
    if (err instanceof ApiError && err.status === 401) return signedOut(err);
    if (!app.contains(content)) {
      const out = el('button', { type: 'button', class: 'secondary' }, 'Sign out');
      out.addEventListener('click', () => {
        leave();
        void render();
      });
      app.replaceChildren(el('header', {}, el('h1', {}, 'Search analytics'), out), content);
    }
    content.replaceChildren(alertBox((err as Error).message));
  }
}

window.addEventListener('popstate', () => void render());
void render();
