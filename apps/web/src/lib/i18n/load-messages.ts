import type { LocaleCode } from '@mirror/contract';
// Only what the landing page shows ships in its initial script (`scripts/check-budget.mjs` fails
// the build when the entry names a key of another part); the rest of English comes with the first
// screen that needs it (`loadEnglish`, awaited by every lazily loaded screen and dialog).
import {
  common,
  cta,
  faq,
  features,
  footer,
  hero,
  howItWorks,
  ideas,
  meta,
  mirror,
  nav,
  notFound,
  pricing,
  toasts,
  trustedBy,
} from '../../locales/en.json';
import type { Messages } from './translate';

let english: Messages = {
  common,
  cta,
  faq,
  features,
  footer,
  hero,
  howItWorks,
  ideas,
  meta,
  mirror,
  nav,
  notFound,
  pricing,
  toasts,
  trustedBy,
};

/** The English known so far: the landing page's until `loadEnglish` has answered, then all. */
export function englishMessages(): Messages {
  return english;
}

// Every language is its own chunk, fetched only when needed. The query makes each file a module of
// its own, apart from the one the landing page's part of English comes from (a module cannot be
// both in the entry and a chunk of its own); `lang.json` keeps it JSON to Vite.
const loaders = import.meta.glob<Messages>('../../locales/*.json', {
  import: 'default',
  query: '?lang.json',
});

let allEnglish: Promise<Messages> | undefined;

/** All of English (also the fallback of every other language). */
export function loadEnglish(): Promise<Messages> {
  allEnglish ??= loaders['../../locales/en.json']!().then(
    (messages) => (english = messages),
    (error: unknown) => {
      allEnglish = undefined;
      throw error;
    },
  );
  return allEnglish;
}

const cache = new Map<LocaleCode, Messages>();

/** A language that can be shown at once (English always: at first the landing page's part). */
export function getCachedMessages(locale: LocaleCode): Messages | undefined {
  return locale === 'en' ? english : cache.get(locale);
}

export async function loadMessages(locale: LocaleCode): Promise<Messages> {
  if (locale === 'en') return loadEnglish();
  const cached = cache.get(locale);
  if (cached) return cached;
  const loader = loaders[`../../locales/${locale}.json`];
  if (!loader) return loadEnglish();
  const messages = await loader();
  cache.set(locale, messages);
  return messages;
}
