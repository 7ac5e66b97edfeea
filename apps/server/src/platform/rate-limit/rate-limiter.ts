import { sql } from 'kysely';
import { addressGroupOf } from '../../lib/client-address.js';
import type { Db } from '../db/database.js';

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one hit against `key` and says whether it is within the rule. */
  hit(key: string, rule: RateLimitRule): Promise<RateLimitResult>;
}

/**
 * The key of a per-address limit (`login:ip:198.51.100.7`). IPv6 addresses are counted by their
 * /64 (`login:ip:2001:db8:1:2::/64`): a client given a /64 could otherwise send each request from
 * a new address and never be counted twice.
 */
export function addressKey(scope: string, address: string): string {
  return `${scope}:ip:${addressGroupOf(address)}`;
}

/**
 * Fixed-window counters in the database: shared by every process of a deployment (SQLite or
 * PostgreSQL) with one atomic upsert per hit. Meant for low-volume, expensive endpoints (sign-in,
 * sign-up, reset, mirror jobs), not for every request.
 */
export function createDbRateLimiter(db: Db, factor = 1): RateLimiter {
  return {
    async hit(key, rule) {
      const limit = Math.max(1, Math.round(rule.limit * factor));
      const now = new Date();
      const resetAt = new Date(now.getTime() + rule.windowMs).toISOString();
      const nowIso = now.toISOString();
      const row = await db
        .insertInto('rate_limits')
        .values({ key, count: 1, reset_at: resetAt })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            count: sql`case when rate_limits.reset_at <= ${nowIso} then 1 else rate_limits.count + 1 end`,
            reset_at: sql`case when rate_limits.reset_at <= ${nowIso} then ${resetAt} else rate_limits.reset_at end`,
          }),
        )
        .returning(['count', 'reset_at'])
        .executeTakeFirstOrThrow();
      const retryAfterSeconds = Math.max(
        1,
        Math.ceil((Date.parse(row.reset_at) - now.getTime()) / 1000),
      );
      return {
        allowed: row.count <= limit,
        remaining: Math.max(0, limit - row.count),
        retryAfterSeconds,
      };
    },
  };
}

/** Drops expired counters; run now and then (a scheduled job once the job layer exists). */
export async function pruneRateLimits(db: Db, now = new Date()): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<=', now.toISOString()).execute();
}
