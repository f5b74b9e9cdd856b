import { ApiError, request } from './api';
import { alertBox, el } from './dom';

/**
 * A table's CSV download: the API's CSV of the table's query (`path`, with format=csv), fetched with the signed-in
 * credential and saved as `name`. A plain link would not carry the credential, so the button fetches the file itself.
 */
async function download(
  path: string,
  instance: string,
  name: string,
  button: HTMLButtonElement,
  status: HTMLElement,
  signedOut: (err: ApiError) => void,
): Promise<void> {
  button.disabled = true;
  try {
    const res = await request(path, instance, 'text/csv');
    const url = URL.createObjectURL(await res.blob());
    const a = el('a', { href: url, download: name, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      return signedOut(err);
    }
    status.replaceChildren(alertBox(`The download failed: ${(err as Error).message}`));
  } finally {
    button.disabled = false;
  }
}

/** The "Download CSV" button of a table; a failed download is shown in `status`. */
export function csvButton(
  path: string,
  instance: string,
  name: () => string,
  status: HTMLElement,
  signedOut: (err: ApiError) => void,
): HTMLElement {
  const csv = el('button', { type: 'button', class: 'secondary' }, 'Download CSV');
  csv.addEventListener('click', () => void download(path, instance, name(), csv, status, signedOut));
  return csv;
}
