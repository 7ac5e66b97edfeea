import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  processCss,
  processHtml,
  processWebManifest,
  type RefVisitor,
} from '../references/index.js';
import { agreedQueryVariants } from '../query-variants.js';
import { forEachLimit } from '../for-each-limit.js';
import { essenceOf } from '../net/media-type.js';
import { EXPORT_FILES_SCRIPT } from '../render/runtime-shim.js';
import { readBlob } from '../storage/blob-utils.js';
import { writeFile } from '../storage/files.js';
import type { BlobStore, Manifest, ManifestEntry } from '../types.js';

const EXTENSIONS: Record<string, string> = {
  'text/html': '.html',
  'application/xhtml+xml': '.html',
  'text/css': '.css',
  'text/javascript': '.js',
  'application/javascript': '.js',
  'application/x-javascript': '.js',
  'application/json': '.json',
  'application/manifest+json': '.webmanifest',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/avif': '.avif',
  'image/svg+xml': '.svg',
  'image/x-icon': '.ico',
  'image/vnd.microsoft.icon': '.ico',
  'font/woff2': '.woff2',
  'font/woff': '.woff',
  'font/ttf': '.ttf',
  'font/otf': '.otf',
  'application/font-woff': '.woff',
  'application/font-woff2': '.woff2',
  'video/mp4': '.mp4',
  'video/webm': '.webm',
  'audio/mpeg': '.mp3',
  'audio/ogg': '.ogg',
  'text/vtt': '.vtt',
  'application/pdf': '.pdf',
  'text/plain': '.txt',
  'application/xml': '.xml',
  'text/xml': '.xml',
};

/** Documents whose references are rewritten to export paths; everything else is placed as is. */
const REWRITTEN_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'text/css',
  'application/manifest+json',
]);

/** Files written at once. */
const WRITERS = 16;

/** Extensions whose content type a static server infers correctly, per type. */
const ACCEPTED: Record<string, string[]> = {
  '.html': ['.html', '.htm'],
  '.jpg': ['.jpg', '.jpeg'],
  '.js': ['.js', '.mjs'],
  '.xml': ['.xml', '.rss', '.atom'],
};

function safeSegment(segment: string): string {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // keep as written
  }
  // Control characters are exactly what must not reach a file name.
  // eslint-disable-next-line no-control-regex
  const cleaned = decoded.replace(/[\\/*?"<>|#%\u0000-\u001f]/g, '_');
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return '_';
  return cleaned.length > 150 ? `${cleaned.slice(0, 100)}-${hash8(cleaned)}` : cleaned;
}

function hash8(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * The file name of a copy path in a static folder: query folded into the name, an extension that
 * makes a static server send the right content type, `index.html` for directories.
 */
export function exportPathOf(
  entry: Pick<ManifestEntry, 'path' | 'contentType' | 'status'>,
): string {
  const q = entry.path.indexOf('?');
  const pathname = q === -1 ? entry.path : entry.path.slice(0, q);
  const query = q === -1 ? '' : entry.path.slice(q + 1);
  const segments = pathname.split('/').slice(1).map(safeSegment);
  const name = pathname.endsWith('/') || segments.length === 0 ? 'index' : segments.pop()!;
  if (pathname.endsWith('/') && segments.length > 0 && segments[segments.length - 1] === '_')
    segments.pop();
  const isRedirect = entry.status >= 300 && entry.status < 400;
  const wanted = isRedirect ? '.html' : (EXTENSIONS[essenceOf(entry.contentType)] ?? '');
  const dot = name.lastIndexOf('.');
  const currentExt = dot > 0 ? name.slice(dot).toLowerCase() : '';
  const accepted = ACCEPTED[wanted] ?? [wanted];
  let stem = name;
  let ext = currentExt;
  if (wanted && !accepted.includes(currentExt)) {
    ext = wanted;
  } else {
    stem = dot > 0 ? name.slice(0, dot) : name;
  }
  if (query) stem += `@${safeSegment(query.length > 80 ? hash8(query) : query)}`;
  return `/${[...segments, `${stem}${ext}`].join('/')}`;
}

/** A rendered page (it carries the runtime shim) loads the export's file map first. */
function withFilesScript(html: string, wanted: boolean): string {
  if (!wanted || !html.includes('__mirrorShim')) return html;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  const at = head ? head.index + head[0].length : 0;
  return `${html.slice(0, at)}<script src="${EXPORT_FILES_SCRIPT}"></script>${html.slice(at)}`;
}

const isRedirect = (entry: ManifestEntry) => entry.status >= 300 && entry.status < 400;

/**
 * Whether a copy path's export file has its name for a static server: the same, or a folder's `/`
 * as its `/index.html`.
 */
const keepsName = (copyPath: string, file: string) =>
  file === copyPath || (copyPath.endsWith('/') && file === `${copyPath}index.html`);

/**
 * Two copy paths that land on one export file and are one file there: the same body, or a folder's
 * page and its `index.html` (what a static server answers for both anyway).
 */
function isOneFile(a: ManifestEntry, b: ManifestEntry): boolean {
  if (isRedirect(a) || isRedirect(b) || a.status !== b.status) return false;
  if (a.hash === b.hash) return true;
  const [folder, other] = a.path.endsWith('/') ? [a.path, b.path] : [b.path, a.path];
  return folder.endsWith('/') && other === `${folder}index.html`;
}

function redirectPage(target: string): string {
  const t = target.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=${t}"><link rel="canonical" href="${t}"><title>Redirecting</title></head><body><a href="${t}">Continue</a></body></html>\n`;
}

/**
 * Writes a manifest as a folder that any static file server (nginx, `python3 -m http.server`,
 * GitHub Pages) serves at its root with the same rendering: every reference is rewritten to the
 * exported file names; redirects become refresh pages plus a Netlify-style `_redirects` file.
 */
export async function exportStatic(
  manifest: Manifest,
  store: BlobStore,
  dir: string,
  options: {
    /**
     * How files of a store on disk get into the export: `copy` (the default), `link` (hard links:
     * no bytes copied, but a linked file shares its bytes with the blob, so editing one changes the
     * other) or `move` (the blob is renamed into place, later duplicates are linked to it: the store
     * is left without them). `link` and `move` are for a store thrown away afterwards (the CLI's).
     */
    placeBlobs?: 'copy' | 'link' | 'move';
    /**
     * The copy paths each document references, by its copy path (`MirrorOptions.
     * onDocumentReferences`): a document that references no file the export renames is placed as
     * it is, not parsed again. Documents it does not name are rewritten.
     */
    references?: ReadonlyMap<string, ReadonlySet<string>>;
  } = {},
): Promise<{ files: number; bytes: number }> {
  const byCopyPath = new Map<string, string>();
  /** Export files by lower-cased name (a static host on a case-insensitive disk sees one file). */
  const taken = new Map<string, { entry: ManifestEntry; file: string }>();
  const plan: { entry: ManifestEntry; file: string }[] = [];
  const fallback = manifest.fallback;
  // A path the copy holds only query variants of, that agree, is also written under its bare
  // name: a static server ignores the query, so `/page/index.txt?_rsc=<any>` finds it, as the
  // sites host answers it (`agreedQueryVariants`).
  const agreed = [...agreedQueryVariants(manifest.entries)].map(([path, entry]) => ({
    ...entry,
    path,
  }));
  // Such a variant whose bare name is also its file's name needs no file of its own: references
  // keep their query (`pydoctheme.css?2022.1`), which a static server ignores.
  const servedBare = new Set(
    agreed.filter((entry) => exportPathOf(entry) === entry.path).map((entry) => entry.path),
  );
  /** Such variants, by copy path: their bare path. */
  const stamped = new Map<string, string>();
  for (const entry of [...manifest.entries, ...agreed]) {
    if (entry.status >= 400 && entry.path !== fallback?.path) continue;
    const q = entry.path.indexOf('?');
    if (q !== -1 && servedBare.has(entry.path.slice(0, q))) {
      stamped.set(entry.path, entry.path.slice(0, q));
      continue;
    }
    let file = exportPathOf(entry);
    const holder = taken.get(file.toLowerCase());
    if (holder && holder.file === file && isOneFile(holder.entry, entry)) {
      // `/` and `/index.html` (a site whose links say `index.html`): a static server answers both
      // with the one file, so the export holds it once. The folder's own page is the one kept.
      if (entry.path.endsWith('/') && !holder.entry.path.endsWith('/')) holder.entry = entry;
      byCopyPath.set(entry.path, file);
      continue;
    }
    if (holder) {
      const dot = file.lastIndexOf('.');
      file = `${dot > file.lastIndexOf('/') ? file.slice(0, dot) : file}-${hash8(entry.path)}${dot > file.lastIndexOf('/') ? file.slice(dot) : ''}`;
    }
    const planned = { entry, file };
    taken.set(file.toLowerCase(), planned);
    byCopyPath.set(entry.path, file);
    plan.push(planned);
  }
  // The bare file keeps its name unless another file took it first (`/S.css` beside `/s.css?v=2`
  // on a host blind to case): then references go to the name it got.
  for (const [variant, bare] of stamped) {
    const file = byCopyPath.get(bare)!;
    byCopyPath.set(variant, file === bare ? variant : file);
  }

  /** Copy paths whose export file has another name: what a reference must change for. */
  const renamedPaths = new Set<string>();
  for (const [copyPath, file] of byCopyPath)
    if (!keepsName(copyPath, file)) renamedPaths.add(copyPath);
  // References in the copy are root-relative copy paths, and the export is served from its root
  // too. When every copy path keeps its name in the export, no reference needs rewriting: the
  // documents are placed byte for byte like any other file.
  const rewriteDocuments = renamedPaths.size > 0;
  // Files whose name changed, for the runtime shim of rendered pages (see EXPORT_FILES_SCRIPT).
  const renamed: Record<string, string> = {};
  for (const { entry, file } of plan) {
    if (!keepsName(entry.path, file) && !isRedirect(entry)) renamed[entry.path] = file;
  }
  const filesScript = rewriteDocuments && Object.keys(renamed).length > 0;
  /** Whether a document's text changes in the export (see `options.references`). */
  const rewritten = (entry: ManifestEntry): boolean => {
    if (!rewriteDocuments || isRedirect(entry)) return false;
    if (!REWRITTEN_TYPES.has(essenceOf(entry.contentType))) return false;
    const refs = options.references?.get(entry.path);
    if (!refs || (filesScript && (entry.rendered || entry.replayed))) return true;
    for (const ref of refs) if (renamedPaths.has(ref)) return true;
    return false;
  };
  const copyBase = 'http://copy.invalid';
  const toExport = (copyPath: string) => byCopyPath.get(copyPath);
  const visitor: RefVisitor = (ref) => {
    let url: URL;
    try {
      url = new URL(ref.url);
    } catch {
      return undefined;
    }
    if (url.origin !== copyBase) return undefined;
    const fragment = ref.raw.includes('#') ? ref.raw.slice(ref.raw.indexOf('#')) : '';
    const file = toExport(`${url.pathname}${url.search}`);
    if (file) return file + fragment;
    // Not in the copy: leave a path that does not exist rather than a request elsewhere.
    return undefined;
  };

  await fs.mkdir(dir, { recursive: true });
  const madeDirs = new Map<string, Promise<unknown>>();
  const ensureDir = (d: string) => {
    let made = madeDirs.get(d);
    if (!made) madeDirs.set(d, (made = fs.mkdir(d, { recursive: true })));
    return made;
  };
  // A store on disk can hand over file paths: copying files is much cheaper than streaming them.
  const blobPath =
    'pathOf' in store && typeof store.pathOf === 'function'
      ? (store.pathOf as (h: string) => string)
      : null;
  let placeBlobs = options.placeBlobs ?? 'copy';
  /** Blobs that are read to be rewritten: never moved away, whatever else shares their bytes. */
  const readLater = new Set(
    plan.filter(({ entry }) => rewritten(entry)).map(({ entry }) => entry.hash),
  );
  /** Where each moved blob went: later files with the same bytes are linked to it. */
  const movedTo = new Map<string, Promise<string>>();
  const place = async (hash: string, to: string): Promise<void> => {
    const from = blobPath!(hash);
    if (placeBlobs === 'move' && readLater.has(hash)) return place2(from, to, 'link');
    if (placeBlobs === 'move') {
      const first = movedTo.get(hash);
      if (first) return place2(await first, to, 'link');
      let done!: (file: string) => void;
      movedTo.set(hash, new Promise<string>((resolve) => (done = resolve)));
      try {
        await place2(from, to, 'move');
      } finally {
        // The blob is in `to` now; or, when the move failed over to copying, still where it was.
        done(placeBlobs === 'move' ? to : from);
      }
      return;
    }
    return place2(from, to, placeBlobs);
  };
  const place2 = async (from: string, to: string, how: 'copy' | 'link' | 'move') => {
    if (how !== 'copy') {
      try {
        return how === 'move' ? await fs.rename(from, to) : await fs.link(from, to);
      } catch (err) {
        // Another file system (EXDEV) or no hard links there: copy from now on.
        if (
          !['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK'].includes(
            (err as NodeJS.ErrnoException).code ?? '',
          )
        )
          throw err;
        placeBlobs = 'copy';
      }
    }
    await fs.copyFile(from, to);
  };
  let bytes = 0;
  const redirects: string[] = [];
  const writeOne = async ({ entry, file }: { entry: ManifestEntry; file: string }) => {
    const target = path.join(dir, ...file.split('/'));
    await ensureDir(path.dirname(target));
    if (entry.status >= 300 && entry.status < 400) {
      const location = entry.headers['location'] ?? '/';
      const mapped = location.startsWith('/')
        ? (toExport(location.split('#')[0]!) ?? location)
        : location;
      const page = redirectPage(mapped);
      await writeFile(target, page);
      bytes += Buffer.byteLength(page);
      redirects.push(`${entry.path.split('?')[0]} ${mapped} ${entry.status}`);
      return;
    }
    const type = essenceOf(entry.contentType);
    const documentUrl = `${copyBase}${entry.path}`;
    if (rewritten(entry)) {
      const text = (await readBlob(store, entry.hash)).toString('utf8');
      const output =
        type === 'text/css'
          ? processCss(text, documentUrl, visitor).css
          : type === 'application/manifest+json'
            ? processWebManifest(text, documentUrl, visitor).json
            : withFilesScript(processHtml(text, documentUrl, visitor).html, filesScript);
      await writeFile(target, output);
      bytes += Buffer.byteLength(output);
    } else {
      if (blobPath) await place(entry.hash, target);
      else await pipeline(Readable.from(store.read(entry.hash)), createWriteStream(target));
      bytes += entry.size;
    }
  };
  // Files are independent: keep several in flight so disk waits overlap with rewriting pages.
  await forEachLimit(plan, WRITERS, writeOne);
  redirects.sort();

  if (filesScript) {
    const target = path.join(dir, ...EXPORT_FILES_SCRIPT.split('/'));
    await ensureDir(path.dirname(target));
    const script = `window.__mirrorFiles=${JSON.stringify(renamed).replace(/</g, '\\u003c')};\n`;
    await fs.writeFile(target, script);
    bytes += Buffer.byteLength(script);
  }

  // What the site answers for unknown addresses: its 404 page, or the shell of an app that routes
  // on the client. Static hosts look for 404.html; Netlify also takes a catch-all rewrite, which
  // applies only where no file exists (after every other rule).
  const fallbackFile = fallback ? toExport(fallback.path) : undefined;
  if (fallback && fallbackFile) {
    if (!taken.has('/404.html'))
      await fs.copyFile(path.join(dir, ...fallbackFile.split('/')), path.join(dir, '404.html'));
    if (fallback.status === 200) redirects.push(`/* ${fallbackFile} 200`);
  }

  const entryFile = toExport(manifest.entryPath);
  if (entryFile && entryFile !== '/index.html' && !taken.has('/index.html')) {
    await fs.writeFile(path.join(dir, 'index.html'), redirectPage(entryFile));
  }
  if (redirects.length > 0)
    await fs.writeFile(path.join(dir, '_redirects'), `${redirects.join('\n')}\n`);
  return { files: plan.length, bytes };
}
