/**
 * The dashboard (docs/decisions/0015-the-dashboard.md): a single page on the analytics API, credentials in
 * sessionStorage only. This file holds the page's state, reads the route (the filters in the URL) and renders the
 * view it names; each view is a file of views/: sign-in, filters (and the view links), overview, term lists (top
 * terms, zero-result terms, searches without clicks), term detail, breakdowns (filters, countries, tags).
 */
import './style.css';
import { ApiError, credential, getJson, grant, signOut, type Instances, type Stats } from './api';
import { alertBox, el } from './dom';
import { apiWindow, readFilters, writeFilters, type Filters } from './filters';
import { breakdownView } from './views/breakdowns';
import { filtersForm, nav } from './views/filters';
import { overview } from './views/overview';
import { signInView } from './views/sign-in';
import { termView } from './views/term-detail';
import { termsView, type ListPage } from './views/term-lists';

const app = document.getElementById('app')!;
let instances: string[] = [];
/** Each render's number: an answer for an older render is dropped, never drawn over a newer page. */
let rendering = 0;

function navigate(f: Filters, replace = false): void {
  const url = `${location.pathname}${writeFilters(f)}`;
  if (replace) {
    history.replaceState(null, '', url);
  } else {
    history.pushState(null, '', url);
  }
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

function signOutButton(): HTMLElement {
  const out = el('button', { type: 'button', class: 'secondary' }, 'Sign out');
  out.addEventListener('click', () => {
    leave();
    void render();
  });
  return out;
}

function signedOut(err: ApiError): void {
  leave();
  app.replaceChildren(signInView(navigate, `Signed out: ${err.message}. Sign in again.`));
}

const listPage: ListPage = { navigate, defaultInstance: () => instances[0], signedOut };

/** The filters with an instance the credential may use: the first one when the URL names none or another. */
async function withInstance(f: Filters): Promise<Filters> {
  if (instances.length === 0) {
    const { body } = await getJson<Instances>('/instances');
    grant(body.permissions);
    instances = body.instances;
  }
  if (instances.includes(f.instance)) {
    return f;
  }
  // No instance, or one this credential may not use (an old or shared link): the first it may use.
  const chosen = { ...f, instance: instances[0] };
  history.replaceState(null, '', `${location.pathname}${writeFilters(chosen)}`);
  return chosen;
}

/** The view the filters name. */
function viewOf(f: Filters, filters: ReturnType<typeof filtersForm>): Promise<HTMLElement> {
  if (f.view === 'overview') {
    return overview(f, filters.offerLanguages, navigate);
  }
  if (f.view === 'term') {
    return termView(f, navigate);
  }
  if (f.view === 'breakdown') {
    return breakdownView(f, listPage);
  }
  return termsView(f, f.view, listPage);
}

/** The header (title, view links, filters) and the view the URL names, or the sign-in view without a credential. */
async function render(): Promise<void> {
  const mine = ++rendering;
  if (!credential()) {
    app.replaceChildren(signInView(navigate));
    document.getElementById('login')?.focus();
    return;
  }
  const content = el('div', { class: 'content', id: 'content', tabindex: '-1' }, el('p', {}, 'Loading…'));
  try {
    const f = await withInstance(readFilters());
    if (mine !== rendering) {
      return;
    }
    const filters = filtersForm(f, instances, navigate);
    app.replaceChildren(el('header', {}, el('h1', {}, 'Search analytics'), nav(f, navigate, signOutButton()), filters.form), content);
    // The languages of the period for the select: the overview's statistics carry them, other views ask for them.
    if (f.view !== 'overview') {
      getJson<Stats>(`/search-stats?${apiWindow(f)}`, f.instance).then(
        ({ body }) => mine === rendering && filters.offerLanguages(body.languages),
        () => undefined, // the view shows the error, if any; the select keeps the chosen language
      );
    }
    const view = await viewOf(f, filters);
    if (mine === rendering) {
      content.replaceChildren(view);
    }
  } catch (err) {
    if (mine !== rendering) {
      return;
    }
    if (err instanceof ApiError && err.status === 401) {
      return signedOut(err);
    }
    if (!app.contains(content)) {
      app.replaceChildren(el('header', {}, el('h1', {}, 'Search analytics'), signOutButton()), content);
    }
    content.replaceChildren(alertBox((err as Error).message));
  }
}

window.addEventListener('popstate', () => void render());
void render();
