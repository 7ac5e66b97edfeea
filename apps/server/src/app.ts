import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config/env.js';
import { registerSitesHost } from './hosting/sites-host.js';
import { registerWebApp } from './hosting/web-app.js';
import { registerApiDocs } from './http/api-docs.js';
import { registerErrorHandler } from './http/error-handler.js';
import { apiRoutes } from './http/routes/index.js';
import { createAuthService, type AuthService } from './modules/auth/auth.service.js';
import { openDatabase, type DatabaseHandle } from './platform/db/database.js';
import { createMailer, type Mailer } from './platform/mail/mailer.js';
import { createDbRateLimiter } from './platform/rate-limit/rate-limiter.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    authService: AuthService;
  }
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

export interface AppDependencies {
  /** An already open database (tests share one); otherwise the app opens and closes its own. */
  database?: DatabaseHandle;
  /** Defaults to SMTP_URL or the dev outbox. */
  mailer?: Mailer;
  /** Where log lines go (stdout by default); tests read them to prove nothing secret is logged. */
  logStream?: NodeJS.WritableStream;
}

/** Builds the whole HTTP application without listening, for `main.ts` and for tests (`app.inject`). */
export async function buildApp(
  config: Config,
  deps: AppDependencies = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(deps.logStream ? { stream: deps.logStream } : {}),
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
    },
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming)
        ? incoming
        : randomUUID();
    },
    bodyLimit: 1_048_576,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database = deps.database ?? (await openDatabase(config.database));
  app.decorate('config', config);
  app.decorate('database', database);
  if (!deps.database) app.addHook('onClose', () => database.destroy());
  app.decorateRequest('authContext', null);
  app.decorate(
    'authService',
    createAuthService({
      db: database.db,
      mailer: deps.mailer ?? createMailer(config.mail, app.log),
      limiter: createDbRateLimiter(database.db, config.rateLimitFactor),
      config,
      log: app.log,
    }),
  );

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Tenant hosts first: they never see the app's headers, API or SPA.
  registerSitesHost(app, config);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", `http://*.${config.sitesDomain}:*`, `https://*.${config.sitesDomain}`],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        ...(config.appUrl.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // The sites host serves previews that the app frames; keep cross-origin isolation off.
    crossOriginEmbedderPolicy: false,
    hsts: config.appUrl.startsWith('https:'),
  });

  registerErrorHandler(app);
  await registerApiDocs(app, config.appUrl);
  await app.register(apiRoutes, { prefix: '/api' });
  await registerWebApp(app, config.webDistDir);
  return app;
}
