import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { AUTH_MESSAGES } from '@mirror/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpServer } from '../../test/smtp-server.js';
import { createTestApp, waitFor, type TestApp } from '../../test/test-app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const PASSWORD = 'correct horse battery';

async function start(overrides: Record<string, string> = {}, deps = {}): Promise<TestApp> {
  t = await createTestApp(overrides, deps);
  return t;
}

async function register(app: TestApp, body: Record<string, unknown> = {}) {
  const res = await app.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name: 'Ada Lovelace', email: 'ada@example.com', password: PASSWORD, ...body },
  });
  return res;
}

async function login(app: TestApp, email = 'ada@example.com', password = PASSWORD, extra = {}) {
  return app.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password, ...extra },
  });
}

function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

async function me(app: TestApp, token: string) {
  return app.app.inject({ url: '/api/auth/me', headers: bearer(token) });
}

function outboxMessages(app: TestApp): string[] {
  const dir = app.config.mail.outboxDir;
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
}

/** Undoes quoted-printable soft line breaks so links read as sent. */
function unfold(mail: string): string {
  return mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

function resetTokenFrom(mail: string): string {
  const match = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(unfold(mail));
  if (!match) throw new Error(`no reset link in mail:\n${mail}`);
  return match[1]!;
}

async function insertDemoSite(
  app: TestApp,
  overrides: { owner_id?: string | null; is_demo?: number } = {},
) {
  const id = randomUUID();
  const now = new Date().toISOString();
  await app.app.database.db
    .insertInto('sites')
    .values({
      id,
      owner_id: null,
      is_demo: 1,
      source_url: 'https://example.com',
      subdomain: null,
      created_at: now,
      updated_at: now,
      ...overrides,
    })
    .execute();
  return id;
}

describe('register', () => {
  it('creates the account, signs in, and normalizes the email', async () => {
    const app = await start();
    const res = await register(app, { email: '  Ada@Example.COM ', locale: 'es' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      role: 'user',
      plan: 'free',
      locale: 'es',
    });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body).not.toHaveProperty('demoSitesClaimed');
    const who = await me(app, body.token);
    expect(who.statusCode).toBe(200);
    expect(who.json().user.email).toBe('ada@example.com');
    const row = await app.app.database.db
      .selectFrom('users')
      .select('password_hash')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a second account for the same address, whatever its case', async () => {
    const app = await start();
    await register(app);
    const res = await register(app, { email: 'ADA@example.com' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'An account with this email already exists.' });
  });

  it('validates every field with the SPEC texts and writes nothing', async () => {
    const app = await start();
    const empty = await app.app.inject({ method: 'POST', url: '/api/auth/register', payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toEqual([
      'Full name is required.',
      'Email is required.',
      'Password is required.',
    ]);
    const bad = await register(app, { name: '  ', email: 'not-an-email', password: 'short' });
    expect(bad.json().message).toEqual([
      'Full name is required.',
      'Email must be a valid email.',
      'Password must be at least 8 characters long.',
    ]);
    const short = await register(app, { password: 'seven77' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ message: 'Password must be at least 8 characters long.' });
    expect(await app.app.database.db.selectFrom('users').selectAll().execute()).toEqual([]);
  });

  it('limits sign-ups per address', async () => {
    const app = await start();
    for (let i = 0; i < 10; i++)
      expect((await register(app, { email: `u${i}@example.com` })).statusCode).toBe(201);
    const res = await register(app, { email: 'one-more@example.com' });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^Too many attempts\. Please try again in \d+ minutes\.$/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('login and sessions', () => {
  it('signs in with the right password, case-insensitively', async () => {
    const app = await start();
    await register(app);
    const res = await login(app, 'ADA@example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe('ada@example.com');
    expect((await me(app, res.json().token)).statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown address the same way', async () => {
    const app = await start();
    await register(app);
    const wrong = await login(app, 'ada@example.com', 'wrong password');
    const unknown = await login(app, 'nobody@example.com', 'wrong password');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid email or password.' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('slows down an address after repeated failures, existing or not', async () => {
    const app = await start();
    await register(app);
    for (const email of ['ada@example.com', 'ghost@example.com']) {
      for (let i = 0; i < 5; i++)
        expect((await login(app, email, 'wrong password')).statusCode).toBe(401);
      const blocked = await login(app, email, email === 'ada@example.com' ? PASSWORD : 'whatever1');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toMatch(
        /^Too many failed sign-in attempts for this email\. Please try again in \d+ seconds\.$/,
      );
    }
    // Other accounts are not affected.
    await register(app, { email: 'grace@example.com' });
    expect((await login(app, 'grace@example.com')).statusCode).toBe(200);
  });

  it("a stranger's wrong passwords lock the account for the stranger's address only", async () => {
    const app = await start();
    await register(app);
    const from = (remoteAddress: string, password: string) =>
      app.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress,
        payload: { email: 'ada@example.com', password },
      });
    // Five wrong passwords, again and again, from the attacker's address…
    for (let i = 0; i < 5; i++)
      expect((await from('203.0.113.7', 'wrong password')).statusCode).toBe(401);
    expect((await from('203.0.113.7', PASSWORD)).statusCode).toBe(429);
    // …and the owner signs in from home all the same.
    expect((await from('198.51.100.20', PASSWORD)).statusCode).toBe(200);
    // The owner's sign-in does not unblock the attacker's address.
    expect((await from('203.0.113.7', 'wrong password')).statusCode).toBe(429);
  });

  it('rejects missing, malformed and unknown tokens with the SPEC 401 text', async () => {
    const app = await start();
    for (const headers of [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Basic abc' },
      bearer('x'.repeat(43)),
    ]) {
      const res = await app.app.inject({ url: '/api/auth/me', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Authentication required. Please log in.' });
    }
  });

  it('revokes the token on logout, and only that one', async () => {
    const app = await start();
    const first = (await register(app)).json().token;
    const second = (await login(app)).json().token;
    const out = await app.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(first),
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true, message: 'Logged out successfully' });
    expect((await me(app, first)).statusCode).toBe(401);
    expect((await me(app, second)).statusCode).toBe(200);
  });

  it('does not accept an expired session', async () => {
    const app = await start();
    const token = (await register(app)).json().token;
    await app.app.database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await me(app, token)).statusCode).toBe(401);
  });
});

describe('profile and password', () => {
  it('updates the name, validated', async () => {
    const app = await start();
    const token = (await register(app)).json().token;
    const res = await app.app.inject({
      method: 'PUT',
      url: '/api/auth/me',
      headers: bearer(token),
      payload: { name: ' Ada King ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.name).toBe('Ada King');
    expect((await me(app, token)).json().user.name).toBe('Ada King');
    const empty = await app.app.inject({
      method: 'PUT',
      url: '/api/auth/me',
      headers: bearer(token),
      payload: { name: '' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ message: 'Full name is required' });
    expect((await me(app, token)).json().user.name).toBe('Ada King');
  });

  it('changes the password only with the current one, and signs out the other sessions', async () => {
    const app = await start();
    const token = (await register(app)).json().token;
    const other = (await login(app)).json().token;
    const change = (payload: object) =>
      app.app.inject({
        method: 'PUT',
        url: '/api/auth/me/password',
        headers: bearer(token),
        payload,
      });

    const wrong = await change({ currentPassword: 'not it at all', newPassword: 'brand new pass' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: 'Current password is incorrect.' });
    const short = await change({ currentPassword: PASSWORD, newPassword: 'short' });
    expect(short.json()).toEqual({ message: 'New password must be at least 8 characters.' });
    expect((await me(app, other)).statusCode).toBe(200);

    const ok = await change({ currentPassword: PASSWORD, newPassword: 'brand new pass' });
    expect(ok.statusCode).toBe(200);
    expect((await me(app, token)).statusCode).toBe(200);
    expect((await me(app, other)).statusCode).toBe(401);
    expect((await login(app, 'ada@example.com', PASSWORD)).statusCode).toBe(401);
    expect((await login(app, 'ada@example.com', 'brand new pass')).statusCode).toBe(200);
  });
});

describe('settings', () => {
  it('start at the defaults and are saved on the account', async () => {
    const app = await start();
    const { token, user } = (await register(app)).json();
    expect(user.settings).toEqual({
      notifications: { email: true, push: false },
      appearance: { theme: 'light' },
    });
    const settings = {
      notifications: { email: false, push: true },
      appearance: { theme: 'light' },
    };
    const save = await app.app.inject({
      method: 'PUT',
      url: '/api/auth/me/settings',
      headers: bearer(token),
      payload: settings,
    });
    expect(save.statusCode).toBe(200);
    expect(save.json().user.settings).toEqual(settings);
    const other = (await login(app)).json();
    expect(other.user.settings).toEqual(settings);
  });

  it('refuses malformed settings and anonymous callers, changing nothing', async () => {
    const app = await start();
    const { token } = (await register(app)).json();
    const bad = await app.app.inject({
      method: 'PUT',
      url: '/api/auth/me/settings',
      headers: bearer(token),
      payload: { notifications: { email: 'yes' }, appearance: { theme: 'neon' } },
    });
    expect(bad.statusCode).toBe(400);
    const anon = await app.app.inject({
      method: 'PUT',
      url: '/api/auth/me/settings',
      payload: { notifications: { email: false, push: false }, appearance: { theme: 'light' } },
    });
    expect(anon.statusCode).toBe(401);
    expect((await me(app, token)).json().user.settings.notifications.email).toBe(true);
  });
});

describe('password reset', () => {
  it('answers the same for known and unknown addresses and mails only the known one', async () => {
    const app = await start();
    await register(app);
    const known = await app.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email: 'ada@example.com' },
    });
    const unknown = await app.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email: 'nobody@example.com' },
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    const mails = await waitFor(() =>
      outboxMessages(app).length > 0 ? outboxMessages(app) : undefined,
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(outboxMessages(app)).toHaveLength(1);
    expect(mails[0]).toContain('To: ada@example.com');
    expect(mails[0]).toContain('Subject: Reset your Mirror password');
  });

  it('resets with a single-use link and signs out every session', async () => {
    const app = await start();
    const token = (await register(app)).json().token;
    await app.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email: 'ada@example.com' },
    });
    const mail = await waitFor(() => outboxMessages(app)[0]);
    const resetToken = resetTokenFrom(mail);
    expect(unfold(mail)).toContain(`${app.config.appUrl}/reset-password?token=`);

    const confirm = (password: string) =>
      app.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password/confirm',
        payload: { token: resetToken, password },
      });
    const short = await confirm('short');
    expect(short.json()).toEqual({ message: 'Password must be at least 8 characters long.' });
    const done = await confirm('a fresh password');
    expect(done.statusCode).toBe(200);
    expect((await me(app, token)).statusCode).toBe(401);
    expect((await login(app, 'ada@example.com', 'a fresh password')).statusCode).toBe(200);
    const again = await confirm('yet another one');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      message: 'This password reset link is invalid or has expired.',
    });
  });

  it('refuses an expired link', async () => {
    const app = await start();
    await register(app);
    await app.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email: 'ada@example.com' },
    });
    const resetToken = resetTokenFrom(await waitFor(() => outboxMessages(app)[0]));
    await app.app.database.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .execute();
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password/confirm',
      payload: { token: resetToken, password: 'a fresh password' },
    });
    expect(res.statusCode).toBe(400);
    expect((await login(app)).statusCode).toBe(200);
  });

  it("writes the mail in the user's interface language", async () => {
    const app = await start();
    await register(app, { locale: 'es' });
    await app.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email: 'ada@example.com' },
    });
    const mail = await waitFor(() => outboxMessages(app)[0]);
    expect(mail).toMatch(
      /Subject: =\?UTF-8\?Q\?Restablece_tu_contrase=C3=B1a_de_Mirror\?=|Subject: Restablece tu contraseña de Mirror/,
    );
  });

  it('limits reset requests per address', async () => {
    const app = await start();
    const ask = () =>
      app.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { email: 'someone@example.com' },
      });
    for (let i = 0; i < 3; i++) expect((await ask()).statusCode).toBe(200);
    expect((await ask()).statusCode).toBe(429);
  });

  it('sends through a real SMTP server when SMTP_URL is set', async () => {
    const smtp = await startSmtpServer();
    try {
      const app = await start({ SMTP_URL: smtp.url });
      await register(app);
      await app.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { email: 'ada@example.com' },
      });
      const mail = await waitFor(() => smtp.received[0]?.data);
      expect(mail).toContain('Subject: Reset your Mirror password');
      expect(resetTokenFrom(mail)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(outboxMessages(app)).toEqual([]);
    } finally {
      await smtp.close();
    }
  });
});

describe('account deletion', () => {
  it('deletes the account and everything it owns, and it can no longer sign in', async () => {
    const app = await start();
    const body = (await register(app)).json();
    const siteId = await insertDemoSite(app, { owner_id: body.user.id, is_demo: 0 });
    await app.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email: 'ada@example.com' },
    });
    await waitFor(() => outboxMessages(app)[0]);
    const res = await app.app.inject({
      method: 'DELETE',
      url: '/api/auth/me',
      headers: bearer(body.token),
      payload: { password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(AUTH_MESSAGES.accountDeleted);
    const db = app.app.database.db;
    expect(await db.selectFrom('users').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('sessions').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('password_resets').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('sites').selectAll().where('id', '=', siteId).execute()).toEqual([]);
    expect((await me(app, body.token)).statusCode).toBe(401);
    expect((await login(app)).statusCode).toBe(401);
  });

  it('asks for the password: without it or with a wrong one, nothing is deleted', async () => {
    const app = await start();
    const body = (await register(app)).json();
    const siteId = await insertDemoSite(app, { owner_id: body.user.id, is_demo: 0 });
    const remove = (payload?: Record<string, unknown>) =>
      app.app.inject({
        method: 'DELETE',
        url: '/api/auth/me',
        headers: bearer(body.token),
        ...(payload ? { payload } : {}),
      });

    for (const answer of [await remove(), await remove({}), await remove({ password: '' })]) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toEqual(AUTH_MESSAGES.passwordRequired);
    }
    const wrong = await remove({ password: 'not my password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: AUTH_MESSAGES.deletionPasswordWrong });

    // The account, its session and its site are all still there.
    expect((await me(app, body.token)).json().user.email).toBe('ada@example.com');
    const db = app.app.database.db;
    expect(await db.selectFrom('sites').select('id').where('id', '=', siteId).execute()).toEqual([
      { id: siteId },
    ]);
    expect((await login(app)).statusCode).toBe(200);
  });

  it('answers 401 to a visitor, whatever the password', async () => {
    const app = await start();
    await register(app);
    const res = await app.app.inject({
      method: 'DELETE',
      url: '/api/auth/me',
      payload: { password: PASSWORD },
    });
    expect(res.statusCode).toBe(401);
    expect((await login(app)).statusCode).toBe(200);
  });
});

describe('claiming demo sites', () => {
  it('claims only existing, unclaimed demo records, within the plan allowance', async () => {
    const app = await start();
    const token = (await register(app)).json().token;
    const otherUser = (await register(app, { email: 'grace@example.com' })).json().user.id;
    const demo = await insertDemoSite(app);
    const taken = await insertDemoSite(app, { owner_id: otherUser, is_demo: 0 });
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/auth/claim-demos',
      headers: bearer(token),
      payload: { demoSiteIds: [demo, taken, 'no-such-site'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      claimedIds: [demo],
      message: 'Claimed 1 demo site. The others failed, no longer exist or were already claimed.',
    });
    // The free plan keeps one mirror: a second demo is not claimed.
    const second = await insertDemoSite(app);
    const more = await app.app.inject({
      method: 'POST',
      url: '/api/auth/claim-demos',
      headers: bearer(token),
      payload: { demoSiteIds: [second] },
    });
    expect(more.json().claimedIds).toEqual([]);
    expect(more.json().message).toMatch(/mirror limit/);
    const owner = await app.app.database.db
      .selectFrom('sites')
      .select('owner_id')
      .where('id', '=', second)
      .executeTakeFirstOrThrow();
    expect(owner.owner_id).toBeNull();
  });

  it('claims at sign-up and reports the count', async () => {
    const app = await start();
    const demo = await insertDemoSite(app);
    const res = await register(app, { demoSiteIds: [demo] });
    expect(res.json().demoSitesClaimed).toEqual({ success: true, claimedCount: 1 });
  });

  it('validates ids and requires a session', async () => {
    const app = await start();
    const token = (await register(app)).json().token;
    const bad = await app.app.inject({
      method: 'POST',
      url: '/api/auth/claim-demos',
      headers: bearer(token),
      payload: { demoSiteIds: ['../etc', 5] },
    });
    expect(bad.statusCode).toBe(400);
    const anon = await app.app.inject({
      method: 'POST',
      url: '/api/auth/claim-demos',
      payload: { demoSiteIds: [] },
    });
    expect(anon.statusCode).toBe(401);
  });
});

describe('logs', () => {
  it('never contain passwords, tokens or reset links', async () => {
    const stream = new PassThrough();
    let logs = '';
    stream.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    const app = await start({ LOG_LEVEL: 'trace' }, { logStream: stream });
    const token = (await register(app)).json().token;
    await me(app, token);
    await login(app, 'ada@example.com', 'a wrong password');
    await app.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email: 'ada@example.com' },
    });
    const resetToken = resetTokenFrom(await waitFor(() => outboxMessages(app)[0]));
    await app.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password/confirm',
      payload: { token: resetToken, password: 'a fresh password' },
    });
    expect(logs).toContain('/api/auth/login');
    for (const secret of [PASSWORD, 'a wrong password', 'a fresh password', token, resetToken]) {
      expect(logs).not.toContain(secret);
    }
  });
});
