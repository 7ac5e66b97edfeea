/**
 * Code that runs inside the rendered page. It is kept as JavaScript source text (the engine is
 * compiled without the DOM library, and the page never sees TypeScript), evaluated through
 * Playwright as strings. Keep every snippet self-contained: no imports, no outer variables.
 */

/** Name of the hidden page-global the init script fills and the serializer reads. */
export const STATE_KEY = '__mirrorRenderState';

/** Attribute set on `<html>` of every rendered document (the crawler puts the runtime shim first). */
export const RENDERED_ATTRIBUTE = 'data-mirror-rendered';

/**
 * Runs before any page script, in every frame:
 * - remembers CLOSED shadow roots (open ones are reachable through `element.shadowRoot`), so the
 *   serializer can write them as declarative shadow DOM too;
 * - marks style sheets edited through the CSSOM (CSS-in-JS `insertRule`, constructed sheets), whose
 *   rules are then no longer in their `<style>` text;
 * - makes `Math.random` deterministic, so generated ids and A/B buckets are stable across runs;
 * - counts what tells that the page routes on the client (History API calls that change the path
 *   or query, popstate listeners on window) and how many style sheets its scripts edited, for
 *   EVIDENCE_SCRIPT, and the key listeners on the window, document, html or body (a search
 *   shortcut needs one: behaviours press none without).
 */
export const INIT_SCRIPT = `(() => {
  if (Object.prototype.hasOwnProperty.call(window, '${STATE_KEY}')) return;
  const state = { closedRoots: [], dirty: new WeakSet(), editedSheets: 0, historyCalls: 0, routeListeners: 0, keyListeners: 0 };
  Object.defineProperty(window, '${STATE_KEY}', { value: state, enumerable: false });
  const observe = (proto, name, seen) => {
    const original = proto && proto[name];
    if (typeof original !== 'function') return;
    Object.defineProperty(proto, name, {
      configurable: true, writable: true, enumerable: false,
      value: { [name](...args) {
        try { seen(this, args); } catch {}
        return original.apply(this, args);
      } }[name],
    });
  };
  const edited = (sheet) => {
    if (sheet && !state.dirty.has(sheet)) { state.dirty.add(sheet); state.editedSheets++; }
  };
  for (const name of ['insertRule', 'deleteRule', 'addRule', 'removeRule', 'replace', 'replaceSync'])
    observe(window.CSSStyleSheet && CSSStyleSheet.prototype, name, (sheet) => edited(sheet));
  for (const name of ['insertRule', 'deleteRule'])
    observe(window.CSSGroupingRule && CSSGroupingRule.prototype, name, (rule) => edited(rule.parentStyleSheet));
  const originalAttachShadow = Element.prototype.attachShadow;
  Object.defineProperty(Element.prototype, 'attachShadow', {
    configurable: true, writable: true, enumerable: false,
    value: function attachShadow(init) {
      const root = originalAttachShadow.call(this, init);
      if (init && init.mode === 'closed') state.closedRoots.push(root);
      return root;
    },
  });
  // A call that changes only the fragment (a scroll-spy marking the section in view) is no route.
  for (const name of ['pushState', 'replaceState'])
    observe(window.History && History.prototype, name, (_, args) => {
      if (args[2] === undefined || args[2] === null) return;
      const next = new URL(String(args[2]), location.href);
      if (next.pathname !== location.pathname || next.search !== location.search) state.historyCalls++;
    });
  // hashchange listeners are mostly scroll-spies and tabs: only popstate counts as a router's.
  // Key listeners on the window, the document or its root elements are where shortcuts live.
  observe(EventTarget.prototype, 'addEventListener', (target, args) => {
    if (target === window && args[0] === 'popstate') state.routeListeners++;
    if ((args[0] === 'keydown' || args[0] === 'keyup' || args[0] === 'keypress') &&
        (target === window || target === document || target === document.documentElement || target === document.body))
      state.keyListeners++;
  });
  let seed = 0x2f6b4c1d;
  Math.random = function random() {
    seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
})();`;

/**
 * Scrolls the document to the bottom one viewport at a time (lazy images, IntersectionObserver,
 * infinite lists up to `maxSteps`), pausing `delay` ms per step. Resolves with the steps taken.
 */
export const SCROLL_SCRIPT = `async ({ maxSteps, delay }) => {
  const scroller = document.scrollingElement || document.documentElement;
  const step = Math.max(200, Math.floor(window.innerHeight * 0.9));
  let steps = 0;
  for (let y = window.scrollY + step; steps < maxSteps; y += step) {
    window.scrollTo(0, y);
    steps++;
    await new Promise((resolve) => setTimeout(resolve, delay));
    if (y + window.innerHeight >= scroller.scrollHeight) break;
  }
  return scroller.scrollHeight;
}`;

/**
 * What the page's scripts changed that a visitor sees, measured against the static HTML as the
 * server sent it (`html`: its bytes in base64, decoded with the page's charset and parsed without
 * running anything; null compares with an empty document). Run before SERIALIZE_SCRIPT, which
 * edits the DOM. Returns:
 * - `addedText`: characters of visible words the static HTML does not have (a word counted as many
 *   times as it appears more often);
 * - `addedImageUrls`: images whose URL the static HTML does not mention (in any attribute of its
 *   images, sources and links, so a lazy `data-src` swapped into `src` is not new), shown at least
 *   4×4 pixels (a tracking pixel is 1×1 or hidden), the first 200 (the renderer leaves trackers out);
 * - text inside consent banners and chat widgets (a fixed or sticky box named like one) is no
 *   added text;
 * - `addedLinks`: http(s) links the static HTML does not have (the first 200);
 * - `shadowRoots`, `insertedStyles` (style and style-sheet link elements beyond the static ones,
 *   sheets edited through the CSSOM, adopted sheets), `drawnCanvases` (unlike a blank canvas);
 * - `clientRouting`: History API calls that change the path, popstate listeners or handlers.
 */
export const EVIDENCE_SCRIPT = `(options) => {
  const state = window['${STATE_KEY}'] || {};
  const skipped = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'TITLE', 'IFRAME', 'OBJECT']);
  const widgetName = /cookie|consent|gdpr|onetrust|didomi|cookiebot|usercentrics|cmp-|intercom|crisp|drift|tawk|hubspot-messages|zendesk|livechat|chat-widget/i;
  const isWidget = (el) => {
    if (el.nodeName === 'DIALOG' && widgetName.test(el.id + ' ' + el.className)) return true;
    if (!widgetName.test(el.id + ' ' + (typeof el.className === 'string' ? el.className : ''))) return false;
    const position = getComputedStyle(el).position;
    return position === 'fixed' || position === 'sticky';
  };
  let before = null;
  let staticShadowRoots = 0;
  if (options.html !== null) {
    const bytes = Uint8Array.from(atob(options.html), (c) => c.charCodeAt(0));
    let text;
    try { text = new TextDecoder(document.characterSet || 'utf-8').decode(bytes); }
    catch { text = new TextDecoder().decode(bytes); }
    before = new DOMParser().parseFromString(text, 'text/html');
    staticShadowRoots = (text.match(/<template[^>]*\\sshadowrootmode/gi) || []).length;
  }

  const closedByHost = new Map();
  for (const root of state.closedRoots || []) if (root.host) closedByHost.set(root.host, root);
  const treesOf = (doc) => {
    const roots = [doc];
    const seen = new Set();
    for (let i = 0; i < roots.length; i++) {
      const walker = doc.createTreeWalker(roots[i], NodeFilter.SHOW_ELEMENT);
      for (let el = walker.nextNode(); el; el = walker.nextNode()) {
        const root = el.shadowRoot || closedByHost.get(el);
        if (root && !seen.has(root)) { seen.add(root); roots.push(root); }
      }
    }
    return roots;
  };
  const live = treesOf(document);
  const old = before ? [before] : [];
  const all = (roots, selector) => roots.flatMap((root) => Array.from(root.querySelectorAll(selector)));

  const visible = new Map();
  const isVisible = (el) => {
    if (!el || !el.checkVisibility) return true;
    let shown = visible.get(el);
    if (shown === undefined) {
      // display: contents has no box of its own, its children do.
      shown = getComputedStyle(el).display === 'contents'
        ? isVisible(el.parentElement)
        : el.checkVisibility({ visibilityProperty: true });
      visible.set(el, shown);
    }
    return shown;
  };
  const words = (roots, onlyVisible) => {
    const counts = new Map();
    for (const root of roots) {
      const doc = root.ownerDocument || root;
      const walker = doc.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
        acceptNode: (node) => node.nodeType === 1 &&
          (skipped.has(node.nodeName.toUpperCase()) || (onlyVisible && isWidget(node)))
          ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
      });
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.nodeType !== 3 || (onlyVisible && !isVisible(node.parentElement))) continue;
        for (const word of node.data.split(/\\s+/)) if (word) counts.set(word, (counts.get(word) || 0) + 1);
      }
    }
    return counts;
  };
  const staticWords = words(old, false);
  let addedText = 0;
  for (const [word, n] of words(live, true)) {
    const extra = n - (staticWords.get(word) || 0);
    if (extra > 0) addedText += extra * word.length;
  }

  const resolve = (value, base) => {
    try { return new URL(value.trim(), base).href.split('#')[0]; } catch { return ''; }
  };
  const mentioned = new Set();
  if (before) {
    const baseHref = before.querySelector('base[href]');
    const base = (baseHref && resolve(baseHref.getAttribute('href'), options.url)) || options.url;
    for (const el of all(old, 'img, source, image, video, input, picture, a, area, link')) {
      for (const attr of Array.from(el.attributes)) {
        mentioned.add(resolve(attr.value, base));
        for (const part of attr.value.split(',')) {
          const token = part.trim().split(/\\s+/)[0];
          if (token) mentioned.add(resolve(token, base));
        }
      }
    }
  }
  const addedImageUrls = [];
  for (const img of all(live, 'img, image')) {
    const url = img.currentSrc || img.src || (img.href && img.href.baseVal) || '';
    if (!url || mentioned.has(resolve(url, document.baseURI))) continue;
    const box = img.getBoundingClientRect();
    const natural = img.naturalWidth === undefined || (img.naturalWidth >= 4 && img.naturalHeight >= 4);
    if (box.width < 4 || box.height < 4 || !natural || !isVisible(img)) continue;
    if (addedImageUrls.length < 200) addedImageUrls.push(resolve(url, document.baseURI));
  }
  const addedLinks = [];
  // Links within the page (#top) lead nowhere new.
  const linked = new Set([resolve(location.href, location.href)]);
  for (const a of all(live, 'a[href], area[href]')) {
    const url = resolve(a.href, document.baseURI);
    if (!/^https?:/.test(url) || mentioned.has(url) || linked.has(url)) continue;
    linked.add(url);
    if (addedLinks.length < 200) addedLinks.push(url);
  }

  const styles = 'style, link[rel~="stylesheet" i]';
  let adopted = 0;
  for (const root of live) adopted += (root.adoptedStyleSheets || []).length;
  const insertedStyles = Math.max(0, all(live, styles).length - all(old, styles).length) +
    (state.editedSheets || 0) + adopted;

  let drawnCanvases = 0;
  for (const canvas of all(live, 'canvas')) {
    if (!canvas.width || !canvas.height) continue;
    try {
      const blank = document.createElement('canvas');
      blank.width = canvas.width;
      blank.height = canvas.height;
      if (canvas.toDataURL() !== blank.toDataURL()) drawnCanvases++;
    } catch {
      drawnCanvases++;
    }
  }

  return {
    addedText,
    addedImageUrls,
    addedLinks,
    shadowRoots: Math.max(0, live.length - 1 - staticShadowRoots),
    insertedStyles,
    drawnCanvases,
    clientRouting: (state.historyCalls || 0) > 0 || (state.routeListeners || 0) > 0 ||
      typeof window.onpopstate === 'function',
  };
}`;

/**
 * Serializes the rendered DOM (one synchronous pass, so no page script runs in between; the live
 * DOM is edited on the way, the page is thrown away afterwards). Returns
 * `{ html, textLength }`, `html` being the doctype plus the `<html>` element.
 */
export const SERIALIZE_SCRIPT = `(options) => {
  const state = window['${STATE_KEY}'] || { closedRoots: [], dirty: new WeakSet() };
  const textLength = document.body ? document.body.innerText.length : 0;

  // Elements injected by Playwright tooling or by us.
  for (const el of document.querySelectorAll('x-pw-glass, x-pw-tooltip, x-pw-highlight, [data-mirror-injected]')) el.remove();

  // Every tree to process: the document, then each shadow root (open, or closed and remembered).
  const closedByHost = new Map();
  for (const root of state.closedRoots) if (root.host) closedByHost.set(root.host, root);
  const roots = [document];
  const shadowRoots = [];
  const seen = new Set();
  for (let i = 0; i < roots.length; i++) {
    const walker = document.createTreeWalker(roots[i], NodeFilter.SHOW_ELEMENT);
    for (let el = walker.nextNode(); el; el = walker.nextNode()) {
      const root = el.shadowRoot || closedByHost.get(el);
      if (root && !seen.has(root)) { seen.add(root); shadowRoots.push(root); roots.push(root); }
    }
  }
  const all = (selector) => roots.flatMap((root) => Array.from(root.querySelectorAll(selector)));

  const rulesText = (sheet) => {
    try { return Array.from(sheet.cssRules, (rule) => rule.cssText).join('\\n'); } catch { return null; }
  };
  const countRules = (rules) => Array.from(rules).filter((rule) => !(rule instanceof CSSImportRule)).length;

  // (a) <style> elements whose rules were written through the CSSOM.
  let cssomStyles = 0;
  for (const style of all('style')) {
    const sheet = style.sheet;
    if (!sheet) continue;
    let rules;
    try { rules = sheet.cssRules; } catch { continue; }
    const text = style.textContent || '';
    let edited = state.dirty.has(sheet) || (rules.length > 0 && text.trim() === '');
    if (!edited && rules.length > 0 && text.length < options.maxProbeChars) {
      try {
        const probe = new CSSStyleSheet();
        probe.replaceSync(text);
        edited = countRules(probe.cssRules) !== countRules(rules);
      } catch {}
    }
    if (!edited) continue;
    const rebuilt = rulesText(sheet);
    if (rebuilt !== null && rebuilt !== text) { style.textContent = rebuilt; cssomStyles++; }
  }

  // (b) adopted (constructed) style sheets, of the document and of every shadow root.
  let adopted = 0;
  for (const root of roots) {
    const sheets = root.adoptedStyleSheets || [];
    if (sheets.length === 0) continue;
    const text = sheets.map(rulesText).filter((t) => t).join('\\n');
    if (!text) continue;
    const style = document.createElement('style');
    style.setAttribute('data-mirror-adopted', '');
    style.textContent = text;
    if (root === document) (document.head || document.documentElement).appendChild(style);
    else root.appendChild(style);
    adopted++;
  }

  // (d) canvases become images of their current pixels (tainted canvases cannot be read).
  let canvases = 0;
  for (const canvas of all('canvas')) {
    if (!canvas.width || !canvas.height) continue;
    let src;
    try { src = canvas.toDataURL(); } catch { continue; }
    if (!src || src === 'data:,') continue;
    const img = document.createElement('img');
    for (const attr of Array.from(canvas.attributes)) {
      if (attr.name !== 'width' && attr.name !== 'height') img.setAttribute(attr.name, attr.value);
    }
    const box = canvas.getBoundingClientRect();
    img.setAttribute('width', String(Math.round(box.width) || canvas.width));
    img.setAttribute('height', String(Math.round(box.height) || canvas.height));
    if (!img.style.width) img.style.width = (box.width || canvas.width) + 'px';
    if (!img.style.height) img.style.height = (box.height || canvas.height) + 'px';
    const display = getComputedStyle(canvas).display;
    if (display && display !== 'inline') img.style.display = display;
    img.setAttribute('data-mirror-canvas', '');
    if (!img.hasAttribute('alt')) img.setAttribute('alt', '');
    img.src = src;
    canvas.replaceWith(img);
    canvases++;
  }

  // (e) form state into attributes (never passwords or file names).
  for (const input of all('input')) {
    const type = (input.type || '').toLowerCase();
    if (type === 'checkbox' || type === 'radio') {
      if (input.checked !== input.hasAttribute('checked')) input.toggleAttribute('checked', input.checked);
    } else if (type !== 'password' && type !== 'file') {
      if (input.value !== (input.getAttribute('value') || '')) input.setAttribute('value', input.value);
    }
  }
  for (const area of all('textarea')) if (area.value !== area.textContent) area.textContent = area.value;
  for (const option of all('option')) {
    if (option.selected !== option.hasAttribute('selected')) option.toggleAttribute('selected', option.selected);
  }

  // (f) mark the document: the crawler inserts the runtime shim before the kept scripts.
  document.documentElement.setAttribute('${RENDERED_ATTRIBUTE}', '');

  // (c) open and remembered closed shadow roots as declarative shadow DOM.
  const html = document.documentElement;
  const open = html.cloneNode(false).outerHTML;
  const startTag = open.slice(0, open.lastIndexOf('</'));
  let inner;
  if (typeof html.getHTML === 'function') {
    inner = html.getHTML({ serializableShadowRoots: true, shadowRoots });
  } else {
    for (const root of shadowRoots.slice().reverse()) {
      const template = document.createElement('template');
      template.setAttribute('shadowrootmode', root.mode);
      if (root.delegatesFocus) template.setAttribute('shadowrootdelegatesfocus', '');
      template.innerHTML = root.innerHTML;
      root.host.insertBefore(template, root.host.firstChild);
    }
    inner = html.innerHTML;
  }
  const dt = document.doctype;
  const doctype = dt
    ? '<!DOCTYPE ' + dt.name + (dt.publicId ? ' PUBLIC "' + dt.publicId + '"' : '') +
      (dt.systemId ? (dt.publicId ? '' : ' SYSTEM') + ' "' + dt.systemId + '"' : '') + '>\\n'
    : '';
  return {
    html: doctype + startTag + inner + '</html>',
    textLength,
    stats: { shadowRoots: shadowRoots.length, cssomStyles, adopted, canvases },
  };
}`;
