/**
 * Acting on a zero-result term (docs/decisions/0062-if-match-on-entities.md): the `Handle` button opens a
 * form that writes an entity listing the term (PUT /entities/:type/:id: read, merge, write back with If-Match, so a
 * change made meanwhile is never overwritten); a handler's name opens a view of its entity.
 */
import type { components } from '../../../docs/client/api';
import { ENTITY_TYPES } from '../../../libs/contracts/src/entity-types';
import { normalisePhrase } from '../../../libs/contracts/src/normalise-phrase';
import { ApiError, getJson, may, request, send } from './api';
import { alertBox, el, formatMoment, formatNumber } from './dom';
import { apiWindow, type Filters } from './filters';

type Entity = components['schemas']['EntityView'];
type Suggestions = components['schemas']['SuggestionsView'];

/** The entity types offered, `synonym` (the usual fix of a misspelt term) first. */
const TYPES = ['synonym', ...ENTITY_TYPES.filter((t) => t !== 'synonym')];

/** A term to handle: its id, its phrase and the languages it found nothing in that no entity handles. */
export interface UnhandledTerm {
  id: string;
  search_phrase: string;
  languages: string[];
}

/** What the form writes: the entity, the language it handles ('' for all) and the suggestion chosen ('' for none). */
interface Choice {
  type: string;
  id: string;
  language: string;
  suggestion: string;
}

export const handlerText = (h: { type: string; id: string }) => `${h.type}: ${h.id}`;

/** A modal dialog titled `title`, removed when closed (focus goes back to `opener`). */
function modal(title: string, opener: HTMLElement, ...content: HTMLElement[]): HTMLDialogElement {
  const dialog = el('dialog', { class: 'modal', 'aria-labelledby': 'modal-title' }, el('h2', { id: 'modal-title' }, title), ...content);
  dialog.addEventListener('close', () => {
    dialog.remove();
    opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

/** An entity id made of the phrase: letters and digits kept (accents dropped), the rest a hyphen. */
function idOf(phrase: string): string {
  const ascii = phrase.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return ascii
    .replace(/[^A-Za-z0-9._:]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200);
}

/** An entity as read, with its ETag; undefined when there is none (404). */
type Current = { entity: Entity; etag: string } | undefined;

const pathOf = (type: string, id: string) => `/entities/${type}/${encodeURIComponent(id)}`;

async function read(path: string, instance: string): Promise<Current> {
  try {
    const res = await request(path, instance);
    const etag = res.headers.get('etag');
    if (!etag) {
      throw new Error('the service answered the entity without an ETag');
    }
    return { entity: (await res.json()) as Entity, etag };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      return undefined;
    }
    throw err;
  }
}

/** What the form says of the entity it would write. */
function entityNote(type: string, current: Current): string {
  if (!current) {
    return `No ${type} with this id yet: Save creates it.`;
  }
  const { searchPhrases, language } = current.entity;
  const phrases = searchPhrases.length > 0 ? searchPhrases.map((p) => `“${p}”`).join(', ') : 'no phrases';
  return `This ${type} exists: it lists ${phrases}, for ${language ? `${language} only` : 'all languages'}. Save adds the term.`;
}

/**
 * Writes the entity of `choice` so that it lists `phrase`: a new one (If-None-Match: *), or `current` (as the form
 * read it) with the phrase added, its data and language kept and the suggestion set, with If-Match: its ETag. An
 * entity of another language is not changed: the answer is why. Errors as ApiError (412: changed since it was read).
 */
async function write(instance: string, choice: Choice, phrase: string, current: Current): Promise<string | undefined> {
  const path = pathOf(choice.type, choice.id);
  const language = choice.language ? { language: choice.language } : {};
  const suggestion = choice.suggestion ? { suggestion: choice.suggestion } : {};
  if (!current) {
    await send('PUT', path, instance, { searchPhrases: [phrase], ...language, data: suggestion }, { 'If-None-Match': '*' });
    return undefined;
  }
  const { entity, etag } = current;
  if (entity.language !== null && entity.language !== choice.language) {
    const chosen = choice.language ? `not ${choice.language}` : 'not all languages';
    const what = `The ${choice.type} ${choice.id}`;
    return `${what} handles ${entity.language} only, ${chosen}: it was not changed. Choose another entity id.`;
  }
  const listed = entity.searchPhrases.some((p) => normalisePhrase(p) === normalisePhrase(phrase));
  const body = {
    searchPhrases: listed ? entity.searchPhrases : [...entity.searchPhrases, phrase],
    ...(entity.language === null ? {} : { language: entity.language }),
    data: { ...entity.data, ...suggestion },
  };
  await send('PUT', path, instance, body, { 'If-Match': etag });
  return undefined;
}

/** A labelled control: the label, then the control. */
const field = (label: string, control: HTMLElement) => el('div', { class: 'field' }, el('label', { for: control.id }, label), control);

/** The suggestions as radio buttons (and `None`), filled in once read. */
function suggestionsField(f: Filters, term: UnhandledTerm): { fieldset: HTMLElement; chosen: () => string } {
  const radio = (n: number, value: string, label: string, checked = false) =>
    el(
      'div',
      { class: 'check' },
      el('input', { type: 'radio', name: 'suggestion', id: `handle-suggestion-${n}`, value, checked }),
      el('label', { for: `handle-suggestion-${n}` }, label),
    );
  const note = el('p', { class: 'hint' }, 'Reading the suggestions…');
  const fieldset = el('fieldset', {}, el('legend', {}, 'Suggestion'), radio(0, '', 'None', true), note);
  getJson<Suggestions>(`/search-terms/${encodeURIComponent(term.id)}/suggestions?${apiWindow(f)}`, f.instance).then(
    ({ body }) => {
      const found = body.suggestions.map((s, i) => radio(i + 1, s.search_phrase, `${s.search_phrase} (${formatNumber(s.count)} searches)`));
      note.replaceWith(...(found.length > 0 ? found : [el('p', { class: 'hint' }, 'No close term found results in this period.')]));
    },
    (err: Error) => note.replaceWith(el('p', { class: 'hint' }, `The suggestions could not be read: ${err.message}`)),
  );
  const chosen = () => fieldset.querySelector<HTMLInputElement>('input[name=suggestion]:checked')?.value ?? '';
  return { fieldset, chosen };
}

/**
 * The form of the Handle button. It reads the entity when it opens and when its type or id changes, says what it
 * found, and writes what it read merged (so a change made meanwhile is a 412, never overwritten; the entity is then
 * read again). `saved` runs once the entity is written (the view reloads and shows the handler).
 */
function handleForm(f: Filters, term: UnhandledTerm, saved: () => void, opener: HTMLElement): void {
  const type = el('select', { id: 'handle-type' }, ...TYPES.map((t) => el('option', { value: t }, t)));
  const id = el('input', { id: 'handle-id', required: true, autocomplete: 'off', value: idOf(term.search_phrase) });
  const languages = term.languages.filter((l) => l !== '');
  const language = el(
    'select',
    { id: 'handle-language' },
    el('option', { value: '' }, 'All languages'),
    ...languages.map((l) => el('option', { value: l }, l)),
  );
  const note = el('p', { class: 'hint', id: 'handle-entity', 'aria-live': 'polite' });
  let readPath = '';
  let reading: Promise<Current> = Promise.resolve(undefined);
  /** The entity of the type and id chosen, read once per choice (`again`: read anew). */
  const current = (again = false): Promise<Current> => {
    const path = pathOf(type.value, id.value.trim());
    if (!id.value.trim()) {
      note.replaceChildren('Enter an entity id.');
    } else if (again || path !== readPath) {
      readPath = path;
      const mine = (reading = read(path, f.instance));
      mine.then(
        (c) => mine === reading && note.replaceChildren(entityNote(type.value, c)),
        (err: Error) => mine === reading && note.replaceChildren(`It cannot be read: ${err.message}`),
      );
    }
    return reading;
  };
  type.addEventListener('change', () => void current());
  id.addEventListener('change', () => void current());
  const suggestions = suggestionsField(f, term);
  const status = el('div', { class: 'status' });
  const save = el('button', { type: 'submit' }, 'Save');
  const cancel = el('button', { type: 'button', class: 'secondary' }, 'Cancel');
  const form = el(
    'form',
    { class: 'handle' },
    el('p', { class: 'hint' }, 'Saves an entity that lists the term in its search phrases; its webhook is called as for every save.'),
    field('Entity type', type),
    field('Entity id', id),
    note,
    field('Language', language),
    suggestions.fieldset,
    status,
    el('div', { class: 'controls' }, save, cancel),
  );
  const dialog = modal(`Handle “${term.search_phrase}”`, opener, form);
  void current();
  cancel.addEventListener('click', () => dialog.close());
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const choice = { type: type.value, id: id.value.trim(), language: language.value, suggestion: suggestions.chosen() };
    save.disabled = true;
    status.replaceChildren();
    current()
      .then((c) => write(f.instance, choice, term.search_phrase, c))
      .then(
        (refused) => {
          save.disabled = false;
          if (refused) {
            status.append(alertBox(refused));
            return;
          }
          dialog.close();
          saved();
        },
        (err: Error) => {
          save.disabled = false;
          if (!(err instanceof ApiError && err.status === 412)) {
            status.append(alertBox(`Not saved: ${err.message}`));
            return;
          }
          void current(true);
          status.append(
            alertBox(
              `The ${choice.type} ${choice.id} was changed by someone else after this form read it: nothing was overwritten. ` +
                'It was read again: Save adds the term to its new state.',
            ),
          );
        },
      );
  });
}

/** The Handle button of an unhandled zero-result term; null when the credential may not write entities. */
export function handleButton(f: Filters, term: UnhandledTerm, saved: () => void): HTMLElement | null {
  if (!may('entities:write')) {
    return null;
  }
  const button = el('button', { type: 'button', class: 'secondary' }, 'Handle');
  button.addEventListener('click', () => handleForm(f, term, saved, button));
  return button;
}

/** An entity as read: its language, phrases, suggestion, data and when it was saved. */
function entityFigures(f: Filters, e: Entity): HTMLElement {
  const rows: Array<[string, Node | string]> = [
    ['Language', e.language ?? 'All languages'],
    ['Search phrases', e.searchPhrases.join(', ') || '(none)'],
    ['Suggestion', typeof e.data.suggestion === 'string' ? e.data.suggestion : '(none)'],
    ['Data', el('code', {}, JSON.stringify(e.data, null, 2))],
    ['Saved', formatMoment(Date.parse(e.updatedAt), f.tz)],
  ];
  return el('dl', { class: 'entity' }, ...rows.map(([name, value]) => el('div', {}, el('dt', {}, name), el('dd', {}, value))));
}

/** A handler's name, which opens a view of its entity (plain text when the credential may not read entities). */
export function handlerLink(f: Filters, h: { type: string; id: string }): HTMLElement | string {
  if (!may('entities:read')) {
    return handlerText(h);
  }
  const link = el('button', { type: 'button', class: 'link' }, handlerText(h));
  link.addEventListener('click', () => {
    const body = el('div', {}, el('p', {}, 'Reading…'));
    const close = el('button', { type: 'button', class: 'secondary' }, 'Close');
    const dialog = modal(handlerText(h), link, body, close);
    close.addEventListener('click', () => dialog.close());
    getJson<Entity>(pathOf(h.type, h.id), f.instance).then(
      ({ body: entity }) => body.replaceChildren(entityFigures(f, entity)),
      (err: Error) => body.replaceChildren(alertBox(err.message)),
    );
  });
  return link;
}
