import { readKey } from './key';

/** What a call gave: the envelope's data, or a sentence to show a person instead. */
export type ApiResult<T> =
  | { ok: true; data: T; headers: Headers; status: number }
  | { ok: false; status: number; code: string; message: string; headers: Headers; missingRoute: boolean };

export type Quota = { limit: number; remaining: number; scope: 'month' | 'hour' };
type QuotaListener = (q: Quota) => void;
const listeners: QuotaListener[] = [];

/** Called with the limit headers of every answered call (the key's month, or the demo's hour). */
export function onQuota(fn: QuotaListener): void {
  listeners.push(fn);
}

function reportQuota(headers: Headers, scope: Quota['scope']): void {
  const limit = Number(headers.get('x-ratelimit-limit'));
  const remaining = Number(headers.get('x-ratelimit-remaining'));
  if (headers.has('x-ratelimit-limit') && Number.isFinite(limit) && Number.isFinite(remaining)) for (const fn of listeners) fn({ limit, remaining, scope });
}

type Options = {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  accept?: string;
  keyed?: boolean;
  /** false: the whole body, not its `data` (GeoJSON). */
  envelope?: boolean;
  /** Sent as JSON. */
  body?: unknown;
};

async function call(path: string, opts: Options): Promise<{ res: Response } | { failed: string }> {
  const headers: Record<string, string> = { accept: opts.accept ?? 'application/json' };
  if (opts.keyed !== false) {
    const key = readKey();
    if (key) headers['x-api-key'] = key;
  }
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(path, { method: opts.method ?? 'GET', headers, body, credentials: 'omit', cache: 'no-store' });
    reportQuota(res.headers, opts.keyed === false ? 'hour' : 'month');
    return { res };
  } catch {
    return { failed: 'The server could not be reached. Check the connection and try again.' };
  }
}

async function failure(res: Response): Promise<Extract<ApiResult<never>, { ok: false }>> {
  let code = 'UNKNOWN';
  let message = `The server answered ${res.status} ${res.statusText}.`;
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    if (body.error?.message) message = body.error.message;
    if (body.error?.code) code = body.error.code;
  } catch {
    // not an envelope: keep the status sentence
  }
  // A route this server does not have (yet): the page says so instead of breaking.
  const missingRoute = (res.status === 404 && /^No such endpoint/.test(message)) || res.status === 405;
  if (res.status === 429) {
    const wait = Number(res.headers.get('retry-after'));
    if (wait > 0) message += ` Try again in ${wait >= 120 ? `${Math.ceil(wait / 60)} minutes` : `${wait} seconds`}.`;
  }
  return { ok: false, status: res.status, code, message: /[.!?]$/.test(message) ? message : `${message}.`, headers: res.headers, missingRoute };
}

/** A JSON call: `data` of the envelope, or the API's own error sentence. */
export async function getJson<T>(path: string, opts: Options = {}): Promise<ApiResult<T>> {
  const r = await call(path, opts);
  if ('failed' in r) return { ok: false, status: 0, code: 'NETWORK', message: r.failed, headers: new Headers(), missingRoute: false };
  const { res } = r;
  if (!res.ok) return failure(res);
  try {
    const body = (await res.json()) as { data: T };
    return { ok: true, data: opts.envelope === false ? (body as T) : body.data, headers: res.headers, status: res.status };
  } catch {
    return { ok: false, status: res.status, code: 'NOT_JSON', message: 'The server answered something this page cannot read.', headers: res.headers, missingRoute: false };
  }
}

/** A file call (CSV, GeoJSON, PDF): the body as a Blob and the file name the server suggests. */
export async function getFile(path: string, opts: Options = {}): Promise<ApiResult<{ blob: Blob; filename: string; type: string }>> {
  const r = await call(path, opts);
  if ('failed' in r) return { ok: false, status: 0, code: 'NETWORK', message: r.failed, headers: new Headers(), missingRoute: false };
  const { res } = r;
  if (!res.ok) return failure(res);
  const type = res.headers.get('content-type') ?? '';
  const disposition = res.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? 'download';
  return { ok: true, data: { blob: await res.blob(), filename, type }, headers: res.headers, status: res.status };
}

/** Saves a blob through a temporary link (no navigation, nothing leaves the page). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** `?a=1&b=2` from the defined entries. */
export function query(params: Record<string, string | number | boolean | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
