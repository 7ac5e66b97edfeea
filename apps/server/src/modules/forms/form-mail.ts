import type { FileRow } from './forms.repository.js';
import type { SiteForm } from '@mirror/engine';
import { escapeUTF8 } from 'entities';
import type { MailMessage } from '../../platform/mail/mailer.js';
import type { FormTexts } from './form-texts.js';

const EMAIL = /^[^\s@<>",;]{1,64}@[^\s@<>",;]{1,255}\.[^\s@<>",;]{2,63}$/;

/**
 * The visitor's address, for the mail's Reply-To: the value of the field the form's page marks as
 * an email (its type, autocomplete or name), else of a field named like one; only a plain address.
 */
export function replyToOf(form: SiteForm, fields: readonly [string, string][]): string | undefined {
  const marked = new Set(form.fields.filter((f) => f.holds === 'email').map((f) => f.name));
  const candidates = [
    ...fields.filter(([name]) => marked.has(name)),
    ...fields.filter(([name]) => /e-?mail/i.test(name)),
  ];
  return candidates.map(([, value]) => value.trim()).find((value) => EMAIL.test(value));
}

/** The mail telling the owner of one submission, fields in the order sent. */
export function submissionMail(
  texts: FormTexts,
  input: {
    to: string;
    siteName: string;
    form: SiteForm;
    page: string;
    fields: readonly [string, string][];
    files: readonly FileRow[];
    /** For a recipient of the form's own: how it stops the mails (`texts.mailStop`). */
    stop?: string;
  },
): MailMessage {
  const { form, fields, files } = input;
  const footer = input.stop ?? texts.mailFooter;
  const replyTo = replyToOf(form, fields);
  const lines = [
    texts.mailIntro(form.label, input.page),
    '',
    ...fields.map(([name, value]) => `${name}: ${value}`),
    ...files.map((f) => `${f.field}: ${f.name} (${f.size} B)`),
    '',
    footer,
  ];
  const rows = [
    ...fields.map(([name, value]) => [name, value] as const),
    ...files.map((f) => [f.field, `${f.name} (${f.size} B)`] as const),
  ]
    .map(
      ([name, value]) =>
        `<tr><th style="text-align:start;vertical-align:top;padding:4px 12px 4px 0">${escapeUTF8(name)}</th><td style="white-space:pre-wrap;padding:4px 0">${escapeUTF8(value)}</td></tr>`,
    )
    .join('');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.6;color:#1d2233">
<p>${escapeUTF8(texts.mailIntro(form.label, input.page))}</p><table>${rows}</table>
<p style="font-size:14px;color:#555">${escapeUTF8(footer)}</p></body></html>`;
  return {
    to: input.to,
    subject: texts.mailSubject(form.label, input.siteName),
    text: lines.join('\n'),
    html,
    ...(replyTo ? { replyTo } : {}),
  };
}

/** The daily digest: every submission an account is owed, oldest first, fields in order. */
export function digestMail(
  texts: FormTexts,
  to: string,
  submissions: readonly {
    site: string;
    formLabel: string;
    page: string;
    createdAt: string;
    fields: readonly [string, string][];
  }[],
  /** Lines at the end (how a recipient of a form's own stops the mails). */
  footer: readonly string[] = [],
): MailMessage {
  const blocks = submissions.map((s) => [
    `${s.createdAt} · ${s.site}`,
    texts.mailIntro(s.formLabel, s.page),
    ...s.fields.map(([name, value]) => `${name}: ${value}`),
  ]);
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.6;color:#1d2233">${blocks
    .map(
      ([head, intro, ...fields]) =>
        `<h3 style="margin:16px 0 4px">${escapeUTF8(head!)}</h3><p style="margin:0">${escapeUTF8(intro!)}</p><pre style="white-space:pre-wrap;font:inherit">${escapeUTF8(fields.join('\n'))}</pre>`,
    )
    .join(
      '',
    )}${footer.map((line) => `<p style="font-size:14px;color:#555">${escapeUTF8(line)}</p>`).join('')}</body></html>`;
  return {
    to,
    subject: texts.mailDigestSubject(submissions.length),
    text: [...blocks.map((b) => b.join('\n')), ...footer].join('\n\n'),
    html,
  };
}
