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
 * - makes `Math.random` deterministic, so generated ids and A/B buckets are stable across runs.
 */
export const INIT_SCRIPT = `(() => {
  if (Object.prototype.hasOwnProperty.call(window, '${STATE_KEY}')) return;
  const state = { closedRoots: [], dirty: new WeakSet() };
  Object.defineProperty(window, '${STATE_KEY}', { value: state, enumerable: false });
  const wrap = (proto, names, sheetOf) => {
    if (!proto) return;
    for (const name of names) {
      const original = proto[name];
      if (typeof original !== 'function') continue;
      Object.defineProperty(proto, name, {
        configurable: true, writable: true, enumerable: false,
        value: { [name](...args) {
          try { const sheet = sheetOf(this); if (sheet) state.dirty.add(sheet); } catch {}
          return original.apply(this, args);
        } }[name],
      });
    }
  };
  wrap(window.CSSStyleSheet && CSSStyleSheet.prototype,
    ['insertRule', 'deleteRule', 'addRule', 'removeRule', 'replace', 'replaceSync'], (s) => s);
  wrap(window.CSSGroupingRule && CSSGroupingRule.prototype, ['insertRule', 'deleteRule'],
    (r) => r.parentStyleSheet);
  const originalAttachShadow = Element.prototype.attachShadow;
  Object.defineProperty(Element.prototype, 'attachShadow', {
    configurable: true, writable: true, enumerable: false,
    value: function attachShadow(init) {
      const root = originalAttachShadow.call(this, init);
      if (init && init.mode === 'closed') state.closedRoots.push(root);
      return root;
    },
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
  for (let y = step; steps < maxSteps; y += step) {
    window.scrollTo(0, y);
    steps++;
    await new Promise((resolve) => setTimeout(resolve, delay));
    if (y + window.innerHeight >= scroller.scrollHeight) break;
  }
  return steps;
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
