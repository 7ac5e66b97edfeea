import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { notFound } from '../errors.js';

const ONE_YEAR_SECONDS = 31_536_000;

/**
 * Serves the built SPA: hashed assets cached for a year, everything else revalidated, and any
 * unknown non-API GET answered with index.html so client-side routes survive a reload.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexFile = path.join(webDistDir, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: true,
      index: false,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const rel = path.relative(webDistDir, filePath).split(path.sep).join('/');
        res.setHeader(
          'cache-control',
          rel.startsWith('assets/')
            ? `public, max-age=${ONE_YEAR_SECONDS}, immutable`
            : 'public, max-age=3600',
        );
      },
    });
    // The directory itself is not a file: the root page is the app like any other client route.
    app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      pathname !== '/api' &&
      !pathname.startsWith('/assets/');
    if (!wantsPage) throw notFound();
    if (!built) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet: run `npm run build` (npm start does it for you).');
    }
    return sendIndex(reply);
  });

  function sendIndex(reply: FastifyReply) {
    return reply.header('cache-control', 'no-cache').sendFile('index.html', webDistDir);
  }
}
