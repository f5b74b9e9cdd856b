import { basic, request, signIn } from '../api';
import { alertBox, el } from '../dom';
import { readFilters, type Navigate } from '../filters';

/** Tries a credential (an Authorization value); shows why it failed in the status box. */
type Attempt = (authorization: string) => Promise<void>;

/** A sign-in form: its title, its labelled fields and its submit button; `submit` runs instead of a page load. */
function card(titleId: string, title: string, fields: Array<[string, HTMLElement]>, button: string, submit: () => void): HTMLElement {
  const form = el(
    'form',
    { class: 'card', 'aria-labelledby': titleId },
    el('h2', { id: titleId }, title),
    ...fields.flatMap(([label, control]) => [el('label', { for: control.id }, label), control]),
    el('button', { type: 'submit' }, button),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submit();
  });
  return form;
}

function basicForm(attempt: Attempt): HTMLElement {
  const login = el('input', { id: 'login', name: 'login', autocomplete: 'username', required: true });
  const password = el('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const fields: Array<[string, HTMLElement]> = [
    ['Login', login],
    ['Password', password],
  ];
  return card('basic-title', 'Sign in', fields, 'Sign in', () => void attempt(basic(login.value, password.value)));
}

function jwtForm(attempt: Attempt): HTMLElement {
  const token = el('textarea', { id: 'jwt', name: 'jwt', rows: '3', required: true });
  const bearer = () => `Bearer ${token.value.trim().replace(/^Bearer\s+/i, '')}`;
  return card('jwt-title', 'Or use a token', [['JWT', token]], 'Use token', () => void attempt(bearer()));
}

/**
 * The sign-in view: Basic credentials or a JWT, checked with GET /instances and then kept in sessionStorage; `message`
 * says why the user was signed out.
 */
export function signInView(navigate: Navigate, message?: string): HTMLElement {
  const status = el('div', { class: 'status' });
  if (message) {
    status.append(alertBox(message));
  }
  const attempt: Attempt = async (authorization) => {
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
  return el('section', { class: 'sign-in' }, el('h1', {}, 'Search analytics'), status, basicForm(attempt), jwtForm(attempt));
}
