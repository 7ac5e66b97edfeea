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
}

export interface PlanFeature {
  /** Stable key; the web app translates `pricing.features.<key>`. */
  key: string;
  included: boolean;
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
    },
    features: [
      { key: 'oneMirror', included: true },
      { key: 'basicAi', included: true },
      { key: 'productSubdomain', included: true },
      { key: 'ideaSearch', included: true },
      { key: 'paidRewrite', included: true },
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
    },
    features: [
      { key: 'fiveMirrors', included: true },
      { key: 'advancedAi', included: true },
      { key: 'customSubdomains', included: true },
      { key: 'twoCustomDomains', included: true },
      { key: 'freeRewrite', included: true },
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
    },
    features: [
      { key: 'unlimitedMirrors', included: true },
      { key: 'premiumAi', included: true },
      { key: 'unlimitedSubdomains', included: true },
      { key: 'fifteenCustomDomains', included: true },
      { key: 'freeRewrite', included: true },
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
