import { afterAll, beforeAll } from 'bun:test';
import type OpenAPIBackend from 'openapi-backend';
import { answerDrift, closedValidator } from '../support/openapi';
import type { World } from './world';

/**
 * The world seen through a proxy on loopback that forwards every request to the real server and
 * checks each answer against the server's own /swagger/json (closed schemas, declared headers and
 * statuses) before handing it back unchanged. `drift` collects what disagrees.
 */
export function validatingProxy(inner: () => World): { world: () => World; drift: string[] } {
  const drift: string[] = [];
  let api: OpenAPIBackend;
  let server: ReturnType<typeof Bun.serve> | null = null;
  let world: World | null = null;
  beforeAll(async () => {
    const w = inner();
    api = await closedValidator(await (await fetch(`${w.base}/swagger/json`)).json());
    server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      async fetch(req) {
        const url = new URL(req.url);
        const headers = Object.fromEntries(req.headers);
        const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.arrayBuffer();
        const upstream = await fetch(`${w.base}${url.pathname}${url.search}`, { method: req.method, headers: req.headers, body, redirect: 'manual' });
        drift.push(...((await answerDrift(api, { method: req.method, url, headers }, upstream.clone())) ?? []));
        // fetch has decoded a compressed body: it goes back as plain bytes, without the headers that described the encoding
        const back = new Headers(upstream.headers);
        back.delete('content-encoding');
        back.delete('content-length');
        return new Response(await upstream.arrayBuffer(), { status: upstream.status, headers: back });
      },
    });
    world = { ...w, base: `http://127.0.0.1:${server.port}` };
  });
  afterAll(() => void server?.stop(true));
  return {
    drift,
    world: () => {
      if (!world) throw new Error('the validating proxy did not start');
      return world;
    },
  };
}
