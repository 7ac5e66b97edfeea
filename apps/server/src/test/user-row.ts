import { randomUUID } from 'node:crypto';

/** A users row for tests that write the database directly (not through the API). */
export function newUserRow(email: string, name = 'Ada Lovelace') {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    name,
    email,
    password_hash: 'x',
    role: 'user' as const,
    plan: 'free' as const,
    locale: null,
    created_at: now,
    updated_at: now,
  };
}
