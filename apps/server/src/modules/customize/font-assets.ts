import type { EditOp } from '@mirror/contract';
import {
  createHttpClient,
  createUrlMapper,
  type BlobStore,
  type ManifestEntry,
} from '@mirror/engine';
import { putBytes } from './version-files.js';

/**
 * A copy makes no request to other hosts: a font stylesheet a plan links to (Google Fonts from the
 * built-in grammar, or any address a model gives) is fetched with the engine's address-checked
 * client, its font files too, and stored in the version under `/_x/<host>/…`, where the link then
 * points. When that fails the link is dropped (the family keeps its fallbacks) and a note says so.
 * The stylesheet is a stranger's text: this runs as a sandboxed task (`font-assets.task.ts`).
 */

const MAX_STYLESHEET_BYTES = 512 * 1024;
const MAX_FONT_BYTES = 5 * 1024 * 1024;
const MAX_FONT_FILES = 40;
/** Google Fonts answers woff2 only to browsers it knows. */
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

export interface LocalizedFonts {
  ops: EditOp[];
  entries: ManifestEntry[];
  notes: string[];
}

async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const FONT_TYPES: Record<string, string> = {
  woff2: 'font/woff2',
  woff: 'font/woff',
  ttf: 'font/ttf',
  otf: 'font/otf',
  eot: 'application/vnd.ms-fontobject',
};

/** A plan's font changes that link to a stylesheet on the web. */
function linksStylesheet(op: EditOp): op is Extract<EditOp, { op: 'changeFont' }> & {
  stylesheetUrl: string;
} {
  return op.op === 'changeFont' && !!op.stylesheetUrl && /^https?:\/\//i.test(op.stylesheetUrl);
}

export function linksFontStylesheets(ops: readonly EditOp[]): boolean {
  return ops.some(linksStylesheet);
}

/** The plan without its stylesheet links (none could be fetched), with a note for each font. */
export function withoutFontStylesheets(ops: readonly EditOp[], why: string): LocalizedFonts {
  const notes = new Set<string>();
  const out = ops.map((op) => {
    if (!linksStylesheet(op)) return op;
    notes.add(
      `The font '${op.family}' could not be downloaded (${why}); the pages use it when it is installed, else its fallback fonts.`,
    );
    const { stylesheetUrl: _dropped, ...rest } = op;
    return rest;
  });
  return { ops: out, entries: [], notes: [...notes] };
}

/**
 * References of a stylesheet: `url(x)`, `url('x')`, `url("x")`. An unquoted one holds no spaces
 * (as CSS has it), so no two parts of the pattern can take the same characters: a stylesheet of
 * `url(` and spaces is read in linear time (the pattern before took 10 s for 2,000 spaces).
 */
const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^'"()\s]+))\s*\)/g;

export async function localizeFontStylesheets(
  ops: readonly EditOp[],
  options: {
    blobs: BlobStore;
    /** The site's address: foreign files get the copy paths the mirror gives them. */
    sourceUrl: string;
    allowPrivateNetworks: boolean;
    signal?: AbortSignal;
  },
): Promise<LocalizedFonts> {
  if (!linksFontStylesheets(ops)) return { ops: [...ops], entries: [], notes: [] };
  const client = createHttpClient({
    allowPrivateNetworks: options.allowPrivateNetworks,
    timeoutMs: 15_000,
    userAgent: BROWSER_UA,
  });
  const mapper = createUrlMapper(options.sourceUrl);
  const entries = new Map<string, ManifestEntry>();
  const notes: string[] = [];
  const done = new Map<string, string | null>();

  const fetchBytes = async (url: string, maxBytes: number) => {
    const res = await client.request(url, {
      maxBytes,
      headers: { 'user-agent': BROWSER_UA, accept: 'text/css,*/*;q=0.1' },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (res.status !== 200) {
      await res.discard();
      throw new Error(`HTTP ${res.status}`);
    }
    return {
      url: res.url,
      contentType: res.headers['content-type'],
      bytes: await readAll(res.body),
    };
  };

  const addEntry = async (url: string, contentType: string, bytes: Buffer | string) => {
    const path = mapper.toCopyPath(new URL(url));
    const stored = await putBytes(options.blobs, bytes);
    entries.set(path, {
      path,
      url,
      kind: 'asset',
      status: 200,
      contentType,
      hash: stored.hash,
      size: stored.size,
      headers: {},
    });
    return path;
  };

  /** The copy path of the stylesheet, or null when it could not be stored. */
  const localize = async (stylesheetUrl: string): Promise<string | null> => {
    const sheet = await fetchBytes(stylesheetUrl, MAX_STYLESHEET_BYTES);
    let css = sheet.bytes.toString('utf8');
    const refs = [...new Set([...css.matchAll(CSS_URL)].map((m) => m[1] ?? m[2] ?? m[3] ?? ''))]
      .filter((ref) => ref !== '' && !ref.startsWith('data:'))
      .slice(0, MAX_FONT_FILES);
    for (const ref of refs) {
      const absolute = new URL(ref, sheet.url).href;
      const font = await fetchBytes(absolute, MAX_FONT_BYTES);
      const ext = new URL(absolute).pathname.split('.').pop()?.toLowerCase() ?? '';
      const path = await addEntry(
        absolute,
        FONT_TYPES[ext] ?? font.contentType ?? 'application/octet-stream',
        font.bytes,
      );
      css = css.split(ref).join(path);
    }
    return addEntry(stylesheetUrl, 'text/css; charset=utf-8', css);
  };

  const out: EditOp[] = [];
  try {
    for (const op of ops) {
      if (!linksStylesheet(op)) {
        out.push(op);
        continue;
      }
      if (!done.has(op.stylesheetUrl)) {
        try {
          done.set(op.stylesheetUrl, await localize(op.stylesheetUrl));
        } catch (err) {
          done.set(op.stylesheetUrl, null);
          const why = err instanceof Error ? err.message : String(err);
          notes.push(
            `The font '${op.family}' could not be downloaded (${why}); the pages use it when it is installed, else its fallback fonts.`,
          );
        }
      }
      const local = done.get(op.stylesheetUrl);
      const { stylesheetUrl: _dropped, ...rest } = op;
      out.push(local ? { ...rest, stylesheetUrl: local } : rest);
    }
  } finally {
    await client.close();
  }
  return { ops: out, entries: [...entries.values()], notes };
}
