import type {
  FormSettingsInput,
  FormSubmission,
  FormSubmissionList,
  SiteFormList,
  SiteFormSummary,
} from '@mirror/contract';
import { api } from '../../../lib/api-client';

// Forms on copies (issue 34): calls only the site page's Forms panel makes, all owner-only.

const site = (id: string) => `/domains/clone/${encodeURIComponent(id)}`;
const submission = (id: string, submissionId: string) =>
  `${site(id)}/forms/submissions/${encodeURIComponent(submissionId)}`;

/** Which submissions are shown: of one form (its key) or all (''), a search, the inbox or spam. */
export interface SubmissionView {
  form: string;
  q: string;
  spam: boolean;
}

/** `?form=…&q=…&spam=…&before=…`, leaving out what is not set. */
function queryOf(params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The forms found on the live copy, with the owner's settings and counts, and the month's usage. */
export function getForms(id: string, signal?: AbortSignal): Promise<SiteFormList> {
  return api.get<SiteFormList>(`${site(id)}/forms`, {
    defaultMessage: 'Failed to fetch the forms',
    signal,
  });
}

/** A 400 carries the reason (an address that is not one). */
export function updateForm(
  id: string,
  formKey: string,
  input: FormSettingsInput,
): Promise<SiteFormSummary> {
  return api.put<SiteFormSummary>(`${site(id)}/forms/${encodeURIComponent(formKey)}`, input, {
    defaultMessage: 'Failed to save the form',
  });
}

/**
 * Mails a form's pending recipient its confirmation again ("send the contact form to sales@…"):
 * a 429 says it was sent recently, a 409 that it was sent all it may get.
 */
export function resendRecipientConfirmation(id: string, formKey: string): Promise<SiteFormSummary> {
  return api.post<SiteFormSummary>(
    `${site(id)}/forms/${encodeURIComponent(formKey)}/recipient/confirmation`,
    {},
    { defaultMessage: 'Failed to send the confirmation mail' },
  );
}

/** A page of submissions, the newest first; `before` is the previous page's `nextBefore`. */
export function getSubmissions(
  id: string,
  view: SubmissionView,
  before: string | null,
  signal?: AbortSignal,
): Promise<FormSubmissionList> {
  const query = queryOf({
    form: view.form,
    q: view.q,
    spam: String(view.spam),
    before,
  });
  return api.get<FormSubmissionList>(`${site(id)}/forms/submissions${query}`, {
    defaultMessage: 'Failed to fetch the submissions',
    signal,
  });
}

export function markSubmission(
  id: string,
  submissionId: string,
  spam: boolean,
): Promise<FormSubmission> {
  return api.patch<FormSubmission>(
    submission(id, submissionId),
    { spam },
    {
      defaultMessage: 'Failed to move the submission',
    },
  );
}

export function deleteSubmission(id: string, submissionId: string): Promise<unknown> {
  return api.delete(submission(id, submissionId), {
    defaultMessage: 'Failed to delete the submission',
  });
}

/** The view's submissions as CSV (every page, no search), fetched with the session. */
export function downloadSubmissionsCsv(
  id: string,
  view: Pick<SubmissionView, 'form' | 'spam'>,
): Promise<Blob> {
  const query = queryOf({ form: view.form, spam: String(view.spam) });
  return api.getBlob(`${site(id)}/forms/submissions.csv${query}`, {
    defaultMessage: 'Download failed',
  });
}

/** A file a visitor sent with a submission, fetched with the session. */
export function downloadSubmissionFile(
  id: string,
  submissionId: string,
  index: number,
): Promise<Blob> {
  return api.getBlob(`${submission(id, submissionId)}/files/${index}`, {
    defaultMessage: 'Download failed',
  });
}
