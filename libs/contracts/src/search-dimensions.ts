import { lengthProblem, personalHash } from './event-fields';
import { textProblem } from './text';

/**
 * The dimensions of a search (docs/architecture.md, "Filters, users, countries and tags"): the filters applied to it,
 * the shopper's user token, the country and analytics tags. Each is optional; a search without them belongs to no
 * filter, no country and no tag.
 */
export interface SearchDimensions {
  filter_attributes: string[];
  filter_operators: string[];
  filter_values: string[];
  /** The user token's hash within the customer (personalHash), '' when absent. */
  user_hash: string;
  /** Two letters, upper case; '' when absent. */
  country: string;
  /** Without repeats, sorted. */
  tags: string[];
}

export const MAX_FILTERS = 20;
export const MAX_FILTER_ATTRIBUTE_LENGTH = 64;
export const MAX_FILTER_VALUE_LENGTH = 200;
export const MAX_SEARCH_USER_TOKEN_LENGTH = 129;
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 100;

/** The operators of a filter; at the attribute's end the longest one is taken (`price<=100` is `<=`, never `<`). */
export const FILTER_OPERATORS = [':', '<=', '>=', '!=', '<', '>', '='] as const;
const OPERATOR_START = /[:<>=!]/;
/** A finite decimal number as a numeric filter's value is written (no hex, no `Infinity`, no empty string). */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** What joins tags in the `tags` parameter (Algolia's), so never part of one tag. */
export const TAG_JOINERS = [' AND ', ' OR '] as const;

export interface Filter {
  attribute: string;
  operator: string;
  value: string;
}

/**
 * One filter as sent, `attribute:value` or `attribute<op>number`: the attribute ends at the first character that
 * starts an operator, both parts are trimmed and kept as sent otherwise. The reason names `field` when it is wrong.
 */
export function parseFilter(field: string, input: unknown): Filter | string {
  if (typeof input !== 'string') {
    return `${field} must be a string such as brand:Apple or price<=100`;
  }
  const text = textProblem(field, input);
  if (text) {
    return text;
  }
  const at = input.search(OPERATOR_START);
  const operator = at < 0 ? undefined : FILTER_OPERATORS.find((op) => input.startsWith(op, at));
  if (operator === undefined) {
    return `${field} has no operator (one of ${FILTER_OPERATORS.join(' ')}), e.g. brand:Apple or price<=100`;
  }
  const attribute = input.slice(0, at).trim();
  const value = input.slice(at + operator.length).trim();
  const attributeProblem = lengthProblem(`${field}'s attribute`, attribute, MAX_FILTER_ATTRIBUTE_LENGTH);
  if (attributeProblem) {
    return attributeProblem;
  }
  const valueProblem = lengthProblem(`${field}'s value`, value, MAX_FILTER_VALUE_LENGTH);
  if (valueProblem) {
    return valueProblem;
  }
  if (operator !== ':' && !(NUMBER.test(value) && Number.isFinite(Number(value)))) {
    return `${field}'s value must be a finite number with the operator ${operator}`;
  }
  return { attribute, operator, value };
}

/** The dimensions of a search event, or the first reason (naming the field, e.g. `filters[2]`) one is refused. */
export function searchDimensions(e: Record<string, unknown>, customer: string): SearchDimensions | string {
  const filters: Filter[] = [];
  if (e.filters !== undefined) {
    if (!Array.isArray(e.filters) || e.filters.length > MAX_FILTERS) {
      return `filters must be an array of at most ${MAX_FILTERS} strings`;
    }
    for (const [i, input] of e.filters.entries()) {
      const filter = parseFilter(`filters[${i}]`, input);
      if (typeof filter === 'string') {
        return filter;
      }
      filters.push(filter);
    }
  }
  if (e.userToken !== undefined) {
    const problem = lengthProblem('userToken', e.userToken, MAX_SEARCH_USER_TOKEN_LENGTH);
    if (problem) {
      return problem;
    }
  }
  if (e.country !== undefined && (typeof e.country !== 'string' || !/^[A-Za-z]{2}$/.test(e.country))) {
    return 'country must be two letters (ISO 3166-1 alpha-2, e.g. DE)';
  }
  const tags = tagsOf(e.tags);
  if (typeof tags === 'string') {
    return tags;
  }
  return {
    filter_attributes: filters.map((f) => f.attribute),
    filter_operators: filters.map((f) => f.operator),
    filter_values: filters.map((f) => f.value),
    user_hash: personalHash(customer, e.userToken),
    country: typeof e.country === 'string' ? e.country.toUpperCase() : '',
    tags,
  };
}

function tagsOf(input: unknown): string[] | string {
  if (input === undefined) {
    return [];
  }
  if (!Array.isArray(input) || input.length > MAX_TAGS) {
    return `tags must be an array of at most ${MAX_TAGS} strings`;
  }
  for (const [i, tag] of input.entries()) {
    const field = `tags[${i}]`;
    const problem = lengthProblem(field, tag, MAX_TAG_LENGTH) ?? textProblem(field, tag as string);
    if (problem) {
      return problem;
    }
    if (TAG_JOINERS.some((joiner) => (tag as string).includes(joiner))) {
      return `${field} contains ${TAG_JOINERS.map((j) => `"${j.trim()}"`).join(' or ')} between spaces, which join tags in a query`;
    }
  }
  // Sorted, so that a search's tag set is one key of the rollups whatever the order sent.
  return [...new Set(input as string[])].sort();
}
