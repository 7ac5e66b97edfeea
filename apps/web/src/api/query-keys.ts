import type { AnalyticsPeriod, PlanId } from '@mirror/contract';

/**
 * Every TanStack Query key of the app, in one place: a feature reads with these and a write
 * invalidates by their prefixes (`billing.all` refreshes everything the billing screen shows).
 */
export const queryKeys = {
  auth: {
    /** `GET /auth/me`: the signed-in user as the server holds it now. */
    me: () => ['auth', 'me'] as const,
  },
  domains: {
    all: ['domains'] as const,
    /** `GET /domains`: sites, custom and parked domains. */
    overview: () => [...queryKeys.domains.all, 'overview'] as const,
    detail: (id: string) => [...queryKeys.domains.all, 'detail', id] as const,
    /** `count`: the domain's message count; news in the domain record reads the list again. */
    messages: (id: string, count: number) =>
      [...queryKeys.domains.all, 'detail', id, 'messages', count] as const,
    /** `updatedAt`: the saved page is what is previewed, so a save asks again. */
    preview: (id: string, template: string, updatedAt: string) =>
      [...queryKeys.domains.all, 'detail', id, 'preview', template, updatedAt] as const,
  },
  sites: {
    all: ['sites'] as const,
    /** `GET /domains/clones`: the signed-in user's sites. */
    list: () => [...queryKeys.sites.all, 'list'] as const,
    /** One site; its versions and analytics live under it (invalidate it with `exact`). */
    detail: (id: string) => [...queryKeys.sites.all, 'detail', id] as const,
    versions: (id: string) => [...queryKeys.sites.detail(id), 'versions'] as const,
    analytics: (id: string, period: AnalyticsPeriod) =>
      [...queryKeys.sites.detail(id), 'analytics', period] as const,
    /** Issue 33: the site's watches (with the plan's count and the feed), and their deliveries. */
    watches: (id: string) => [...queryKeys.sites.detail(id), 'watches'] as const,
    webhookDeliveries: (id: string) =>
      [...queryKeys.sites.detail(id), 'webhook-deliveries'] as const,
    /** Issue 34: the forms found on the live copy (with the month's usage), and their submissions. */
    forms: (id: string) => [...queryKeys.sites.detail(id), 'forms'] as const,
    /** Every view of the submissions; a view is its form (or ''), search and box. */
    formSubmissionsAll: (id: string) =>
      [...queryKeys.sites.detail(id), 'form-submissions'] as const,
    formSubmissions: (id: string, view: { form: string; q: string; spam: boolean }) =>
      [...queryKeys.sites.formSubmissionsAll(id), view] as const,
    /** A version's change report against the version it replaced. */
    changes: (id: string, versionId: string) =>
      [...queryKeys.sites.detail(id), 'changes', versionId] as const,
  },
  billing: {
    all: ['billing'] as const,
    view: () => [...queryKeys.billing.all, 'view'] as const,
    usage: () => [...queryKeys.billing.all, 'usage'] as const,
    paymentMethods: () => [...queryKeys.billing.all, 'payment-methods'] as const,
    invoices: () => [...queryKeys.billing.all, 'invoices'] as const,
    /** `plan` absent: what is over `current`, the plan the account is on. */
    downgradePreview: (options: { plan?: PlanId; at?: 'now' | 'period_end'; current?: PlanId }) =>
      [...queryKeys.billing.all, 'downgrade-preview', options] as const,
  },
  ideas: {
    rewritePricing: () => ['ideas', 'rewrite-pricing'] as const,
  },
};
