import { charsetFromMetaContent, encodingForLabel } from './charset.js';
import { rewriteCss } from './css.js';
import {
  DATA_URL_VALUE,
  getAttr,
  ITEMPROP_IMAGE,
  LAZY_BACKGROUND,
  LAZY_SINGLE,
  LAZY_SRCSET,
  linkKind,
  lower,
  MEDIA_EXT,
  Ns,
  OG_IMAGE,
  OG_MEDIA,
  splitRefresh,
  URL_ATTRIBUTES,
  type Tag,
} from './html-tables.js';
import type { ScannedAttr } from './html-scan.js';
import type { RefSink } from './sink.js';
import { trimAscii } from './sink.js';
import { rewriteSrcset } from './srcset.js';
import type { RefKind } from './types.js';

/** Where an attribute's references resolve and go (the walk, at the attribute). */
export interface AttrScope {
  /** The document base URL (`<base href>`, else the document's). */
  readonly base: string;
  readonly documentUrl: string;
  readonly sink: RefSink;
  /** The page will be served as UTF-8: charset declarations say so. */
  readonly forceUtf8: boolean;
  /** An `<iframe srcdoc>` document, processed with the same base. */
  nested(html: string, sink: RefSink): string;
}

function one(at: AttrScope, value: string, kind: RefKind, context: string): string | undefined {
  return at.sink.visit(value, at.base, kind, context);
}

function css(at: AttrScope, value: string, context: string): string | undefined {
  const out = rewriteCss(value, at.base, at.sink.scoped(context), 'declarations');
  return out === value ? undefined : out;
}

/** The rewritten value of one attribute, or undefined to keep it. */
export function attributeValue(at: AttrScope, tag: Tag, attr: ScannedAttr): string | undefined {
  const el = tag;
  const name = tag.name;
  const key = attr.name;
  if (key === 'style') return css(at, attr.value, '[style]');

  if (tag.ns === Ns.Svg) {
    if (key === 'href' || key === 'xlink:href') {
      const ctx = `${name === 'feimage' ? 'feImage' : name}[${key}]`;
      const kind: RefKind =
        name === 'image' || name === 'feimage'
          ? 'image'
          : name === 'a'
            ? 'page'
            : name === 'script'
              ? 'script'
              : 'asset';
      return one(at, attr.value, kind, ctx);
    }
    return /url\(/i.test(attr.value) ? css(at, attr.value, `${name}[${key}]`) : undefined;
  }
  if (tag.ns !== Ns.Html) return undefined;
  if (!URL_ATTRIBUTES.has(key) && !key.startsWith('data-')) return undefined;
  const ctx = `${name}[${key}]`;

  switch (key) {
    case 'src':
      switch (name) {
        case 'img':
          return one(at, attr.value, 'image', ctx);
        case 'script':
          return one(
            at,
            attr.value,
            lower(getAttr(el, 'type')) === 'module' ? 'module' : 'script',
            ctx,
          );
        case 'iframe':
        case 'frame':
          return one(at, attr.value, 'frame', ctx);
        case 'embed':
          return one(at, attr.value, 'asset', ctx);
        case 'source':
          return one(at, attr.value, tag.inMedia ? 'media' : 'image', ctx);
        case 'track':
        case 'audio':
        case 'video':
          return one(at, attr.value, 'media', ctx);
        case 'input':
          return lower(getAttr(el, 'type')) === 'image'
            ? one(at, attr.value, 'image', ctx)
            : undefined;
      }
      return undefined;
    case 'srcset':
      return name === 'img' || name === 'source'
        ? rewriteSrcset(attr.value, at.base, at.sink, 'image', ctx)
        : undefined;
    case 'imagesrcset':
      return name === 'link'
        ? rewriteSrcset(attr.value, at.base, at.sink, 'image', ctx)
        : undefined;
    case 'srcdoc': {
      if (name !== 'iframe') return undefined;
      const nested = at.nested(attr.value, at.sink.scoped('iframe[srcdoc]'));
      return nested === attr.value ? undefined : nested;
    }
    case 'poster':
      return name === 'video' ? one(at, attr.value, 'image', ctx) : undefined;
    case 'data':
      if (name !== 'object') return undefined;
      return one(at, attr.value, /html/.test(lower(getAttr(el, 'type'))) ? 'frame' : 'asset', ctx);
    case 'href':
      switch (name) {
        case 'a':
        case 'area':
          return one(at, attr.value, 'page', ctx);
        case 'base':
          return at.sink.visit(attr.value, at.documentUrl, 'page', 'base');
        case 'link': {
          const kind = linkKind(el);
          if (kind === null) return undefined;
          const rel = lower(getAttr(el, 'rel')).replace(/[\t\n\f\r ]+/g, ' ');
          return one(at, attr.value, kind, `link[rel=${rel}]`);
        }
      }
      return undefined;
    case 'action':
      return name === 'form' ? one(at, attr.value, 'page', ctx) : undefined;
    case 'formaction':
      return name === 'button' || name === 'input' ? one(at, attr.value, 'page', ctx) : undefined;
    case 'background':
      return /^(?:body|table|thead|tbody|tfoot|tr|td|th)$/.test(name)
        ? one(at, attr.value, 'image', ctx)
        : undefined;
    case 'content':
      return name === 'meta' ? metaContent(at, el, attr.value) : undefined;
    case 'charset':
      return name === 'meta' && at.forceUtf8 && encodingForLabel(attr.value) !== 'utf-8'
        ? 'utf-8'
        : undefined;
  }
  if (!key.startsWith('data-')) return undefined;
  if (LAZY_SINGLE.has(key)) return one(at, attr.value, lazyKind(tag, key), ctx);
  if (LAZY_SRCSET.has(key)) return rewriteSrcset(attr.value, at.base, at.sink, 'image', ctx);
  if (LAZY_BACKGROUND.has(key)) {
    return /url\(/i.test(attr.value) ? css(at, attr.value, ctx) : one(at, attr.value, 'image', ctx);
  }
  if (key === 'data-bgset') {
    // lazysizes: srcset candidates sets separated by `|`
    let changed = false;
    const parts = attr.value.split('|').map((part) => {
      const next = rewriteSrcset(part, at.base, at.sink, 'image', ctx);
      if (next === undefined) return part;
      changed = true;
      return next;
    });
    return changed ? parts.join(' | ') : undefined;
  }
  const trimmed = trimAscii(attr.value);
  if (DATA_URL_VALUE.test(trimmed)) {
    return one(at, attr.value, MEDIA_EXT.test(trimmed) ? 'media' : 'image', ctx);
  }
  return undefined;
}

function lazyKind(tag: Tag, key: string): RefKind {
  if (key === 'data-poster') return 'image';
  switch (tag.name) {
    case 'iframe':
      return 'frame';
    case 'video':
    case 'audio':
      return 'media';
    case 'source':
      return tag.inMedia ? 'media' : 'image';
    case 'script':
      return 'script';
    default:
      return 'image';
  }
}

function metaContent(at: AttrScope, el: Tag, value: string): string | undefined {
  const httpEquiv = lower(getAttr(el, 'http-equiv'));
  if (httpEquiv === 'refresh') {
    const parts = splitRefresh(value);
    if (!parts) return undefined;
    const next = one(at, parts.url, 'page', 'meta[http-equiv=refresh]');
    return next === undefined ? undefined : `${parts.before}${next}${parts.after}`;
  }
  if (httpEquiv === 'content-type') {
    if (!at.forceUtf8) return undefined;
    const declared = charsetFromMetaContent(value);
    if (declared === undefined || encodingForLabel(declared) === 'utf-8') return undefined;
    return value.replace(
      /(charset[\t\n\f\r ]*=[\t\n\f\r ]*)(["']?)[^\t\n\f\r ;"']*\2/i,
      '$1$2utf-8$2',
    );
  }
  const property = getAttr(el, 'property');
  const name = getAttr(el, 'name');
  const itemprop = getAttr(el, 'itemprop');
  for (const [attr, raw] of [
    ['property', property],
    ['name', name],
  ] as const) {
    const key = lower(raw);
    if (key === '') continue;
    if (OG_IMAGE.has(key) || (key.startsWith('msapplication-') && key.endsWith('logo'))) {
      return one(at, value, 'image', `meta[${attr}=${key}]`);
    }
    if (OG_MEDIA.has(key)) return one(at, value, 'media', `meta[${attr}=${key}]`);
    if (key === 'msapplication-config') return one(at, value, 'asset', `meta[${attr}=${key}]`);
  }
  if (itemprop !== undefined && ITEMPROP_IMAGE.has(lower(itemprop))) {
    return one(at, value, 'image', `meta[itemprop=${lower(itemprop)}]`);
  }
  return undefined;
}
