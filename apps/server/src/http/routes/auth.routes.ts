import {
  AuthResponse,
  AUTH_MESSAGES,
  ChangePasswordBody,
  ClaimDemosBody,
  ClaimDemosResponse,
  DeleteAccountBody,
  LoginBody,
  MeResponse,
  MessageResponse,
  RegisterBody,
  ResetPasswordBody,
  ResetPasswordConfirmBody,
  UpdateProfileBody,
  UserSettings,
} from '@mirror/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { toUserDto } from '../../modules/auth/auth.service.js';
import { requireAuth } from '../authenticate.js';

const bearer = [{ bearer: [] }];
const tags = ['auth'];

function clientOf(request: FastifyRequest) {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof userAgent === 'string' ? userAgent : undefined };
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = app.authService;

  app.post(
    '/register',
    {
      schema: {
        tags,
        summary: 'Create an account and sign in',
        body: RegisterBody,
        response: { 201: AuthResponse },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await auth.register(request.body, clientOf(request))),
  );

  app.post(
    '/login',
    {
      schema: {
        tags,
        summary: 'Sign in with email and password',
        body: LoginBody,
        response: { 200: AuthResponse },
      },
    },
    async (request) => auth.login(request.body, clientOf(request)),
  );

  app.get(
    '/me',
    {
      schema: {
        tags,
        summary: 'The signed-in user',
        security: bearer,
        response: { 200: MeResponse },
      },
    },
    async (request) => ({ user: toUserDto((await requireAuth(request)).user) }),
  );

  app.put(
    '/me',
    {
      schema: {
        tags,
        summary: 'Update the profile',
        security: bearer,
        body: UpdateProfileBody,
        response: { 200: MeResponse },
      },
    },
    async (request) => ({
      user: await auth.updateProfile(await requireAuth(request), request.body),
    }),
  );

  app.put(
    '/me/settings',
    {
      schema: {
        tags,
        summary: 'Save the app settings (notifications, theme) on the account',
        security: bearer,
        body: UserSettings,
        response: { 200: MeResponse },
      },
    },
    async (request) => ({
      user: await auth.updateSettings(await requireAuth(request), request.body),
    }),
  );

  app.put(
    '/me/password',
    {
      schema: {
        tags,
        summary: 'Change the password; signs out every other session',
        security: bearer,
        body: ChangePasswordBody,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await auth.changePassword(await requireAuth(request), request.body);
      return { success: true, message: AUTH_MESSAGES.passwordChanged };
    },
  );

  app.delete(
    '/me',
    {
      schema: {
        tags,
        summary: 'Delete the account and everything it owns; asks for the password again',
        security: bearer,
        body: DeleteAccountBody,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      const context = await requireAuth(request);
      await auth.confirmDeletion(context, request.body.password);
      // A subscription ends first, so a deleted account is never charged again.
      await app.paymentsService.endBillingForDeletedAccount(context.user);
      await auth.deleteAccount(context);
      return { success: true, message: AUTH_MESSAGES.accountDeleted };
    },
  );

  app.post(
    '/logout',
    {
      schema: {
        tags,
        summary: 'Revoke this session token',
        security: bearer,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await auth.logout(await requireAuth(request));
      return { success: true, message: AUTH_MESSAGES.loggedOut };
    },
  );

  app.post(
    '/reset-password',
    {
      schema: {
        tags,
        summary: 'Email a single-use reset link (same answer whether or not the account exists)',
        body: ResetPasswordBody,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await auth.requestPasswordReset(request.body, clientOf(request));
      return { success: true, message: AUTH_MESSAGES.resetRequested };
    },
  );

  app.post(
    '/reset-password/confirm',
    {
      schema: {
        tags,
        summary: 'Set a new password with a reset link token; signs out every session',
        body: ResetPasswordConfirmBody,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await auth.confirmPasswordReset(request.body, clientOf(request));
      return { success: true, message: AUTH_MESSAGES.passwordReset };
    },
  );

  app.post(
    '/claim-demos',
    {
      schema: {
        tags,
        summary: "Claim a visitor's demo sites for the signed-in account",
        security: bearer,
        body: ClaimDemosBody,
        response: { 200: ClaimDemosResponse },
      },
    },
    async (request) => {
      const { demoSiteIds, firstId } = request.body;
      const claim = await auth.claimDemos(await requireAuth(request), demoSiteIds, firstId);
      return { success: true, ...claim };
    },
  );
};
