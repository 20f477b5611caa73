import { describe, expect, it } from 'bun:test';
import { ERROR_STATUS } from '../../src/errors';
import { json, makeWorld } from '../helpers';

const world = makeWorld();
const starter = await world.keyFor('starter');

function expectMeta(body: any, res: Response) {
  expect(body.meta.request_id).toMatch(/^req_[0-9A-Z]{20}$/);
  expect(res.headers.get('x-request-id')).toBe(body.meta.request_id);
  expect(new Date(body.meta.timestamp).toISOString()).toBe(body.meta.timestamp);
  expect(body.meta.timestamp.endsWith('Z')).toBe(true);
  expect(Number.isInteger(body.meta.response_time_ms)).toBe(true);
  expect(body.meta.response_time_ms).toBeGreaterThanOrEqual(0);
}

function expectError(body: any, res: Response, code: string, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/json');
  expect(Object.keys(body).sort()).toEqual(['error', 'meta']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'status']);
  expect(body.error).toMatchObject({ code, status });
  expect(body.error.message.length).toBeGreaterThan(0);
  expectMeta(body, res);
}

describe('response envelope', () => {
  it('a success carries data and meta, with the request id also in X-Request-Id', async () => {
    const res = await world.call('/api/v1/facility/990000000001', { key: starter.key });
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['data', 'meta']);
    expectMeta(body, res);
  });

  it('the timestamp comes from the injected clock, in UTC', async () => {
    const body = await json(await world.call('/api/v1/status'));
    expect(body.meta.timestamp).toBe(new Date(world.clock()).toISOString());
  });

  it('every request gets a different request id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) ids.add((await json(await world.call('/api/v1/status'))).meta.request_id);
    expect(ids.size).toBe(50);
  });

  it.each([
    ['an unknown route', 'GET', '/api/v1/nothing-here', 'NOT_FOUND', 404],
    ['a path outside the API and the page (/ is the web page)', 'GET', '/favicon.ico', 'NOT_FOUND', 404],
    ['a version that does not exist', 'GET', '/api/v2/facility/990000000001', 'NOT_FOUND', 404],
    ['a wrong method on a known path', 'DELETE', '/api/v1/status', 'METHOD_NOT_ALLOWED', 405],
    ['POST on the lookup path', 'POST', '/api/v1/facility/990000000001', 'METHOD_NOT_ALLOWED', 405],
  ])('%s gets the error envelope', async (_name, method, path, code, status) => {
    const res = await world.call(path, { method });
    expectError(await json(res), res, code, status);
  });

  it('a 405 names the allowed methods in Allow', async () => {
    const res = await world.call('/api/v1/status', { method: 'PUT' });
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('each error code maps to its one HTTP status', () => {
    expect(ERROR_STATUS).toMatchObject({
      INVALID_BODY: 400, UNAUTHENTICATED: 401, QUOTA_EXHAUSTED: 402, TIER_RESTRICTED: 403, NOT_FOUND: 404,
      VALIDATION_ERROR: 422, RATE_LIMIT_EXCEEDED: 429, REGENERATE_THROTTLED: 429, INTERNAL_ERROR: 500,
    });
  });
});

describe('unexpected failures', () => {
  it('a crash inside a handler is a generic 500 INTERNAL_ERROR; the details go only to the log', async () => {
    const boom = makeWorld();
    const key = await boom.keyFor('enterprise');
    // A broken index: the lookup's read (the row with its stored detail) throws a SQLite error with internal details.
    (boom.deps.index.stored as any).answer = () => {
      throw new Error('SQLITE_CORRUPT: database disk image is malformed at /secret/path.sqlite');
    };
    const res = await boom.call('/api/v1/facility/990000000001', { key: key.key });
    const text = await res.clone().text();
    expectError(JSON.parse(text), res, 'INTERNAL_ERROR', 500);
    expect(text).not.toContain('SQLITE');
    expect(text).not.toContain('/secret');
    expect(text).not.toMatch(/at .*\.ts/);
    const logged = boom.logs.find((l) => l.level === 'error');
    expect(String(logged?.error)).toContain('SQLITE_CORRUPT');
    expect(logged?.request_id).toBe(JSON.parse(text).meta.request_id);
  });

  it('a call that fails with a 500 is given back to the monthly quota', async () => {
    const boom = makeWorld();
    const key = await boom.keyFor('free');
    (boom.deps.index.stored as any).answer = () => {
      throw new Error('disk gone');
    };
    expect((await boom.call('/api/v1/facility/990000000001', { key: key.key })).status).toBe(500);
    expect(await boom.store.monthlyUsage(key.accountId, boom.clock())).toBe(0);
  });
});
