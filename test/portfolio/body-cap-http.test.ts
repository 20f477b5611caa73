import { afterAll, describe, expect, it } from 'bun:test';
import { json, makeWorld } from '../helpers';

// Over a real socket: Content-Length and chunked bodies arrive as HTTP framing, not as a Request built in the test.
const world = makeWorld();
const { key } = await world.keyFor('enterprise');
const server = world.app.listen({ port: 0, hostname: '127.0.0.1' }).server!;
afterAll(() => server.stop(true));
const url = `http://127.0.0.1:${server.port}/api/v1/portfolio`;
const megabyte = JSON.stringify({ registry_ids: Array.from({ length: 80_000 }, (_, i) => String(990000000000 + i)) });

describe('POST /api/v1/portfolio over HTTP: the 64 KiB body cap', () => {
  it('a 1 MB body with a Content-Length gets 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await fetch(url, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: megabyte });
    expect(res.status).toBe(413);
    expect((await json(res)).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('a 1 MB chunked body (no Content-Length) gets 413 too, and the client is not made to send it all', async () => {
    let sent = 0;
    const chunk = new TextEncoder().encode(megabyte.slice(0, 16_384));
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (sent >= megabyte.length) return c.close();
        sent += chunk.byteLength;
        c.enqueue(chunk);
        await Bun.sleep(1);
      },
    });
    const res = await fetch(url, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(megabyte.length);
  });

  it('a normal portfolio still works on the same server', async () => {
    const res = await fetch(url, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: '{"registry_ids":["990000000001"]}' });
    expect(res.status).toBe(200);
    expect((await json(res)).data.total).toBe(1);
  });
});
