/**
 * The normalised form of a search phrase, used for grouping and for matching handlers: Unicode NFC (so "ü"
 * typed as one code point or as "u" + combining diaeresis are the same), trimmed, inner whitespace collapsed to
 * one space, lower-cased. The raw phrase is kept beside it.
 */
export function normalisePhrase(raw: string): string {
  return raw.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase().normalize('NFC');
}
