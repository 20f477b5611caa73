/** What a receiver got: the raw body and the headers, as sent. */
export type Received = { id: string; headers: Record<string, string>; body: string; path: string };

/**
 * A real HTTP receiver on loopback. `answer` decides each response (by the count of requests with
 * the same webhook-id so far, starting at 1); default 200.
 */
export function startReceiver(answer: (nth: number, req: Request) => Response | Promise<Response> = () => new Response('ok')) {
  const received: Received[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const body = await req.text();
      const headers = Object.fromEntries(req.headers.entries());
      const id = headers['webhook-id'] ?? '';
      received.push({ id, headers, body, path: new URL(req.url).pathname });
      return answer(received.filter((r) => r.id === id).length, req);
    },
  });
  return {
    received,
    url: (path = '/hook') => `http://127.0.0.1:${server.port}${path}`,
    stop: () => server.stop(true),
  };
}

/**
 * A dead receiver that still looks alive: it accepts TCP connections on loopback and never answers
 * (a hung server, or a firewall that swallows). `open` is how many connections it holds now, `most`
 * the most it ever held at once.
 */
export function startBlackhole() {
  const state = { open: 0, most: 0, accepted: 0 };
  const server = Bun.listen({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open() {
        state.open++;
        state.accepted++;
        state.most = Math.max(state.most, state.open);
      },
      data() {},
      close() {
        state.open--;
      },
    },
  });
  return {
    state,
    url: (path = '/hook') => `http://127.0.0.1:${server.port}${path}`,
    stop: () => server.stop(true),
  };
}

/** A loopback port with nothing listening on it (bound, then closed): connections are refused. */
export function closedPort(): number {
  const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}
