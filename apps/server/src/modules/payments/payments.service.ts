import { createHash } from 'node:crypto';
import {
  CUSTOMIZE_MESSAGES,
  getPlan,
  isPaidPlan,
  PAYMENT_MESSAGES,
  type BillingView,
  type DowngradePreview,
  type Invoice,
  type PaidPlanId,
  type PaymentIntentResponse,
  type PaymentMethod,
  type PlanId,
  type SubscribeResponse,
  type Subscription,
  type Usage,
} from '@mirror/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env.js';
import {
  AppError,
  badRequest,
  conflict,
  notFound,
  serviceUnavailable,
  tooManyRequests,
} from '../../errors.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/schema.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { RateLimiter, RateLimitRule } from '../../platform/rate-limit/rate-limiter.js';
import type { DomainRegistry } from '../domains/domain-registry.js';
import type { AnalyticsService } from '../analytics/analytics.service.js';
import type { SitesService } from '../sites/sites.service.js';
import { rewritesAvailable } from '../customize/ai-provider.js';
import {
  PaymentDeclinedError,
  type BillingEvent,
  type PaymentProvider,
} from './payment-provider.js';
import type { WebhookParser } from './payment-providers.js';
import {
  findCurrentSubscription,
  findCustomerId,
  LIVE_STATUSES,
  markRewritePaid,
  pruneEvents,
  saveCustomerId,
  toSubscription,
  usageFigures,
  type SubscriptionRecord,
} from './payments.repository.js';
import { planPreview } from './plan-change.js';
import type { TestCard, TestPaymentProvider } from './test-mode/provider.js';
import type { StorageService } from '../storage/storage.service.js';
import { createBillingState } from './billing-state.js';
import {
  claimRewritePayment,
  markWaiting,
  settleFailed,
  settleSucceeded,
} from './rewrite-payments.repository.js';

const HOUR = 3_600_000;
/**
 * Per user, as each of these calls the provider (Stripe's API limits are per account, so one user
 * must not spend them): charges (subscribe, plan change, payments), cards (added, set up, made
 * default, removed; the portal) and subscription changes (cancel, reactivate).
 */
export const PAYMENT_RATE_LIMITS = {
  charge: { limit: 20, windowMs: HOUR },
  card: { limit: 20, windowMs: HOUR },
  subscription: { limit: 20, windowMs: HOUR },
} satisfies Record<string, RateLimitRule>;
/** Applied event ids are kept this long: Stripe retries a webhook for up to three days. */
const EVENT_RETENTION_MS = 30 * 24 * HOUR;
/** Metadata keys the server sets; a client's generic payment cannot pose as a rewrite payment. */
const RESERVED_METADATA = new Set(['cloneId', 'userId', 'purpose', 'rewritePaymentId']);
export const AI_REWRITE_DESCRIPTION = 'AI Website Rewrite';

export interface PaymentsServiceDeps {
  db: Db;
  analytics: Pick<AnalyticsService, 'accountAudience'>;
  provider: PaymentProvider;
  /** Set in the local test mode: the card form, the 3-D Secure dialog, renewals. */
  testMode: TestPaymentProvider | null;
  /** Set with Stripe: verifies and reads a webhook. */
  parseWebhook: WebhookParser | null;
  sites: SitesService;
  storage: Pick<StorageService, 'usage'>;
  limiter: RateLimiter;
  config: Config;
  log: FastifyBaseLogger;
  /** Tells owners what a downgrade changes, and when a custom domain is detached. */
  mailer: Mailer;
  /** Reloaded when custom domains beyond a plan are detached. */
  domainRegistry: Pick<DomainRegistry, 'refresh'>;
}

/**
 * A key per user, purpose and client request (its Idempotency-Key header, else its request id): a
 * retried HTTP request reaches the provider with the same key and is not charged twice.
 */
function idempotencyKey(user: UserRow, purpose: string, nonce: string, ...parts: string[]) {
  const digest = createHash('sha256')
    .update([user.id, purpose, nonce, ...parts].join('\n'))
    .digest('hex')
    .slice(0, 40);
  return `mirror-${purpose}-${digest}`;
}

/** A refusal the user can act on is a 402 with the provider's words (a card not theirs: 404). */
async function declinesAsErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof PaymentDeclinedError)) throw err;
    if (err.message === PAYMENT_MESSAGES.paymentMethodNotFound) throw notFound(err.message);
    throw new AppError('payment_declined', 402, err.message);
  }
}

/** The first and last day of the calendar month (UTC) around `date`. */
function monthOf(date: Date): { start: number; end: number } {
  const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const end = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  return { start: start / 1000, end: end / 1000 };
}

const dayOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

export function createPaymentsService(deps: PaymentsServiceDeps) {
  const { db, provider, config, log } = deps;
  const mode = provider.mode;

  async function limit(user: UserRow, kind: keyof typeof PAYMENT_RATE_LIMITS) {
    const hit = await deps.limiter.hit(
      `payments-${kind}:user:${user.id}`,
      PAYMENT_RATE_LIMITS[kind],
    );
    if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds);
  }

  // Without a provider there are no customers (and nothing creates one).
  const customerIdOf = async (user: UserRow) =>
    mode === 'off' ? null : findCustomerId(db, user.id, mode);

  /** The user's customer at the provider, created on first use. */
  async function ensureCustomer(user: UserRow): Promise<string> {
    // Without a provider nothing is created: every payment path stops here.
    if (mode === 'off') throw serviceUnavailable(PAYMENT_MESSAGES.notConfigured);
    const existing = await customerIdOf(user);
    if (existing) return existing;
    const created = await provider.createCustomer({
      id: user.id,
      email: user.email,
      name: user.name,
    });
    return saveCustomerId(db, user.id, mode, created);
  }

  async function liveSubscription(user: UserRow): Promise<SubscriptionRecord> {
    const current = await findCurrentSubscription(db, user.id);
    if (!current || !LIVE_STATUSES.includes(current.status)) {
      throw conflict(PAYMENT_MESSAGES.notSubscribed);
    }
    return current;
  }

  async function paymentMethodsOf(user: UserRow): Promise<PaymentMethod[]> {
    const customerId = await customerIdOf(user);
    return customerId ? provider.listPaymentMethods(customerId) : [];
  }

  function requireTestMode(): TestPaymentProvider {
    if (!deps.testMode) throw notFound(PAYMENT_MESSAGES.testModeOnly);
    return deps.testMode;
  }

  const { applyEvent, sync, enforcePlanDeadlines, closingAccounts, refundDue, refundSoon } =
    createBillingState(deps);

  return {
    mode,

    applyEvent,

    async billing(user: UserRow): Promise<BillingView> {
      const current = await findCurrentSubscription(db, user.id);
      const subscription = current ? toSubscription(current) : null;
      return {
        currentPlan: user.plan,
        isSubscribed: subscription?.status === 'active' || subscription?.status === 'past_due',
        isTrialing: subscription?.status === 'trialing',
        trialEndsAt: subscription?.status === 'trialing' ? subscription.trial_end : null,
        cancel_at_period_end: subscription?.cancel_at_period_end ?? false,
        subscription,
        mode,
        publishableKey: provider.publishableKey,
      };
    },

    async subscribe(
      user: UserRow,
      body: { planId: PaidPlanId; paymentMethodId: string },
      nonce: string,
    ): Promise<SubscribeResponse> {
      const current = await findCurrentSubscription(db, user.id);
      if (current && LIVE_STATUSES.includes(current.status)) {
        throw conflict(PAYMENT_MESSAGES.alreadySubscribed);
      }
      await limit(user, 'charge');
      const customerId = await ensureCustomer(user);
      if (current) {
        // A first payment never confirmed: that attempt ends before the new one starts.
        await sync(customerId, await provider.cancelSubscription(current.id, true));
      }
      const result = await declinesAsErrors(() =>
        provider.createSubscription({
          customerId,
          planId: body.planId,
          paymentMethodId: body.paymentMethodId,
          idempotencyKey: idempotencyKey(
            user,
            'subscribe',
            nonce,
            body.planId,
            body.paymentMethodId,
          ),
        }),
      );
      await sync(customerId, result.subscription);
      return result;
    },

    /** Plan change with proration; the new plan's limits apply at once. */
    async changePlan(user: UserRow, planId: PaidPlanId, nonce: string): Promise<Subscription> {
      const current = await liveSubscription(user);
      if (current.plan === planId) throw conflict(PAYMENT_MESSAGES.samePlan);
      await limit(user, 'charge');
      const subscription = await declinesAsErrors(() =>
        provider.updateSubscription(
          current.id,
          planId,
          idempotencyKey(user, 'plan', nonce, planId),
        ),
      );
      await sync(current.customer_id, subscription);
      return subscription;
    },

    async cancel(user: UserRow, immediately: boolean): Promise<Subscription> {
      const current = await findCurrentSubscription(db, user.id);
      if (!current) throw conflict(PAYMENT_MESSAGES.notSubscribed);
      await limit(user, 'subscription');
      const subscription = await provider.cancelSubscription(current.id, immediately);
      await sync(current.customer_id, subscription);
      return subscription;
    },

    /**
     * Ends billing before an account is deleted: the provider would otherwise go on charging a
     * customer whose account no longer exists.
     */
    async endBillingForDeletedAccount(user: UserRow): Promise<void> {
      const current = await findCurrentSubscription(db, user.id);
      if (!current) return;
      closingAccounts.add(user.id);
      try {
        await provider.cancelSubscription(current.id, true);
      } finally {
        closingAccounts.delete(user.id);
      }
    },

    /**
     * What `plan` (default: the current one) leaves read-only, stops or detaches, from the
     * account's data now; `period_end` counts the grace period from the end of the paid period.
     */
    async downgradePreview(
      user: UserRow,
      query: { plan?: PlanId | undefined; at: 'now' | 'period_end' },
    ): Promise<DowngradePreview> {
      let effectiveAt = new Date();
      if (query.at === 'period_end') {
        const current = await findCurrentSubscription(db, user.id);
        if (current && LIVE_STATUSES.includes(current.status)) {
          effectiveAt = new Date(current.current_period_end * 1000);
        }
      }
      return planPreview(db, user.id, query.plan ?? user.plan, effectiveAt);
    },

    async reactivate(user: UserRow): Promise<Subscription> {
      const current = await liveSubscription(user);
      if (current.cancel_at_period_end !== 1) throw conflict(PAYMENT_MESSAGES.notCancelling);
      await limit(user, 'subscription');
      const subscription = await provider.reactivateSubscription(current.id);
      await sync(current.customer_id, subscription);
      return subscription;
    },

    async setupIntent(user: UserRow): Promise<{ clientSecret: string }> {
      await limit(user, 'card');
      return provider.createSetupIntent(await ensureCustomer(user));
    },

    paymentMethods: paymentMethodsOf,

    async setDefaultPaymentMethod(user: UserRow, paymentMethodId: string) {
      await limit(user, 'card');
      const customerId = await ensureCustomer(user);
      await declinesAsErrors(() => provider.setDefaultPaymentMethod(customerId, paymentMethodId));
      return paymentMethodsOf(user);
    },

    async removePaymentMethod(user: UserRow, paymentMethodId: string) {
      await limit(user, 'card');
      const customerId = await customerIdOf(user);
      const methods = customerId ? await provider.listPaymentMethods(customerId) : [];
      if (!customerId || !methods.some((m) => m.id === paymentMethodId)) {
        throw notFound(PAYMENT_MESSAGES.paymentMethodNotFound);
      }
      await declinesAsErrors(() => provider.detachPaymentMethod(customerId, paymentMethodId));
      return paymentMethodsOf(user);
    },

    /** A one-off payment (SPEC §7). Its metadata can never pose as a rewrite payment. */
    async paymentIntent(
      user: UserRow,
      body: {
        amount: number;
        currency: string;
        description: string;
        paymentMethodId?: string | undefined;
        metadata?: Record<string, string> | undefined;
      },
      nonce: string,
    ): Promise<PaymentIntentResponse> {
      await limit(user, 'charge');
      const customerId = await ensureCustomer(user);
      const metadata = Object.fromEntries(
        Object.entries(body.metadata ?? {}).filter(([key]) => !RESERVED_METADATA.has(key)),
      );
      return declinesAsErrors(() =>
        provider.createPaymentIntent({
          customerId,
          amount: body.amount,
          currency: body.currency,
          description: body.description,
          metadata: { ...metadata, userId: user.id, purpose: 'payment' },
          ...(body.paymentMethodId ? { paymentMethodId: body.paymentMethodId } : {}),
          idempotencyKey: idempotencyKey(user, 'payment', nonce, String(body.amount)),
        }),
      );
    },

    /**
     * Pays the one-off AI rewrite of a clone (users without a paid plan). Paid at once opens the
     * rewrite now; a card that needs 3-D Secure answers `requires_action` and the confirmation's
     * event opens it. Charged once per attempt (issue 30, item 9): the attempt is claimed in our
     * database before the provider is called, a site has one attempt under way at a time (another
     * request meanwhile is 409), and the attempt's id is the provider's idempotency key.
     */
    async payAiRewrite(
      user: UserRow,
      body: { cloneId: string; paymentMethodId: string },
    ): Promise<PaymentIntentResponse> {
      if (isPaidPlan(user.plan)) throw badRequest(PAYMENT_MESSAGES.rewriteNotNeeded);
      const site = await deps.sites.ownedSite(user, body.cloneId);
      // No model, no rewrite: nothing is sold that cannot be delivered (no charge, no record).
      if (!rewritesAvailable(config)) throw conflict(CUSTOMIZE_MESSAGES.rewriteUnavailable);
      if (site.ai_rewrite_paid_at) throw conflict(PAYMENT_MESSAGES.alreadyPaid);
      await limit(user, 'charge');
      const amount = config.ai.rewritePriceCents;
      if (amount === 0) {
        await markRewritePaid(db, site.id, user.id);
        return { id: `free_${site.id}`, clientSecret: '', status: 'succeeded' };
      }
      const customerId = await ensureCustomer(user);
      const attempt = {
        siteId: site.id,
        userId: user.id,
        paymentMethodId: body.paymentMethodId,
        amount,
      };
      let claim = await claimRewritePayment(db, attempt);
      if (claim.kind === 'waiting') {
        // An earlier attempt waits for 3-D Secure: paid by now, it opened the rewrite; otherwise
        // this attempt replaces it (should it still be paid, it is refunded: `settleSucceeded`).
        const earlier = claim.attempt;
        const intent = earlier.payment_intent_id
          ? await provider.retrievePaymentIntent(earlier.payment_intent_id)
          : null;
        if (intent?.status === 'succeeded') {
          await db.transaction().execute((trx) => settleSucceeded(trx, earlier.id, intent.id));
          throw conflict(PAYMENT_MESSAGES.alreadyPaid);
        }
        claim = await claimRewritePayment(db, { ...attempt, replacing: earlier.id });
      }
      if (claim.kind === 'paid') throw conflict(PAYMENT_MESSAGES.alreadyPaid);
      if (claim.kind !== 'claimed') throw conflict(PAYMENT_MESSAGES.paymentInProgress);
      const attemptId = claim.id;

      let intent: PaymentIntentResponse;
      try {
        intent = await provider.createPaymentIntent({
          customerId,
          amount,
          currency: 'usd',
          description: AI_REWRITE_DESCRIPTION,
          metadata: {
            cloneId: site.id,
            userId: user.id,
            purpose: 'ai_rewrite',
            rewritePaymentId: attemptId,
          },
          paymentMethodId: body.paymentMethodId,
          idempotencyKey: `mirror-ai-rewrite-${attemptId}`,
        });
      } catch (err) {
        // A refusal ends the attempt. Any other error leaves it under way: whether it was charged
        // is not known here, and the provider's event (or the attempt going stale) settles it.
        if (err instanceof PaymentDeclinedError) {
          await db.transaction().execute((trx) => settleFailed(trx, attemptId));
        }
        return declinesAsErrors(() => Promise.reject(err));
      }
      const settled = await db.transaction().execute(async (trx) => {
        if (intent.status === 'succeeded') return settleSucceeded(trx, attemptId, intent.id);
        await markWaiting(trx, attemptId, intent.id);
        return 'waiting' as const;
      });
      if (settled === 'refund_due') refundSoon();
      return intent;
    },

    async invoices(user: UserRow): Promise<Invoice[]> {
      const customerId = await customerIdOf(user);
      return customerId ? provider.listInvoices(customerId) : [];
    },

    async invoicePdf(user: UserRow, invoiceId: string): Promise<Buffer> {
      const customerId = await customerIdOf(user);
      const pdf = customerId ? await provider.invoicePdf(customerId, invoiceId) : null;
      if (!pdf) throw notFound(PAYMENT_MESSAGES.invoiceNotFound);
      return pdf;
    },

    /**
     * Real figures for this billing period (the subscription's, else the calendar month): mirrors
     * kept, custom domains attached (those still waiting for DNS included: they count against the
     * plan's number), the audience the sites host counted
     * (page views, visitors and bytes sent for the sites; visits to parked pages), and the storage
     * all versions of the sites hold against the plan's.
     */
    async usage(user: UserRow): Promise<Usage> {
      const plan = getPlan(user.plan);
      const current = await findCurrentSubscription(db, user.id);
      const period =
        current && LIVE_STATUSES.includes(current.status)
          ? { start: current.current_period_start, end: current.current_period_end }
          : monthOf(new Date());
      const [from, to] = [dayOf(period.start), dayOf(period.end - 1)];
      const [figures, audience] = await Promise.all([
        usageFigures(db, user.id),
        deps.analytics.accountAudience(user.id, from, to),
      ]);
      return {
        plan: user.plan,
        periodStart: period.start,
        periodEnd: period.end,
        mirrors: { used: figures.mirrors, limit: plan.limits.mirrors },
        customDomains: {
          used: figures.customDomains,
          waiting: figures.waitingDomains,
          limit: plan.limits.customDomains,
        },
        pageViews: audience.pageViews,
        visitors: audience.visitors,
        bandwidthBytes: audience.bytes,
        parked: audience.parked,
        storage: await deps.storage.usage(user.id, user.plan),
      };
    },

    async portalSession(user: UserRow): Promise<{ url: string }> {
      await limit(user, 'card');
      return provider.createPortalSession(await ensureCustomer(user), `${config.appUrl}/billing`);
    },

    /** Stripe's webhook: verified against the raw body, then applied like any event. */
    async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<void> {
      if (!deps.parseWebhook) throw notFound();
      let event: BillingEvent | null;
      try {
        event = deps.parseWebhook(rawBody, signature);
      } catch (err) {
        log.warn({ err: err instanceof Error ? err.message : String(err) }, 'webhook refused');
        throw badRequest(PAYMENT_MESSAGES.invalidSignature);
      }
      if (event) await applyEvent(event);
    },

    /** Test mode's card form: the number is checked and dropped by the provider. */
    async addTestCard(user: UserRow, card: TestCard) {
      const testMode = requireTestMode();
      await limit(user, 'card');
      return testMode.createPaymentMethod(card);
    },

    /** Test mode's 3-D Secure dialog: approve pays, refuse is a 402 and nothing is paid. */
    async confirmTestPayment(
      user: UserRow,
      body: { clientSecret: string; approve: boolean },
    ): Promise<PaymentIntentResponse> {
      const testMode = requireTestMode();
      const customerId = await customerIdOf(user);
      const result = customerId
        ? await testMode.confirmPayment(customerId, body.clientSecret, body.approve)
        : null;
      if (!result) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
      if (result.failure) throw new AppError('payment_declined', 402, result.failure);
      return result.intent;
    },

    /**
     * Periodic upkeep: test-mode renewals and retries, the deadlines of plan limits (custom domains
     * beyond a downgraded plan), and old event ids.
     */
    async runMaintenance(now = new Date()): Promise<void> {
      await deps.testMode?.renewDue(now);
      await enforcePlanDeadlines(now);
      await refundDue();
      await pruneEvents(db, new Date(Date.now() - EVENT_RETENTION_MS));
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
