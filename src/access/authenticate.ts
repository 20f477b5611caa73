import { AppError } from '../errors';
import type { Account } from '../state/model';
import type { StateStore } from '../state/store';
import { hashKey } from './key-format';
import { API_KEY_CHALLENGE } from '../shared/envelope';

// Keys are never longer than this; anything longer is rejected before hashing.
const MAX_KEY_LENGTH = 128;

/** docs/api.md, Authentication and tiers: the caller of a data endpoint, from `X-API-Key` only. */
export async function authenticate(
  store: StateStore,
  headers: { apiKey: string | null; authorization: string | null },
): Promise<Account> {
  if (headers.authorization !== null && /^\s*bearer\b/i.test(headers.authorization)) {
    throw new AppError('UNAUTHENTICATED', 'Data endpoints take an API key in the X-API-Key header; Bearer authorization is not accepted', API_KEY_CHALLENGE);
  }
  const key = headers.apiKey?.trim() ?? '';
  if (key === '') throw new AppError('UNAUTHENTICATED', 'Missing API key: send it in the X-API-Key header', API_KEY_CHALLENGE);
  const account = key.length <= MAX_KEY_LENGTH ? await store.findAccountByKeyHash(hashKey(key)) : null;
  if (!account) throw new AppError('UNAUTHENTICATED', 'Invalid API key', API_KEY_CHALLENGE);
  return account;
}
