import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MirrorError, mirror } from './crawl/mirror.js';
import { ArchiveError } from './archive/errors.js';
import { exportStatic } from './export/export-static.js';
import { formatFidelitySummary } from './fidelity/summary.js';
import { createFsBlobStore } from './storage/fs-blob-store.js';
import {
  failedCount,
  type Manifest,
  type MirrorOptions,
  type ProgressEvent,
  type RenderMode,
} from './types.js';

/** What the archives written name as their software. */
const SOFTWARE = 'Mirror (mirror CLI)';

const USAGE = `Usage: mirror <url> --out <dir> [options]
       mirror import <archive.wacz|.warc|.warc.gz> --out <dir> [options]

Copies a website into <dir> as a static folder any web server can serve. With import, the copy
is made from a web archive (WACZ or WARC, e.g. from wget --warc-file or Browsertrix) with no
request to the site.

Options:
  --out <dir>                 where the static copy is written (required)
  --warc <file.warc.gz>       also write the responses as fetched as a WARC file
  --wacz <file.wacz>          also write them as a WACZ (opens in ReplayWeb.page)
  --url <url>                 with import: the page the copy starts from (default: the archive's
                              first page)
  --max-pages <n>             stop after n pages (default 5000)
  --max-files <n>             stop after n files, pages and assets together (default 100000)
  --depth <n>                 follow links at most n levels from the start page
  --max-bytes <n>             stop after n bytes
  --max-time <seconds>        stop after this long
  --render <auto|always|never>  render pages built by JavaScript in Chromium (default auto)
  --include-subdomains        also follow links to subdomains of the site
  --include <regex>           only follow page URLs matching (repeatable)
  --exclude <regex>           skip URLs matching (repeatable)
  --ignore-robots             ignore robots.txt (for your own site)
  --allow-private-networks    allow loopback and private addresses (your own intranet)
  --concurrency <n>           pages fetched at once per host (assets: about 3x)
  --blobs <dir>               keep the content store here (re-runs only fetch what changed)
  --verify                    check the copy against the original in Chromium afterwards, page by
                              page; capture again what falls short; print a summary and write
                              <dir>/fidelity.json (exit code 5 when a page stays below threshold)
  --verify-pages <n>          pages checked at most: all of a small site, else a sample (default 10)
  --verify-shots              with --verify, also write the screenshots to <dir>/.fidelity/
  --quiet                     no progress output
  -h, --help                  this help
`;

/**
 * Where a run without --blobs keeps its store: beside the output folder, on its file system, so
 * that files are renamed into the folder rather than copied there, and a large site does not fill
 * a /tmp held in memory (tmpfs, as on Debian 13 and Fedora). In the system's temporary folder only
 * when the output's parent cannot take it.
 */
async function scratchDir(out: string): Promise<string> {
  const parent = path.dirname(path.resolve(out));
  try {
    await fs.mkdir(parent, { recursive: true });
    return await fs.mkdtemp(path.join(parent, '.mirror-scratch-'));
  } catch {
    return fs.mkdtemp(path.join(os.tmpdir(), 'mirror-blobs-'));
  }
}

/**
 * Exit codes: 0 done, 2 bad input, 3 refused address, 4 nothing fetched, 5 (with --verify) a page
 * stays below the fidelity threshold, 1 anything else.
 */
export async function main(
  argv: string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream & { isTTY?: boolean; columns?: number } = process.stderr,
): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        warc: { type: 'string' },
        wacz: { type: 'string' },
        url: { type: 'string' },
        'max-pages': { type: 'string' },
        'max-files': { type: 'string' },
        depth: { type: 'string' },
        'max-bytes': { type: 'string' },
        'max-time': { type: 'string' },
        render: { type: 'string' },
        'include-subdomains': { type: 'boolean' },
        include: { type: 'string', multiple: true },
        exclude: { type: 'string', multiple: true },
        'ignore-robots': { type: 'boolean' },
        'allow-private-networks': { type: 'boolean' },
        concurrency: { type: 'string' },
        blobs: { type: 'string' },
        verify: { type: 'boolean' },
        'verify-pages': { type: 'string' },
        'verify-shots': { type: 'boolean' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    err.write(`mirror: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = args;
  if (values.help) {
    out.write(USAGE);
    return 0;
  }
  const problems: string[] = [];
  const importing = positionals[0] === 'import';
  const operands = importing ? positionals.slice(1) : positionals;
  const archiveFile = importing ? operands[0] : undefined;
  const url = importing ? values.url : operands[0];
  if (importing && !archiveFile) problems.push('an archive to import is required');
  if (!importing && !url) problems.push('a URL to mirror is required');
  if (!importing && values.url !== undefined) problems.push('--url is for import');
  if (operands.length > 1) problems.push(`unexpected arguments: ${operands.slice(1).join(' ')}`);
  if (archiveFile && !(await isFile(archiveFile))) problems.push(`no such file: ${archiveFile}`);
  if (!values.out) problems.push('--out <dir> is required');
  const int = (name: string, value: string | undefined, min = 1): number | undefined => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) problems.push(`--${name} must be a whole number ≥ ${min}`);
    return n;
  };
  const maxPages = int('max-pages', values['max-pages']);
  const maxFiles = int('max-files', values['max-files']);
  const depth = int('depth', values.depth, 0);
  const maxBytes = int('max-bytes', values['max-bytes']);
  const maxTime = int('max-time', values['max-time']);
  const concurrency = int('concurrency', values.concurrency);
  const verifyPages = int('verify-pages', values['verify-pages']) ?? 10;
  if ((values['verify-pages'] !== undefined || values['verify-shots']) && !values.verify)
    problems.push('--verify-pages and --verify-shots need --verify');
  const render = (values.render ?? 'auto') as RenderMode;
  if (!['auto', 'always', 'never'].includes(render))
    problems.push('--render must be auto, always or never');
  const patterns = (name: string, list: string[] | undefined) =>
    (list ?? []).flatMap((p) => {
      try {
        return [new RegExp(p)];
      } catch {
        problems.push(`--${name} ${p} is not a valid regular expression`);
        return [];
      }
    });
  const include = patterns('include', values.include);
  const exclude = patterns('exclude', values.exclude);
  if (url) {
    const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
    try {
      const parsed = new URL(withScheme);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
        problems.push(`only http and https addresses can be mirrored, not ${parsed.protocol}`);
    } catch {
      problems.push(`not a valid URL: ${url}`);
    }
  }
  if (problems.length > 0) {
    err.write(`mirror: ${problems.join('\nmirror: ')}\n\n${USAGE}`);
    return 2;
  }

  const startUrl = url && (/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`);
  const blobDir = values.blobs ?? (await scratchDir(values.out!));
  // Without --blobs the store lives for this run only: the scratch layout, and files moved out.
  const store = createFsBlobStore(blobDir, { scratch: !values.blobs });
  const manifestFile = path.join(blobDir, 'manifest.json');
  const previous = values.blobs ? await readManifest(manifestFile) : undefined;
  const progress = values.quiet ? undefined : createProgressPrinter(err);
  const controller = new AbortController();
  const stop = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // What each document references, so that the export parses only those a renamed file concerns.
  const references = new Map<string, ReadonlySet<string>>();
  try {
    const common = {
      store,
      signal: controller.signal,
      render,
      allowPrivateNetworks: values['allow-private-networks'] ?? false,
      includeSubdomains: values['include-subdomains'] ?? false,
      // Each response's headers are kept for what reads them: an archive, or the next run's
      // revalidation from --blobs. A run that writes a folder only does without (2 to 3% of its CPU).
      captureLog: [values.blobs, values.warc, values.wacz].some((v) => v !== undefined),
      onDocumentReferences: (copyPath, copyPaths) => references.set(copyPath, copyPaths),
      ...(include.length ? { include } : {}),
      ...(exclude.length ? { exclude } : {}),
      ...(maxPages !== undefined ? { maxPages } : {}),
      ...(maxFiles !== undefined ? { maxFiles } : {}),
      ...(depth !== undefined ? { maxDepth: depth } : {}),
      ...(maxBytes !== undefined ? { maxBytes } : {}),
      ...(maxTime !== undefined ? { maxTimeMs: maxTime * 1000 } : {}),
      ...(concurrency !== undefined
        ? { concurrency: { pages: concurrency, assets: concurrency * 3 } }
        : {}),
      ...(previous ? { previous } : {}),
      ...(progress ? { onProgress: progress.update } : {}),
    } satisfies Omit<MirrorOptions, 'url'>;
    // An archive is read into the store first; the copy, and --verify, are made against it.
    // Archives, and the check in a browser, are loaded only by the runs that use them: a plain
    // run starts without their modules (docs/engine.md, "Start-up").
    let manifest: Manifest;
    let archiveClient: MirrorOptions['client'];
    if (archiveFile) {
      const [{ openArchive, createArchiveClient }, { importArchive }] = await Promise.all([
        import('./archive/index.js'),
        import('./crawl/import-archive.js'),
      ]);
      const archive = await openArchive(archiveFile, { store, maxBytes: Number.MAX_SAFE_INTEGER });
      archiveClient = createArchiveClient(archive);
      manifest = await importArchive({
        ...common,
        archive,
        name: path.basename(archiveFile),
        ...(startUrl ? { url: startUrl } : {}),
      });
    } else {
      manifest = await mirror({
        ...common,
        url: startUrl!,
        respectRobots: !values['ignore-robots'],
      });
    }
    progress?.finish();
    for (const [format, file] of [
      ['warc', values.warc],
      ['wacz', values.wacz],
    ] as const) {
      if (!file) continue;
      const { writeVersionArchive } = await import('./export/export-archive.js');
      const archived = await writeVersionArchive({
        manifest,
        store,
        file,
        format,
        software: SOFTWARE,
      });
      out.write(
        `Wrote ${file} (${formatBytes(archived.bytes)}, ${archived.records} records, ${archived.pages} pages)\n`,
      );
    }
    const written = await exportStatic(manifest, store, values.out!, {
      // --verify may export again after a repair: the store must keep its blobs until then.
      placeBlobs: values.blobs ? 'copy' : values.verify ? 'link' : 'move',
      references,
    });
    const s = manifest.stats;
    out.write(
      `Mirrored ${s.pages} pages and ${s.assets} files (${formatBytes(s.bytes)}) in ${(s.durationMs / 1000).toFixed(1)} s` +
        `${s.peakRequests ? ` (at most ${s.peakRequests} requests at once)` : ''}` +
        `${s.notModified ? `, ${s.notModified} unchanged` : ''}; ${failedCount(manifest)} failed. Wrote ${written.files} files to ${values.out}\n`,
    );
    printFailures(manifest, err);
    let final = manifest;
    let code = 0;
    if (values.verify) {
      if (!values.quiet)
        err.write(
          `Checking the copy against the ${archiveClient ? 'archive' : 'original'} (up to ${verifyPages} pages)…\n`,
        );
      const { FIDELITY_REPORT_FILE, verifyExport } = await import('./fidelity/verify-export.js');
      const verified = await verifyExport({
        manifest,
        store,
        dir: values.out!,
        maxPages: verifyPages,
        shots: values['verify-shots'] ?? false,
        placeBlobs: values.blobs ? 'copy' : 'link',
        signal: controller.signal,
        mirror: {
          store,
          ...(archiveClient ? { client: archiveClient } : {}),
          // A page that falls short is captured again with the render tier, unless told never.
          render: render === 'never' ? 'never' : 'always',
          respectRobots: !values['ignore-robots'],
          allowPrivateNetworks: values['allow-private-networks'] ?? false,
          includeSubdomains: values['include-subdomains'] ?? false,
          signal: controller.signal,
        },
      });
      final = verified.manifest;
      out.write(formatFidelitySummary(verified.report));
      out.write(`Wrote ${path.join(values.out!, FIDELITY_REPORT_FILE)}\n`);
      if (verified.report.summary.belowThreshold > 0) code = 5;
    }
    if (values.blobs) await fs.writeFile(manifestFile, JSON.stringify(final));
    else await fs.rm(blobDir, { recursive: true, force: true });
    return code;
  } catch (e) {
    progress?.finish();
    if (!values.blobs) await fs.rm(blobDir, { recursive: true, force: true });
    if (e instanceof ArchiveError) {
      err.write(`mirror: ${e.message}\n`);
      return 2;
    }
    if (e instanceof MirrorError) {
      err.write(`mirror: ${e.message}\n`);
      return e.code === 'invalid-url'
        ? 2
        : e.code === 'refused-address'
          ? 3
          : e.code === 'nothing-fetched'
            ? 4
            : 1;
    }
    err.write(`mirror: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }
}

async function isFile(file: string): Promise<boolean> {
  return (await fs.stat(file).catch(() => null))?.isFile() ?? false;
}

async function readManifest(file: string): Promise<Manifest | undefined> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

function printFailures(manifest: Manifest, err: NodeJS.WritableStream): void {
  const total = failedCount(manifest);
  if (total === 0) return;
  const byReason = Object.entries(manifest.failureCounts ?? {});
  err.write(`Failed: ${byReason.map(([r, n]) => `${n} ${r}`).join(', ')}\n`);
  for (const f of manifest.failures.slice(0, 20))
    err.write(`  ${f.reason.padEnd(15)} ${f.url} (${f.detail})\n`);
  if (total > 20) err.write(`  … and ${total - 20} more\n`);
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

/** A one-line bar on a terminal; a plain line every few seconds otherwise (logs, CI). */
function createProgressPrinter(
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number },
) {
  const tty = stream.isTTY === true;
  let lastPlain = 0;
  let drawn = false;
  const line = (e: ProgressEvent) => {
    const eta =
      e.estimatedTime === null
        ? ''
        : e.estimatedTime === 0
          ? ' · almost done'
          : ` ~${e.estimatedTime}s left`;
    return `${e.phase} ${Math.round(e.progress * 100)}% · pages ${e.pages.done}/${e.pages.found}, files ${e.files.done}/${e.files.found}, ${e.inFlight} in flight, ${e.failed} failed · ${formatBytes(e.bytes)}${eta}`;
  };
  return {
    update(e: ProgressEvent) {
      if (tty) {
        const width = 24;
        const filled = Math.round(e.progress * width);
        const text = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${line(e)}`;
        stream.write(
          `\r${text.slice(0, (stream.columns ?? 120) - 1).padEnd(Math.min(stream.columns ?? 120, 160) - 1)}`,
        );
        drawn = true;
      } else if (Date.now() - lastPlain > 2000 || e.phase === 'done') {
        lastPlain = Date.now();
        stream.write(`${line(e)}\n`);
      }
    },
    finish() {
      if (tty && drawn) stream.write('\n');
    },
  };
}
