import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchLocale, type LocaleCode } from '@mirror/contract';
import { readBlob, type BlobStore, type Manifest } from '@mirror/engine';
import { escapeUTF8 } from 'entities';
import { SECURITY_HEADERS } from '../../hosting/site-index.js';
import { FORM_TEXTS } from './form-texts.js';

/**
 * What the sites host answers itself on a copy's behalf (a form's thank-you page, its notice, the
 * site search's results): small pages in the site's language, never cached, with the host's own
 * security headers.
 */
export function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  extra: Record<string, string> = {},
): void {
  const buffer = Buffer.from(body);
  const head: Record<string, string> = {
    'content-type': type,
    'content-length': String(buffer.length),
    'cache-control': 'no-store',
    ...extra,
  };
  for (let i = 0; i < SECURITY_HEADERS.length; i += 2)
    head[SECURITY_HEADERS[i]!] = SECURITY_HEADERS[i + 1]!;
  res.writeHead(status, head);
  if (req.method === 'HEAD') res.end();
  else res.end(buffer);
}

/** A page of the host's own: `inner` is HTML the caller escaped. */
export function hostPage(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  locale: LocaleCode,
  title: string,
  inner: string,
): void {
  const html = `<!doctype html><html lang="${locale}" dir="${locale === 'ar' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeUTF8(title)}</title>
<style>body{font:16px/1.6 system-ui,sans-serif;color:#1d2233;background:#f7f8fb;margin:0;display:grid;place-items:center;min-height:100vh}main{background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002;padding:2rem;margin:1rem;max-width:40rem;width:calc(100% - 6rem);overflow-wrap:anywhere}h1{font-size:1.5rem;margin:0 0 .5rem}a{color:#3147c9}ol{padding-inline-start:1.2rem}li{margin:.8rem 0}li p{margin:.2rem 0;color:#4a5068}input{font:inherit;padding:.4rem;width:min(20rem,100%)}button{font:inherit;padding:.4rem .8rem}</style></head>
<body><main><h1>${escapeUTF8(title)}</h1>${inner}</main></body></html>`;
  send(req, res, status, 'text/html; charset=utf-8', html);
}

/** A title, a sentence and a link back to where the visitor was (a path of the copy). */
export function textPage(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  locale: LocaleCode,
  title: string,
  body: string,
  fromPage: string | undefined,
): void {
  const back = fromPage !== undefined && !fromPage.startsWith('//') ? fromPage : '/';
  hostPage(
    req,
    res,
    status,
    locale,
    title,
    `${body ? `<p>${escapeUTF8(body)}</p>` : ''}<p><a href="${escapeUTF8(back)}">${escapeUTF8(FORM_TEXTS[locale].back)}</a></p>`,
  );
}

/** The language of the copy's start page (`<html lang>`), among the app's; English else. */
export async function siteLocaleOf(blobs: BlobStore, manifest: Manifest): Promise<LocaleCode> {
  const entry = manifest.entries.find((e) => e.path === manifest.entryPath);
  if (!entry?.hash) return 'en';
  try {
    const head = (await readBlob(blobs, entry.hash)).subarray(0, 4096).toString('utf8');
    const lang = /<html[^>]*\slang\s*=\s*["']?([A-Za-z-]{2,20})/i.exec(head)?.[1];
    return (lang && matchLocale([lang])) || 'en';
  } catch {
    return 'en';
  }
}
