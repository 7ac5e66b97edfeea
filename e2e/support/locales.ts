import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCALES, type LocaleCode } from '@mirror/contract';

export { LOCALES };

const localesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../apps/web/src/locales',
);

type Messages = { [key: string]: string | Messages };

/** The UI text a user of that language sees, read from the app's own locale files. */
export function messages(code: LocaleCode): Messages {
  return JSON.parse(fs.readFileSync(path.join(localesDir, `${code}.json`), 'utf8')) as Messages;
}

export function text(code: LocaleCode, key: string, vars: Record<string, string> = {}): string {
  let node: string | Messages | undefined = messages(code);
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no text ${key} in ${code}`);
  return node.replace(/\{(\w+)\}/g, (_, name: string) => vars[name] ?? `{${name}}`);
}
