import {
  AiRewritePaymentBody,
  BillingView,
  CancelSubscriptionBody,
  ClientSecretResponse,
  DefaultPaymentMethodBody,
  DowngradePreview,
  DowngradePreviewQuery,
  Invoice,
  PAYMENT_MESSAGES,
  PaymentIntentBody,
  PaymentIntentResponse,
  PaymentMethod,
  PortalSessionResponse,
  SubscribeBody,
  SubscribeResponse,
  Subscription,
  TestCardBody,
  TestConfirmBody,
  TestPaymentMethodResponse,
  UpdateSubscriptionBody,
  Usage,
} from '@mirror/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound, serviceUnavailable } from '../../errors.js';
import { requireAuth } from '../authenticate.js';

const bearer = [{ bearer: [] }];
const tags = ['payments'];
const ProviderIdParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,255}$/) });
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * What makes a create request unique for the provider's idempotency key: the client's
 * `Idempotency-Key` header (one per user action, kept across retries), else the request id.
 */
function nonceOf(request: FastifyRequest): string {
  const header = request.headers['idempotency-key'];
  return typeof header === 'string' && IDEMPOTENCY_KEY.test(header) ? header : request.id;
}

const userOf = async (request: FastifyRequest) => (await requireAuth(request)).user;

/** Stripe's webhook: the raw body is kept for the signature check, so it has a scope of its own. */
const webhookRoute: FastifyPluginAsyncZod = async (app) => {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  app.post(
    '/webhook',
    { schema: { tags, summary: 'Stripe webhook (signed; 404 in test mode)' } },
    async (request) => {
      const signature = request.headers['stripe-signature'];
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      await app.paymentsService.handleWebhook(
        body,
        typeof signature === 'string' ? signature : undefined,
      );
      return { received: true };
    },
  );
};

/** Payments and billing (SPEC §7 "Payments"), mounted under /payments; all for signed-in users. */
export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(webhookRoute);
  await app.register(accountRoutes);
};

const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const payments = app.paymentsService;
  // The 401 comes before the body is looked at.
  app.addHook('onRequest', async (request) => {
    await requireAuth(request);
    // No provider: what can be read is read (plan, usage, no cards, no invoices); nothing changes.
    if (payments.mode === 'off' && request.method !== 'GET' && request.method !== 'HEAD')
      throw serviceUnavailable(PAYMENT_MESSAGES.notConfigured);
  });
  const testModeOnly = async () => {
    if (payments.mode !== 'test') throw notFound(PAYMENT_MESSAGES.testModeOnly);
  };

  app.post(
    '/subscribe',
    {
      schema: {
        tags,
        summary: 'Subscribe to Mirror Pro or Mirror Agency',
        description:
          '`clientSecret` is set when the first payment needs 3-D Secure: the subscription is `incomplete` until the card holder confirms it.',
        security: bearer,
        body: SubscribeBody,
        response: { 200: SubscribeResponse },
      },
    },
    async (request) => payments.subscribe(await userOf(request), request.body, nonceOf(request)),
  );

  app.put(
    '/subscription',
    {
      schema: {
        tags,
        summary: 'Change the plan (prorated)',
        security: bearer,
        body: UpdateSubscriptionBody,
        response: { 200: Subscription },
      },
    },
    async (request) =>
      payments.changePlan(await userOf(request), request.body.planId, nonceOf(request)),
  );

  app.get(
    '/subscription',
    {
      schema: {
        tags,
        summary: 'The billing view: plan, subscription, payment mode',
        security: bearer,
        response: { 200: BillingView },
      },
    },
    async (request) => payments.billing(await userOf(request)),
  );

  app.post(
    '/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel at the end of the period, or immediately',
        security: bearer,
        body: CancelSubscriptionBody.nullish(),
        response: { 200: Subscription },
      },
    },
    async (request) => payments.cancel(await userOf(request), request.body?.immediately ?? false),
  );

  app.post(
    '/reactivate',
    {
      schema: {
        tags,
        summary: 'Undo a cancellation at the end of the period',
        security: bearer,
        response: { 200: Subscription },
      },
    },
    async (request) => payments.reactivate(await userOf(request)),
  );

  app.post(
    '/setup-intent',
    {
      schema: {
        tags,
        summary: 'Client secret to save a card with Stripe.js',
        security: bearer,
        response: { 200: ClientSecretResponse },
      },
    },
    async (request) => payments.setupIntent(await userOf(request)),
  );

  app.get(
    '/payment-methods',
    {
      schema: {
        tags,
        summary: 'Saved cards (brand, last 4 digits, expiry)',
        security: bearer,
        response: { 200: z.array(PaymentMethod) },
      },
    },
    async (request) => payments.paymentMethods(await userOf(request)),
  );

  app.put(
    '/default-payment-method',
    {
      schema: {
        tags,
        summary: 'Make a card the default for invoices (answers the saved cards)',
        security: bearer,
        body: DefaultPaymentMethodBody,
        response: { 200: z.array(PaymentMethod) },
      },
    },
    async (request) =>
      payments.setDefaultPaymentMethod(await userOf(request), request.body.paymentMethodId),
  );

  app.delete(
    '/payment-methods/:id',
    {
      schema: {
        tags,
        summary: 'Remove a saved card (answers the saved cards)',
        security: bearer,
        params: ProviderIdParams,
        response: { 200: z.array(PaymentMethod) },
      },
    },
    async (request) => payments.removePaymentMethod(await userOf(request), request.params.id),
  );

  app.post(
    '/payment-intent',
    {
      schema: {
        tags,
        summary: 'A one-off payment',
        security: bearer,
        body: PaymentIntentBody,
        response: { 200: PaymentIntentResponse },
      },
    },
    async (request) =>
      payments.paymentIntent(await userOf(request), request.body, nonceOf(request)),
  );

  app.get(
    '/invoices',
    {
      schema: {
        tags,
        summary: 'Invoice history, newest first',
        security: bearer,
        response: { 200: z.array(Invoice) },
      },
    },
    async (request) => payments.invoices(await userOf(request)),
  );

  app.get(
    '/invoices/:id/download',
    {
      schema: {
        tags,
        summary: 'An invoice as a PDF file (invoice-{id}.pdf)',
        security: bearer,
        params: ProviderIdParams,
      },
    },
    async (request, reply) => {
      const pdf = await payments.invoicePdf(await userOf(request), request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="invoice-${request.params.id}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.get(
    '/usage',
    {
      schema: {
        tags,
        summary: 'Usage this billing period against the plan limits',
        security: bearer,
        response: { 200: Usage },
      },
    },
    async (request) => payments.usage(await userOf(request)),
  );

  app.get(
    '/downgrade-preview',
    {
      schema: {
        tags,
        summary: 'What a plan would leave read-only, stop or detach (default: the current plan)',
        description:
          "From the account's data now: sites beyond the plan (all but the most recently created) become read-only, scheduled syncs the plan does not allow stop, custom domains beyond it are detached after `graceDays`. `at=period_end` counts from the end of the paid period (a cancellation at period end).",
        security: bearer,
        querystring: DowngradePreviewQuery,
        response: { 200: DowngradePreview },
      },
    },
    async (request) => payments.downgradePreview(await userOf(request), request.query),
  );

  app.post(
    '/portal-session',
    {
      schema: {
        tags,
        summary:
          'Where to manage cards and invoices (Stripe Customer Portal, or /billing in test mode)',
        security: bearer,
        response: { 200: PortalSessionResponse },
      },
    },
    async (request) => payments.portalSession(await userOf(request)),
  );

  app.post(
    '/ai-rewrite',
    {
      schema: {
        tags,
        summary: "Pay a clone's one-off AI rewrite (accounts without a paid plan)",
        security: bearer,
        body: AiRewritePaymentBody,
        response: { 200: PaymentIntentResponse },
      },
    },
    async (request) => payments.payAiRewrite(await userOf(request), request.body),
  );

  app.post(
    '/test/payment-methods',
    {
      schema: {
        tags,
        summary: 'Test mode: a payment method from a test card (404 with Stripe)',
        security: bearer,
        body: TestCardBody,
        response: { 200: TestPaymentMethodResponse },
      },
      onRequest: testModeOnly,
    },
    async (request) => payments.addTestCard(await userOf(request), request.body),
  );

  app.post(
    '/test/confirm',
    {
      schema: {
        tags,
        summary: "Test mode: the card holder's answer to a 3-D Secure check (404 with Stripe)",
        security: bearer,
        body: TestConfirmBody,
        response: { 200: PaymentIntentResponse },
      },
      onRequest: testModeOnly,
    },
    async (request) => payments.confirmTestPayment(await userOf(request), request.body),
  );
};
