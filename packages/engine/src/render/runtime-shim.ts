/**
 * The runtime shim: a tiny inline script put first in `<head>` of rendered and replayed pages.
 * Their scripts are kept (menus, sliders, and apps that rebuild content from APIs at run time), so
 * when the copy is viewed, requests they build from absolute URLs must reach the copy, never the
 * original site: an absolute URL on the mirrored site becomes root-relative, and a host the copy
 * holds files of moves under `/_x/<host>/` (exactly as `url-map.ts` lays files out). A host the
 * copy holds nothing of keeps its address, as the rewrite keeps uncaptured files' (an avatar or an
 * API the run could not capture works as on the site instead of answering 404 in the copy).
 * WebSockets to other hosts are refused, and beacons are dropped.
 */
import { FOREIGN_PREFIX } from '../url-map.js';

/** Path the shim sends refused WebSockets to (same origin, so no request leaves the copy). */
export const BLOCKED_SOCKET_PATH = `${FOREIGN_PREFIX}-/websocket-blocked`;

/**
 * A static export renames files (`/api/items?page=2` → `/api/items@page=2.json`): this script
 * of the export sets `window.__mirrorFiles` (copy path → file) and the shim looks there, so URLs
 * that scripts build at run time reach the same files as in the hosted copy.
 */
export const EXPORT_FILES_SCRIPT = `${FOREIGN_PREFIX}~files.js`;

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

/**
 * The inline script (without the `<script>` tags): idempotent, dependency-free, about 3 KB. Beyond
 * fetch/XHR/EventSource/WebSocket/beacons it rewrites URL attributes that scripts set at run time
 * (innerHTML, outerHTML, insertAdjacentHTML, setAttribute and the src/srcset/href/poster/data
 * properties of loading elements); anchors are left alone, since following a link is not a request
 * the copy makes when it is viewed. `capturedOrigins`: the other hosts' origins the copy holds files
 * of; a URL of any other host keeps its address.
 */
export function runtimeShim(siteOrigin: string, capturedOrigins: readonly string[]): string {
  const origin = new URL(siteOrigin).origin;
  const literal = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  const held = Object.fromEntries(capturedOrigins.map((o) => [o, 1]));
  return `(function(){var w=window;if(w.__mirrorShim)return;Object.defineProperty(w,"__mirrorShim",{value:1});
var S=${literal(origin)},H=${literal(held)},M=${toCopyUrl.toString()};
function fix(u){try{var a=new URL(String(u),document.baseURI),R=w.__mirrorFiles||{};if(!/^https?:$/.test(a.protocol))return u;if(a.origin===location.origin)return R[a.pathname+a.search]||u;if(a.origin!==S&&!H[a.origin])return u;var p=M(a.href,S);return R[p]||p}catch(e){return u}}
var F=w.fetch;if(F)w.fetch=function(i,o){if(i instanceof Request){var n=fix(i.url);if(n!==i.url)i=new Request(n,i)}else i=fix(i);return F.call(this,i,o)};
var X=w.XMLHttpRequest&&XMLHttpRequest.prototype,O=X&&X.open;if(O)X.open=function(){var a=[].slice.call(arguments);a[1]=fix(a[1]);return O.apply(this,a)};
var E=w.EventSource;if(E)w.EventSource=class extends E{constructor(u,c){super(fix(u),c)}};
var W=w.WebSocket;if(W)w.WebSocket=class extends W{constructor(u,p){var a;try{a=new URL(String(u),location.href)}catch(e){}if(!a||a.host!==location.host)u=(location.protocol==="https:"?"wss://":"ws://")+location.host+${literal(BLOCKED_SOCKET_PATH)};super(u,p)}};
if(navigator.sendBeacon)navigator.sendBeacon=function(){return true};
var L={src:1,poster:1,data:1},K={srcset:1,imagesrcset:1};
function fs(v){return String(v).split(",").map(function(p){var t=p.trim().split(/\\s+/);t[0]=fix(t[0]);return t.join(" ")}).join(", ")}
function fa(e,n,v){n=String(n).toLowerCase();if(K[n])return fs(v);if(L[n]||(n==="href"&&/^(LINK|IMAGE|USE|SCRIPT)$/i.test(e.tagName))||(n==="xlink:href"))return fix(v);return v}
var P=Element.prototype,SA=P.setAttribute;P.setAttribute=function(n,v){return SA.call(this,n,fa(this,n,v))};
[["HTMLImageElement","src"],["HTMLImageElement","srcset"],["HTMLScriptElement","src"],["HTMLLinkElement","href"],["HTMLMediaElement","src"],["HTMLSourceElement","src"],["HTMLSourceElement","srcset"],["HTMLIFrameElement","src"],["HTMLVideoElement","poster"],["HTMLEmbedElement","src"],["HTMLObjectElement","data"],["HTMLTrackElement","src"]].forEach(function(x){var C=w[x[0]],k=x[1],d=C&&Object.getOwnPropertyDescriptor(C.prototype,k);if(!d||!d.set)return;Object.defineProperty(C.prototype,k,{configurable:true,enumerable:d.enumerable,get:d.get,set:function(v){d.set.call(this,fa(this,k,v))}})});
var IH=Object.getOwnPropertyDescriptor(P,"innerHTML"),OH=Object.getOwnPropertyDescriptor(P,"outerHTML"),IA=P.insertAdjacentHTML;
function fh(h){h=String(h);if(h.indexOf("//")<0)return h;var t=document.createElement("template");IH.set.call(t,h);t.content.querySelectorAll("*").forEach(function(e){for(var i=0;i<e.attributes.length;i++){var a=e.attributes[i],v=fa(e,a.name,a.value);if(v!==a.value)a.value=v}});return IH.get.call(t)}
if(IH&&IH.set){Object.defineProperty(P,"innerHTML",{configurable:true,enumerable:IH.enumerable,get:IH.get,set:function(v){IH.set.call(this,this instanceof HTMLTemplateElement?v:fh(v))}});
if(OH&&OH.set)Object.defineProperty(P,"outerHTML",{configurable:true,enumerable:OH.enumerable,get:OH.get,set:function(v){OH.set.call(this,fh(v))}});
P.insertAdjacentHTML=function(p,h){return IA.call(this,p,fh(h))}}})();`;
}
