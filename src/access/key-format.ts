import { sha256Hex } from '../hash';

/** API keys: `fcs_live_` + 32 base-62 characters (~190 random bits). Only the SHA-256 is stored. */
export const KEY_PREFIX = 'fcs_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Characters of the key kept for display (`fcs_live_Ab3d…`): enough to tell keys apart, useless to guess. */
const DISPLAY_CHARS = KEY_PREFIX.length + 6;

export function generateKey(): { key: string; hash: string; prefix: string } {
  // Rejection sampling keeps every character uniform (256 is not a multiple of 62).
  let body = '';
  while (body.length < 32) {
    for (const b of crypto.getRandomValues(new Uint8Array(48))) {
      if (b < 248 && body.length < 32) body += BASE62[b % 62];
    }
  }
  const key = KEY_PREFIX + body;
  return { key, hash: hashKey(key), prefix: key.slice(0, DISPLAY_CHARS) };
}

export function hashKey(key: string): string {
  return sha256Hex(key);
}
