import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The Standard Webhooks headers of one attempt, signed by the `standardwebhooks` package (the one
 * receivers verify with): `webhook-signature` is `v1,` + base64 HMAC-SHA256, keyed by the secret's
 * decoded bytes, of `id.timestamp.body` (timestamp in seconds).
 */
export function signedHeaders(secret: string, id: string, timestampSec: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSec),
    'webhook-signature': new Webhook(secret).sign(id, new Date(timestampSec * 1000), body),
  };
}
