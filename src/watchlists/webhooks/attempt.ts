import type { Attempt } from '../../state/watch-model';
import { signedHeaders } from './signing';

/** Response bodies are kept only this long (an excerpt for the deliveries list, never the body). */
export const EXCERPT_CHARS = 256;

/**
 * What a failed attempt records, from a closed set: `connection failed`, `no answer within N ms`,
 * `HTTP <status>`, `redirect not followed`, and the dispatcher's own `not sent: ...` reasons. The
 * runtime's text never reaches /deliveries: "ECONNREFUSED" against "ENOTFOUND" against a TLS error
 * would turn a webhook into a scanner of whatever the allow-list spans. It goes to the log (`detail`).
 */
export const CONNECTION_FAILED = 'connection failed';
export const noAnswerWithin = (ms: number) => `no answer within ${ms} ms`;

/**
 * One POST of a signed event. Redirects are not followed (a 3xx is a failed attempt: the target
 * could otherwise bounce us to a host the allow-list does not name); at most `timeoutMs` in all;
 * only the first bytes of the answer are read. `detail` is the runtime's own error, for the log only.
 */
export async function postEvent(o: { url: string; secret: string; id: string; body: string; now: number; timeoutMs: number; userAgent: string }): Promise<Attempt & { ok: boolean; detail?: string }> {
  const started = performance.now();
  const at = new Date(o.now).toISOString();
  const headers = { ...signedHeaders(o.secret, o.id, Math.floor(o.now / 1000), o.body), 'user-agent': o.userAgent };
  const signal = AbortSignal.timeout(o.timeoutMs);
  try {
    const res = await fetch(o.url, { method: 'POST', headers, body: o.body, redirect: 'manual', signal });
    const excerpt = await readExcerpt(res);
    const ok = res.status >= 200 && res.status < 300;
    const error = ok ? null : res.status >= 300 && res.status < 400 ? 'redirect not followed' : `HTTP ${res.status}`;
    return { ok, at, status_code: res.status, error, response_excerpt: excerpt, duration_ms: Math.round(performance.now() - started) };
  } catch (e) {
    const error = signal.aborted ? noAnswerWithin(o.timeoutMs) : CONNECTION_FAILED;
    return { ok: false, at, status_code: null, error, response_excerpt: '', duration_ms: Math.round(performance.now() - started), detail: (e as Error).message };
  }
}

async function readExcerpt(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_CHARS * 4) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS);
}
