import type { Language } from '../api';
import { alertBox, appLink, el, formatNumber } from '../dom';
import { PRESETS, browserZone, writeFilters, type Filters, type Navigate, type View } from '../filters';

/**
 * The language select: "All languages", then the languages of the period (GET /search-stats `languages`, most searched
 * first) once they are known; the chosen one stays offered when the period has none of its searches.
 */
function languageSelect(f: Filters): { select: HTMLSelectElement; offer: (languages: Language[]) => void } {
  const select = el('select', { id: 'language', name: 'language' });
  const fill = (languages: Language[]) => {
    const chosen = select.options.length > 0 ? select.value : f.language;
    const options = [el('option', { value: '' }, 'All languages')];
    for (const { language, searches } of languages) {
      options.push(el('option', { value: language }, `${language} (${formatNumber(searches)} ${searches === 1 ? 'search' : 'searches'})`));
    }
    if (chosen && !languages.some((l) => l.language === chosen)) {
      options.push(el('option', { value: chosen }, `${chosen} (no searches in this period)`));
    }
    select.replaceChildren(...options);
    select.value = chosen;
  };
  fill([]);
  return { select, offer: fill };
}

/** The period select (the presets, a custom range and a period from the URL) and the custom range's dates. */
function periodFields(f: Filters): { period: HTMLSelectElement; from: HTMLInputElement; to: HTMLInputElement; custom: HTMLElement } {
  const period = el('select', { id: 'period', name: 'period' });
  for (const [value, label] of [...PRESETS, ['custom', 'Custom range']]) {
    period.append(el('option', { value, selected: value === f.period }, label));
  }
  const from = el('input', { id: 'from', name: 'from', type: 'date', value: f.from });
  if (!PRESETS.some(([value]) => value === f.period) && f.period !== 'custom') {
    period.append(el('option', { value: f.period, selected: true }, f.period));
  }
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
  return { period, from, to, custom };
}

/** The time zone input and the zones it suggests. */
function zoneFields(f: Filters): { tz: HTMLInputElement; zones: HTMLElement } {
  const zones = el('datalist', { id: 'zones' });
  for (const zone of (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? []) {
    zones.append(el('option', { value: zone }));
  }
  const tz = el('input', { id: 'tz', name: 'tz', list: 'zones', value: f.tz });
  return { tz, zones };
}

/** The filters form: period, time zone, language, bot traffic and instance; Apply goes to the first page. */
export function filtersForm(
  f: Filters,
  instances: readonly string[],
  navigate: Navigate,
): { form: HTMLElement; offerLanguages: (languages: Language[]) => void } {
  const { period, from, to, custom } = periodFields(f);
  const { tz, zones } = zoneFields(f);
  const { select: language, offer: offerLanguages } = languageSelect(f);
  const bots = el('input', { id: 'bots', name: 'bots', type: 'checkbox', checked: f.bots });
  const instance = el('select', { id: 'instance', name: 'instance' });
  for (const name of instances) {
    instance.append(el('option', { value: name, selected: name === (f.instance || instances[0]) }, name));
  }
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

/** The links to the views (the current one marked) and the sign-out button. */
export function nav(f: Filters, navigate: Navigate, signOut: HTMLElement): HTMLElement {
  const link = (view: View, label: string) => {
    const target = { ...f, view, page: 0 };
    return appLink(writeFilters(target), label, () => navigate(target), { 'aria-current': f.view === view ? 'page' : undefined });
  };
  return el(
    'nav',
    { 'aria-label': 'Views' },
    link('overview', 'Overview'),
    link('terms', 'Top terms'),
    link('zero', 'Zero-result terms'),
    link('noclicks', 'Searches without clicks'),
    link('breakdown', 'Breakdowns'),
    signOut,
  );
}
