/** The service's API as the dashboard uses it: the signed-in credential from sessionStorage, errors as ApiError. */

const CREDENTIAL_KEY = 'search-analytics.credential';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function credential(): string | null {
  return sessionStorage.getItem(CREDENTIAL_KEY);
}

export function signIn(authorization: string): void {
  sessionStorage.setItem(CREDENTIAL_KEY, authorization);
}

export function signOut(): void {
  sessionStorage.removeItem(CREDENTIAL_KEY);
}

export function basic(login: string, password: string): string {
  const bytes = new TextEncoder().encode(`${login}:${password}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/** The message of an error answer ({ statusCode, error, message }), readable. */
async function errorMessage(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { message?: string | string[] };
    const message = Array.isArray(body.message) ? body.message.join('; ') : body.message;
    if (res.status === 429) {
      const retry = res.headers.get('retry-after');
      return `Too many requests: ${message ?? 'slow down'}${retry ? ` (retry in ${retry} s)` : ''}`;
    }
    return message ?? `${res.status} ${res.statusText}`;
  } catch {
    return `${res.status} ${res.statusText}`;
  }
}

export async function request(path: string, instance?: string, accept = 'application/json', auth = credential()): Promise<Response> {
  const headers: Record<string, string> = { accept };
  if (auth) headers.authorization = auth;
  if (instance) headers['x-service-instance'] = instance;
  const res = await fetch(path, { headers });
  if (!res.ok) throw new ApiError(res.status, await errorMessage(res));
  return res;
}

export async function getJson<T>(path: string, instance?: string): Promise<{ body: T; total?: number; updatedAt?: string }> {
  const res = await request(path, instance);
  const total = res.headers.get('x-total-count');
  return {
    body: (await res.json()) as T,
    total: total === null ? undefined : Number(total),
    updatedAt: res.headers.get('x-data-updated-at') ?? undefined,
  };
}

export interface Term {
  id: string;
  search_phrase: string;
  count: number;
  previous_count?: number;
  change?: number | null;
  status: { handled: boolean; handlers: Array<{ type: string; id: string }> } | null;
}

export interface Totals {
  searches: number;
  zero_hit_searches: number;
  zero_hit_rate: number;
  distinct_terms: number;
}

export interface Stats {
  from: string;
  to: string;
  interval: 'hour' | 'day';
  totals: Totals;
  series: Array<{ start: string; searches: number; zero_hit_searches: number; zero_hit_rate: number }>;
  previous?: Totals;
}

export interface TermDetail {
  id: string;
  search_phrase: string;
  count: number;
  zero_hit_count: number;
  series: Array<{ start: string; count: number; zero_hit_count: number }>;
  variants: Array<{ phrase: string; count: number }>;
  status: { handled: boolean; handlers: Array<{ type: string; id: string }> };
}
