/**
 * Which of a rendered page's forms a script handles (docs/engine.md, "Forms"): read from
 * Chromium's own list of event listeners (the DevTools protocol's
 * `DOMDebugger.getEventListeners`), never by submitting anything. A form is handled by a script
 * when it has a `submit` listener, when one of its submit buttons has a `click` listener, or when
 * an element around it (its container, `<body>`, the document, the window) has a `submit`
 * listener in the bubbling phase: a delegated handler (jQuery's `$(document).on('submit', …)`,
 * React 17+'s root container, which takes every event of the forms under it). A capturing
 * listener around a form is an observer (an analytics tag counting submissions), not a handler.
 * A jQuery delegated handler counts only for the forms its selector names (read from jQuery's own
 * data, when jQuery's is the element's one `submit` listener).
 *
 * Bounded: the first `FORM_HANDLER_LIMITS.forms` forms of the page, two submit buttons each, 50
 * elements with `submit` listeners, one time budget (a few milliseconds on a page with a few
 * forms). Anything that fails or runs out of time gives no answer (undefined): a render never
 * fails because of it.
 */
import type { CDPSession, Page } from 'playwright-core';

/** One of a rendered page's forms, as `findForms` would record it, and whether a script handles it. */
export interface RenderedForm {
  /** Its place among the page's forms (nested ones aside), from 0: `PageForm.index`. */
  index: number;
  /** Its `id`, else its `name` attribute, trimmed, cut to 100 ('' when none): `PageForm.id`'s stem. */
  id: string;
  /** Its action resolved against the document (the document's own URL when missing or empty). */
  action: string;
  /** Names of its fields (inputs but buttons, selects, textareas; tied by `form=` too), once each. */
  fields: string[];
  /** A script handles its submission (above). */
  scriptSubmits: boolean;
}

export const FORM_HANDLER_LIMITS = {
  /** Forms read, in document order (`FORM_LIMITS.formsPerPage`). */
  forms: 50,
  /** Elements with a `submit` listener looked at (the forms, the elements around them). */
  submitNodes: 50,
  /** Submit buttons read per form (for their `click` listeners). */
  buttonsPerForm: 2,
  /** Field names read per form. */
  fieldsPerForm: 200,
  /** The whole reading, at most. */
  budgetMs: 500,
} as const;

const GROUP = 'mirror-form-handlers';

/**
 * Runs in the page (main world, where the page's jQuery is): the forms and what `findForms`
 * would record of each. Built-in accessors are taken from the prototypes: a form's named fields
 * shadow its properties (`form.action` is the input named "action").
 */
const COLLECT_SCRIPT = `(() => {
  const L = ${JSON.stringify(FORM_HANDLER_LIMITS)};
  const getAttr = Element.prototype.getAttribute;
  const closest = Element.prototype.closest;
  const elementsOf = Object.getOwnPropertyDescriptor(HTMLFormElement.prototype, 'elements').get;
  const parentOf = Object.getOwnPropertyDescriptor(Node.prototype, 'parentNode').get;
  const attr = (el, name) => { const v = getAttr.call(el, name); return v === null ? '' : v; };
  const forms = [];
  for (const form of document.querySelectorAll('form')) {
    const parent = parentOf.call(form);
    // A form inside a form only a script can make: the serialized page's parser drops it.
    if (parent && parent.nodeType === 1 && closest.call(parent, 'form')) continue;
    forms.push(form);
    if (forms.length >= L.forms) break;
  }
  const buttons = [];
  const buttonForms = [];
  const infos = forms.map((form, index) => {
    const written = attr(form, 'action').replace(/^[\\t\\n\\f\\r ]+|[\\t\\n\\f\\r ]+$/g, '');
    let action;
    try { action = new URL(written === '' ? document.URL : written, document.baseURI).href; }
    catch { action = written; }
    const fields = [];
    let mine = 0;
    for (const el of Array.from(elementsOf.call(form))) {
      const tag = el.localName;
      const type = attr(el, 'type').trim().toLowerCase();
      const button = tag === 'button' ? type !== 'button' && type !== 'reset'
        : tag === 'input' && (type === 'submit' || type === 'image');
      if (button && mine++ < L.buttonsPerForm) { buttons.push(el); buttonForms.push(index); }
      if (tag !== 'input' && tag !== 'select' && tag !== 'textarea') continue;
      if (tag === 'input' && ['submit', 'image', 'reset', 'button'].includes(type)) continue;
      const name = attr(el, 'name').slice(0, 200);
      if (name !== '' && !name.startsWith('_mirror_') && !fields.includes(name) && fields.length < L.fieldsPerForm)
        fields.push(name);
    }
    const id = (attr(form, 'id') || attr(form, 'name')).trim().slice(0, 100);
    return { index, id, action: action.slice(0, 2000), fields };
  });
  return { forms, buttons, info: { forms: infos, buttonForms } };
})()`;

/**
 * Runs in the page, on what COLLECT_SCRIPT returned: the forms the listeners found concern.
 * `plan[i]` describes `nodes[i]`: a `submit` listener's element (the window too) and how many
 * of its `submit` listeners bubble, or a submit button of form `form` with a `click` listener.
 */
const RELATE_FUNCTION = `function (plan, ...nodes) {
  const forms = this.forms;
  const closest = Element.prototype.closest;
  const contains = Node.prototype.contains;
  const formOf = (el) => {
    const proto = el.localName === 'button' ? HTMLButtonElement.prototype
      : el.localName === 'input' ? HTMLInputElement.prototype : null;
    return proto ? Object.getOwnPropertyDescriptor(proto, 'form').get.call(el) : null;
  };
  const submits = (el) => {
    const type = (Element.prototype.getAttribute.call(el, 'type') || '').trim().toLowerCase();
    if (el.localName === 'button') return type !== 'button' && type !== 'reset';
    return el.localName === 'input' && (type === 'submit' || type === 'image');
  };
  const jq = window.jQuery || window.$;
  const dataOf = jq && typeof jq._data === 'function' ? jq._data : null;
  const handled = new Set();
  plan.forEach((step, i) => {
    const node = nodes[i];
    if (!node) return;
    try {
      if (step.kind === 'click') {
        if (submits(node) && formOf(node) === forms[step.form]) handled.add(step.form);
        return;
      }
      const own = forms.indexOf(node);
      if (own !== -1) { handled.add(own); return; }
      if (step.bubbling === 0) return;
      let under = forms
        .map((form, f) => f)
        .filter((f) => node === window || contains.call(node, forms[f]));
      // jQuery's one listener stands for its handlers: only the forms their selectors name.
      const events = step.bubbling === 1 && dataOf ? dataOf(node, 'events') : null;
      const handlers = events && events.submit;
      if (handlers && handlers.length > 0)
        under = under.filter((f) => Array.from(handlers).some((h) => {
          if (!h.selector) return true;
          try {
            const match = closest.call(forms[f], h.selector);
            return match !== null && match !== node && (node === window || contains.call(node, match));
          } catch { return true; }
        }));
      for (const f of under) handled.add(f);
    } catch {}
  });
  return [...handled];
}`;

interface Collected {
  forms: Omit<RenderedForm, 'scriptSubmits'>[];
  /** The form of each submit button read, by its place. */
  buttonForms: number[];
}

interface Listener {
  type: string;
  useCapture: boolean;
  backendNodeId?: number;
}

type Step = { kind: 'submit'; bubbling: number } | { kind: 'click'; form: number };

/**
 * The page's forms (the first 50) and whether a script handles each, or undefined when they
 * could not be read within `budgetMs` (a failure of the protocol, a hostile page).
 */
export async function findFormHandlers(
  page: Page,
  budgetMs: number = FORM_HANDLER_LIMITS.budgetMs,
): Promise<RenderedForm[] | undefined> {
  if (budgetMs <= 0) return undefined;
  let session: CDPSession | undefined;
  let timer: NodeJS.Timeout | undefined;
  const reading = (async () => {
    session = await page.context().newCDPSession(page);
    return read(session);
  })();
  reading.catch(() => undefined);
  try {
    return await Promise.race([
      reading,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), budgetMs);
      }),
    ]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    // Not waited for: a page that hangs its renderer must not hold the render.
    void reading
      .catch(() => undefined)
      .then(async () => {
        await session?.send('Runtime.releaseObjectGroup', { objectGroup: GROUP });
        await session?.detach();
      })
      .catch(() => undefined);
  }
}

async function read(session: CDPSession): Promise<RenderedForm[] | undefined> {
  const evaluate = async (expression: string) => {
    const answer = await session.send('Runtime.evaluate', {
      expression,
      objectGroup: GROUP,
      silent: true,
    });
    if (answer.exceptionDetails || !answer.result.objectId) throw new Error('not evaluated');
    return answer.result.objectId;
  };
  const collectedId = await evaluate(COLLECT_SCRIPT);
  const [infoCall, buttonsCall] = await Promise.all([
    session.send('Runtime.callFunctionOn', {
      objectId: collectedId,
      functionDeclaration: 'function () { return this.info; }',
      returnByValue: true,
      silent: true,
    }),
    session.send('Runtime.callFunctionOn', {
      objectId: collectedId,
      functionDeclaration: 'function () { return this.buttons; }',
      objectGroup: GROUP,
      silent: true,
    }),
  ]);
  const info = infoCall.result.value as Collected | undefined;
  const buttonsId = buttonsCall.result.objectId;
  if (!info || !Array.isArray(info.forms) || !Array.isArray(info.buttonForms) || !buttonsId)
    return undefined;
  if (info.forms.length === 0) return [];
  const [properties, documentId, windowId] = await Promise.all([
    session.send('Runtime.getProperties', { objectId: buttonsId, ownProperties: true }),
    evaluate('document'),
    evaluate('window'),
  ]);
  const buttonIds: string[] = [];
  for (const property of properties.result) {
    if (/^\d+$/.test(property.name) && property.value?.objectId)
      buttonIds[Number(property.name)] = property.value.objectId;
  }
  const listenersOf = async (objectId: string, depth: number) =>
    (await session.send('DOMDebugger.getEventListeners', { objectId, depth }))
      .listeners as Listener[];
  // Every listener of the document and its elements, the window's, and each submit button's.
  const [all, windows, ...ofButtons] = await Promise.all([
    listenersOf(documentId, -1),
    listenersOf(windowId, 0),
    ...info.buttonForms.map((_, i) =>
      buttonIds[i] ? listenersOf(buttonIds[i], 0) : Promise.resolve([]),
    ),
  ]);
  const plan: Step[] = [];
  const nodes: Promise<string | undefined>[] = [];
  const submitters = new Map<number, number>();
  for (const listener of all!) {
    if (listener.type !== 'submit' || listener.backendNodeId === undefined) continue;
    const known = submitters.get(listener.backendNodeId);
    if (known === undefined && submitters.size >= FORM_HANDLER_LIMITS.submitNodes) continue;
    submitters.set(listener.backendNodeId, (known ?? 0) + (listener.useCapture ? 0 : 1));
  }
  for (const [backendNodeId, bubbling] of submitters) {
    plan.push({ kind: 'submit', bubbling });
    nodes.push(
      session
        .send('DOM.resolveNode', { backendNodeId, objectGroup: GROUP })
        .then((answer) => answer.object.objectId)
        .catch(() => undefined),
    );
  }
  const windowBubbling = windows!.filter((l) => l.type === 'submit' && !l.useCapture).length;
  if (windowBubbling > 0) {
    plan.push({ kind: 'submit', bubbling: windowBubbling });
    nodes.push(Promise.resolve(windowId));
  }
  ofButtons.forEach((listeners, i) => {
    if (!listeners.some((l) => l.type === 'click')) return;
    plan.push({ kind: 'click', form: info.buttonForms[i]! });
    nodes.push(Promise.resolve(buttonIds[i]));
  });
  const handled = new Set<number>();
  if (plan.length > 0) {
    const objectIds = await Promise.all(nodes);
    const related = await session.send('Runtime.callFunctionOn', {
      objectId: collectedId,
      functionDeclaration: RELATE_FUNCTION,
      arguments: [{ value: plan }, ...objectIds.map((id) => (id ? { objectId: id } : {}))],
      returnByValue: true,
      silent: true,
    });
    if (related.exceptionDetails || !Array.isArray(related.result.value)) return undefined;
    for (const index of related.result.value as unknown[])
      if (typeof index === 'number') handled.add(index);
  }
  return info.forms.map((form) => ({ ...form, scriptSubmits: handled.has(form.index) }));
}
