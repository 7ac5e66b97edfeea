import type { PlanId } from '@mirror/contract';
import { expect } from 'vitest';
import { waitFor, type TestApp } from './test-app.js';

/** What route tests that mirror fixture sites on 127.0.0.1 set. */
export const SERVICE_ENV = {
  MIRROR_ALLOW_PRIVATE_NETWORKS: 'true',
  MIRROR_RENDER: 'never',
  RATE_LIMIT_FACTOR: '20',
};

export interface SignedUp {
  userId: string;
  token: string;
  headers: { authorization: string };
}

/** Registers a new user through the API, on a paid plan when asked (as a webhook would set it). */
/** The password of every account `signUp` makes. */
export const SIGN_UP_PASSWORD = 'a long password';

export async function signUp(t: TestApp, plan?: Exclude<PlanId, 'free'>): Promise<SignedUp> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      name: 'Site Owner',
      email: `u${Math.random().toString(36).slice(2)}@example.com`,
      password: SIGN_UP_PASSWORD,
    },
  });
  expect(res.statusCode).toBe(201);
  const body = res.json();
  if (plan) {
    await t.app.database.db
      .updateTable('users')
      .set({ plan })
      .where('id', '=', body.user.id)
      .execute();
  }
  return {
    userId: body.user.id as string,
    token: body.token as string,
    headers: { authorization: `Bearer ${body.token as string}` },
  };
}

export interface StatusReading {
  status: string;
  progress: number;
  currentStatus: string;
  previewUrl: string;
  error: string | null;
}

/** Polls the status like the web app does, collecting every reading until the run ends. */
export async function pollToEnd(
  t: TestApp,
  id: string,
  headers: Record<string, string> = {},
): Promise<StatusReading[]> {
  const readings: StatusReading[] = [];
  await waitFor(async () => {
    const res = await t.app.inject({ url: `/api/domains/clone/${id}/status`, headers });
    const reading = res.json() as StatusReading;
    readings.push(reading);
    return reading.status === 'completed' || reading.status === 'failed' ? true : undefined;
  }, 60_000);
  return readings;
}

/**
 * Mirrors `sourceUrl` through the API (a new site for the caller, or a demo without a token) and
 * polls until the run ends, like the web app.
 */
export async function mirrorSite(
  t: TestApp,
  sourceUrl: string,
  headers: Record<string, string> = {},
  extra: Record<string, unknown> = {},
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/domains/clone',
    payload: { sourceUrl, ...extra },
    headers,
  });
  expect(res.statusCode, res.body).toBe(201);
  const record = res.json() as { id: string; previewUrl: string };
  const readings = await pollToEnd(t, record.id, headers);
  return { ...record, readings };
}

/** A request to a hosted site, by the host of its address. */
export function fromSite(t: TestApp, siteUrl: string, pathname = '/') {
  return t.app.inject({ url: pathname, headers: { host: new URL(siteUrl).host } });
}
