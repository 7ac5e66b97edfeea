export const PLAN_IDS = ['free', 'pro', 'agency'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export type AiTier = 'basic' | 'advanced' | 'premium';

export interface PlanLimits {
  /** Mirrored sites an account may keep; null means unlimited. */
  mirrors: number | null;
  customDomains: number;
  customSubdomain: boolean;
  aiInstructions: boolean;
  freeAiRewrite: boolean;
  /** Sites may be mirrored again on a daily or weekly schedule. */
  scheduledSync: boolean;
  /** ...and every hour (issue 33: Agency syncs hourly, Pro daily at most). */
  hourlySync: boolean;
  /** Watches on change reports an account may keep (issue 33). */
  watches: number;
  /** Days a version's change report is kept (the version itself may be kept longer). */
  reportRetentionDays: number;
  /** Form submissions the copies' forms take per calendar month (UTC), spam not counted (issue 34). */
  formSubmissions: number;
  /** Bytes of files one form submission may carry (stored, counted in storage). */
  formFileBytes: number;
  /** Bytes of one web archive (WACZ, WARC) uploaded to host as a copy (issue 35). */
  archiveUploadBytes: number;
}

export interface PlanFeature {
  /** Stable key; the web app translates `pricing.features.<key>`. */
  key: string;
  included: boolean;
  /**
   * Runs only on a server with an AI model connected (AI rewrites): not offered where none is
   * (`GET /domains/ai-rewrite-pricing` answers `available: false`).
   */
  needsModel?: true;
}

export interface Plan {
  id: PlanId;
  /** Product name, not translated. */
  name: string;
  priceUsd: number;
  period: 'forever' | 'month';
  popular: boolean;
  aiTier: AiTier;
  limits: PlanLimits;
  features: PlanFeature[];
  buttonVariant: 'outline' | 'primary' | 'secondary';
  /** What the plan card's button does (SPEC §2 pricing actions). */
  action: 'dashboard' | 'billing' | 'contact-sales';
}

export const SALES_EMAIL = 'sales@mirror.dev';
export const SALES_SUBJECT = 'Mirror Agency Plan Inquiry';

export const PLANS: readonly Plan[] = [
  {
    id: 'free',
    name: 'Reflection',
    priceUsd: 0,
    period: 'forever',
    popular: false,
    aiTier: 'basic',
    limits: {
      mirrors: 1,
      customDomains: 0,
      customSubdomain: false,
      aiInstructions: false,
      freeAiRewrite: false,
      scheduledSync: false,
      hourlySync: false,
      watches: 1,
      reportRetentionDays: 30,
      formSubmissions: 50,
      formFileBytes: 1024 * 1024,
      archiveUploadBytes: 100 * 1024 * 1024,
    },
    features: [
      { key: 'oneMirror', included: true },
      { key: 'basicAi', included: true },
      { key: 'productSubdomain', included: true },
      { key: 'ideaSearch', included: true },
      { key: 'paidRewrite', included: true, needsModel: true },
      { key: 'customDomains', included: false },
      { key: 'autoSync', included: false },
    ],
    buttonVariant: 'outline',
    action: 'dashboard',
  },
  {
    id: 'pro',
    name: 'Mirror Pro',
    priceUsd: 7,
    period: 'month',
    popular: true,
    aiTier: 'advanced',
    limits: {
      mirrors: 5,
      customDomains: 2,
      customSubdomain: true,
      aiInstructions: true,
      freeAiRewrite: true,
      scheduledSync: true,
      hourlySync: false,
      watches: 10,
      reportRetentionDays: 180,
      formSubmissions: 1_000,
      formFileBytes: 10 * 1024 * 1024,
      archiveUploadBytes: 1024 * 1024 * 1024,
    },
    features: [
      { key: 'fiveMirrors', included: true },
      { key: 'advancedAi', included: true },
      { key: 'customSubdomains', included: true },
      { key: 'twoCustomDomains', included: true },
      { key: 'freeRewrite', included: true, needsModel: true },
      { key: 'autoSsl', included: true },
      { key: 'autoSync', included: true },
    ],
    buttonVariant: 'primary',
    action: 'billing',
  },
  {
    id: 'agency',
    name: 'Mirror Agency',
    priceUsd: 29,
    period: 'month',
    popular: false,
    aiTier: 'premium',
    limits: {
      mirrors: null,
      customDomains: 15,
      customSubdomain: true,
      aiInstructions: true,
      freeAiRewrite: true,
      scheduledSync: true,
      hourlySync: true,
      watches: 100,
      reportRetentionDays: 730,
      formSubmissions: 10_000,
      formFileBytes: 25 * 1024 * 1024,
      archiveUploadBytes: 4 * 1024 * 1024 * 1024,
    },
    features: [
      { key: 'unlimitedMirrors', included: true },
      { key: 'premiumAi', included: true },
      { key: 'unlimitedSubdomains', included: true },
      { key: 'fifteenCustomDomains', included: true },
      { key: 'freeRewrite', included: true, needsModel: true },
      { key: 'autoSync', included: true },
      { key: 'prioritySupport', included: true },
    ],
    buttonVariant: 'secondary',
    action: 'contact-sales',
  },
];

export function getPlan(id: PlanId): Plan {
  const plan = PLANS.find((p) => p.id === id);
  if (!plan) throw new Error(`Unknown plan ${id}`);
  return plan;
}

export function isPaidPlan(id: PlanId | null | undefined): boolean {
  return id != null && id !== 'free';
}

/**
 * After a downgrade (issue 18, item 5), custom domains beyond the new plan's number keep serving
 * this many days, then are detached; upgrading again before then keeps them.
 */
export const PLAN_DOWNGRADE_GRACE_DAYS = 14;

const sites = (n: number) => (n === 1 ? '1 mirrored site' : `${n} mirrored sites`);

/** What the server answers when an account has more than its plan allows. */
export const PLAN_LIMIT_MESSAGES = {
  /**
   * A re-mirror, customization, AI rewrite or scheduled sync of a site beyond the plan's number:
   * only the most recently created sites, as many as the plan includes, can be changed.
   */
  siteReadOnly: (limit: number, count: number) =>
    `Your plan includes ${sites(limit)} and you have ${count}. Only the ${
      limit === 1 ? 'most recently created one' : `${limit} most recently created`
    } can be re-mirrored or customized: delete sites or upgrade to re-mirror or customize this one.`,
  syncNeedsPlan: 'Scheduled sync is available on Mirror Pro and Mirror Agency.',
  syncHourlyNeedsAgency: 'Hourly sync is available on Mirror Agency.',
  watchesLimit: (limit: number) =>
    `Your plan includes ${limit === 1 ? '1 watch' : `${limit} watches`}: delete a watch or upgrade to add another.`,
} as const;
