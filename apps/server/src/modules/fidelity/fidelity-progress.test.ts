/**
 * A running fidelity check says how far it got (issue 31, item 10): a real origin on 127.0.0.1, a
 * visitor's demo mirror, the check in a sandboxed process with Chromium, its progress read the way
 * the landing page reads it (the demo's status).
 */
import type { CloneStatusResponse } from '@mirror/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { mirrorSite, SERVICE_ENV } from '../../test/api-helpers.js';
import { startFixtureSite } from '../../test/fixture-site.js';
import { createTestApp, waitFor } from '../../test/test-app.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('fidelity progress', () => {
  it(
    "reports renders compared of those planned while a demo's check runs, and none after",
    { timeout: 180_000 },
    async () => {
      const site = await startFixtureSite(2);
      cleanups.push(() => site.close());
      const t = await createTestApp({ ...SERVICE_ENV, FIDELITY_CHECKS: 'true' });
      cleanups.push(() => t.close());
      const { id, readings } = await mirrorSite(t, site.url);
      expect(readings.at(-1)!.status).toBe('completed');

      const seen: NonNullable<CloneStatusResponse['fidelity']>[] = [];
      const last = await waitFor(async () => {
        const res = await t.app.inject({ url: `/api/domains/clone/${id}/status` });
        const fidelity = (res.json() as CloneStatusResponse).fidelity;
        if (fidelity) seen.push(fidelity);
        return fidelity?.state === 'completed' || fidelity?.state === 'failed'
          ? fidelity
          : undefined;
      }, 150_000);
      expect(last.state).toBe('completed');
      expect(last.progress).toBeUndefined();

      // Three pages (the home page and its two links) at two widths: six renders to compare.
      const progress = seen.flatMap((f) =>
        f.state === 'running' && f.progress ? [f.progress] : [],
      );
      expect(progress.length, JSON.stringify(seen)).toBeGreaterThan(0);
      for (const step of progress) {
        expect(step.total).toBe(6);
        expect(step.done).toBeGreaterThanOrEqual(1);
        expect(step.done).toBeLessThanOrEqual(6);
      }
      const done = progress.map((step) => step.done);
      expect(done).toEqual([...done].sort((a, b) => a - b));
      // Queued and running without a report yet say no progress at all.
      for (const f of seen.filter((s) => s.state === 'queued')) expect(f.progress).toBeUndefined();
    },
  );
});
