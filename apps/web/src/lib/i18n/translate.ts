export interface Messages {
  [key: string]: string | Messages;
}

export type TranslateVars = Record<string, string | number>;

/** Reads a dot path such as `hero.url.label`; only string leaves count. */
export function lookupMessage(messages: Messages, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function interpolate(template: string, vars?: TranslateVars): string {
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : match,
  );
}

/**
 * A missing key falls back to English (as known when it is asked: `fallback` is read each time),
 * then to the key itself so gaps stay visible.
 */
export function createTranslator(messages: Messages, fallback: () => Messages) {
  return function translate(key: string, vars?: TranslateVars): string {
    const template = lookupMessage(messages, key) ?? lookupMessage(fallback(), key) ?? key;
    return interpolate(template, vars);
  };
}
