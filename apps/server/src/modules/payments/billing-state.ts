import type { PlanId, Subscription } from '@mirror/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env.js';
import type { Db } from '../../platform/db/database.js';
import type { Mailer, MailMessage } from '../../platform/mail/mailer.js';
import type { DomainRegistry } from '../domains/domain-registry.js';
import { detachDueDomains, ownersMissingDeadlines } from '../domains/plan-downgrade.js';
import type { BillingEvent, PaymentProvider } from './payment-provider.js';
import {
  findUserIdByCustomer,
  LIVE_STATUSES,
  markRewritePaid,
  recordEvent,
  writeSubscription,
  type DbOrTrx,
  type PlanChangeHook,
} from './payments.repository.js';
import {
  markRefunded,
  refundsDue,
  settleFailed,
  settleReversed,
  settleSucceeded,
} from './rewrite-payments.repository.js';
import {
  applyPlanLimits,
  detachedMail,
  downgradeMail,
  isDowngrade,
  type PlanChangeEffects,
} from './plan-change.js';

export type EventOutcome = 'applied' | 'duplicate' | 'stale' | 'ignored';

export interface BillingStateDeps {
  db: Db;
  config: Pick<Config, 'appUrl' | 'sitesDomain'>;
  log: FastifyBaseLogger;
  /** Tells owners what a downgrade changes, and when a custom domain is detached. */
  mailer: Mailer;
  /** Reloaded when custom domains beyond a plan are detached. */
  domainRegistry: Pick<DomainRegistry, 'refresh'>;
  /** Refunds a rewrite paid twice. */
  provider: Pick<PaymentProvider, 'refundPaymentIntent'>;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Our billing state: what provider events and calls say of subscriptions and payments, the plan
 * limits a plan change brings (and their deadlines), and the mails that tell owners about them.
 */
export function createBillingState(deps: BillingStateDeps) {
  const { db, config, log } = deps;

  /** Accounts being deleted: their billing ends, and they get no mail about what that changes. */
  const closingAccounts = new Set<string>();
  const links = { appUrl: config.appUrl, sitesDomain: config.sitesDomain };

  /** A mail to an account's owner; a failure is logged (the billing state is stored already). */
  async function mailOwner(
    userId: string,
    build: (owner: { email: string; name: string; plan: PlanId }) => MailMessage | null,
  ): Promise<void> {
    if (closingAccounts.has(userId)) return;
    const owner = await db
      .selectFrom('users')
      .select(['email', 'name', 'plan'])
      .where('id', '=', userId)
      .executeTakeFirst();
    const message = owner ? build(owner) : null;
    if (!message) return;
    try {
      await deps.mailer.send(message);
    } catch (err) {
      log.error({ err, userId }, 'plan mail not sent');
    }
  }

  /**
   * Runs a billing write with the new plan's limits applied in its transaction when it changes
   * `users.plan` (plan-change.ts); after it commits, a downgrade is mailed to the owner.
   */
  async function withPlanLimits<T>(write: (onPlanChange: PlanChangeHook) => Promise<T>) {
    const changes: PlanChangeEffects[] = [];
    const result = await write(async (trx, change) => {
      changes.push(await applyPlanLimits(trx, change));
    });
    for (const effects of changes) {
      log.info(
        {
          userId: effects.userId,
          from: effects.from,
          to: effects.to,
          readOnlySites: effects.sites.readOnly.length,
          syncsStopped: effects.syncsStopped.length,
          domainsDetaching: effects.detaching.length,
        },
        'plan changed',
      );
      if (isDowngrade(effects)) {
        await mailOwner(effects.userId, (owner) => downgradeMail(owner, effects, links));
      }
    }
    return result;
  }

  /**
   * What a provider call answered is the newest state there is, so it is stored at once (a webhook
   * may come later or never reach a developer's machine), through the same code as events.
   */
  async function sync(customerId: string, subscription: Subscription): Promise<void> {
    await withPlanLimits((onPlanChange) =>
      db
        .transaction()
        .execute((trx) =>
          writeSubscription(trx, { customerId, subscription, stateAt: nowSeconds(), onPlanChange }),
        ),
    );
  }

  /**
   * The deadlines of plan limits (periodic): custom domains beyond their owner's plan without a
   * deadline get one (and a mail), and those whose deadline has come are detached (and mailed).
   */
  async function enforcePlanDeadlines(now: Date): Promise<void> {
    for (const { ownerId, plan } of await ownersMissingDeadlines(db)) {
      const effects = await db
        .transaction()
        .execute((trx) => applyPlanLimits(trx, { userId: ownerId, from: plan, to: plan, at: now }));
      await mailOwner(ownerId, (owner) => downgradeMail(owner, effects, links));
    }
    const detached = await detachDueDomains(db, now);
    if (detached.length === 0) return;
    await deps.domainRegistry.refresh();
    for (const { ownerId, domains } of detached) {
      log.info({ userId: ownerId, domains: domains.map((d) => d.domain) }, 'domains detached');
      await mailOwner(ownerId, (owner) =>
        detachedMail(
          owner,
          owner.plan,
          domains.map((d) => d.domain),
          links,
        ),
      );
    }
  }

  /**
   * A rewrite payment's outcome, for the clone's owner only: an attempt of ours (`rewritePaymentId`,
   * issue 30, item 9) is settled once, a success opening the rewrite unless one is open already
   * (then that payment is refunded); an intent from before attempts were kept opens it directly.
   */
  async function applyRewritePayment(
    trx: DbOrTrx,
    event: Extract<BillingEvent, { paymentIntentId: string; metadata: Record<string, string> }>,
  ): Promise<EventOutcome> {
    const { purpose, cloneId, userId, rewritePaymentId } = event.metadata;
    if (purpose !== 'ai_rewrite' || !cloneId || !userId) return 'ignored';
    const { customerId } = event;
    if (customerId && (await findUserIdByCustomer(trx, customerId)) !== userId) return 'ignored';
    if (event.type === 'payment_intent.payment_failed') {
      return rewritePaymentId && (await settleFailed(trx, rewritePaymentId))
        ? 'applied'
        : 'ignored';
    }
    if (!rewritePaymentId) {
      return (await markRewritePaid(trx, cloneId, userId)) ? 'applied' : 'ignored';
    }
    const outcome = await settleSucceeded(trx, rewritePaymentId, event.paymentIntentId);
    return outcome === 'opened' || outcome === 'refund_due' ? 'applied' : 'ignored';
  }

  /**
   * Refunds rewrites paid twice (a 3-D Secure payment completed after a newer attempt paid), with
   * one key per payment: a retry is the same refund. Run after the event that found them (never
   * inside its transaction or the test mode's event delivery) and by the billing tick.
   */
  let refunding: Promise<void> = Promise.resolve();
  function refundDue(): Promise<void> {
    const run = async () => {
      for (const due of await refundsDue(db)) {
        try {
          await deps.provider.refundPaymentIntent(
            due.payment_intent_id!,
            `mirror-refund-${due.id}`,
          );
          await markRefunded(db, due.id);
          log.info({ rewritePaymentId: due.id }, 'rewrite paid twice: refunded');
        } catch (err) {
          log.error({ err, rewritePaymentId: due.id }, 'rewrite refund failed; tried again later');
        }
      }
    };
    refunding = refunding.then(run, run);
    return refunding;
  }
  /**
   * The one place provider events change our state. Each event is applied once (its id is
   * recorded in the same transaction as its effect); one older than the stored state of its
   * subscription changes nothing.
   */
  async function applyEvent(event: BillingEvent): Promise<EventOutcome> {
    const outcome = await withPlanLimits((onPlanChange) =>
      db.transaction().execute(async (trx): Promise<EventOutcome> => {
        if (!(await recordEvent(trx, event))) return 'duplicate';
        switch (event.type) {
          case 'subscription.updated':
          case 'subscription.deleted': {
            const subscription =
              event.type === 'subscription.deleted' &&
              LIVE_STATUSES.includes(event.subscription.status)
                ? { ...event.subscription, status: 'canceled' as const }
                : event.subscription;
            const written = await writeSubscription(trx, {
              customerId: event.customerId,
              subscription,
              stateAt: event.created,
              onPlanChange,
            });
            return written === 'unknown_customer' ? 'ignored' : written;
          }
          case 'payment_intent.succeeded':
          case 'payment_intent.payment_failed':
            return applyRewritePayment(trx, event);
          case 'payment.refunded':
          case 'payment.disputed': {
            // A partial refund leaves the rewrite as it is; a dispute is logged for a person.
            if (event.type === 'payment.disputed')
              log.warn({ paymentIntentId: event.paymentIntentId }, 'payment disputed');
            if (!event.fully) return 'ignored';
            const status = event.type === 'payment.refunded' ? 'refunded' : 'disputed';
            return (await settleReversed(trx, event.paymentIntentId, status))
              ? 'applied'
              : 'ignored';
          }
          default:
            return 'ignored';
        }
      }),
    );
    log.info({ eventId: event.id, type: event.type, outcome }, 'billing event');
    // A rewrite paid twice is refunded once the event is stored, outside its transaction.
    if (event.type === 'payment_intent.succeeded' && outcome === 'applied') refundSoon();
    return outcome;
  }

  function refundSoon(): void {
    setImmediate(() => {
      refundDue().catch((err: unknown) => log.warn({ err }, 'rewrite refunds not looked at'));
    });
  }

  return { applyEvent, sync, enforcePlanDeadlines, closingAccounts, refundDue, refundSoon };
}
