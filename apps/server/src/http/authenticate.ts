import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../modules/auth/auth.service.js';
import { unauthorized } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    authContext: AuthContext | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** The signed-in user of this request, or a 401 with the SPEC text. Cached on the request. */
export async function requireAuth(request: FastifyRequest): Promise<AuthContext> {
  if (request.authContext) return request.authContext;
  const token = bearerToken(request);
  const auth = token ? await request.server.authService.authenticate(token) : undefined;
  if (!auth) throw unauthorized();
  request.authContext = auth;
  return auth;
}

/** The signed-in user when a token is sent (a bad token is still a 401), or null for a visitor. */
export async function optionalAuth(request: FastifyRequest): Promise<AuthContext | null> {
  return request.headers.authorization ? requireAuth(request) : null;
}
