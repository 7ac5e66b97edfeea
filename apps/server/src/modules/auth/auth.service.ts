import { randomUUID } from 'node:crypto';
import {
  AUTH_MESSAGES,
  DEFAULT_USER_SETTINGS,
  isLocaleCode,
  UserSettings,
  type AuthResponse,
  type LocaleCode,
  type UserDto,
} from '@mirror/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env.js';
import { badRequest, conflict, tooManyRequests, unauthorized } from '../../errors.js';
import { addressGroupOf } from '../../lib/client-address.js';
import type { Db } from '../../platform/db/database.js';
import type { SessionRow, UserRow } from '../../platform/db/schema.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import {
  addressKey,
  type RateLimiter,
  type RateLimitRule,
} from '../../platform/rate-limit/rate-limiter.js';
import { claimDemos } from '../sites/sites.service.js';
import { hashPassword, hashToken, newSecretToken, verifyPassword } from './credentials.js';
import {
  clearLoginThrottle,
  findLoginThrottle,
  saveLoginThrottle,
} from './login-throttle.repository.js';
import {
  consumePasswordReset,
  insertPasswordReset,
  invalidateUserResets,
} from './password-resets.repository.js';
import { buildResetEmail } from './reset-email.js';
import {
  deleteSession,
  deleteUserSessions,
  findLiveSession,
  insertSession,
  touchSession,
} from './sessions.repository.js';
import {
  deleteUser,
  findUserByEmail,
  findUserById,
  insertUser,
  updateUser,
} from './users.repository.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Per-IP and per-account limits on the endpoints that attackers like. */
export const AUTH_RATE_LIMITS = {
  loginPerIp: { limit: 30, windowMs: 10 * MINUTE },
  registerPerIp: { limit: 10, windowMs: HOUR },
  resetPerIp: { limit: 10, windowMs: HOUR },
  resetPerEmail: { limit: 3, windowMs: HOUR },
  resetConfirmPerIp: { limit: 20, windowMs: HOUR },
  passwordChangePerUser: { limit: 10, windowMs: HOUR },
  accountDeletionPerUser: { limit: 10, windowMs: HOUR },
} satisfies Record<string, RateLimitRule>;

/** Failed sign-ins for one email: free tries, then a doubling wait, capped. */
export const LOGIN_THROTTLE = {
  freeFailures: 5,
  failureMemoryMs: 15 * MINUTE,
  firstDelayMs: 30_000,
  maxDelayMs: 15 * MINUTE,
};

/** Sessions are touched at most this often, so reading the session is not a write per request. */
const TOUCH_INTERVAL_MS = 5 * MINUTE;

export interface AuthContext {
  user: UserRow;
  session: SessionRow;
}

interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

export interface AuthServiceDeps {
  db: Db;
  mailer: Mailer;
  limiter: RateLimiter;
  config: Config;
  log: FastifyBaseLogger;
  /** An account was deleted: the blobs of its sites can be collected. */
  afterDeletion(): void;
}

function readSettings(json: string | null): UserSettings {
  if (json) {
    const parsed = UserSettings.safeParse(JSON.parse(json));
    if (parsed.success) return parsed.data;
  }
  return structuredClone(DEFAULT_USER_SETTINGS) as UserSettings;
}

export function toUserDto(user: UserRow): UserDto {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    plan: user.plan,
    locale: isLocaleCode(user.locale) ? user.locale : null,
    settings: readSettings(user.settings),
    createdAt: user.created_at,
  };
}

export function createAuthService(deps: AuthServiceDeps) {
  const { db, mailer, limiter, config, log } = deps;
  async function enforce(key: string, rule: RateLimitRule, message?: string): Promise<void> {
    const result = await limiter.hit(key, rule);
    if (!result.allowed) {
      throw tooManyRequests(
        result.retryAfterSeconds,
        message ??
          `Too many attempts. Please try again in ${describeWait(result.retryAfterSeconds)}.`,
      );
    }
  }

  async function startSession(user: UserRow, client: ClientInfo): Promise<string> {
    const { token, hash } = newSecretToken();
    const now = new Date();
    await insertSession(db, {
      id: randomUUID(),
      user_id: user.id,
      token_hash: hash,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + config.auth.sessionTtlMs).toISOString(),
      last_used_at: now.toISOString(),
      user_agent: client.userAgent?.slice(0, 300) ?? null,
      ip: client.ip,
    });
    return token;
  }

  async function signedIn(
    user: UserRow,
    client: ClientInfo,
    demoSiteIds: readonly string[] | undefined,
  ): Promise<AuthResponse> {
    const token = await startSession(user, client);
    const answer: AuthResponse = { user: toUserDto(user), token };
    if (demoSiteIds && demoSiteIds.length > 0) {
      try {
        const claim = await claimDemos(db, user, demoSiteIds);
        answer.demoSitesClaimed = { success: true, claimedCount: claim.claimedIds.length };
      } catch (err) {
        // A failed claim never blocks signing in (SPEC §4); the client can retry /claim-demos.
        log.error({ err }, 'claiming demo sites failed');
        answer.demoSitesClaimed = { success: false, claimedCount: 0 };
      }
    }
    return answer;
  }

  /**
   * Failures are counted per account and address together: a stranger's wrong passwords lock the
   * account for that stranger's address only, never for its owner elsewhere (a reset link, which
   * needs no sign-in, clears them all). The per-address limit on sign-ins bounds guessing overall.
   */
  async function recordLoginFailure(email: string, address: string): Promise<void> {
    const now = Date.now();
    const previous = await findLoginThrottle(db, email, address);
    const recent =
      previous && now - Date.parse(previous.last_failure_at) < LOGIN_THROTTLE.failureMemoryMs;
    const failures = (recent ? previous.failures : 0) + 1;
    const over = failures - LOGIN_THROTTLE.freeFailures;
    const delay =
      over >= 0 ? Math.min(LOGIN_THROTTLE.firstDelayMs * 2 ** over, LOGIN_THROTTLE.maxDelayMs) : 0;
    await saveLoginThrottle(db, {
      email,
      address,
      failures,
      last_failure_at: new Date(now).toISOString(),
      blocked_until: delay > 0 ? new Date(now + delay).toISOString() : null,
    });
  }

  return {
    async register(
      input: {
        name: string;
        email: string;
        password: string;
        locale?: LocaleCode;
        demoSiteIds?: string[];
      },
      client: ClientInfo,
    ): Promise<AuthResponse> {
      await enforce(addressKey('register', client.ip), AUTH_RATE_LIMITS.registerPerIp);
      if (await findUserByEmail(db, input.email)) throw conflict(AUTH_MESSAGES.emailTaken);
      const now = new Date().toISOString();
      const user: UserRow = {
        id: randomUUID(),
        name: input.name,
        email: input.email,
        password_hash: await hashPassword(input.password),
        role: 'user',
        plan: 'free',
        locale: input.locale ?? null,
        settings: null,
        created_at: now,
        updated_at: now,
      };
      try {
        await insertUser(db, user);
      } catch (err) {
        // Two sign-ups racing for one address: the unique constraint decides.
        if (await findUserByEmail(db, input.email)) throw conflict(AUTH_MESSAGES.emailTaken);
        throw err;
      }
      return signedIn(user, client, input.demoSiteIds);
    },

    async login(
      input: { email: string; password: string; locale?: LocaleCode; demoSiteIds?: string[] },
      client: ClientInfo,
    ): Promise<AuthResponse> {
      await enforce(addressKey('login', client.ip), AUTH_RATE_LIMITS.loginPerIp);
      // Failures are counted per address too, an IPv6 address by its /64 like the limits.
      const address = addressGroupOf(client.ip);
      const throttle = await findLoginThrottle(db, input.email, address);
      const blockedMs = throttle?.blocked_until
        ? Date.parse(throttle.blocked_until) - Date.now()
        : 0;
      if (blockedMs > 0) {
        const seconds = Math.ceil(blockedMs / 1000);
        throw tooManyRequests(
          seconds,
          `Too many failed sign-in attempts for this email. Please try again in ${describeWait(seconds)}.`,
        );
      }
      const user = await findUserByEmail(db, input.email);
      // Verify even without an account, against a dummy hash: the answer and its timing are the same.
      const ok = await verifyPassword(user?.password_hash ?? null, input.password);
      if (!user || !ok) {
        await recordLoginFailure(input.email, address);
        throw unauthorized(AUTH_MESSAGES.invalidCredentials);
      }
      if (throttle) await clearLoginThrottle(db, input.email, address);
      const current =
        input.locale && input.locale !== user.locale
          ? await updateUser(db, user.id, {
              locale: input.locale,
              updated_at: new Date().toISOString(),
            })
          : user;
      return signedIn(current, client, input.demoSiteIds);
    },

    /** The user behind a bearer token, or undefined when the token is unknown, revoked or expired. */
    async authenticate(token: string): Promise<AuthContext | undefined> {
      const now = new Date();
      const found = await findLiveSession(db, hashToken(token), now.toISOString());
      if (!found) return undefined;
      if (now.getTime() - Date.parse(found.session.last_used_at) > TOUCH_INTERVAL_MS) {
        await touchSession(db, found.session.id, now.toISOString());
      }
      return found;
    },

    async logout(auth: AuthContext): Promise<void> {
      await deleteSession(db, auth.session.id);
    },

    /** Always the same answer and nearly the same time, whether or not the address has an account. */
    async requestPasswordReset(
      input: { email: string; locale?: LocaleCode },
      client: ClientInfo,
    ): Promise<void> {
      await enforce(addressKey('reset', client.ip), AUTH_RATE_LIMITS.resetPerIp);
      await enforce(`reset:email:${input.email}`, AUTH_RATE_LIMITS.resetPerEmail);
      const user = await findUserByEmail(db, input.email);
      if (!user) return;
      const { token, hash } = newSecretToken();
      const now = new Date();
      await invalidateUserResets(db, user.id, now.toISOString());
      await insertPasswordReset(db, {
        id: randomUUID(),
        userId: user.id,
        tokenHash: hash,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + config.auth.passwordResetTtlMs).toISOString(),
      });
      const locale = isLocaleCode(user.locale) ? user.locale : (input.locale ?? null);
      const message = buildResetEmail({
        to: user.email,
        name: user.name,
        link: `${config.appUrl}/reset-password?token=${token}`,
        locale,
        ttlMinutes: Math.round(config.auth.passwordResetTtlMs / MINUTE),
      });
      // Sent after the answer, so a slow mail server neither delays nor reveals anything.
      void mailer
        .send(message)
        .catch((err: unknown) => log.error({ err }, 'sending the password reset mail failed'));
    },

    async confirmPasswordReset(
      input: { token: string; password: string },
      client: ClientInfo,
    ): Promise<void> {
      await enforce(addressKey('reset-confirm', client.ip), AUTH_RATE_LIMITS.resetConfirmPerIp);
      const now = new Date().toISOString();
      const passwordHash = await hashPassword(input.password);
      await db.transaction().execute(async (trx) => {
        const userId = await consumePasswordReset(trx, hashToken(input.token), now);
        if (!userId) throw badRequest(AUTH_MESSAGES.resetTokenInvalid);
        const user = await updateUser(trx, userId, {
          password_hash: passwordHash,
          updated_at: now,
        });
        await invalidateUserResets(trx, userId, now);
        await deleteUserSessions(trx, userId, null);
        await clearLoginThrottle(trx, user.email);
      });
    },

    async updateProfile(
      auth: AuthContext,
      input: { name: string; locale?: LocaleCode },
    ): Promise<UserDto> {
      const user = await updateUser(db, auth.user.id, {
        name: input.name,
        ...(input.locale ? { locale: input.locale } : {}),
        updated_at: new Date().toISOString(),
      });
      return toUserDto(user);
    },

    async updateSettings(auth: AuthContext, settings: UserSettings): Promise<UserDto> {
      const user = await updateUser(db, auth.user.id, {
        settings: JSON.stringify(settings),
        updated_at: new Date().toISOString(),
      });
      return toUserDto(user);
    },

    async changePassword(
      auth: AuthContext,
      input: { currentPassword: string; newPassword: string },
    ): Promise<void> {
      await enforce(`password-change:user:${auth.user.id}`, AUTH_RATE_LIMITS.passwordChangePerUser);
      const fresh = await findUserById(db, auth.user.id);
      if (!fresh || !(await verifyPassword(fresh.password_hash, input.currentPassword))) {
        throw badRequest(AUTH_MESSAGES.currentPasswordWrong);
      }
      const passwordHash = await hashPassword(input.newPassword);
      await db.transaction().execute(async (trx) => {
        await updateUser(trx, auth.user.id, {
          password_hash: passwordHash,
          updated_at: new Date().toISOString(),
        });
        await deleteUserSessions(trx, auth.user.id, auth.session.id);
        await invalidateUserResets(trx, auth.user.id, new Date().toISOString());
      });
    },

    /**
     * The account's password, asked again before it is deleted (every account has one). Limited
     * per account like a password change, so a session left open cannot be used to guess it.
     */
    async confirmDeletion(auth: AuthContext, password: string): Promise<void> {
      await enforce(
        `account-deletion:user:${auth.user.id}`,
        AUTH_RATE_LIMITS.accountDeletionPerUser,
      );
      const fresh = await findUserById(db, auth.user.id);
      if (!fresh || !(await verifyPassword(fresh.password_hash, password))) {
        throw badRequest(AUTH_MESSAGES.deletionPasswordWrong);
      }
    },

    /** Deletes the account and, through foreign keys, everything it owns (after `confirmDeletion`). */
    async deleteAccount(auth: AuthContext): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await deleteUser(trx, auth.user.id);
        await clearLoginThrottle(trx, auth.user.email);
      });
      deps.afterDeletion();
    },

    claimDemos: (auth: AuthContext, ids: readonly string[], firstId?: string) =>
      claimDemos(db, auth.user, ids, firstId),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

function describeWait(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
