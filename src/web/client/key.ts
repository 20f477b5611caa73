/**
 * The API key lives in sessionStorage only: gone when the tab closes, never in a URL, a cookie or
 * localStorage, and sent only as the X-API-Key header to this origin.
 */
const SLOT = 'facility-score.api-key';

export function readKey(): string | null {
  try {
    return sessionStorage.getItem(SLOT);
  } catch {
    return null; // storage disabled: the page works without a key
  }
}

export function saveKey(key: string): void {
  sessionStorage.setItem(SLOT, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(SLOT);
}
