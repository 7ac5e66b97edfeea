import { describe, expect, it } from 'vitest';
import { PLANS, getPlan } from '@mirror/contract';
import { getPlanAction } from './plan-action';

describe('pricing actions', () => {
  it('asks logged-out visitors to log in, whatever the plan', () => {
    for (const plan of PLANS) expect(getPlanAction(plan, false)).toEqual({ kind: 'login' });
  });

  it('sends Reflection to the dashboard and Pro to billing', () => {
    expect(getPlanAction(getPlan('free'), true)).toEqual({ kind: 'navigate', to: '/dashboard' });
    expect(getPlanAction(getPlan('pro'), true)).toEqual({ kind: 'navigate', to: '/billing' });
  });

  it('opens a mail to sales for Agency', () => {
    expect(getPlanAction(getPlan('agency'), true)).toEqual({
      kind: 'mailto',
      href: 'mailto:sales@mirror.dev?subject=Mirror%20Agency%20Plan%20Inquiry',
    });
  });
});
