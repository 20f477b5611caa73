import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The Standard Webhooks headers of one attempt: `webhook-signature` is `v1,` + base64 HMAC-SHA256,
 * keyed by the secret's decoded bytes, of `id.timestamp.body` (timestamp in seconds).
 */
export function signedHeaders(secret: string, id: string, timestampSec: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestampSec}.${body}`).digest('base64');
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSec),
    'webhook-signature': `v1,${signature}`,
  };
}
