import { SALES_EMAIL, SALES_SUBJECT, type Plan } from '@mirror/contract';
import { paths } from '../../../config/paths';

export type PlanAction =
  { kind: 'login' } | { kind: 'navigate'; to: string } | { kind: 'mailto'; href: string };

/** SPEC §2 pricing: logged out → login; Reflection → dashboard; Agency → sales mail; else billing. */
export function getPlanAction(plan: Plan, isLoggedIn: boolean): PlanAction {
  if (!isLoggedIn) return { kind: 'login' };
  switch (plan.action) {
    case 'dashboard':
      return { kind: 'navigate', to: paths.dashboard.getHref() };
    case 'contact-sales':
      return {
        kind: 'mailto',
        href: `mailto:${SALES_EMAIL}?subject=${encodeURIComponent(SALES_SUBJECT)}`,
      };
    default:
      return { kind: 'navigate', to: paths.billing.getHref() };
  }
}
