/**
 * The script the watch form's part picker (issue 33) adds to a page it shows in a sandboxed
 * `srcdoc` frame: it outlines the element under the pointer (or focused), and a click or Enter
 * posts `{ type: 'mirror-pick', selector, text }` to the app instead of following the link.
 *
 * A `srcdoc` document keeps the app's Content-Security-Policy, which allows no inline script: the
 * server allows exactly this text by its SHA-256 (`partPickerScriptHash` in the server's app), so
 * it lives here, beside the web's copy of the same algorithm in
 * `apps/web/src/features/sites/utils/part-selector.ts` (a test runs both on the same pages and
 * expects the same selectors). Plain ES2017, no template literals: it is also the hashed text.
 */

/** The `type` of the picker's messages to the app. */
export const PART_PICK_MESSAGE = 'mirror-pick';
/** A picked part's text, at most (whitespace collapsed). */
export const PART_TEXT_CHARS = 80;

export const PART_PICKER_SCRIPT = `(function () {
  'use strict';
  var HIDDEN = { SCRIPT: 1, STYLE: 1, NOSCRIPT: 1, TEMPLATE: 1 };
  var IDENT = /^-?[A-Za-z_][A-Za-z0-9_-]*$/;
  function looksGenerated(name) {
    if (name.length > 40) return true;
    if (/^(?:css|sc|jsx|emotion|styled|svelte|astro)-/i.test(name)) return true;
    var parts = name.split(/[-_]+/);
    for (var i = 0; i < parts.length; i++) {
      var p = parts[i];
      if (p.length >= 5 && /[0-9]/.test(p) && /[A-Za-z]/.test(p)) return true;
    }
    return (name.match(/[0-9]/g) || []).length >= 3 && name.length >= 8;
  }
  function stableId(el) {
    var id = el.getAttribute('id');
    return id && IDENT.test(id) && !looksGenerated(id) ? id : null;
  }
  function uniqueId(el) {
    var id = stableId(el);
    return id && el.ownerDocument.querySelectorAll('#' + id).length === 1 ? '#' + id : null;
  }
  function stepOf(el, nth) {
    var step = el.localName;
    var classes = (el.getAttribute('class') || '').split(/\\s+/);
    var kept = 0;
    for (var i = 0; i < classes.length && kept < 2; i++) {
      var c = classes[i];
      if (c && IDENT.test(c) && !looksGenerated(c)) {
        step += '.' + c;
        kept++;
      }
    }
    if (nth && el.parentElement) {
      var same = 0;
      var index = 0;
      var kids = el.parentElement.children;
      for (var j = 0; j < kids.length; j++) {
        if (kids[j].localName === el.localName) same++;
        if (kids[j] === el) index = same;
      }
      if (same > 1) step += ':nth-of-type(' + index + ')';
    }
    return step;
  }
  function matchesOnly(doc, selector, el) {
    try {
      var found = doc.querySelectorAll(selector);
      return found.length === 1 && found[0] === el;
    } catch (e) {
      return false;
    }
  }
  function partSelector(el) {
    var doc = el.ownerDocument;
    if (el === doc.body || el === doc.documentElement) return 'body';
    var own = uniqueId(el);
    if (own) return own;
    var chain = [];
    var anchor = 'body';
    for (var node = el; node && node !== doc.body && node !== doc.documentElement; ) {
      chain.unshift(node);
      var parent = node.parentElement;
      var id = parent && parent !== doc.body ? uniqueId(parent) : null;
      if (id) {
        anchor = id;
        break;
      }
      node = parent;
    }
    for (var k = 1; k <= chain.length; k++) {
      var tail = chain.slice(chain.length - k);
      var joint = k === chain.length ? ' > ' : ' ';
      for (var n = 0; n < 2; n++) {
        var steps = [];
        for (var s = 0; s < tail.length; s++) steps.push(stepOf(tail[s], n === 1));
        var selector = anchor + joint + steps.join(' > ');
        if (matchesOnly(doc, selector, el)) return selector;
      }
    }
    var plain = [];
    for (var t = 0; t < chain.length; t++) {
      var step = stepOf(chain[t], true);
      plain.push(step.replace(/\\.[^.:]+/g, ''));
    }
    return anchor + ' > ' + plain.join(' > ');
  }
  function partText(el) {
    var out = [];
    (function walk(node) {
      for (var c = node.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 3) out.push(c.nodeValue);
        else if (c.nodeType === 1 && !HIDDEN[c.nodeName.toUpperCase()]) walk(c);
      }
    })(el);
    return out.join(' ').replace(/\\s+/g, ' ').trim().slice(0, ${PART_TEXT_CHARS});
  }
  window.mirrorPartSelector = partSelector;
  window.mirrorPartText = partText;
  if (window.parent === window) return;
  var lit = null;
  var saved = '';
  function light(el) {
    if (el === lit) return;
    if (lit) lit.style.outline = saved;
    lit = el && el.nodeType === 1 && el !== document.documentElement ? el : null;
    if (lit) {
      saved = lit.style.outline;
      lit.style.outline = '3px solid #2563eb';
    }
  }
  function pick(el, event) {
    event.preventDefault();
    event.stopPropagation();
    if (!el || el.nodeType !== 1) return;
    light(el);
    window.parent.postMessage(
      { type: '${PART_PICK_MESSAGE}', selector: partSelector(el), text: partText(el) },
      '*'
    );
  }
  document.addEventListener('mouseover', function (event) { light(event.target); }, true);
  document.addEventListener('focusin', function (event) { light(event.target); }, true);
  document.addEventListener('click', function (event) { pick(event.target, event); }, true);
  document.addEventListener('submit', function (event) { event.preventDefault(); }, true);
  document.addEventListener(
    'keydown',
    function (event) {
      if (event.key === 'Enter' || event.key === ' ') {
        var el = document.activeElement;
        if (el && el !== document.body) pick(el, event);
      }
    },
    true
  );
})();
`;
