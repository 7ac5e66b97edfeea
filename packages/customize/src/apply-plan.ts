import { newOutcome, OpError, PlanContext } from './context.js';
import type { Outcome } from './context.js';
import {
  applyHideElement,
  applyInsertHtml,
  applyRemoveElement,
  applyReplaceImage,
  applySetAttribute,
} from './ops-element.js';
import { applyChangeColor, applyChangeFont } from './ops-style.js';
import {
  applyReplaceText,
  applyRewriteCopy,
  applySetDescription,
  applySetText,
  applySetTitle,
} from './ops-text.js';
import { SelectorError } from './selector.js';
import type {
  ApplyPlanResult,
  EditOp,
  EditPlan,
  OpReport,
  RestorePageOp,
  SetFormRecipientOp,
  SiteDocument,
} from './types.js';

type Handler<T extends EditOp> = (op: T, ctx: PlanContext, out: Outcome) => void;

const HANDLERS: { [K in EditOp['op']]: Handler<Extract<EditOp, { op: K }>> } = {
  replaceText: applyReplaceText,
  setText: applySetText,
  rewriteCopy: applyRewriteCopy,
  setAttribute: applySetAttribute,
  changeColor: applyChangeColor,
  changeFont: applyChangeFont,
  hideElement: applyHideElement,
  removeElement: applyRemoveElement,
  insertHtml: applyInsertHtml,
  replaceImage: applyReplaceImage,
  setTitle: applySetTitle,
  setDescription: applySetDescription,
  restorePage: countRestoredPage,
  setFormRecipient: countFormRecipient,
};

/**
 * A page restored from an earlier version is put into the next version's files by the server,
 * which can read versions (the applier cannot); it is counted here on the page it brings back, so
 * the report and the draft's edits list it like any other edit.
 */
function countRestoredPage(op: RestorePageOp, _ctx: PlanContext, out: Outcome): void {
  out.matches = 1;
  out.documents.add(op.path);
}

/**
 * Where a form's mails go is a setting of the copy's forms, not a page's text: the server sets it
 * when the draft is published (and checks there that the copy has such a form). It changes no
 * document.
 */
function countFormRecipient(_op: SetFormRecipientOp, _ctx: PlanContext, out: Outcome): void {
  out.matches = 1;
}

function runOp(op: EditOp, ctx: PlanContext, out: Outcome): void {
  (HANDLERS[op.op] as Handler<EditOp>)(op, ctx, out);
}

/**
 * Applies an edit plan to the HTML and CSS documents of a version. Ops run in order, each seeing
 * the result of the previous ones. Every edit is a splice into the original text at parse5 / css-tree
 * source offsets: bytes outside the edited spans never change and no document is re-serialized.
 * Pure: no I/O. Documents of other types are ignored.
 */
export function applyPlan(plan: EditPlan, files: readonly SiteDocument[]): ApplyPlanResult {
  const ctx = new PlanContext(files);
  const report: OpReport[] = [];
  plan.ops.forEach((op, index) => {
    const out = newOutcome();
    const before = ctx.snapshot();
    let error: string | undefined;
    try {
      runOp(op, ctx, out);
    } catch (e) {
      if (!(e instanceof OpError || e instanceof SelectorError)) throw e;
      ctx.restore(before);
      error = e.message;
    }
    report.push(reportOf(index, op, out, error, ctx));
  });
  const changed = ctx.docs
    .filter((d) => d.text !== d.original)
    .map((d) => ({ path: d.path, contentType: d.contentType, text: d.text }));
  return {
    changed,
    assets: [...ctx.assets.values()],
    report,
    unmatched: report.filter((r) => r.error !== undefined || r.matches === 0).map((r) => r.index),
    summary: report.map((r) => r.summary),
  };
}

function quote(text: string, max = 60): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return `'${t.length > max ? `${t.slice(0, max - 1)}…` : t}'`;
}

function target(op: { selector: string; withText?: string | undefined }): string {
  return op.withText === undefined ? op.selector : `${op.selector} ${quote(op.withText)}`;
}

function imageTarget(op: Extract<EditOp, { op: 'replaceImage' }>): string {
  if (op.logo) return 'the logo';
  if (op.selector !== undefined) return op.selector;
  return `the image ${op.currentSrc ?? ''}`;
}

/** What an op does, as "Did X" (past) and "do X" (present), and what it counts. */
function phrases(
  op: EditOp,
  detail: string | undefined,
): { past: string; present: string; unit: string } {
  switch (op.op) {
    case 'replaceText': {
      const what = `${quote(op.find)} with ${quote(op.replace)}`;
      return { past: `Replaced ${what}`, present: `replace ${what}`, unit: 'place' };
    }
    case 'setText':
      return {
        past: `Changed the text of ${target(op)} to ${quote(op.text)}`,
        present: `change the text of ${target(op)}`,
        unit: 'element',
      };
    case 'rewriteCopy':
      return {
        past: `Rewrote the copy of ${target(op)}`,
        present: `rewrite the copy of ${target(op)}`,
        unit: 'text',
      };
    case 'setAttribute':
      return {
        past: `Set ${op.name} of ${target(op)} to ${quote(op.value)}`,
        present: `set ${op.name} of ${target(op)}`,
        unit: 'element',
      };
    case 'changeColor': {
      const from =
        op.variable ??
        op.from ??
        `the ${op.role ?? 'primary'} colour${detail ? ` (${detail})` : ''}`;
      const verb = op.variable !== undefined ? 'Set' : 'Changed';
      return {
        past: `${verb} ${from} to ${op.to}`,
        present: `change ${from} to ${op.to}`,
        unit: 'place',
      };
    }
    case 'changeFont': {
      const which =
        op.selector ??
        (op.role === 'headings' ? 'headings' : op.role === 'body' ? 'body text' : '');
      const of = which ? ` of ${which}` : '';
      return {
        past: `Changed the font${of} to ${op.family}`,
        present: `change the font${of} to ${op.family}`,
        unit: 'place',
      };
    }
    case 'hideElement':
      return { past: `Hid ${target(op)}`, present: `hide ${target(op)}`, unit: 'element' };
    case 'removeElement':
      return { past: `Removed ${target(op)}`, present: `remove ${target(op)}`, unit: 'element' };
    case 'insertHtml': {
      const where = {
        before: 'before',
        after: 'after',
        prepend: 'at the start of',
        append: 'at the end of',
      }[op.position];
      return {
        past: `Inserted HTML ${where} ${target(op)}`,
        present: `insert HTML ${where} ${target(op)}`,
        unit: 'place',
      };
    }
    case 'replaceImage': {
      const by = op.upload ? 'an uploaded image' : (op.src ?? '');
      return {
        past: `Replaced ${imageTarget(op)} with ${by}`,
        present: `replace ${imageTarget(op)}`,
        unit: 'image',
      };
    }
    case 'setTitle':
      return {
        past: `Set the title to ${quote(op.title)}`,
        present: 'set the title',
        unit: 'page',
      };
    case 'setDescription':
      return {
        past: `Set the description to ${quote(op.description)}`,
        present: 'set the description',
        unit: 'page',
      };
    case 'restorePage':
      return {
        past: `Brought back ${op.path} from an earlier version`,
        present: `bring back ${op.path}`,
        unit: 'page',
      };
    case 'setFormRecipient':
      return {
        past: `${formsOf(op.form)} will be mailed to ${quote(op.email)} once that address confirms`,
        present: `mail ${formsOf(op.form).toLowerCase()} to ${quote(op.email)}`,
        unit: 'setting',
      };
  }
}

/** The forms a `setFormRecipient` names, in words: "Contact form submissions". */
export function formsOf(form: string | undefined): string {
  if (form === undefined || form === 'contact') return 'Contact form submissions';
  if (form === 'newsletter') return 'Newsletter sign-ups';
  if (form === 'all') return 'Form submissions';
  return `Submissions of the form '${form}'`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function reportOf(
  index: number,
  op: EditOp,
  out: Outcome,
  error: string | undefined,
  ctx: PlanContext,
): OpReport {
  const { past, present, unit } = phrases(op, out.detail);
  const docs = out.documents.size;
  const allPages = [...out.documents].every(
    (p) => ctx.docs.find((d) => d.path === p)?.kind === 'html',
  );
  const where = allPages ? `on ${plural(docs, 'page')}` : `in ${plural(docs, 'file')}`;
  let summary: string;
  if (error !== undefined) summary = `Could not ${present}: ${error}`;
  else if (out.matches === 0) summary = `Nothing matched: ${present}`;
  else if (unit === 'setting') summary = past;
  else if (unit === 'page') summary = `${past} (${plural(docs, 'page')})`;
  else summary = `${past} (${plural(out.matches, unit)} ${where})`;
  const report: OpReport = {
    index,
    op: op.op,
    matches: error === undefined ? out.matches : 0,
    documents: error === undefined ? docs : 0,
    changedDocuments: error === undefined ? out.changed.size : 0,
    summary,
  };
  if (error !== undefined) report.error = error;
  if (out.notes.length > 0) report.notes = out.notes;
  return report;
}
