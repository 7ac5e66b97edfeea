import { getSurt } from 'warcio';
import type { CdxjLine } from './types.js';

/** `2024-05-01T10:20:30Z` → `20240501102030`. */
export function timestamp14(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** SURT key of a URL, as warcio's and pywb's indexers make it. */
export function surtKey(url: string): string {
  return getSurt(url);
}

/**
 * A CDXJ line as pywb writes it: `urlkey timestamp {json}`, with status, length and offset as
 * strings in the JSON (pywb's and warcio's convention; ReplayWeb.page reads both).
 */
export function formatCdxj(line: CdxjLine): string {
  const json: Record<string, string> = { url: line.url, mime: line.mime };
  if (line.status !== undefined) json.status = String(line.status);
  json.digest = line.digest;
  json.length = String(line.length);
  json.offset = String(line.offset);
  json.filename = line.filename;
  return `${line.urlkey} ${line.timestamp} ${JSON.stringify(json)}`;
}

/** Index lines sorted as a CDXJ file wants them: by their text (urlkey, then timestamp). */
export function sortedCdxj(lines: readonly CdxjLine[]): string[] {
  return lines.map(formatCdxj).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
