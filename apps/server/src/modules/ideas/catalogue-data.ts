import type { z } from 'zod';

/**
 * Checks the entries of a bundled data file (a JSON array) against their schema when the module
 * loads: a bad entry stops the server at startup, named by its file, position and name.
 */
export function parseEntries<T>(
  file: string,
  schema: z.ZodType<T>,
  data: unknown,
  nameOf: (entry: unknown) => string,
): T[] {
  if (!Array.isArray(data)) throw new Error(`${file}: expected an array of entries.`);
  return data.map((entry: unknown, index) => {
    const parsed = schema.safeParse(entry);
    if (parsed.success) return parsed.data;
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'entry'}: ${issue.message}`)
      .join('; ');
    throw new Error(`${file}: entry ${index} (${nameOf(entry)}) is invalid: ${problems}`);
  });
}

/** The entry's `key` field for an error message, if it has one. */
export function fieldOf(key: string): (entry: unknown) => string {
  return (entry) => {
    const value = (entry as Record<string, unknown> | null)?.[key];
    return typeof value === 'string' ? JSON.stringify(value) : 'unnamed';
  };
}
