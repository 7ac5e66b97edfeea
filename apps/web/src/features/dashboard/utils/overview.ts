import {
  PLANS,
  type CloneRecord,
  type CloneStatus,
  type DomainListItem,
  type DomainsOverview,
  type Plan,
  type PlanId,
} from '@mirror/contract';

/** What the dashboard reads of `GET /domains`: the sites and the combined domain list. */
export type DashboardOverview = Pick<DomainsOverview, 'sites' | 'domains'>;

export interface DashboardCounters {
  mirroredSites: number;
  /** Mirrors whose latest run completed. */
  activeMirrors: number;
  createdThisMonth: number;
  parkedDomains: number;
  activeDomains: number;
  plan: Plan;
  /** Mirrors the plan allows; null means unlimited. */
  mirrorLimit: number | null;
}

export function planOf(id: PlanId | null | undefined): Plan {
  return PLANS.find((plan) => plan.id === id) ?? PLANS[0]!;
}

export function countOverview(
  overview: DashboardOverview,
  planId: PlanId | null | undefined,
  now: Date = new Date(),
): DashboardCounters {
  const plan = planOf(planId);
  const { sites, domains } = overview;
  return {
    mirroredSites: sites.length,
    activeMirrors: sites.filter((site) => site.status === 'completed').length,
    createdThisMonth: sites.filter((site) => {
      const created = new Date(site.createdAt);
      return created.getFullYear() === now.getFullYear() && created.getMonth() === now.getMonth();
    }).length,
    parkedDomains: domains.filter((domain) => domain.kind === 'parked').length,
    activeDomains: domains.filter((domain) => domain.status === 'active').length,
    plan,
    mirrorLimit: plan.limits.mirrors,
  };
}

export type ActivityKind = 'created' | 'completed' | 'failed' | 'running';

export interface ActivityItem {
  key: string;
  siteId: string;
  kind: ActivityKind;
  sourceUrl: string;
  /** The site's name (its home page title), when it has one. */
  title: string | null;
  at: string;
}

function kindOf(status: CloneStatus): ActivityKind {
  if (status === 'completed') return 'completed';
  if (status === 'failed') return 'failed';
  return 'running';
}

/** Recent activity from the sites' own dates: each site's creation and its latest outcome. */
export function recentActivity(sites: readonly CloneRecord[], limit = 6): ActivityItem[] {
  const items: ActivityItem[] = [];
  for (const site of sites) {
    items.push({
      key: `${site.id}:created`,
      siteId: site.id,
      kind: 'created',
      sourceUrl: site.sourceUrl,
      title: site.title ?? null,
      at: site.createdAt,
    });
    if (site.updatedAt && site.updatedAt !== site.createdAt) {
      const kind = kindOf(site.status);
      items.push({
        key: `${site.id}:${kind}`,
        siteId: site.id,
        kind,
        sourceUrl: site.sourceUrl,
        title: site.title ?? null,
        at: site.updatedAt,
      });
    }
  }
  return items
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || a.key.localeCompare(b.key))
    .slice(0, limit);
}

export interface DomainGroups {
  active: DomainListItem[];
  /** Not active yet: waiting for DNS, or misconfigured (SPEC §4 splits lists by status). */
  pending: DomainListItem[];
}

/** Active and pending domains, each newest first. */
export function groupDomains(domains: readonly DomainListItem[]): DomainGroups {
  const sorted = [...domains].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  return {
    active: sorted.filter((domain) => domain.status === 'active'),
    pending: sorted.filter((domain) => domain.status !== 'active'),
  };
}
