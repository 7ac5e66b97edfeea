import http from 'node:http';
import { E2E_PORT } from './server';

export interface HostAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A request to the e2e server as `host` (a custom or parked domain) would reach it: node:http on the
 * loopback address with that Host header (Node's fetch does not let a Host header through).
 */
export function requestAsHost(
  host: string,
  path = '/',
  { method = 'GET', form }: { method?: 'GET' | 'POST'; form?: Record<string, string> } = {},
): Promise<HostAnswer> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: E2E_PORT,
        path,
        method,
        headers: {
          Host: `${host}:${E2E_PORT}`,
          ...(body
            ? {
                'Content-Type': 'application/x-www-form-urlencoded',
                'Content-Length': Buffer.byteLength(body),
              }
            : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
