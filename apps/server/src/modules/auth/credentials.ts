import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
const ARGON2_OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum) */ as const,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** A real hash to verify against when the account does not exist, so timing reveals nothing. */
const dummyHash = hashPassword(randomBytes(16).toString('hex'));

export async function verifyPassword(
  passwordHash: string | null,
  password: string,
): Promise<boolean> {
  try {
    const ok = await verify(passwordHash ?? (await dummyHash), password);
    return ok && passwordHash !== null;
  } catch {
    return false;
  }
}

/** Opaque bearer tokens and reset tokens: 256 random bits; only their SHA-256 is stored. */
export function newSecretToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
