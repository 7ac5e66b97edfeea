import type { LocaleCode } from '@mirror/contract';
import en from '../../locales/en.json';
import type { Messages } from './translate';

export const englishMessages: Messages = en;

// Every other language is its own chunk, fetched only when chosen.
const loaders = import.meta.glob<Messages>(['../../locales/*.json', '!../../locales/en.json'], {
  import: 'default',
});

const cache = new Map<LocaleCode, Messages>([['en', englishMessages]]);

export function getCachedMessages(locale: LocaleCode): Messages | undefined {
  return cache.get(locale);
}

export async function loadMessages(locale: LocaleCode): Promise<Messages> {
  const cached = cache.get(locale);
  if (cached) return cached;
  const loader = loaders[`../../locales/${locale}.json`];
  if (!loader) return englishMessages;
  const messages = await loader();
  cache.set(locale, messages);
  return messages;
}
