import { createHmac } from 'node:crypto';
import { assertPublicUrl, createHttpClient, RefusedAddressError } from '@mirror/engine';

/** A receiver has this long to answer a delivery. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export const WEBHOOK_MESSAGES = {
  private: 'A webhook address must be on the public internet.',
} as const;

/** What one try of a delivery came to: delivered when `error` is null. */
export interface WebhookAttempt {
  statusCode: number | null;
  error: string | null;
}

/**
 * One try of a signed webhook delivery (watches' hits, form submissions): `body` POSTed as JSON
 * with `Mirror-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>` and
 * `Mirror-Delivery: <id>`, through the engine's fetch safety (no private addresses unless the
 * server allows them, no redirects, 10 s). A 2xx answer delivers it.
 */
export async function postSigned(input: {
  url: string;
  secret: string;
  body: string;
  deliveryId: string;
  allowPrivateNetworks: boolean;
}): Promise<WebhookAttempt> {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', input.secret)
    .update(`${timestamp}.${input.body}`)
    .digest('hex');
  const client = createHttpClient({
    allowPrivateNetworks: input.allowPrivateNetworks,
    timeoutMs: WEBHOOK_TIMEOUT_MS,
  });
  try {
    const response = await client.request(input.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'mirror-signature': `t=${timestamp},v1=${signature}`,
        'mirror-delivery': input.deliveryId,
      },
      body: input.body,
      followRedirects: false,
      maxBytes: 64 * 1024,
      maxRequestMs: WEBHOOK_TIMEOUT_MS,
    });
    const statusCode = response.status;
    await response.discard();
    return {
      statusCode,
      error: statusCode < 200 || statusCode >= 300 ? `The receiver answered ${statusCode}.` : null,
    };
  } catch (err) {
    return {
      statusCode: null,
      error:
        err instanceof RefusedAddressError
          ? WEBHOOK_MESSAGES.private
          : `The receiver could not be reached: ${err instanceof Error ? err.message : String(err)}`,
    };
  } finally {
    await client.close();
  }
}

/**
 * Whether a webhook address the owner gives is refused: one on a private or local network (unless
 * the server allows them). A name that does not resolve now may later: its deliveries report it.
 */
export async function isPrivateWebhook(
  url: string,
  allowPrivateNetworks: boolean,
): Promise<boolean> {
  if (allowPrivateNetworks) return false;
  try {
    await assertPublicUrl(new URL(url));
    return false;
  } catch (err) {
    return err instanceof RefusedAddressError;
  }
}

/** When the next try of a delivery is due after its `attempts`-th failed, or null to give up. */
export function nextAttemptAt(delaysMs: readonly number[], attempts: number): Date | null {
  const delay = delaysMs[attempts - 1];
  return delay === undefined ? null : new Date(Date.now() + delay);
}
