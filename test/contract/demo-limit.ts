import { describe, expect, it } from 'bun:test';
import http from 'node:http';
import { expectError } from './access';
import { call, type World } from './world';

/** A GET sent from another loopback source address (a second client, as the server sees it). */
function getFrom(localAddress: string, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { localAddress }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The public demo: 5 lookups per client IP per rolling hour, the 6th 429 with Retry-After (docs/demo.md). */
export function demoLimitContract(world: () => World) {
  describe('the public demo limit', () => {
    it('one address gets 5 demo answers in an hour, then 429 RATE_LIMIT_EXCEEDED with Retry-After', async () => {
      const w = world();
      const path = `/api/v1/demo/facility?address=${encodeURIComponent(w.facility.address)}`;
      const answers: Response[] = [];
      for (let i = 0; i < 5; i++) answers.push(await call(w, path));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(((await answers[0]!.json()) as any).data).toMatchObject({ fac_name: w.facility.fac_name });
      expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
      for (let i = 0; i < 3; i++) {
        const res = await call(w, path);
        await expectError(res, 429, 'RATE_LIMIT_EXCEEDED');
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // Every request was keyed by its peer: none went unlimited.
      expect(w.service.lines.filter((l) => String(l.msg).includes('not rate limited'))).toEqual([]);
    });

    it('a limited client gains nothing from X-Forwarded-For, and another address still gets its own 5', async () => {
      const w = world();
      const path = `/api/v1/demo/facility?address=${encodeURIComponent(w.facility.address)}`;
      // No trusted proxy is configured, so the header is not believed (the test above spent 127.0.0.1's 5).
      await expectError(await call(w, path, { headers: { 'x-forwarded-for': '203.0.113.7' } }), 429, 'RATE_LIMIT_EXCEEDED');
      const other: number[] = [];
      for (let i = 0; i < 6; i++) other.push(await getFrom('127.0.0.2', `${w.base}${path}`));
      expect(other).toEqual([200, 200, 200, 200, 200, 429]);
    });
  });
}
