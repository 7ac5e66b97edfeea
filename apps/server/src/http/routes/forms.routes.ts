import {
  FormKeyParams,
  FormSettingsInput,
  FormSubmission,
  FormSubmissionList,
  SiteFormList,
  SiteFormSummary,
  SiteIdParams,
  SubmissionExportQuery,
  SubmissionFileParams,
  SubmissionListQuery,
  SubmissionParams,
  SubmissionSpamInput,
} from '@mirror/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../authenticate.js';

const bearer = [{ bearer: [] }];
const tags = ['sites'];

/** A file name for Content-Disposition: ASCII fallback plus the UTF-8 name (RFC 6266). */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Forms on copies (issue 34): what the live copy's forms are, their settings and submissions. */
export const formsRoutes: FastifyPluginAsyncZod = async (app) => {
  const forms = app.formsService;
  // Signed-in owners only, checked before the body so visitors get the 401, not a 400.
  const signedIn = async (request: Parameters<typeof requireAuth>[0]) => {
    await requireAuth(request);
  };

  app.get(
    '/clone/:id/forms',
    {
      schema: {
        tags,
        summary: "The live copy's forms, with their settings and submission counts",
        description:
          "Every form of the live version's pages, one per address and id (a footer form on every page is one form). `captured` forms post their submissions to the sites host; login and payment forms never do (`refusal`). `usage` counts this month's submissions (UTC, spam not counted) across the owner's sites against the plan's.",
        security: bearer,
        params: SiteIdParams,
        response: { 200: SiteFormList },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return forms.list((await requireAuth(request)).user, request.params.id);
    },
  );

  app.put(
    '/clone/:id/forms/:formKey',
    {
      schema: {
        tags,
        summary: 'Turn a form on or off, choose its notification and where visitors go after',
        security: bearer,
        params: FormKeyParams,
        body: FormSettingsInput,
        response: { 200: SiteFormSummary },
      },
      onRequest: signedIn,
    },
    async (request) =>
      forms.updateSettings(
        (await requireAuth(request)).user,
        request.params.id,
        request.params.formKey,
        request.body,
      ),
  );

  app.post(
    '/clone/:id/forms/:formKey/recipient/confirmation',
    {
      schema: {
        tags,
        summary: "Mail a form's pending recipient its confirmation again",
        description:
          'A form whose mails a published edit sent to another address ("send the contact form to sales@…") mails there only once the address confirms. This sends the confirmation mail again: at most 3 in all per address, 10 minutes apart (429 sooner, 409 after the last).',
        security: bearer,
        params: FormKeyParams,
        response: { 200: SiteFormSummary },
      },
    },
    async (request) =>
      forms.resendRecipientConfirmation(
        (await requireAuth(request)).user,
        request.params.id,
        request.params.formKey,
      ),
  );

  app.get(
    '/clone/:id/forms/submissions',
    {
      schema: {
        tags,
        summary: "The site's form submissions, newest first (50 a page)",
        security: bearer,
        params: SiteIdParams,
        querystring: SubmissionListQuery,
        response: { 200: FormSubmissionList },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return forms.listSubmissions(
        (await requireAuth(request)).user,
        request.params.id,
        request.query,
      );
    },
  );

  app.get(
    '/clone/:id/forms/submissions.csv',
    {
      schema: {
        tags,
        summary: 'Every submission as CSV: one column per field, in the order fields were sent',
        security: bearer,
        params: SiteIdParams,
        querystring: SubmissionExportQuery,
      },
    },
    async (request, reply) => {
      const csv = await forms.exportCsv(
        (await requireAuth(request)).user,
        request.params.id,
        request.query,
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', disposition('submissions.csv'))
        .send(csv);
    },
  );

  app.patch(
    '/clone/:id/forms/submissions/:submissionId',
    {
      schema: {
        tags,
        summary: 'Mark a submission as spam or not spam',
        security: bearer,
        params: SubmissionParams,
        body: SubmissionSpamInput,
        response: { 200: FormSubmission },
      },
      onRequest: signedIn,
    },
    async (request) =>
      forms.setSpam(
        (await requireAuth(request)).user,
        request.params.id,
        request.params.submissionId,
        request.body.spam,
      ),
  );

  app.delete(
    '/clone/:id/forms/submissions/:submissionId',
    {
      schema: {
        tags,
        summary: 'Delete a submission and its files',
        security: bearer,
        params: SubmissionParams,
      },
    },
    async (request, reply) => {
      await forms.deleteSubmission(
        (await requireAuth(request)).user,
        request.params.id,
        request.params.submissionId,
      );
      return reply.status(204).send();
    },
  );

  app.get(
    '/clone/:id/forms/submissions/:submissionId/files/:index',
    {
      schema: {
        tags,
        summary: 'A file sent with a submission (as an attachment)',
        security: bearer,
        params: SubmissionFileParams,
      },
    },
    async (request, reply) => {
      const file = await forms.file(
        (await requireAuth(request)).user,
        request.params.id,
        request.params.submissionId,
        request.params.index,
      );
      // A visitor's upload is never rendered on the app's origin: a download, typed as bytes.
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(file.size))
        .header('content-disposition', disposition(file.name))
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    },
  );
};

const RecipientToken = z.string().max(200);
const RecipientAnswer = z.object({
  token: RecipientToken,
  answer: z.enum(['confirm', 'decline']),
});

/**
 * The link of a form recipient's confirmation mail (docs/forms.md): a page that asks, and its two
 * buttons' answer. Public: the token in the link is the key. The page changes nothing itself, so
 * a mail scanner that opens links answers nothing.
 */
export const formRecipientsRoutes: FastifyPluginAsyncZod = async (app) => {
  const forms = app.formsService;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  app.get(
    '/recipients/confirm',
    {
      schema: {
        tags: ['forms'],
        summary: "A form recipient's confirmation page (HTML)",
        querystring: z.object({ token: RecipientToken.optional() }),
      },
    },
    async (request, reply) => {
      const page = await forms.recipientPage(request.query.token ?? '');
      return reply
        .code(page.status)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .send(page.html);
    },
  );

  app.post(
    '/recipients/confirm',
    {
      schema: {
        tags: ['forms'],
        summary: "A form recipient's answer: confirm or decline the form's mails (HTML)",
        body: RecipientAnswer,
      },
    },
    async (request, reply) => {
      const page = await forms.answerRecipient(request.body.token, request.body.answer);
      return reply
        .code(page.status)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .send(page.html);
    },
  );
};
