import { describe, expect, it } from 'bun:test';
import { WebhookDispatcher } from '../../src/watchlists/webhooks/dispatcher';
import { json, makeWorld } from '../helpers';
import { closedPort } from '../support/webhook-receiver';

// Our own message table: every error message a hostile request can draw is one of these forms.
// A message outside it (a parser's, the validator's, the runtime's) fails the test.
const MESSAGE_TABLE: RegExp[] = [
  /^Malformed JSON: the body is not valid JSON \(NaN, Infinity, comments, single quotes and trailing commas are not JSON\)$/,
  /^The body must be JSON sent with Content-Type: application\/json$/,
  /^The body is empty; send \{"registry_ids": \[\.\.\.\]\}$/,
  /^The body is not valid UTF-8$/,
  /^The body must be a JSON object like \{"registry_ids": \["\d+"\]\}, got (null|an array|a \w+)$/,
  /^registry_ids is required: an array of registry ID strings$/,
  /^registry_ids must be an array of strings, got (null|an object|a \w+)$/,
  /^registry_ids\[\d+\] must be a string, got (null|an array|an object|a \w+)$/,
  /^The request body is over \d+ bytes \(64 KiB\); a portfolio of 500 IDs needs under 8 KiB$/,
  /^[a-z_]+(\[\d+\]|\.[a-z_]+)* is required(: .+)?$/,
  /^[a-z_]+(\[\d+\]|\.[a-z_]+)* must be [^\n]+, got [^\n]+$/,
  /^Invalid request body: [a-z_]+(\[\d+\]|\.[a-z_]+)* (is required: .+|must be [^\n]+, got [^\n]+)$/,
  /^The body must be a JSON object sent with Content-Type: application\/json$/,
  /^The body must be a JSON object, got (null|an array|an empty body|a \w+)$/,
  /^The body nests arrays or objects more than \d+ levels deep; no request body of this API needs more than 3$/,
  /^The request body is over \d+ bytes \(\d+ KiB\); a watchlist of 10,000 IDs needs under 300 KiB$/,
  /^address: must not be empty$/,
  /^The address could not be geocoded: .+$/,
  /^No such resource: [a-z_]+ must be an? [a-z]+ id(entifier)?[^\n]*, got [^\n]+$|^No such resource: [a-z_]+ must be a registry ID of 1 to 15 digits, got [^\n]+$/,
  /^No such endpoint: [A-Z]+ \/\S*$/,
  /^[A-Z]+ is not allowed on \/\S*; use [A-Z]+( or [A-Z]+)*$/,
  /^No facility with registry ID \d+ is in the index$/,
  /^Missing API key: send it in the X-API-Key header$/,
  /^Invalid API key$/,
  /^Data endpoints take an API key in the X-API-Key header; Bearer authorization is not accepted$/,
  /^Account endpoints need a JWT from your identity provider: send Authorization: Bearer <token>$/,
  /^Account login is not configured on this server; .+$/,
  /^The area endpoint requires a Starter plan or above$/,
  /^Portfolio lookups require a Starter plan or above$|^.+ requires? a (Starter|Platform) plan or above$/,
  /^\d+ registry IDs sent; the .+ plan allows at most \d+ per call$|^.+ at most \d+ .+$/,
];

// Wording that belongs to the runtime, the framework or the validator, never to us.
const FOREIGN = /JSON Parse|Unexpected (identifier|token|end)|Expected (string|number|integer|boolean|object|array|union)|SyntaxError|TypeError|undefined|Elysia|TypeBox|\bBun\b|property '|at <anonymous>|[\u0000-\u001f]/;

const world = makeWorld();
const { key } = await world.keyFor('enterprise');
const json_ = { 'content-type': 'application/json' };

type Case = [name: string, path: string, init: RequestInit & { key?: string }];

const portfolioBodies = ['{"registry_ids": NaN}', '{"registry_ids": Infinity}', '{"registry_ids": [1e309]}', "{'registry_ids': []}", '{"registry_ids": ["1",]}',
  '{"registry_ids": ["1"]} // c', '{"registry_ids": [', '', 'null', '[]', '"x"', '42', 'true', '{}', '{"registry_ids": null}', '{"registry_ids": "990000000001"}',
  '{"registry_ids": [1]}', '{"registry_ids": [null]}', '{"registry_ids": [[]]}', '{"registry_ids": [{}]}', '{"registry_ids": [true]}', '\u0000\u0001{', '{"registry_ids": ["\u0007"]}',
  `{"registry_ids": [${Array(600).fill('"990000000001"').join(',')}]}`, '\ufeff{"registry_ids": []}'];

const CASES: Case[] = [
  ...portfolioBodies.map((b): Case => [`portfolio body ${JSON.stringify(b.slice(0, 40))}`, '/api/v1/portfolio', { method: 'POST', key, body: b, headers: json_ }]),
  ['portfolio as a form', '/api/v1/portfolio', { method: 'POST', key, body: 'registry_ids=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
  ['portfolio as multipart', '/api/v1/portfolio', { method: 'POST', key, body: '--b\r\n\r\n--b--', headers: { 'content-type': 'multipart/form-data; boundary=b' } }],
  ['portfolio as text', '/api/v1/portfolio', { method: 'POST', key, body: 'x', headers: { 'content-type': 'text/plain' } }],
  ['portfolio not UTF-8', '/api/v1/portfolio', { method: 'POST', key, body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), headers: json_ }],
  ['portfolio over 64 KiB', '/api/v1/portfolio', { method: 'POST', key, body: `{"registry_ids": ["${'9'.repeat(70_000)}"]}`, headers: json_ }],
  ...['address[]=1', 'address[a]=1', '', 'address=', `address=${'x'.repeat(201)}`, 'address=%00%01%1b', 'address=1&address=2', 'address=NaN', 'address=%7B%7D']
    .map((q): Case => [`demo ?${q.slice(0, 30)}`, `/api/v1/demo/facility?${q}`, {}]),
  ...['lat=NaN&lng=1&radius_miles=1', 'lat=Infinity&lng=1&radius_miles=1', 'lat=1e309&lng=1&radius_miles=1', 'lat=1&lng=1&radius_miles=-1', 'lat=1&lng=1&radius_miles=26',
    'lat=1&lng=1&radius_miles=1&limit=0', 'lat=1&lng=1&radius_miles=1&limit=1.5', 'lat=1&lng=1&radius_miles=1&limit=501', 'lat=1&lng=1&radius_miles=1&sort=%00',
    'lat=1&lng=1&radius_miles=1&state=XX', 'lat=1&lng=1&radius_miles=1&active_enforcement=2', 'lng=1&radius_miles=1', 'lat[]=1&lng=1&radius_miles=1', 'lat=0x10&lng=1&radius_miles=1',
    'lat=%20&lng=1&radius_miles=1', 'lat=1&lng=1&radius_miles=1&extra=1']
    .map((q): Case => [`area ?${q.slice(0, 40)}`, `/api/v1/area?${q}`, { key }]),
  ...['abc', '%00', '99%0A00', '9'.repeat(300), '%E2%80%AE123', '..%2F..%2Fetc', 'NaN', '-1']
    .map((id): Case => [`facility id ${id.slice(0, 20)}`, `/api/v1/facility/${id}`, { key }]),
  ['report with a body', '/api/v1/facility/990000000001/report', { method: 'POST', key, body: '{"x": NaN}', headers: json_ }],
  ['unknown path with control bytes', '/api/v1/%00%1b[31m', { key }],
  ['wrong method', '/api/v1/status', { method: 'DELETE' }],
  ['bearer on a data endpoint', '/api/v1/facility/990000000001', { headers: { authorization: 'Bearer x' } }],
  ['a 200-character key', '/api/v1/facility/990000000001', { key: 'k'.repeat(200) }],
  ['account without a token', '/api/v1/account', {}],
  ['account regenerate with a NaN body', '/api/v1/account/key/regenerate', { method: 'POST', body: '{"a": NaN}', headers: { ...json_, authorization: 'Bearer a.b.c' } }],
];

describe('hostile input: every message is ours', () => {
  it.each(CASES)('%s', async (_name, path, init) => {
    const res = await world.call(path, init);
    expect(res.status).toBeLessThan(500);
    if (res.status < 400) return;
    const body = await json(res);
    const message: string = body.error.message;
    expect(message).not.toMatch(FOREIGN);
    if (!MESSAGE_TABLE.some((re) => re.test(message))) throw new Error(`message not in our table: ${JSON.stringify(message)}`);
  });
});

/** One message of our table, or the test fails naming it. */
function ours(message: string): void {
  expect(message).not.toMatch(FOREIGN);
  if (!MESSAGE_TABLE.some((re) => re.test(message))) throw new Error(`message not in our table: ${JSON.stringify(message)}`);
}

const listId: string = (await json(await world.call('/api/v1/watchlists', { method: 'POST', key, headers: json_, body: JSON.stringify({ name: 'kept', registry_ids: ['990000000001'] }) }))).data.id;
// 5,000 levels of brackets in about 10 KB: deep enough to overflow a recursive error mapper.
const DEEP = `${'['.repeat(5000)}${']'.repeat(5000)}`;
const JSON_BODY_ENDPOINTS: [method: string, path: string][] = [
  ['POST', '/api/v1/portfolio'],
  ['POST', '/api/v1/site-report'],
  ['POST', '/api/v1/watchlists'],
  ['PATCH', `/api/v1/watchlists/${listId}`],
];

describe('hostile input: every JSON-body endpoint answers 400 in the envelope', () => {
  it.each(JSON_BODY_ENDPOINTS)('%s %s: 5,000 nested levels, bare or inside a field, is 400 INVALID_BODY', async (method, path) => {
    for (const body of [DEEP, `{"name": ${DEEP}}`, `{"registry_ids": ${DEEP}}`, `{"rule": ${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`]) {
      const res = await world.call(path, { method, key, headers: json_, body });
      expect(res.status).toBe(400);
      const { error } = await json(res);
      expect(error).toMatchObject({ code: 'INVALID_BODY', status: 400 });
      expect(error.message).toContain('more than 32 levels deep');
      ours(error.message);
    }
  });

  it.each([['POST', '/api/v1/watchlists'], ['PATCH', `/api/v1/watchlists/${listId}`]])('%s %s: a body that is not a JSON object is 400 saying it must be one, and changes nothing', async (method, path) => {
    const bodies: [contentType: string, body: string, got: RegExp][] = [
      ['text/plain', '{"name": "x", "registry_ids": []}', /sent with Content-Type: application\/json$/],
      ['application/x-www-form-urlencoded', 'name=x', /sent with Content-Type: application\/json$/],
      ['application/json', 'null', /got null$/],
      ['application/json', '[]', /got an array$/],
      ['application/json', '"x"', /got a string$/],
      ['application/json', '42', /got a number$/],
      ['application/json', 'true', /got a boolean$/],
      ['application/json', '', /got an empty body$/],
      ['application/json', '{"name": "x",}', /^Malformed JSON/],
    ];
    for (const [type, body, got] of bodies) {
      const res = await world.call(path, { method, key, headers: { 'content-type': type }, body });
      expect([type, body, res.status]).toEqual([type, body, 400]);
      const { error } = await json(res);
      expect(error.code).toBe('INVALID_BODY');
      expect(error.message).toMatch(got);
      if (!error.message.startsWith('Malformed')) expect(error.message).toContain('The body must be a JSON object');
      ours(error.message);
    }
    const kept = (await json(await world.call(`/api/v1/watchlists/${listId}`, { key }))).data;
    expect(kept).toMatchObject({ name: 'kept', registry_ids: ['990000000001'], updated_at: kept.created_at });
    expect((await json(await world.call('/api/v1/watchlists', { key }))).data.total).toBe(1);
  });

  it('a watchlist body over 512 KiB is 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await world.call('/api/v1/watchlists', { method: 'POST', key, headers: json_, body: `{"name": "${'x'.repeat(600_000)}", "registry_ids": []}` });
    expect(res.status).toBe(413);
    const { error } = await json(res);
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    ours(error.message);
  });

  it('the routes that read no body answer a deep JSON body without a 500', async () => {
    const others = world.app.routes
      .filter((r) => ['POST', 'PATCH', 'DELETE', 'PUT'].includes(r.method) && r.path.startsWith('/api/') && !JSON_BODY_ENDPOINTS.some(([, p]) => p.replace(listId, ':id') === r.path))
      .map((r) => [r.method, r.path.replace(':id', listId).replace(':event_id', `msg_${'0'.repeat(32)}`).replace(':registry_id', '990000000001')] as const);
    expect(others.length).toBeGreaterThan(3);
    for (const [method, path] of others) {
      const res = await world.call(path, { method, key, headers: { ...json_, authorization: path.includes('/account') ? 'Bearer a.b.c' : '' }, body: DEEP });
      expect([method, path, res.status < 500]).toEqual([method, path, true]);
    }
  });
});

describe('hostile input: dates', () => {
  it.each(['2026-13-45', '0000-00-00', '9999-99-99', '2026-02-30', '2025-02-29', '2026-1-01', '2026-01-01T00:00:00Z'])('since=%s is 422 naming since, and is not counted', async (since) => {
    const { key: starter, accountId } = await world.keyFor('starter');
    const id = (await json(await world.call('/api/v1/watchlists', { method: 'POST', key: starter, headers: json_, body: JSON.stringify({ name: 'n', registry_ids: [] }) }))).data.id;
    const res = await world.call(`/api/v1/watchlists/${id}/changes?since=${encodeURIComponent(since)}`, { key: starter });
    expect(res.status).toBe(422);
    const { error } = await json(res);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toBe(`since must be a calendar date YYYY-MM-DD such as 2026-10-01, got ${JSON.stringify(since)}`);
    ours(error.message);
    expect(await world.store.monthlyUsage(accountId, world.clock())).toBe(0);
    // A real day, a leap day included, is a date and counts.
    expect((await world.call(`/api/v1/watchlists/${id}/changes?since=2024-02-29`, { key: starter })).status).toBe(200);
    expect(await world.store.monthlyUsage(accountId, world.clock())).toBe(1);
  });
});

// Webhook URLs a hostile caller may try to store: each is a 422 in our wording that names the field.
const hooks = makeWorld({ config: { webhookAllow: ['hooks.example.com', '127.0.0.1', '10.20.0.0/16', '::/0'] } });
const { key: hookKey } = await hooks.keyFor('enterprise');
const WEBHOOK_URLS = [' https://hooks.example.com/x', 'https://hooks.example.com/x\t', '\thttps://hooks.example.com/x', 'https://hooks.example.com/\u0000', 'https://hooks.example.com/\u001b[31m',
  'https://hooks.example.com\u2028/x', 'https://\u202ehooks.example.com/x', 'https://hooks.example.com\ufeff/x', 'http:hooks.example.com/x', 'http:/hooks.example.com/x', 'http:///hooks.example.com/x',
  '//hooks.example.com/x', 'hooks.example.com/x', 'javascript:alert(1)', 'file:///etc/passwd', 'gopher://hooks.example.com/x', 'https://user:pw@hooks.example.com/x', 'https://hooks.example.com/x#f',
  'https://evil.example/x', 'https://hooks.example.com.evil.example/x', 'http://127.0.0.2/x', 'http://0.0.0.0/x', 'http://[::1]/x', 'http://[::ffff:127.0.0.2]/x', 'http://169.254.169.254/latest',
  'http://0x7f000002/x', 'http://10.21.0.1/x', 'https://[::1/x', 'https://ｅｖｉｌ.example/x', 'https:// /x', ''];

describe('hostile webhook URLs: refused in our words, naming the field', () => {
  it.each(WEBHOOK_URLS.map((u) => [JSON.stringify(u), u] as const))('%s', async (_name, url) => {
    const res = await hooks.call('/api/v1/watchlists', { method: 'POST', key: hookKey, headers: json_, body: JSON.stringify({ name: 'n', registry_ids: [], webhook_url: url }) });
    expect(res.status).toBe(422);
    const message: string = (await json(res)).error.message;
    expect(message).not.toMatch(FOREIGN);
    expect(message).toMatch(/^webhook_url /);
    if (!MESSAGE_TABLE.some((re) => re.test(message))) throw new Error(`message not in our table: ${JSON.stringify(message)}`);
  });
});

// A webhook pointed at whatever the allow-list spans must not make /deliveries a port scanner: a
// refused port, an unknown host and a hung one read as our closed outcomes, never the runtime's text.
describe('hostile webhook targets: /deliveries shows only our closed set of outcomes', () => {
  it('a refused port and an unresolvable host both read "connection failed"', async () => {
    const w = makeWorld({ config: { webhookAllow: ['127.0.0.1', 'nonexistent.invalid'], webhookTimeoutMs: 3000, webhookLeaseMs: 10_000 } });
    const { key } = await w.keyFor('enterprise');
    const lists: string[] = [];
    for (const url of [`http://127.0.0.1:${closedPort()}/h`, 'http://nonexistent.invalid/h']) {
      const made = (await json(await w.call('/api/v1/watchlists', { method: 'POST', key, headers: json_, body: JSON.stringify({ name: 'probe', registry_ids: ['990000000001'], webhook_url: url }) }))).data;
      lists.push(made.id);
      await w.store.watch.enqueue([{ id: `msg_${made.id.slice(3)}${'0'.repeat(16)}`, watchlist_id: made.id, type: 'facility.score_changed', registry_id: '990000000001', as_of: '2026-10-08', body: '{}', created_at: Date.now() }], Date.now());
    }
    const logged: Record<string, unknown>[] = [];
    await new WebhookDispatcher({ watch: w.store.watch, accounts: (id) => w.store.getAccount(id), settings: w.deps.config, log: (l) => void logged.push(l), clock: Date.now }).tick();
    for (const id of lists) {
      const res = await w.call(`/api/v1/watchlists/${id}/deliveries`, { key });
      // the deliveries, not the envelope: a random request id can spell "DNS" by chance
      const deliveries = (JSON.parse(await res.text()) as { data: { deliveries: unknown[] } }).data.deliveries;
      expect(JSON.stringify(deliveries)).not.toMatch(/ECONN|ENOTFOUND|EAI_|getaddrinfo|Unable to connect|computer|refused|DNS|resolve/i);
      const delivery = (deliveries as { attempts: unknown[] }[])[0]!;
      expect(delivery.attempts).toHaveLength(1);
      expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: 'connection failed', response_excerpt: '' });
    }
    // The operator still sees the runtime's reason, in the log only.
    expect(logged.filter((l) => l.msg === 'webhook attempt').every((l) => typeof l.detail === 'string' && l.error === 'connection failed')).toBe(true);
  });
});
