import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './auth.routes.js';
import { customDomainsRoutes, tlsAskRoutes } from './custom-domains.routes.js';
import { customizeRoutes } from './customize.routes.js';
import { sitesRoutes } from './sites.routes.js';
import { fidelityRoutes } from './fidelity.routes.js';
import { healthRoutes } from './health.routes.js';
import { ideasRoutes } from './ideas.routes.js';
import { parkingRoutes } from './parking.routes.js';
import { paymentsRoutes } from './payments.routes.js';
import { screenshotsRoutes } from './screenshots.routes.js';
import { visualDiffRoutes } from './visual-diff.routes.js';
import { watchesRoutes } from './watches.routes.js';
import { formRecipientsRoutes, formsRoutes } from './forms.routes.js';

/** Every API resource, mounted under /api. Routes stay thin: validate, call a service, shape the answer. */
export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(sitesRoutes, { prefix: '/domains' });
  await app.register(ideasRoutes, { prefix: '/domains' });
  await app.register(customizeRoutes, { prefix: '/domains' });
  await app.register(fidelityRoutes, { prefix: '/domains' });
  await app.register(watchesRoutes, { prefix: '/domains' });
  await app.register(formsRoutes, { prefix: '/domains' });
  await app.register(formRecipientsRoutes, { prefix: '/forms' });
  await app.register(visualDiffRoutes, { prefix: '/domains' });
  await app.register(customDomainsRoutes, { prefix: '/domains' });
  await app.register(parkingRoutes, { prefix: '/domains' });
  await app.register(tlsAskRoutes, { prefix: '/internal' });
  await app.register(screenshotsRoutes);
  await app.register(paymentsRoutes, { prefix: '/payments' });
};
