import { z } from 'zod';

/**
 * Forms on copies (issue 34): the sites host takes the submissions of a copy's contact,
 * newsletter and other forms, keeps them for the site's owner, mails them and answers the visitor
 * with a thank-you page. Login and payment forms are never taken (docs/forms.md).
 */

export const FORM_KINDS = ['contact', 'newsletter', 'search', 'login', 'payment', 'other'] as const;
export const FormKind = z.enum(FORM_KINDS);

export const FORM_REFUSALS = [
  'password',
  'card-number',
  'payment-service',
  'account',
  'dialog',
] as const;

/** How the owner hears of a submission: a mail for each, one a day, or none. */
export const FORM_NOTIFY = ['each', 'daily', 'off'] as const;
export const FormNotify = z.enum(FORM_NOTIFY);
export type FormNotify = z.infer<typeof FormNotify>;

export const FORM_MESSAGES = {
  notFound: 'Form not found',
  submissionNotFound: 'Submission not found',
  redirectInvalid:
    'Enter a full address starting with https:// or a path of the site starting with /.',
  webhookInvalid: 'Enter a full address starting with https:// or http://.',
  /** Shown on the copy when a form is refused, off, or over the plan's month. */
  notAvailable: 'This form is not available on this copy',
  recipientNotFound: 'This form has no recipient of its own.',
  recipientMailedRecently:
    'A confirmation mail was sent to this address recently. Please try again later.',
  recipientTooManyMails:
    'This address was sent all the confirmation mails it can get. Ask its owner to use the link in one of them.',
} as const;

/**
 * A form's own recipient ("send the contact form to sales@…", set by a published edit): its
 * mails go there only once the address has `confirmed` it wants them; while `pending`, and
 * after it `declined`, they go to the owner's address.
 */
export const FORM_RECIPIENT_STATUSES = ['pending', 'confirmed', 'declined'] as const;
export const FormRecipient = z.object({
  email: z.string(),
  status: z.enum(FORM_RECIPIENT_STATUSES),
});
export type FormRecipient = z.infer<typeof FormRecipient>;

export const FormKeyParams = z.object({
  id: z.string().min(1).max(100),
  formKey: z.string().regex(/^[A-Za-z0-9_-]{12}$/, FORM_MESSAGES.notFound),
});

export const SubmissionParams = z.object({
  id: z.string().min(1).max(100),
  submissionId: z.string().uuid(FORM_MESSAGES.submissionNotFound),
});

export const SubmissionFileParams = SubmissionParams.extend({
  index: z.coerce.number().int().min(0).max(99),
});

export const SiteFormField = z.object({
  name: z.string(),
  type: z.string(),
  required: z.boolean(),
});

export const SiteFormSummary = z.object({
  key: z.string(),
  /** The form's id on its pages (`form-2` for the second form of a page without one). */
  id: z.string(),
  /** What to call it: its id when its page gave it one, else its button's words, else its kind. */
  label: z.string(),
  kind: FormKind,
  /** The copy takes its submissions (a POST to the site itself, no login or payment form). */
  captured: z.boolean(),
  /** Why the copy never takes it, when it does not. */
  refusal: z.enum(FORM_REFUSALS).nullable(),
  /** Where it submits: a path of the copy, or another site's address (a form service). */
  action: z.string(),
  method: z.string(),
  fields: z.array(SiteFormField),
  pages: z.array(z.string()),
  pageCount: z.number().int(),
  submitLabel: z.string().nullable(),
  /** The owner's settings. */
  enabled: z.boolean(),
  redirectUrl: z.string().nullable(),
  notify: FormNotify,
  webhookUrl: z.string().nullable(),
  /** The key receivers check deliveries' signatures with (`whsec_…`); null without a webhook. */
  webhookSecret: z.string().nullable(),
  /** Where its mails go instead of the owner's address (once confirmed); null: the owner's. */
  recipient: FormRecipient.nullable(),
  submissions: z.number().int(),
  spam: z.number().int(),
  lastSubmissionAt: z.string().nullable(),
});
export type SiteFormSummary = z.infer<typeof SiteFormSummary>;

export const SiteFormList = z.object({
  forms: z.array(SiteFormSummary),
  /** Submissions this calendar month (UTC) across the owner's sites, spam not counted. */
  usage: z.object({ month: z.string(), used: z.number().int(), limit: z.number().int() }),
});
export type SiteFormList = z.infer<typeof SiteFormList>;

export const FormSettingsInput = z.object({
  enabled: z.boolean(),
  /** Where the visitor goes after a submission: the site's own thank-you page by default. */
  redirectUrl: z
    .string()
    .trim()
    .max(2000, FORM_MESSAGES.redirectInvalid)
    .refine(
      (v) => (v.startsWith('/') ? !v.startsWith('//') : /^https?:\/\/[^\s/]+/i.test(v)),
      FORM_MESSAGES.redirectInvalid,
    )
    .nullable(),
  notify: FormNotify,
  /**
   * Each submission kept (not spam) is POSTed there as signed JSON (`FormWebhookBody`); null for
   * none, absent to keep the form's as it is.
   */
  webhookUrl: z
    .string()
    .trim()
    .max(2000, FORM_MESSAGES.webhookInvalid)
    .refine((v) => /^https?:\/\/[^\s/]+/i.test(v) && URL.canParse(v), FORM_MESSAGES.webhookInvalid)
    .nullable()
    .optional(),
  /**
   * null: its mails go to the owner's address again. A recipient is set only by a published
   * edit ("send the contact form to sales@…"); absent keeps the form's.
   */
  recipient: z.null().optional(),
});
export type FormSettingsInput = z.infer<typeof FormSettingsInput>;

/**
 * What a form's webhook receives for each submission kept, signed like watches' deliveries
 * (`Mirror-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the form's
 * webhookSecret>`).
 */
export interface FormWebhookBody {
  type: 'form.submission';
  deliveryId?: string;
  site: { id: string; address: string };
  form: { key: string; id: string; label: string; kind: string };
  submission: {
    id: string;
    page: string | null;
    createdAt: string;
    fields: { name: string; value: string }[];
    files: { field: string; name: string; contentType: string; size: number }[];
  };
}

export const FormSubmissionFile = z.object({
  field: z.string(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});

export const FormSubmission = z.object({
  id: z.string(),
  formKey: z.string(),
  /** What the form was called when it was sent (`SiteFormSummary.label`). */
  formLabel: z.string(),
  /** The copy's page it was sent from, when known. */
  page: z.string().nullable(),
  createdAt: z.string(),
  spam: z.boolean(),
  /** Why it was put with spam: `honeypot`, `too-fast`, `links`, or `owner`. */
  spamReason: z.string().nullable(),
  /** In the order the visitor's browser sent them, under their own names. */
  fields: z.array(z.object({ name: z.string(), value: z.string() })),
  files: z.array(FormSubmissionFile),
});
export type FormSubmission = z.infer<typeof FormSubmission>;

export const SubmissionListQuery = z.object({
  form: z.string().max(12).optional(),
  q: z.string().trim().max(200).optional(),
  spam: z.enum(['true', 'false']).optional(),
  /** The `createdAt` of the last submission of the previous page. */
  before: z.string().max(40).optional(),
});

export const SubmissionExportQuery = z.object({
  form: z.string().max(12).optional(),
  spam: z.enum(['true', 'false']).optional(),
});

export const FormSubmissionList = z.object({
  submissions: z.array(FormSubmission),
  /** Pass as `before` for the next page; null on the last. */
  nextBefore: z.string().nullable(),
});
export type FormSubmissionList = z.infer<typeof FormSubmissionList>;

export const SubmissionSpamInput = z.object({ spam: z.boolean() });
