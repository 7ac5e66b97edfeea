/**
 * The runtime shim: a tiny inline script put first in `<head>` of rendered pages. Their scripts are
 * kept (menus, sliders, and apps that rebuild content from APIs at run time), so when the copy is
 * viewed, requests they build from absolute URLs must reach the copy, never the original site or
 * third parties: an absolute URL on the mirrored site becomes root-relative, any other http(s) host
 * moves under `/_x/<host>/` (exactly as `url-map.ts` lays files out), WebSockets to other hosts are
 * refused, and beacons are dropped.
 */
import { FOREIGN_PREFIX } from '../url-map.js';

/** Path the shim sends refused WebSockets to (same origin, so no request leaves the copy). */
export const BLOCKED_SOCKET_PATH = `${FOREIGN_PREFIX}-/websocket-blocked`;

/**
 * Where an absolute URL lives in the copy of `siteOrigin`: path + query for the site itself,
 * `/_x/[~http/]<host>/<path>` for other hosts (mirrors `UrlMapper.toCopyPath`, fragment dropped).
 * Non-http(s) URLs are returned unchanged. Pure; its source text is also embedded in the shim, so
 * it must stay self-contained (no outer references, no comments in the body).
 */
export function toCopyUrl(url: string, siteOrigin: string): string {
  const u = new URL(url);
  const site = new URL(siteOrigin);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return url;
  const path = u.pathname + u.search;
  if (u.host === site.host) return path;
  const tag = u.protocol !== site.protocol && u.protocol === 'http:' ? '~http/' : '';
  return '/_x/' + tag + u.host + path;
}

/** The inline script (without the `<script>` tags): idempotent, dependency-free, under 2 KB. */
export function runtimeShim(siteOrigin: string): string {
  const origin = new URL(siteOrigin).origin;
  const literal = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c');
  return `(function(){var w=window;if(w.__mirrorShim)return;Object.defineProperty(w,"__mirrorShim",{value:1});
var S=${literal(origin)},M=${toCopyUrl.toString()};
function fix(u){try{var a=new URL(String(u),document.baseURI);if(a.origin===location.origin||!/^https?:$/.test(a.protocol))return u;return M(a.href,S)}catch(e){return u}}
var F=w.fetch;if(F)w.fetch=function(i,o){if(i instanceof Request){var n=fix(i.url);if(n!==i.url)i=new Request(n,i)}else i=fix(i);return F.call(this,i,o)};
var X=w.XMLHttpRequest&&XMLHttpRequest.prototype,O=X&&X.open;if(O)X.open=function(){var a=[].slice.call(arguments);a[1]=fix(a[1]);return O.apply(this,a)};
var E=w.EventSource;if(E)w.EventSource=class extends E{constructor(u,c){super(fix(u),c)}};
var W=w.WebSocket;if(W)w.WebSocket=class extends W{constructor(u,p){var a;try{a=new URL(String(u),location.href)}catch(e){}if(!a||a.host!==location.host)u=(location.protocol==="https:"?"wss://":"ws://")+location.host+${literal(BLOCKED_SOCKET_PATH)};super(u,p)}};
if(navigator.sendBeacon)navigator.sendBeacon=function(){return true};})();`;
}
