import { describe, expect, it } from 'bun:test';
import { expectError } from './access';
import { call, type World } from './world';

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
  });
}
