import { describe, expect, it } from 'bun:test';
import { MAX_REQUEST_BODY_BYTES } from '../../src/api/http/request-guard';
import { makeWorld } from '../helpers';

// The server's own limit is out of reach (src/cli/service-process.ts): a chunked body has no
// declared length for the app to refuse, so no route may read one past MAX_REQUEST_BODY_BYTES.
const world = makeWorld();
const { key } = await world.keyFor('enterprise');
const CHUNK = 16 * 1024;

/** A 2 MiB body that counts what was pulled from it. */
function countedBody() {
  const counter = { pulled: 0 };
  const piece = new TextEncoder().encode('['.padEnd(CHUNK, ' '));
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (counter.pulled >= 2 * MAX_REQUEST_BODY_BYTES) return c.close();
      counter.pulled += piece.byteLength;
      c.enqueue(piece);
    },
  });
  return { stream, counter };
}

describe('a chunked body over the server limit', () => {
  const routes = world.app.routes
    .filter((r) => r.method !== 'GET' && r.method !== 'HEAD')
    .map((r) => [r.method, r.path.replace(':id', `wl_${'0'.repeat(16)}`).replace(':event_id', `msg_${'0'.repeat(32)}`).replace(':registry_id', '990000000001')] as const);

  it.each(routes)('%s %s reads at most 1 MiB of it', async (method, path) => {
    const { stream, counter } = countedBody();
    const headers = { 'x-api-key': key, 'content-type': 'application/json', authorization: path.includes('/account') ? 'Bearer a.b.c' : '' };
    const res = await world.app.handle(new Request(`http://localhost${path}`, { method, headers, body: stream, duplex: 'half' } as RequestInit));
    expect(res.status).toBeLessThan(500);
    await res.arrayBuffer();
    expect(counter.pulled).toBeLessThanOrEqual(MAX_REQUEST_BODY_BYTES + CHUNK);
  });
});
