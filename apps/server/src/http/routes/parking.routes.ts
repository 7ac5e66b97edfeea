import {
  DOMAIN_MESSAGES,
  DomainIdParams,
  MessageResponse,
  ParkDomainBody,
  ParkedDomain,
  ParkedMessage,
  ParkingPreviewQuery,
  UpdateParkedDomainBody,
} from '@mirror/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../authenticate.js';

const bearer = [{ bearer: [] }];
const tags = ['parking'];

/** Domain parking (SPEC §7 park, park/{id}, parked, delete), mounted under /domains. */
export const parkingRoutes: FastifyPluginAsyncZod = async (app) => {
  const parking = app.parkingService;

  app.post(
    '/park',
    {
      schema: {
        tags,
        summary: 'Park a domain with a parking page; answers its id, domain and DNS records',
        security: bearer,
        body: ParkDomainBody,
        response: { 201: ParkedDomain },
      },
      // Signed-in users only, checked before the body so visitors get the 401, not a 400.
      onRequest: async (request) => {
        await requireAuth(request);
      },
    },
    async (request, reply) =>
      reply.status(201).send(await parking.park((await requireAuth(request)).user, request.body)),
  );

  app.put(
    '/park/:id',
    {
      schema: {
        tags,
        summary: 'Change the parking page of a domain',
        security: bearer,
        params: DomainIdParams,
        body: UpdateParkedDomainBody,
        response: { 200: ParkedDomain },
      },
      onRequest: async (request) => {
        await requireAuth(request);
      },
    },
    async (request) =>
      parking.update((await requireAuth(request)).user, request.params.id, request.body),
  );

  app.get(
    '/parked',
    {
      schema: {
        tags,
        summary: 'Your parked domains',
        security: bearer,
        response: { 200: z.array(ParkedDomain) },
      },
    },
    async (request) => parking.list((await requireAuth(request)).user),
  );

  app.get(
    '/parked/:id',
    {
      schema: {
        tags,
        summary: 'One of your parked domains, with its DNS records and status',
        security: bearer,
        params: DomainIdParams,
        response: { 200: ParkedDomain },
      },
    },
    async (request) => parking.get((await requireAuth(request)).user, request.params.id),
  );

  app.get(
    '/parked/:id/preview',
    {
      schema: {
        tags,
        summary:
          'The parking page with a template (default: the saved one), as HTML for its owner to preview',
        security: bearer,
        params: DomainIdParams,
        querystring: ParkingPreviewQuery,
      },
      onRequest: async (request) => {
        await requireAuth(request);
      },
    },
    async (request, reply) => {
      const { user } = await requireAuth(request);
      const preview = await parking.preview(user, request.params.id, request.query.template);
      return reply.headers(preview.headers).send(preview.html);
    },
  );

  app.get(
    '/parked/:id/messages',
    {
      schema: {
        tags,
        summary: 'Contact messages and offers sent from the parking page, newest first',
        security: bearer,
        params: DomainIdParams,
        response: { 200: z.array(ParkedMessage) },
      },
    },
    async (request) => parking.messages((await requireAuth(request)).user, request.params.id),
  );

  app.delete(
    '/parked/:id',
    {
      schema: {
        tags,
        summary: 'Remove a parked domain and its page',
        security: bearer,
        params: DomainIdParams,
        response: { 200: MessageResponse },
      },
    },
    async (request) => {
      await parking.remove((await requireAuth(request)).user, request.params.id);
      return { success: true, message: DOMAIN_MESSAGES.deleted };
    },
  );
};
