import {
  WATCH_LIMITS,
  WatchInput,
  type KeywordRule,
  type Watch,
  type WatchEmail,
  type WatchScope,
} from '@mirror/contract';

export type WatchField =
  'name' | 'scope' | 'pages' | 'selector' | 'textFallback' | 'minWords' | 'email' | 'webhookUrl';
export type WatchValues = Record<WatchField, string>;

/** A keyword row as typed; `key` only tells rows apart while they are added and removed. */
export interface KeywordRow extends KeywordRule {
  key: number;
}

export const EMPTY_WATCH_VALUES: WatchValues = {
  name: '',
  scope: 'site',
  pages: '',
  selector: '',
  textFallback: '',
  minWords: '0',
  email: 'each',
  webhookUrl: '',
};

export function valuesOf(watch: Watch): WatchValues {
  return {
    name: watch.name,
    scope: watch.scope,
    pages: watch.pages.join('\n'),
    selector: watch.selector ?? '',
    textFallback: watch.textFallback ?? '',
    minWords: String(watch.minWords),
    email: watch.email,
    webhookUrl: watch.webhookUrl ?? '',
  };
}

/** The one page of a part, or the pages of a page watch: one path per line. */
const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * What the form says, as the contract's WatchInput before it is checked: what a scope does not use
 * is left out (a part's selector when the whole site is watched).
 */
export function toWatchInput(values: WatchValues, keywords: readonly KeywordRule[]): WatchInput {
  const scope = values.scope as WatchScope;
  const part = scope === 'part';
  const minWords = values.minWords.trim();
  return {
    name: values.name,
    scope,
    pages: scope === 'site' ? [] : linesOf(values.pages),
    selector: part && values.selector.trim() ? values.selector : null,
    textFallback: part && values.textFallback.trim() ? values.textFallback : null,
    keywords: keywords.map(({ text, when }) => ({ text, when })),
    minWords: minWords === '' ? 0 : Number(minWords),
    email: values.email as WatchEmail,
    webhookUrl: values.webhookUrl.trim() ? values.webhookUrl : null,
  };
}

/** The contract's sentences, each to its translation under `site.watches.errors`. */
const CONTRACT_MESSAGES: Record<string, string> = {
  'Give the watch a name.': 'name',
  [`A name is at most ${WATCH_LIMITS.nameChars} characters.`]: 'nameLong',
  'A page is its path in the copy, starting with /.': 'pagePath',
  [`Watch at most ${WATCH_LIMITS.pages} pages.`]: 'pagesMany',
  'Choose the pages to watch.': 'pages',
  'A part is on one page.': 'partOnePage',
  'Pick the part of the page to watch.': 'part',
  'Enter a keyword.': 'keyword',
  'A keyword is at most 100 characters.': 'keywordLong',
  [`Watch at most ${WATCH_LIMITS.keywords} keywords.`]: 'keywordsMany',
  'Enter a valid webhook address.': 'webhook',
  'A webhook address starts with http:// or https://.': 'webhookScheme',
};

export interface WatchErrors {
  fields: Partial<Record<WatchField, string>>;
  /** Keyword row index → its message. */
  keywords: Record<number, string>;
}

type Translate = (key: string, vars?: Record<string, string | number>) => string;

/**
 * Checks the form with the contract's WatchInput, as the server will: the first message of each
 * field, in the reader's language when the contract's sentence is known here (else as it is).
 */
export function validateWatch(
  values: WatchValues,
  keywords: readonly KeywordRule[],
  t: Translate,
): { errors: WatchErrors; input: WatchInput | null } {
  const parsed = WatchInput.safeParse(toWatchInput(values, keywords));
  const errors: WatchErrors = { fields: {}, keywords: {} };
  if (parsed.success) return { errors, input: parsed.data };
  const vars = { ...WATCH_LIMITS };
  for (const issue of parsed.error.issues) {
    const [field, index] = issue.path;
    const known = CONTRACT_MESSAGES[issue.message];
    const message =
      field === 'minWords'
        ? t('site.watches.errors.minWords', { max: WATCH_LIMITS.maxMinWords })
        : known
          ? t(`site.watches.errors.${known}`, vars)
          : issue.message;
    if (field === 'keywords' && typeof index === 'number') errors.keywords[index] ??= message;
    else if (typeof field === 'string' && field in EMPTY_WATCH_VALUES)
      errors.fields[field as WatchField] ??= message;
  }
  return { errors, input: null };
}
