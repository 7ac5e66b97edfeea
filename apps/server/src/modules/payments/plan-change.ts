import {
  getPlan,
  PLAN_DOWNGRADE_GRACE_DAYS,
  PLAN_IDS,
  type DowngradePreview,
  type PlanId,
} from '@mirror/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import type { MailMessage } from '../../platform/mail/mailer.js';
import {
  customDomainState,
  graceEnd,
  scheduleDetachments,
  type DetachingDomain,
} from '../domains/plan-downgrade.js';
import { siteLimitState, stopDisallowedSyncs, type SiteRef } from '../sites/plan-limits.js';
import { countChosenSubdomains } from '../sites/subdomains.js';

/**
 * What a change of `users.plan` does to what the account already has (issue 18, item 5), run in
 * the transaction that writes the plan (`writeSubscription`), whichever path lowers it: a
 * cancellation now or at the period's end, a plan change, a renewal that finally failed, a webhook.
 * Nothing is deleted at once:
 * - scheduled syncs the new plan does not allow stop (sync needs a paid plan; read-only sites
 *   never sync);
 * - sites beyond the plan's number, all but the most recently created ones, become read-only
 *   (served; no re-mirror, customization or rewrite) — checked where those start, nothing stored;
 * - custom domains beyond the plan keep serving for PLAN_DOWNGRADE_GRACE_DAYS, then are detached;
 *   an upgrade before then clears the deadline;
 * - a custom subdomain keeps working; without the plan it can only go back to a random one.
 * The owner gets a mail saying what changed and when (sent after the transaction commits).
 */

type Executor = Kysely<Database> | Transaction<Database>;

export interface PlanChange {
  userId: string;
  from: PlanId;
  to: PlanId;
  /** When the new plan took effect (the provider's time of the state). */
  at: Date;
}

export interface PlanChangeEffects extends PlanChange {
  sites: { count: number; limit: number | null; readOnly: SiteRef[] };
  syncsStopped: SiteRef[];
  detaching: (DetachingDomain & { detachAt: string })[];
  /** Sites on a subdomain the owner chose (a plan without custom subdomains keeps them). */
  chosenSubdomains: number;
}

const rank = (plan: PlanId) => PLAN_IDS.indexOf(plan);
export const isDowngrade = (change: PlanChange) => rank(change.to) < rank(change.from);

/** Applies the new plan's limits to what the account has. Call inside the plan's transaction. */
export async function applyPlanLimits(
  trx: Executor,
  change: PlanChange,
): Promise<PlanChangeEffects> {
  const syncsStopped = await stopDisallowedSyncs(trx, change.userId, change.to, change.at);
  const sites = await siteLimitState(trx, change.userId, change.to);
  const { detaching } = await scheduleDetachments(trx, change.userId, change.to, change.at);
  return {
    ...change,
    sites: { count: sites.count, limit: sites.limit, readOnly: sites.readOnly },
    syncsStopped,
    detaching,
    chosenSubdomains: await countChosenSubdomains(trx, change.userId),
  };
}

/** The consequences of `plan` for the account's data now (GET /payments/downgrade-preview). */
export async function planPreview(
  db: Executor,
  userId: string,
  plan: PlanId,
  effectiveAt: Date,
): Promise<DowngradePreview> {
  const sites = await siteLimitState(db, userId, plan);
  const domains = await customDomainState(db, userId, plan);
  const deadline = graceEnd(effectiveAt);
  const ref = ({ id, sourceUrl, title }: SiteRef) => ({ id, sourceUrl, title });
  return {
    plan,
    effectiveAt: effectiveAt.toISOString(),
    sites: { count: sites.count, limit: sites.limit, readOnly: sites.readOnly.map(ref) },
    syncsStopping: sites.syncDisallowed.map((s) => ({ ...ref(s), schedule: s.syncSchedule })),
    customDomains: {
      count: domains.count,
      limit: domains.limit,
      detaching: domains.over.map((d) => ({
        id: d.id,
        domain: d.domain,
        detachAt: d.detachAt ?? deadline,
      })),
    },
    customSubdomain: getPlan(plan).limits.customSubdomain,
    chosenSubdomains: await countChosenSubdomains(db, userId),
    graceDays: PLAN_DOWNGRADE_GRACE_DAYS,
  };
}

// ---- mails (English; the reset mail is the one message written in the user's language) --------

interface Recipient {
  email: string;
  name: string;
}

const day = (iso: string) => iso.slice(0, 10);
const list = (items: string[]) => items.map((item) => `  - ${item}`).join('\n');

/** The mail of a downgrade: what changed now and what happens when; null when nothing does. */
export function downgradeMail(
  to: Recipient,
  effects: PlanChangeEffects,
  links: { appUrl: string; sitesDomain: string },
): MailMessage | null {
  const plan = getPlan(effects.to);
  const paragraphs: string[] = [];
  const { readOnly, count, limit } = effects.sites;
  if (readOnly.length > 0 && limit !== null) {
    paragraphs.push(
      `${plan.name} includes ${limit === 1 ? '1 mirrored site' : `${limit} mirrored sites`} and you have ${count}. ` +
        `All of them stay online, but these are now read-only (no re-mirror, customization, AI rewrite or scheduled sync) until you delete sites or upgrade:\n` +
        list(readOnly.map((s) => s.sourceUrl)),
    );
  }
  if (effects.syncsStopped.length > 0) {
    paragraphs.push(
      `Scheduled sync has stopped for:\n${list(effects.syncsStopped.map((s) => s.sourceUrl))}`,
    );
  }
  if (effects.detaching.length > 0) {
    const byDay = new Map<string, string[]>();
    for (const d of effects.detaching) {
      byDay.set(day(d.detachAt), [...(byDay.get(day(d.detachAt)) ?? []), d.domain]);
    }
    for (const [date, domains] of byDay) {
      paragraphs.push(
        `${plan.name} includes ${plan.limits.customDomains === 0 ? 'no custom domains' : `${plan.limits.customDomains} custom domains`}. ` +
          `These keep serving your sites until ${date} (UTC), then they are detached; your sites stay online at their ${links.sitesDomain} addresses. Upgrade before then to keep them:\n` +
          list(domains),
      );
    }
  }
  if (paragraphs.length === 0) return null;
  if (
    !plan.limits.customSubdomain &&
    getPlan(effects.from).limits.customSubdomain &&
    effects.chosenSubdomains > 0
  ) {
    paragraphs.push(
      'Subdomains you chose keep working; from now on they can only be changed back to a random one.',
    );
  }
  // The periodic upkeep finds accounts over their plan that no downgrade announced (older ones).
  const changed = effects.from !== effects.to;
  const text = [
    `Hi ${to.name},`,
    '',
    changed
      ? `Your Mirror plan changed from ${getPlan(effects.from).name} to ${plan.name} on ${day(effects.at.toISOString())}. Nothing has been deleted. What changes:`
      : `Your account has more than your plan, ${plan.name}, includes. Nothing has been deleted. What changes:`,
    '',
    paragraphs.join('\n\n'),
    '',
    `Your plan and billing: ${links.appUrl}/billing`,
  ].join('\n');
  const subject = changed
    ? `Your Mirror plan is now ${plan.name}: what changes`
    : `Your Mirror account is over its plan: what changes`;
  return { to: to.email, subject, text };
}

/** The mail of the detachment, on the day it happens. */
export function detachedMail(
  to: Recipient,
  plan: PlanId,
  domains: string[],
  links: { appUrl: string; sitesDomain: string },
): MailMessage {
  const name = getPlan(plan).name;
  const text = [
    `Hi ${to.name},`,
    '',
    `As announced when your plan changed, these custom domains were detached today: ${name} does not include them.`,
    list(domains),
    '',
    `Your sites are still online at their ${links.sitesDomain} addresses. To use a custom domain again, upgrade and add it again: ${links.appUrl}/billing`,
  ].join('\n');
  return { to: to.email, subject: 'Custom domains detached from your Mirror sites', text };
}
