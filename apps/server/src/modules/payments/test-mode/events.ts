import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Db } from '../../../platform/db/database.js';
import type { Database } from '../../../platform/db/schema.js';
import type { BillingEvent } from '../payment-provider.js';

/**
 * The test mode's webhooks: events are written to an outbox in the same transaction as the change
 * they describe, then delivered in order, at least once (a failed delivery is tried again from that
 * event on the next call), to the payments service, which ignores what it has applied before.
 */

export type NewBillingEvent = DistributiveOmit<BillingEvent, 'id' | 'created'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface EventOutbox {
  queue(trx: Transaction<Database>, event: NewBillingEvent): Promise<void>;
  /** Delivers queued events in order; after a failure the next call starts again from it. */
  deliver(): Promise<void>;
}

export function createEventOutbox(deps: {
  db: Db;
  onEvent(event: BillingEvent): Promise<unknown>;
  log?: FastifyBaseLogger | undefined;
}): EventOutbox {
  const { db } = deps;
  let lastSeq = 0;
  let delivering: Promise<void> = Promise.resolve();

  /** Increasing within the process, and in time order across processes. */
  function nextSeq(): number {
    lastSeq = Math.max(lastSeq + 1, Date.now() * 1000);
    return lastSeq;
  }

  async function queue(trx: Transaction<Database>, event: NewBillingEvent) {
    const id = `evt_test_${randomBytes(12).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    await trx
      .insertInto('testmode_events')
      .values({
        id,
        seq: nextSeq(),
        payload: JSON.stringify({ ...event, id, created }),
        created,
      })
      .execute();
  }

  async function drain(): Promise<void> {
    for (;;) {
      const batch = await db
        .selectFrom('testmode_events')
        .select(['id', 'payload'])
        .where('delivered', '=', 0)
        .orderBy('seq')
        .orderBy('id')
        .limit(100)
        .execute();
      if (batch.length === 0) return;
      for (const row of batch) {
        try {
          await deps.onEvent(JSON.parse(row.payload) as BillingEvent);
        } catch (err) {
          deps.log?.error(
            { err, eventId: row.id },
            'test-mode billing event not applied; retried later',
          );
          return;
        }
        await db
          .updateTable('testmode_events')
          .set({ delivered: 1 })
          .where('id', '=', row.id)
          .execute();
      }
    }
  }

  /** One delivery at a time per process, so events are applied in the order they happened. */
  function deliver(): Promise<void> {
    const run = delivering.then(drain, drain);
    delivering = run.catch(() => undefined);
    return run;
  }

  return { queue, deliver };
}
