/** Indentation of a JSON text, so a rewritten document keeps its layout (compact stays compact). */
export function jsonIndent(text: string): string | number | undefined {
  const m = /\n([ \t]+)["}\]]/.exec(text);
  if (m) return m[1];
  return text.includes('\n') ? 2 : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
