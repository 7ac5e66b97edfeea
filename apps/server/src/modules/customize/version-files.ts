import {
  createUrlMapper,
  formsOfEditedPage,
  homeTitle,
  readBlob,
  type BlobStore,
  type Manifest,
  type ManifestEntry,
} from '@mirror/engine';
import {
  outlinePage,
  type PageOutline,
  type PlanAsset,
  type SiteDocument,
} from '@mirror/customize';

/**
 * Reading a version's documents for a plan and writing the next version's manifest: entries a plan
 * did not change keep their blobs, so versions share every unchanged file.
 */

/** Documents larger than this are left as they are (minified bundles, data dumps). */
const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
/** Text held in memory for one plan; pages past it keep their content (a note says so). */
const MAX_TOTAL_BYTES = 150 * 1024 * 1024;

/** Pages a model sees an outline of: the entry page and a few more. */
const OUTLINE_PAGES = 4;
const OUTLINE_BYTES = 6_000;

/** Outlines of the entry page and a few short-pathed pages, with the copy's colours from its CSS. */
export function outlinesOf(documents: SiteDocument[], entryPath: string): PageOutline[] {
  const stylesheets = documents.filter((d) => /^text\/css/i.test(d.contentType)).map((d) => d.text);
  const pages = documents.filter((d) => /html/i.test(d.contentType));
  const ordered = [
    ...pages.filter((p) => p.path === entryPath),
    ...pages.filter((p) => p.path !== entryPath).sort((a, b) => a.path.length - b.path.length),
  ].slice(0, OUTLINE_PAGES);
  return ordered.map((page, i) =>
    outlinePage(page.text, {
      path: page.path,
      stylesheets,
      maxBytes: i === 0 ? OUTLINE_BYTES : OUTLINE_BYTES / 2,
    }),
  );
}

export function putBytes(blobs: BlobStore, data: Uint8Array | string) {
  return blobs.put(
    (async function* () {
      yield typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    })(),
  );
}

const isHtml = (type: string) => /html/i.test(type);
const isCss = (type: string) => /^text\/css/i.test(type);

export interface VersionDocuments {
  documents: SiteDocument[];
  notes: string[];
}

/** The HTML and CSS documents of a version, entry page first, as decoded text. */
export async function readDocuments(
  manifest: Manifest,
  blobs: BlobStore,
): Promise<VersionDocuments> {
  const candidates = manifest.entries
    .filter(
      (e) =>
        e.status === 200 &&
        (isHtml(e.contentType) || isCss(e.contentType)) &&
        e.size <= MAX_DOCUMENT_BYTES,
    )
    .sort((a, b) => Number(b.path === manifest.entryPath) - Number(a.path === manifest.entryPath));
  const documents: SiteDocument[] = [];
  let total = 0;
  let skipped = 0;
  for (const entry of candidates) {
    if (total + entry.size > MAX_TOTAL_BYTES) {
      skipped++;
      continue;
    }
    total += entry.size;
    documents.push({
      path: entry.path,
      contentType: entry.contentType,
      text: (await readBlob(blobs, entry.hash)).toString('utf8'),
    });
  }
  return {
    documents,
    notes:
      skipped > 0
        ? [`${skipped} large pages or stylesheets were left unchanged (size limit).`]
        : [],
  };
}

/**
 * The next version's manifest: changed documents get their new blobs, uploads and downloaded fonts
 * are added (an address already in the copy is replaced), everything else is the base's entry.
 */
export async function buildManifest(
  base: Manifest,
  blobs: BlobStore,
  changes: { changed: SiteDocument[]; assets: PlanAsset[]; extra: ManifestEntry[] },
): Promise<{ manifest: Manifest; missingUploads: string[] }> {
  const entries = new Map(base.entries.map((e) => [e.path, e]));
  const mapper = createUrlMapper(base.startUrl);
  for (const doc of changes.changed) {
    const previous = entries.get(doc.path);
    if (!previous) continue;
    if (!previous.contentType.includes('html')) {
      const stored = await putBytes(blobs, doc.text);
      entries.set(doc.path, { ...previous, hash: stored.hash, size: stored.size });
      continue;
    }
    // An edit may add, change or remove forms: they are read again, and a new one is marked for
    // the sites host to take (docs/forms.md).
    const { html, forms } = formsOfEditedPage(doc.text, previous.url, mapper);
    const stored = await putBytes(blobs, html);
    const { forms: _before, ...rest } = previous;
    entries.set(doc.path, {
      ...rest,
      hash: stored.hash,
      size: stored.size,
      ...(forms ? { forms } : {}),
    });
  }
  const missingUploads: string[] = [];
  for (const asset of changes.assets) {
    if (!(await blobs.has(asset.hash))) {
      missingUploads.push(asset.path);
      continue;
    }
    const size = (await readBlob(blobs, asset.hash)).length;
    entries.set(asset.path, {
      path: asset.path,
      url: new URL(asset.path, base.startUrl).href,
      kind: 'asset',
      status: 200,
      contentType: asset.contentType,
      hash: asset.hash,
      size,
      headers: {},
    });
  }
  for (const entry of changes.extra) entries.set(entry.path, entry);
  const list = [...entries.values()];
  // A plan may change the home page's title (setTitle, a rewrite): the version is named anew.
  const { title: _baseTitle, ...rest } = base;
  const title = await homeTitle({ entries: list, entryPath: base.entryPath }, blobs);
  return {
    manifest: {
      ...rest,
      ...(title ? { title } : {}),
      createdAt: new Date().toISOString(),
      entries: list,
      stats: {
        ...base.stats,
        pages: list.filter((e) => e.kind === 'page').length,
        assets: list.filter((e) => e.kind === 'asset').length,
        bytes: list.reduce((sum, e) => sum + e.size, 0),
      },
    },
    missingUploads,
  };
}
