import { z } from 'zod';
import { AUTH_MESSAGES } from './messages.js';
import { isSafeUrl, URL_ATTRIBUTES } from './url-safety.js';

/**
 * The edit plan: what AI customization does to a mirrored site, as typed operations on its pages
 * (issue 6). Providers (the built-in instruction engine, an OpenAI-compatible model) produce a plan;
 * the engine applies it by splicing edits into the original documents, so nothing is regenerated
 * and the layout survives. The plan is kept with the version it produced.
 */

export const EDIT_PLAN_LIMITS = {
  maxOps: 100,
  /** Text written into a page: replacements, element text, titles, descriptions, alt texts. */
  maxTextLength: 5_000,
  /** Text searched for by `replaceText`. */
  maxFindLength: 500,
  maxHtmlLength: 20_000,
  maxSelectorLength: 300,
  maxUrlLength: 2_000,
  maxPagesPerOp: 200,
  maxCopyTexts: 200,
  maxFontFamilyLength: 100,
  maxSummaryLength: 2_000,
} as const;

export const EDIT_PLAN_MESSAGES = {
  tooManyOps: `A plan can hold at most ${EDIT_PLAN_LIMITS.maxOps} changes. Please split your instructions.`,
  textTooLong: `Texts can be at most ${EDIT_PLAN_LIMITS.maxTextLength} characters long.`,
  findEmpty: 'The text to replace cannot be empty.',
  findTooLong: `The text to replace can be at most ${EDIT_PLAN_LIMITS.maxFindLength} characters long.`,
  htmlEmpty: 'The HTML to insert cannot be empty.',
  htmlTooLong: `Inserted HTML can be at most ${EDIT_PLAN_LIMITS.maxHtmlLength} characters long.`,
  htmlUnsafe: 'Inserted HTML cannot contain scripts, event handlers or javascript: links.',
  selectorInvalid: `A selector must be 1 to ${EDIT_PLAN_LIMITS.maxSelectorLength} characters of CSS, without braces or '<'.`,
  urlInvalid: `A link or image address must be 1 to ${EDIT_PLAN_LIMITS.maxUrlLength} characters and cannot use javascript:, vbscript: or data: (except data:image).`,
  colorInvalid:
    'Colours are written as #rgb, #rrggbb, rgb(), rgba(), hsl(), hsla() or a CSS colour name.',
  colorTarget: 'Say which colour to change: exactly one of a colour value, a role or a variable.',
  variableInvalid: 'CSS variables are written --name (letters, digits, hyphens and underscores).',
  fontInvalid: `A font family must be 1 to ${EDIT_PLAN_LIMITS.maxFontFamilyLength} characters without quotes, semicolons, braces or angle brackets.`,
  attributeInvalid:
    'Attribute names use letters, digits, hyphens, underscores, colons and dots; event handlers (on…) and srcdoc cannot be set.',
  imageTarget:
    'Say which image to replace: exactly one of a selector, its current address or the logo.',
  imageSource: 'Give the new image as exactly one of an address or an uploaded file.',
  uploadInvalid: 'An uploaded image is referenced by its sha256 hash and an image content type.',
  pagesInvalid: `Pages are copy paths starting with / (a * matches any characters), at most ${EDIT_PLAN_LIMITS.maxPagesPerOp} per change.`,
  copyTextsInvalid: `A section's copy is a list of 1 to ${EDIT_PLAN_LIMITS.maxCopyTexts} texts.`,
  summaryTooLong: `The summary can be at most ${EDIT_PLAN_LIMITS.maxSummaryLength} characters long.`,
  /** SPEC §5's text for an address that is not one. */
  recipientInvalid: AUTH_MESSAGES.emailInvalid,
  formTargetInvalid:
    'Say which form: contact, newsletter, all, or the id of a form (letters, digits, - and _).',
} as const;

export const COLOR_ROLES = ['primary', 'background', 'text', 'accent'] as const;
export type ColorRole = (typeof COLOR_ROLES)[number];

export const FONT_ROLES = ['all', 'body', 'headings'] as const;
export type FontRole = (typeof FONT_ROLES)[number];

export const INSERT_POSITIONS = ['before', 'after', 'prepend', 'append'] as const;
export type InsertPosition = (typeof INSERT_POSITIONS)[number];

const M = EDIT_PLAN_MESSAGES;
const L = EDIT_PLAN_LIMITS;

const COLOR_PATTERN =
  /^(?:#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})|(?:rgba?|hsla?)\([0-9a-z.,%\s/+-]*\)|[a-z]{3,30})$/i;
const VARIABLE_PATTERN = /^--[A-Za-z0-9_-]{1,100}$/;
const ATTRIBUTE_PATTERN = /^[A-Za-z_:][-A-Za-z0-9_:.]{0,99}$/;
const PAGE_PATTERN = /^\/[^\s]*$/;
const SHA256_PATTERN = /^[0-9a-f]{64}$/;
/** Finds what makes an HTML snippet unsafe to insert (the engine also sanitizes it). */
export function isSafeHtmlSnippet(html: string): boolean {
  if (/<\s*\/?\s*(?:script|iframe|object|embed|base|frame|frameset)\b/i.test(html)) return false;
  // Inside tags only: "Go online = yes" or "Learn javascript: the basics" are fine as text.
  for (const tag of html.match(/<[^>]*>?/g) ?? []) {
    if (/[\s"'/]on[a-z]+\s*=|\bsrcdoc\s*=|(?:javascript|vbscript)\s*:/i.test(tag)) return false;
  }
  return true;
}

const Text = z.string().max(L.maxTextLength, M.textTooLong);
const Selector = z
  .string()
  .trim()
  .min(1, M.selectorInvalid)
  .max(L.maxSelectorLength, M.selectorInvalid)
  .refine((s) => !/[{}<]/.test(s), M.selectorInvalid);
const Url = z
  .string()
  .trim()
  .min(1, M.urlInvalid)
  .max(L.maxUrlLength, M.urlInvalid)
  .refine(isSafeUrl, M.urlInvalid);
export const CssColor = z.string().trim().regex(COLOR_PATTERN, M.colorInvalid);
const Pages = z
  .array(z.string().max(L.maxUrlLength, M.pagesInvalid).regex(PAGE_PATTERN, M.pagesInvalid), {
    error: M.pagesInvalid,
  })
  .min(1, M.pagesInvalid)
  .max(L.maxPagesPerOp, M.pagesInvalid);

/** Fields every operation has: `pages` limits it to these copy paths (default: every HTML page). */
const scope = { pages: Pages.optional() };

/**
 * Which elements an operation targets: every element matching `selector` (tag, #id, .class,
 * [attr], [attr=value] and friends, descendant/child/sibling combinators, :first-of-type,
 * :nth-of-type(), :not()…), optionally only those whose text is `withText` (whitespace collapsed,
 * case ignored).
 */
const target = { selector: Selector, withText: Text.optional() };

export const ReplaceTextOp = z.object({
  op: z.literal('replaceText'),
  find: z.string().min(1, M.findEmpty).max(L.maxFindLength, M.findTooLong),
  replace: Text,
  /** Default true. */
  caseSensitive: z.boolean().optional(),
  /** Only whole words ('Acme' but not 'Acmeville'). Default false. */
  wholeWord: z.boolean().optional(),
  /** Also human-readable attributes: alt, title, placeholder, aria-label, meta descriptions… */
  includeAttributes: z.boolean().optional(),
  ...scope,
});

/** Replaces the text of each matched element (inline formatting inside it is dropped). */
export const SetTextOp = z.object({ op: z.literal('setText'), ...target, text: Text, ...scope });

/** Rewrites the visible texts inside a section, in document order, keeping its structure. */
export const RewriteCopyOp = z.object({
  op: z.literal('rewriteCopy'),
  ...target,
  texts: z.array(Text).min(1, M.copyTextsInvalid).max(L.maxCopyTexts, M.copyTextsInvalid),
  ...scope,
});

export const SetAttributeOp = z
  .object({
    op: z.literal('setAttribute'),
    ...target,
    name: z
      .string()
      .regex(ATTRIBUTE_PATTERN, M.attributeInvalid)
      .refine((n) => !/^on/i.test(n) && n.toLowerCase() !== 'srcdoc', M.attributeInvalid),
    value: Text,
    ...scope,
  })
  .refine((op) => !URL_ATTRIBUTES.includes(op.name.toLowerCase()) || isSafeUrl(op.value), {
    error: M.urlInvalid,
    path: ['value'],
  });

/**
 * Changes a colour in stylesheets, `<style>` blocks and `style` attributes (and SVG/legacy colour
 * attributes). The colour is given by value (every spelling of it: `#f00`, `red`, `rgb(255 0 0)`),
 * by role (resolved from the site's palette) or as a CSS variable whose declarations are set.
 */
export const ChangeColorOp = z
  .object({
    op: z.literal('changeColor'),
    from: CssColor.optional(),
    role: z.enum(COLOR_ROLES).optional(),
    variable: z.string().regex(VARIABLE_PATTERN, M.variableInvalid).optional(),
    to: CssColor,
    ...scope,
  })
  .refine(
    (op) => [op.from, op.role, op.variable].filter((v) => v !== undefined).length === 1,
    M.colorTarget,
  );

export const ChangeFontOp = z.object({
  op: z.literal('changeFont'),
  family: z
    .string()
    .trim()
    .min(1, M.fontInvalid)
    .max(L.maxFontFamilyLength, M.fontInvalid)
    .refine((f) => !/["';{}<>\\]/.test(f), M.fontInvalid),
  /** Which text gets the font; default all (icon and monospace fonts are left alone). */
  role: z.enum(FONT_ROLES).optional(),
  /** Only these elements (instead of a role). */
  selector: Selector.optional(),
  /** A stylesheet that loads the font (e.g. Google Fonts). */
  stylesheetUrl: Url.optional(),
  ...scope,
});

export const HideElementOp = z.object({ op: z.literal('hideElement'), ...target, ...scope });
export const RemoveElementOp = z.object({ op: z.literal('removeElement'), ...target, ...scope });

export const InsertHtmlOp = z.object({
  op: z.literal('insertHtml'),
  ...target,
  position: z.enum(INSERT_POSITIONS),
  html: z
    .string()
    .trim()
    .min(1, M.htmlEmpty)
    .max(L.maxHtmlLength, M.htmlTooLong)
    .refine(isSafeHtmlSnippet, M.htmlUnsafe),
  ...scope,
});

/** An image the user uploaded, stored as a blob; the applier gives it a path in the copy. */
export const UploadedImage = z.object(
  {
    hash: z.string().regex(SHA256_PATTERN, M.uploadInvalid),
    contentType: z.string().regex(/^image\/[a-z0-9.+-]{1,50}$/, M.uploadInvalid),
  },
  { error: M.uploadInvalid },
);
export type UploadedImage = z.infer<typeof UploadedImage>;

export const ReplaceImageOp = z
  .object({
    op: z.literal('replaceImage'),
    selector: Selector.optional(),
    /** The image's current address, as written in the page or root-relative (`/img/a.png`). */
    currentSrc: z.string().trim().min(1, M.urlInvalid).max(L.maxUrlLength, M.urlInvalid).optional(),
    /** The site's logo, found on each page (an image named or inside something named "logo"). */
    logo: z.boolean().optional(),
    src: Url.optional(),
    upload: UploadedImage.optional(),
    alt: Text.optional(),
    ...scope,
  })
  .refine(
    (op) =>
      [op.selector !== undefined, op.currentSrc !== undefined, op.logo === true].filter(Boolean)
        .length === 1,
    M.imageTarget,
  )
  .refine((op) => (op.src === undefined) !== (op.upload === undefined), M.imageSource);

export const SetTitleOp = z.object({ op: z.literal('setTitle'), title: Text, ...scope });
export const SetDescriptionOp = z.object({
  op: z.literal('setDescription'),
  description: Text,
  ...scope,
});

/**
 * Puts a page back as an earlier version of the same site had it (issue 33: "Restore this page
 * from the previous version", from a change report), with the files it needs that the version
 * lacks. The server applies it (the applier cannot read versions): it is never asked for in a
 * customization or planned by a model, only made by the restore call and carried with the plan.
 */
export const RestorePageOp = z.object({
  op: z.literal('restorePage'),
  /** The page's path in the copy (`/pricing`, `/pricing/`, `/pricing/index.html` are one page). */
  path: z.string().max(L.maxUrlLength, M.pagesInvalid).regex(PAGE_PATTERN, M.pagesInvalid),
  /** The version of the same site it comes from. */
  fromVersionId: z.uuid(),
});

/** An address a form's submissions may be mailed to (validated again, and confirmed, by the server). */
const FormRecipientEmail = z
  .string()
  .trim()
  .max(254, M.recipientInvalid)
  .refine((v) => z.email().safeParse(v).success, M.recipientInvalid);

/**
 * "Send the contact form to sales@…" (issue 34, item 6): the notification mails of the copy's
 * matching forms go to `email` instead of the owner's address, once the address has confirmed it
 * wants them (docs/forms.md). No page changes: the server sets it when the draft holding it is
 * published, so it is reviewed like every edit.
 */
export const SetFormRecipientOp = z.object({
  op: z.literal('setFormRecipient'),
  email: FormRecipientEmail,
  /**
   * Which forms the copy takes: `contact` (the default), `newsletter`, `all`, or one form's id as
   * its pages write it (`quote-form`).
   */
  form: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, M.formTargetInvalid)
    .optional(),
});

/** The edits a customization may ask for and a provider may plan: every op but `restorePage`. */
export const PageEditOp = z.discriminatedUnion('op', [
  ReplaceTextOp,
  SetTextOp,
  RewriteCopyOp,
  SetAttributeOp,
  ChangeColorOp,
  ChangeFontOp,
  HideElementOp,
  RemoveElementOp,
  InsertHtmlOp,
  ReplaceImageOp,
  SetTitleOp,
  SetDescriptionOp,
  SetFormRecipientOp,
]);

/** Every op a version's plan may hold. */
export const EditOp = z.discriminatedUnion('op', [...PageEditOp.options, RestorePageOp]);

export const EditPlan = z.object({
  ops: z.array(EditOp).max(L.maxOps, M.tooManyOps),
  summary: z.string().max(L.maxSummaryLength, M.summaryTooLong).optional(),
});

export type ReplaceTextOp = z.infer<typeof ReplaceTextOp>;
export type SetTextOp = z.infer<typeof SetTextOp>;
export type RewriteCopyOp = z.infer<typeof RewriteCopyOp>;
export type SetAttributeOp = z.infer<typeof SetAttributeOp>;
export type ChangeColorOp = z.infer<typeof ChangeColorOp>;
export type ChangeFontOp = z.infer<typeof ChangeFontOp>;
export type HideElementOp = z.infer<typeof HideElementOp>;
export type RemoveElementOp = z.infer<typeof RemoveElementOp>;
export type InsertHtmlOp = z.infer<typeof InsertHtmlOp>;
export type ReplaceImageOp = z.infer<typeof ReplaceImageOp>;
export type SetTitleOp = z.infer<typeof SetTitleOp>;
export type SetDescriptionOp = z.infer<typeof SetDescriptionOp>;
export type RestorePageOp = z.infer<typeof RestorePageOp>;
export type SetFormRecipientOp = z.infer<typeof SetFormRecipientOp>;
export type PageEditOp = z.infer<typeof PageEditOp>;
export type EditOp = z.infer<typeof EditOp>;
export type EditOpType = EditOp['op'];
export type EditPlan = z.infer<typeof EditPlan>;
