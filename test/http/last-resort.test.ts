import { describe, expect, it } from 'bun:test';
import { lastResort } from '../../src/api/http/last-resort';
import { serverOptions } from '../../src/cli/service-process';

describe("the server's last resort, for a failure the app does not answer itself", () => {
  it('is the 500 envelope with a request id, and one log line with the error; nothing internal in the body', async () => {
    const lines: Record<string, unknown>[] = [];
    const res = lastResort((l) => lines.push(l), () => Date.UTC(2026, 10, 15))(new TypeError('Invalid URL at /secret/path'));
    expect([res.status, res.headers.get('content-type')]).toEqual([500, 'application/json; charset=utf-8']);
    const text = await res.text();
    expect(text).not.toContain('secret');
    const body = JSON.parse(text);
    expect(body.error).toEqual({ code: 'INTERNAL_ERROR', status: 500, message: 'Internal error; retry once after about a second, then report the request_id' });
    expect(body.meta).toEqual({ request_id: expect.stringMatching(/^req_[0-9A-Z]{20}$/), timestamp: '2026-11-15T00:00:00.000Z', response_time_ms: 0 });
    expect(res.headers.get('x-request-id')).toBe(body.meta.request_id);
    expect(lines).toEqual([expect.objectContaining({ level: 'error', msg: 'request', request_id: body.meta.request_id, status: 500, error_code: 'INTERNAL_ERROR', error: 'TypeError: Invalid URL at /secret/path' })]);
  });

  it('is what the server is started with, never the developer error page, with no body limit of its own below the app\'s', () => {
    const options = serverOptions(() => undefined);
    expect(options.development).toBe(false);
    expect(typeof options.error).toBe('function');
    expect(options.maxRequestBodySize).toBe(Number.MAX_SAFE_INTEGER);
  });
});
