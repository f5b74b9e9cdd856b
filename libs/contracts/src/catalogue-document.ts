import { chDateTime } from './ch-time';
import { itemTenant } from './item-tenant';
import { LANGUAGE_PATTERN } from './names';
import type { EventSource, ItemOrigin } from './item-origin';
import { echoedName, textProblem } from './text';

/** The ranking-mix boost fields, in the order the check answers them. */
export const BOOST_FIELDS = ['new', 'sold', 'basket', 'view', 'revenue', 'rating', 'profit_margin'] as const;
export type BoostField = (typeof BOOST_FIELDS)[number];

export const MAX_DOCUMENTS_PER_REQUEST = 10_000;
const ID = /^\S{1,500}$/;
const FIELDS = new Set<string>(['customer', 'instance', 'id', 'language', 'deleted', ...BOOST_FIELDS]);

/** A row of `documents`: the latest version of (customer, instance, id, language) is the document. */
export type DocumentRow = {
  customer: string;
  instance: string;
  id: string;
  language: string;
  version: string;
  deleted: boolean;
  source: EventSource;
  topic: string;
  partition: number;
  offset: number;
  received_at: string;
} & Record<BoostField, number | null>;

export interface DocumentContext extends ItemOrigin {
  /** A monotonic version (docs/decisions/0006-catalogue-documents-and-the-ranking-mix-check.md): never wall-clock ties. */
  version: string;
}

export type ValidatedDocument = { ok: true; row: DocumentRow } | { ok: false; reason: string };

/**
 * Validates one catalogue document. A boost field is a finite number or null/missing ("no data"); anything
 * else (a string, NaN written as a string, a boolean) is rejected with a reason naming the field.
 */
export function validateDocument(input: unknown, ctx: DocumentContext): ValidatedDocument {
  const fail = (reason: string): ValidatedDocument => ({ ok: false, reason });
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail('document must be a JSON object');
  }
  const d = input as Record<string, unknown>;
  const unknown = Object.keys(d).find((k) => !FIELDS.has(k));
  if (unknown) {
    return fail(`unknown field ${echoedName(unknown)}`);
  }
  const tenant = itemTenant(d, ctx);
  if (typeof tenant === 'string') {
    return fail(tenant);
  }
  const { customer, instance } = tenant;
  const idProblem = typeof d.id === 'string' ? textProblem('id', d.id) : undefined;
  if (idProblem) {
    return fail(idProblem);
  }
  if (typeof d.id !== 'string' || !ID.test(d.id) || d.id.includes('\u0000')) {
    return fail('id is required (1-500 characters, no spaces)');
  }
  if (d.language !== undefined && (typeof d.language !== 'string' || !LANGUAGE_PATTERN.test(d.language))) {
    return fail('language must be letters and -, e.g. de or de-ch');
  }
  if (d.deleted !== undefined && typeof d.deleted !== 'boolean') {
    return fail('deleted must be a boolean');
  }
  const values = {} as Record<BoostField, number | null>;
  for (const field of BOOST_FIELDS) {
    const v = d[field];
    if (v === undefined || v === null) {
      values[field] = null;
    } else if (typeof v === 'number' && Number.isFinite(v)) {
      values[field] = v;
    } else {
      return fail(`${field} must be a number or null`);
    }
  }
  return {
    ok: true,
    row: {
      customer,
      instance,
      id: d.id,
      language: typeof d.language === 'string' ? d.language.toLowerCase() : '',
      version: ctx.version,
      deleted: d.deleted === true,
      ...values,
      source: ctx.source,
      topic: ctx.topic ?? '',
      partition: ctx.partition ?? -1,
      offset: ctx.offset ?? -1,
      received_at: chDateTime(ctx.now),
    },
  };
}
