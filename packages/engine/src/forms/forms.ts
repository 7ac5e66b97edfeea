import { decodeText, HtmlScanner, Token, type ScannedAttr } from '../references/html-scan.js';
import {
  isBlank,
  readRawText,
  UNREAD_ATTRIBUTES,
  VOID_ELEMENTS,
} from '../references/html-tables.js';
import type { TagObserver } from '../references/html.js';
import { trimAscii } from '../references/sink.js';
import type { FormFieldType, FormService, PageForm, PageFormField } from '../types.js';
import {
  classifyForm,
  fieldHolds,
  foldWords,
  isCardData,
  isCardWidget,
  isHoneypotName,
  serviceOf,
} from './classify.js';

/**
 * Every `<form>` of a page, read with the engine's streaming tokenizer (no tree): where it
 * submits, how, its fields and what it is for (docs/engine.md, "Forms"). Pages are hostile, so
 * everything is bounded and one walk reads the page: 100,000 inputs, an unclosed form or a 2 MB
 * attribute cost a pass and leave a small record.
 */

export const FORM_LIMITS = {
  formsPerPage: 50,
  fieldsPerForm: 200,
  optionsPerField: 50,
  /** Field names, option values. */
  nameChars: 200,
  /** Form ids, submit labels. */
  labelChars: 100,
  urlChars: 2_000,
  /** Words read per form for its class: attributes, hints, labels and its text. */
  wordChars: 2_000,
  /** Text read just before a form (its heading). */
  beforeChars: 200,
  /** Fields tied to a form by `form="id"` from outside it, waiting for the end of the page. */
  outsideFields: 1_000,
} as const;

/** Fields named so are the copy's own, added by `markForms`: never recorded as a form's. */
export const OWN_FIELD_PREFIX = '_mirror_';

/** The cheap test before any tokenizing: a page without it has no form. */
const FORM_TAG = /<form[\t\n\f\r />]/i;

const INPUT_TYPES: ReadonlySet<string> = new Set<FormFieldType>([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'number',
  'range',
  'date',
  'month',
  'week',
  'time',
  'datetime-local',
  'color',
  'checkbox',
  'radio',
  'file',
  'hidden',
]);
const SERVER_SCRIPT =
  /\.(?:php\d?|phtml|aspx?|ashx|asmx|axd|cgi|fcgi|pl|jsp|jspx|do|cfm|cfml|py|rb|nsf|dll|exe)$|\/cgi-bin\/|\/wp-admin\/|\/wp-json\//;

/** Attributes the walk never reads: stepped over without an object each. */
const UNREAD: ReadonlySet<string> = new Set([
  'style',
  'src',
  'srcset',
  'sizes',
  'width',
  'height',
  'loading',
  'decoding',
  'lang',
  'dir',
  'hidden',
  'rel',
  'target',
  'integrity',
  'crossorigin',
  'referrerpolicy',
  'async',
  'defer',
  'd',
  'fill',
  'stroke',
  'viewbox',
  'xmlns',
]);
/** Attributes neither the rewrite's scan nor this walk reads, when the walk rides on that scan. */
const UNREAD_BY_BOTH: ReadonlySet<string> = new Set(
  [...UNREAD_ATTRIBUTES].filter((name) => UNREAD.has(name)),
);

interface FormDraft {
  index: number;
  /** Source position of the start tag: fields tied from outside are put in order by it. */
  at: number;
  /** Source position of its `</form>`; none while (or when never) closed. */
  closeAt?: number;
  attrs: ScannedAttr[];
  fields: FieldDraft[];
  omitted: number;
  /** Radio and checkbox groups by name. */
  groups: Map<string, FieldDraft>;
  words: string;
  before: string;
  submitLabel: string | undefined;
  roleSearch: boolean;
  cardWidget: boolean;
}

interface FieldDraft {
  at: number;
  field: PageFormField;
  /** Folded name, id, placeholder, `aria-label`, `title`. */
  hints: string;
  autocomplete: string;
  cardData: boolean;
  /** `form="…"`: the id of the form it belongs to, wherever it is. */
  formId?: string;
}

/** Text read into a button's label or an option's value. */
interface TextTarget {
  text: string;
  limit: number;
}

/** Fields of a form past the page's limit go nowhere. */
const DROPPED = 'dropped';

/**
 * The forms of a page, in document order, at most `FORM_LIMITS.formsPerPage`. Reads the live
 * document as a browser with scripting would: a nested `<form>` is ignored, a form without
 * `</form>` runs to the end of the page, forms inside `<template>` and `<noscript>` do not count,
 * and a field with `form="id"` belongs to that form wherever it is.
 */
export function findForms(html: string, pageUrl: string): PageForm[] {
  if (!FORM_TAG.test(html)) return [];
  return copied(new FormWalk(html, pageUrl).run());
}

/** What `formReader` gives: the observer for `processHtml`, then the forms it read. */
export interface FormReader {
  readonly observer: TagObserver;
  /** The page's forms as `findForms` finds them; call once, after the scan. */
  forms(): PageForm[];
}

/**
 * `findForms` riding on the rewrite's scan of the page (`processHtml`'s `observer`), so that a
 * crawled page is scanned once, not twice (a search form on every page of a docs site made the
 * second scan an eighth of the crawl's CPU). Undefined for a page without a `<form` tag.
 */
export function formReader(html: string, pageUrl: string): FormReader | undefined {
  if (!FORM_TAG.test(html)) return undefined;
  const walk = new FormWalk(html, pageUrl, UNREAD_BY_BOTH);
  return { observer: walk, forms: () => copied(walk.end()) };
}

/**
 * Forms copied out of the page's text: V8 keeps a whole page's text alive behind any piece sliced
 * from it, and the record stays with the manifest all run (the Python docs' search form on each
 * of 530 pages held 100 MB).
 */
function copied(forms: PageForm[]): PageForm[] {
  return forms.length === 0 ? forms : (JSON.parse(JSON.stringify(forms)) as PageForm[]);
}

/**
 * Where each form of `findForms(html, …)` is in `html`, by the form's `index`: where its start tag
 * starts and where its `</form>` does (undefined for a form never closed: it runs to the end of
 * the page).
 */
export function formSpans(html: string): { start: number; end: number | undefined }[] {
  if (!FORM_TAG.test(html)) return [];
  const walk = new FormWalk(html, 'http://copy.invalid/');
  walk.run();
  return walk.spans();
}

class FormWalk implements TagObserver {
  private readonly forms: FormDraft[] = [];
  private readonly outside: FieldDraft[] = [];
  /** Recorded forms by `id`, the first of each (where `form="id"` points). */
  private readonly byId = new Map<string, FormDraft>();
  /** The parser's form element pointer. */
  private pointer: FormDraft | typeof DROPPED | undefined;
  private baseHref: string | undefined;
  private templates = 0;
  /** A `<search>` or `role=search` element open around what comes, and its nesting. */
  private searchBox: { name: string; depth: number } | undefined;
  private select: FieldDraft | undefined;
  private option: (TextTarget & { value: string | undefined }) | undefined;
  private button: (TextTarget & { form: FormDraft | undefined }) | undefined;
  /** The last text with something in it outside forms. */
  private lastText: [number, number] | undefined;

  /** `ignored`: attributes the scan feeding this walk steps over (none that it reads). */
  constructor(
    private readonly html: string,
    private readonly pageUrl: string,
    readonly ignored: ReadonlySet<string> = UNREAD,
  ) {}

  /** Walks the page with a scan of its own. */
  run(): PageForm[] {
    const scanner = new HtmlScanner(this.html, 0, this.html.length, this.ignored);
    for (;;) {
      const token = scanner.next();
      if (token === Token.End) break;
      if (token === Token.Text) this.text(scanner.textStart, scanner.textEnd);
      else if (token === Token.EndTag) this.endTag(scanner.name, scanner.start);
      else if (token === Token.StartTag) {
        this.startTag(scanner.name, scanner.attrs, scanner.start, scanner.selfClosing);
        readRawText(scanner, scanner.name);
      }
    }
    return this.end();
  }

  /** The forms, once the page's last token was seen. */
  end(): PageForm[] {
    this.closeButton();
    this.closeSelect();
    return this.finish();
  }

  text(start: number, end: number): void {
    if (this.templates > 0) return;
    const form = this.liveForm();
    const target = this.option ?? this.button;
    if (target) addText(target, this.decode(start, end, target.limit - target.text.length));
    if (form) addWords(form, this.decode(start, end, FORM_LIMITS.wordChars - form.words.length));
    else if (!isBlank(this.html, start, end)) this.lastText = [start, end];
  }

  /** Decoded text of `[start, end)`, reading at most about `room` characters of it. */
  private decode(start: number, end: number, room: number): string {
    if (room <= 0) return '';
    return decodeText(this.html.slice(start, Math.min(end, start + room * 2)));
  }

  endTag(name: string, at: number): void {
    if (name === 'template') {
      if (this.templates > 0) this.templates--;
      return;
    }
    if (this.templates > 0) return;
    if (this.searchBox?.name === name && --this.searchBox.depth === 0) this.searchBox = undefined;
    switch (name) {
      case 'form': {
        this.closeButton();
        this.closeSelect();
        const form = this.liveForm();
        if (form) form.closeAt = at;
        this.pointer = undefined;
        break;
      }
      case 'select':
        this.closeSelect();
        break;
      case 'option':
      case 'optgroup':
        this.closeOption();
        break;
      case 'button':
        this.closeButton();
        break;
    }
  }

  startTag(name: string, attrs: ScannedAttr[], at: number, selfClosing: boolean): void {
    if (name === 'template') {
      this.templates++;
      return;
    }
    if (this.templates > 0) return;
    this.trackSearchBox(name, attrs, selfClosing);
    switch (name) {
      case 'base':
        this.baseHref ??= attr(attrs, 'href');
        return;
      case 'form':
        return this.openForm(attrs, at);
      case 'input':
        this.closeSelect();
        return this.input(attrs, at);
      case 'textarea':
        this.closeSelect();
        return void this.addField(attrs, at, 'textarea');
      case 'select': {
        this.closeSelect();
        const field = this.addField(attrs, at, 'select');
        this.select = field ?? undefined;
        return;
      }
      case 'option':
        this.closeOption();
        if (this.select) {
          const value = attr(attrs, 'value');
          this.option = { text: '', limit: FORM_LIMITS.nameChars, value };
        }
        return;
      case 'optgroup':
        return this.closeOption();
      case 'button':
        return this.openButton(attrs);
    }
    const form = this.liveForm();
    if (form && !form.cardWidget) {
      const mount = `${attr(attrs, 'id') ?? ''} ${attr(attrs, 'class') ?? ''}`;
      if (mount.length > 1 && isCardWidget(foldWords(mount.slice(0, 300)))) form.cardWidget = true;
    }
  }

  /** The form fields go to now, when it is one that is recorded. */
  private liveForm(): FormDraft | undefined {
    return this.pointer === DROPPED ? undefined : this.pointer;
  }

  private trackSearchBox(name: string, attrs: ScannedAttr[], selfClosing: boolean): void {
    if (VOID_ELEMENTS.has(name) || selfClosing) return;
    if (this.searchBox) {
      if (this.searchBox.name === name) this.searchBox.depth++;
      return;
    }
    if (name === 'search' || attr(attrs, 'role')?.trim().toLowerCase() === 'search')
      this.searchBox = { name, depth: 1 };
  }

  private openForm(attrs: ScannedAttr[], at: number): void {
    if (this.pointer !== undefined) return; // a form inside a form is ignored, as by a browser
    if (this.forms.length >= FORM_LIMITS.formsPerPage) {
      this.pointer = DROPPED;
      return;
    }
    const form: FormDraft = {
      index: this.forms.length,
      at,
      attrs,
      fields: [],
      omitted: 0,
      groups: new Map(),
      words: '',
      before: this.textBefore(),
      submitLabel: undefined,
      roleSearch:
        this.searchBox !== undefined || attr(attrs, 'role')?.trim().toLowerCase() === 'search',
      cardWidget: false,
    };
    for (const name of ['id', 'name', 'class', 'aria-label', 'title']) {
      const value = attr(attrs, name);
      if (value) form.words += ` ${value.slice(0, 200)}`;
    }
    this.forms.push(form);
    const id = attr(attrs, 'id');
    if (id !== undefined && !this.byId.has(id)) this.byId.set(id, form);
    this.pointer = form;
  }

  private textBefore(): string {
    const range = this.lastText;
    this.lastText = undefined;
    if (!range) return '';
    const from = Math.max(range[0], range[1] - FORM_LIMITS.beforeChars * 2);
    return decodeText(this.html.slice(from, range[1])).slice(-FORM_LIMITS.beforeChars);
  }

  private input(attrs: ScannedAttr[], at: number): void {
    const written = attr(attrs, 'type')?.trim().toLowerCase() ?? '';
    if (
      written === 'submit' ||
      written === 'image' ||
      written === 'reset' ||
      written === 'button'
    ) {
      const form = this.ownerOf(attrs);
      if (!form) return;
      const label = collapse(attr(attrs, written === 'image' ? 'alt' : 'value') ?? '', 200);
      if (!label) return;
      addWords(form, label);
      if (written === 'submit' || written === 'image')
        form.submitLabel ??= label.slice(0, FORM_LIMITS.labelChars);
      return;
    }
    const type = (INPUT_TYPES.has(written) ? written : 'text') as FormFieldType;
    this.addField(attrs, at, type);
  }

  /**
   * Records a field on its form; a radio or checkbox joins the group of its name. Returns the
   * field (for a select's options), or null when it belongs to no recorded form.
   */
  private addField(attrs: ScannedAttr[], at: number, type: FormFieldType): FieldDraft | null {
    const formId = attr(attrs, 'form');
    const form = formId === undefined ? this.liveForm() : undefined;
    if (formId === undefined && !form) return null;
    const name = (attr(attrs, 'name') ?? '').slice(0, FORM_LIMITS.nameChars);
    // The copy's own fields (`markForms`) are not the site's.
    if (name.startsWith(OWN_FIELD_PREFIX)) return null;
    const required = attr(attrs, 'required') !== undefined && type !== 'hidden';
    const grouped = type === 'radio' || type === 'checkbox';
    const value = grouped ? (attr(attrs, 'value') ?? 'on').slice(0, FORM_LIMITS.nameChars) : '';
    if (form && grouped && name !== '') {
      const group = form.groups.get(name);
      if (group && group.field.type === type) {
        addOption(group.field, value);
        if (required) group.field.required = true;
        return group;
      }
    }
    if (form && form.fields.length >= FORM_LIMITS.fieldsPerForm) {
      form.omitted++;
      return null;
    }
    if (formId !== undefined && this.outside.length >= FORM_LIMITS.outsideFields) return null;
    const draft = this.fieldDraft(attrs, at, type, name, required);
    if (grouped) addOption(draft.field, value);
    if (formId !== undefined) {
      draft.formId = formId;
      this.outside.push(draft);
      return draft;
    }
    form!.fields.push(draft);
    if (grouped && name !== '') form!.groups.set(name, draft);
    addWords(form!, draft.hints);
    // What a hidden field says can name the form: Shopify's `form_type` of `recover_customer_password`.
    if (type === 'hidden') addWords(form!, (attr(attrs, 'value') ?? '').slice(0, 100));
    return draft;
  }

  private fieldDraft(
    attrs: ScannedAttr[],
    at: number,
    type: FormFieldType,
    name: string,
    required: boolean,
  ): FieldDraft {
    let hints = name;
    for (const hint of ['id', 'placeholder', 'aria-label', 'title']) {
      const value = attr(attrs, hint);
      if (value) hints += ` ${value.slice(0, 200)}`;
    }
    const field: PageFormField = { name, type, required };
    if (attr(attrs, 'multiple') !== undefined && (type === 'select' || type === 'file'))
      field.multiple = true;
    const draft: FieldDraft = {
      at,
      field,
      hints: foldWords(hints),
      autocomplete: (attr(attrs, 'autocomplete') ?? '').slice(0, 200).toLowerCase(),
      cardData: ['data-stripe', 'data-encrypted-name', 'data-braintree-name'].some((data) => {
        const value = attr(attrs, data);
        return value !== undefined && isCardData(value);
      }),
    };
    const tabindex = attr(attrs, 'tabindex')?.trim();
    if (
      isHoneypotName(name) ||
      (tabindex === '-1' && (type === 'text' || type === 'email') && !required)
    )
      field.honeypot = true;
    return draft;
  }

  private openButton(attrs: ScannedAttr[]): void {
    this.closeButton();
    this.closeSelect();
    const form = this.ownerOf(attrs);
    const type = attr(attrs, 'type')?.trim().toLowerCase() ?? 'submit';
    const submits = type !== 'button' && type !== 'reset';
    if (form && submits && form.submitLabel === undefined)
      this.button = { text: '', limit: FORM_LIMITS.labelChars * 2, form };
  }

  /** The recorded form a button belongs to (its `form` attribute's, if it has one, when known). */
  private ownerOf(attrs: ScannedAttr[]): FormDraft | undefined {
    const formId = attr(attrs, 'form');
    if (formId === undefined) return this.liveForm();
    return this.byId.get(formId);
  }

  private closeButton(): void {
    const button = this.button;
    if (!button) return;
    this.button = undefined;
    const label = collapse(button.text, FORM_LIMITS.labelChars);
    if (label && button.form) button.form.submitLabel ??= label;
  }

  private closeOption(): void {
    const option = this.option;
    if (!option) return;
    this.option = undefined;
    if (this.select)
      addOption(
        this.select.field,
        (option.value ?? collapse(option.text, FORM_LIMITS.nameChars)).slice(
          0,
          FORM_LIMITS.nameChars,
        ),
      );
  }

  private closeSelect(): void {
    this.closeOption();
    this.select = undefined;
  }

  /** Ties `form=` fields to their forms and turns the drafts into records. */
  private finish(): PageForm[] {
    const tied = new Map<FormDraft, FieldDraft[]>();
    for (const draft of this.outside) {
      const form = this.byId.get(draft.formId!);
      if (!form) continue;
      draft.field.outside = true;
      const name = draft.field.name;
      const group = name === '' ? undefined : form.groups.get(name);
      if (group && group.field.type === draft.field.type && draft.field.options) {
        for (const option of draft.field.options) addOption(group.field, option);
        continue;
      }
      if (form.fields.length + (tied.get(form)?.length ?? 0) >= FORM_LIMITS.fieldsPerForm) {
        form.omitted++;
        continue;
      }
      if (draft.field.type === 'radio' || draft.field.type === 'checkbox')
        if (name !== '') form.groups.set(name, draft);
      const list = tied.get(form) ?? [];
      list.push(draft);
      tied.set(form, list);
      addWords(form, draft.hints);
    }
    const base = this.base();
    const ids = new Set<string>();
    return this.forms.map((form) => {
      const fields = tied.has(form) ? mergeByPlace(form.fields, tied.get(form)!) : form.fields;
      return this.record(form, fields, base, ids);
    });
  }

  spans(): { start: number; end: number | undefined }[] {
    return this.forms.map((form) => ({ start: form.at, end: form.closeAt }));
  }

  private pageHost(): string | undefined {
    try {
      return siteHost(new URL(this.pageUrl).hostname);
    } catch {
      return undefined;
    }
  }

  private base(): string {
    if (this.baseHref === undefined) return this.pageUrl;
    try {
      return new URL(trimAscii(this.baseHref).slice(0, FORM_LIMITS.urlChars), this.pageUrl).href;
    } catch {
      return this.pageUrl;
    }
  }

  private record(form: FormDraft, drafts: FieldDraft[], base: string, ids: Set<string>): PageForm {
    const written = trimAscii(attr(form.attrs, 'action') ?? '');
    let url: URL | undefined;
    try {
      url = new URL(written === '' ? this.pageUrl : written.slice(0, FORM_LIMITS.urlChars), base);
    } catch {
      url = undefined;
    }
    const web = url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:');
    const sameSite = web && siteHost(url!.hostname) === this.pageHost();
    const methodAttr = attr(form.attrs, 'method')?.trim().toLowerCase();
    const method = methodAttr === 'post' ? 'POST' : methodAttr === 'dialog' ? 'DIALOG' : 'GET';
    const enctypeAttr = attr(form.attrs, 'enctype')?.trim().toLowerCase();
    const enctype =
      enctypeAttr === 'multipart/form-data' || enctypeAttr === 'text/plain'
        ? enctypeAttr
        : 'application/x-www-form-urlencoded';
    const fields = drafts.map((draft) => {
      const holds = fieldHolds({ ...draft, type: draft.field.type });
      if (holds) draft.field.holds = holds;
      return draft.field;
    });
    const netlify = form.attrs.some(
      (a) => (a.name === 'data-netlify' || a.name === 'netlify') && a.value.trim() !== 'false',
    );
    if (netlify) markNetlifyHoneypot(form, fields);
    const service: FormService | undefined = serviceOf(
      web ? url : undefined,
      netlify,
      foldWords((attr(form.attrs, 'class') ?? '').slice(0, 300)),
    );
    const actionWords = web ? foldWords(`${url!.pathname} ${url!.search}`.slice(0, 300)) : '';
    const verdict = classifyForm({
      method,
      fields,
      words: foldWords(`${form.words} ${actionWords}`),
      before: foldWords(form.before),
      actionWords,
      roleSearch: form.roleSearch,
      cardWidget: form.cardWidget,
      service,
    });
    const record: PageForm = {
      id: uniqueId(form, ids),
      index: form.index,
      action: (url?.href ?? written).slice(0, FORM_LIMITS.urlChars),
      method,
      enctype,
      fields,
      ...(form.omitted > 0 ? { fieldsOmitted: form.omitted } : {}),
      ...verdict,
      sameSite,
      serverScript: sameSite && SERVER_SCRIPT.test(url!.pathname.toLowerCase()),
      ...(service ? { service } : {}),
      ...(form.submitLabel ? { submitLabel: form.submitLabel } : {}),
    };
    return record;
  }
}

function attr(attrs: ScannedAttr[], name: string): string | undefined {
  for (const a of attrs) if (a.name === name) return a.value;
  return undefined;
}

function addText(target: TextTarget, text: string): void {
  const room = target.limit - target.text.length;
  if (room > 0) target.text += text.slice(0, room);
}

function addWords(form: FormDraft, text: string): void {
  const room = FORM_LIMITS.wordChars - form.words.length;
  if (room > 0 && text) form.words += ` ${text.slice(0, room)}`;
}

function addOption(field: PageFormField, value: string): void {
  const options = (field.options ??= []);
  if (options.length < FORM_LIMITS.optionsPerField) options.push(value);
}

/** Whitespace collapsed and trimmed, cut to `max`. */
function collapse(text: string, max: number): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, max);
}

/** A host without its `www.`: the site a form posts to. */
function siteHost(hostname: string): string {
  return hostname.toLowerCase().replace(/^www\./, '');
}

/** Netlify names its bot trap in `netlify-honeypot` / `data-netlify-honeypot`. */
function markNetlifyHoneypot(form: FormDraft, fields: PageFormField[]): void {
  const trap = attr(form.attrs, 'netlify-honeypot') ?? attr(form.attrs, 'data-netlify-honeypot');
  if (!trap) return;
  for (const field of fields) if (field.name === trap) field.honeypot = true;
}

function uniqueId(form: FormDraft, ids: Set<string>): string {
  const written = attr(form.attrs, 'id') || attr(form.attrs, 'name');
  const stem = (written?.trim() || `form-${form.index + 1}`).slice(0, FORM_LIMITS.labelChars);
  let id = stem;
  for (let n = 2; ids.has(id); n++) id = `${stem}-${n}`;
  ids.add(id);
  return id;
}

/** Two lists each in document order, merged by source position. */
function mergeByPlace(a: FieldDraft[], b: FieldDraft[]): FieldDraft[] {
  const out: FieldDraft[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.at < b[j]!.at)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}
