import { describe, expect, it } from 'bun:test';
import { call, CAPPED_LIMIT, type World } from './world';

/** The error envelope of docs/api.md, with its code and status, and nothing internal in it. */
export async function expectError(res: Response, status: number, code: string): Promise<Record<string, any>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/json');
  const body = (await res.json()) as Record<string, any>;
  expect(body).toEqual({
    error: { code, message: expect.any(String), status },
    meta: { request_id: expect.stringMatching(/^req_/), timestamp: expect.any(String), response_time_ms: expect.any(Number) },
  });
  expect(body.error.message).not.toMatch(/\n\s+at |node_modules|\/src\/|\.ts:\d+/);
  return body;
}

/** Success and error envelopes: every answer, right or wrong, has the documented shape. */
export function envelopeContract(world: () => World) {
  describe('envelopes', () => {
    it('a lookup answers { data, meta } with the request ID in meta and in X-Request-ID', async () => {
      const w = world();
      const res = await call(w, `/api/v1/facility/${w.facility.registry_id}`, { key: 'starter' });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, any>;
      expect(body.data).toMatchObject({ registry_id: w.facility.registry_id, fac_name: w.facility.fac_name });
      expect(body.meta.request_id).toMatch(/^req_/);
      expect(res.headers.get('x-request-id')).toBe(body.meta.request_id);
      expect(Object.keys(body.meta).sort()).toEqual(['dataset', 'request_id', 'response_time_ms', 'timestamp']);
      expect(Object.keys(body.meta.dataset).sort()).toEqual(['as_of', 'fictitious', 'name', 'score_method']);
    });

    for (const [what, path, status, code] of [
      ['an unknown path', '/api/v1/nowhere', 404, 'NOT_FOUND'],
      ['an area search with a latitude out of range', '/api/v1/area?lat=91&lng=0&radius_miles=5', 422, 'VALIDATION_ERROR'],
      ['an unknown Registry ID', '/api/v1/facility/990999999999', 404, 'NOT_FOUND'],
    ] as const) {
      it(`${what} gets the error envelope: ${status} ${code}`, async () => {
        await expectError(await call(world(), path, { key: 'enterprise' }), status, code);
      });
    }

    it('a body that is not JSON gets 400 INVALID_BODY', async () => {
      const res = await call(world(), '/api/v1/portfolio', { method: 'POST', key: 'enterprise', headers: { 'content-type': 'application/json' }, body: '{"registry_ids": [' });
      await expectError(res, 400, 'INVALID_BODY');
    });
  });
}

/** API keys, tiers and monthly quotas, as docs/api.md states them. */
export function accessContract(world: () => World) {
  describe('authentication', () => {
    it('a data endpoint without a key is 401 UNAUTHENTICATED with a challenge', async () => {
      const w = world();
      const res = await call(w, `/api/v1/facility/${w.facility.registry_id}`);
      await expectError(res, 401, 'UNAUTHENTICATED');
      expect(res.headers.get('www-authenticate')).toBeTruthy();
    });

    it('an unknown key and a Bearer token are 401 UNAUTHENTICATED', async () => {
      const w = world();
      const path = `/api/v1/facility/${w.facility.registry_id}`;
      await expectError(await call(w, path, { headers: { 'x-api-key': `fcs_live_${'0'.repeat(32)}` } }), 401, 'UNAUTHENTICATED');
      await expectError(await call(w, path, { headers: { authorization: 'Bearer abc.def.ghi' } }), 401, 'UNAUTHENTICATED');
    });
  });

  describe('tiers', () => {
    it('a Free key reads a facility with its score components redacted', async () => {
      const w = world();
      const res = await call(w, `/api/v1/facility/${w.facility.registry_id}`, { key: 'free' });
      expect(res.status).toBe(200);
      const full = (await (await call(w, `/api/v1/facility/${w.facility.registry_id}`, { key: 'starter' })).json()) as any;
      const free = ((await res.json()) as any).data;
      expect(free.overall_score).toBe(full.data.overall_score);
      expect(JSON.stringify(free)).not.toEqual(JSON.stringify(full.data));
    });

    it('a Free key is 403 TIER_RESTRICTED on area search; a Starter key on the facility report', async () => {
      const w = world();
      await expectError(await call(w, `/api/v1/area?lat=${w.facility.lat}&lng=${w.facility.lng}&radius_miles=5`, { key: 'free' }), 403, 'TIER_RESTRICTED');
      await expectError(await call(w, `/api/v1/facility/${w.facility.registry_id}/report`, { method: 'POST', key: 'starter' }), 403, 'TIER_RESTRICTED');
    });

    it('a Starter key searches an area and finds the facility there', async () => {
      const w = world();
      const res = await call(w, `/api/v1/area?lat=${w.facility.lat}&lng=${w.facility.lng}&radius_miles=5`, { key: 'starter' });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).data.facilities.map((f: { registry_id: string }) => f.registry_id)).toContain(w.facility.registry_id);
    });
  });

  describe('monthly quotas', () => {
    it('a Free key gets 10 calls; the 11th is 402 QUOTA_EXHAUSTED with Retry-After', async () => {
      const w = world();
      const path = `/api/v1/facility/${w.facility.registry_id}`;
      const statuses = [];
      for (let i = 0; i < 10; i++) statuses.push((await call(w, path, { key: 'freeQuota' })).status);
      expect(statuses).toEqual(Array(10).fill(200));
      const res = await call(w, path, { key: 'freeQuota' });
      await expectError(res, 402, 'QUOTA_EXHAUSTED');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it(`a Starter key capped at ${CAPPED_LIMIT} calls gets 429 RATE_LIMIT_EXCEEDED on the next, with X-RateLimit headers`, async () => {
      const w = world();
      const path = `/api/v1/facility/${w.facility.registry_id}`;
      for (let i = 0; i < CAPPED_LIMIT; i++) expect((await call(w, path, { key: 'capped' })).status).toBe(200);
      const res = await call(w, path, { key: 'capped' });
      await expectError(res, 429, 'RATE_LIMIT_EXCEEDED');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(CAPPED_LIMIT));
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    });
  });
}
