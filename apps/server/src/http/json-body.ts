import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.js';

/** Deeper than any request of ours needs (customizations, edit plans: under 10). */
export const MAX_JSON_DEPTH = 64;
export const JSON_TOO_DEEP_MESSAGE = 'Request body is nested too deeply.';

/** Whether arrays and objects in `text` nest deeper than `max` (strings are skipped). */
export function jsonDepthOver(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: to its closing quote, over escapes
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * JSON bodies as Fastify parses them (prototype poisoning refused), except that a body nested
 * deeper than MAX_JSON_DEPTH answers 400 before it is parsed: 100,000 levels used to reach
 * `JSON.stringify` (a RangeError, answered 500) and any code that walks a body recursively.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonDepthOver(text, MAX_JSON_DEPTH)) {
      done(badRequest(JSON_TOO_DEEP_MESSAGE), undefined);
      return;
    }
    parse(request, text, done);
  });
}
