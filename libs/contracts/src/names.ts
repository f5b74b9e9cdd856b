/** A DNS label: customers and instances appear in host names, topic keys and URLs. */
export const NAME_PATTERN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** A language: letters and '-' only, BCP 47 shaped (de, en, de-ch, zh-hant); compared lower-cased. */
export const LANGUAGE_PATTERN = /^[a-z]{2,8}(-[a-z]{1,8})*$/i;
