export type { Ref, RefKind, RefVisitor, RenderHints } from './types.js';
export { processHtml, htmlCharsetRewrite } from './html.js';
export type { ProcessHtmlOptions, ProcessHtmlResult } from './html.js';
export { processCss, cssCharsetRewrite } from './css.js';
export { processWebManifest } from './manifest.js';
export { parseSrcset, serializeSrcset } from './srcset.js';
export type { SrcsetCandidate } from './srcset.js';
export { decodeBody, prescanHtml, charsetFromContentType, encodingForLabel } from './charset.js';
export { scriptMayBuildContent } from './script-scan.js';
