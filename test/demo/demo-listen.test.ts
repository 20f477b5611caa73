import { afterEach, describe, expect, it } from 'bun:test';
import { facility, makeWorld } from '../helpers';

// A real listener on loopback: the point is that the peer address comes from the socket
// (server.requestIP), not from anything the client writes.
const ROWS = [facility({ registry_id: '990000000501', fac_street: '100 MAIN ST', fac_city: 'SPRINGFIELD', fac_state: 'IL', fac_zip: '62701' })];
const PATH = `/api/v1/demo/facility?address=${encodeURIComponent('100 Main St, Springfield, IL 62701')}`;
let stop: (() => void) | null = null;
afterEach(() => stop?.());

function listen(trustedProxies: string[]) {
  const w = makeWorld({ rows: ROWS, config: { trustedProxies } });
  w.app.listen({ hostname: '127.0.0.1', port: 0 });
  stop = () => w.app.stop(true);
  const get = (xff?: string) => fetch(`http://127.0.0.1:${w.app.server!.port}${PATH}`, { headers: xff ? { 'x-forwarded-for': xff } : {} });
  return { w, get };
}

describe('demo limit over a real socket', () => {
  it('with no trusted proxies, a forged X-Forwarded-For on every request still meets the limit of the real peer', async () => {
    const { get } = listen([]);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await get(`203.0.113.${i}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('with the loopback proxy trusted, X-Forwarded-For names the client', async () => {
    const { get } = listen(['127.0.0.1/32', '::1/128']);
    for (let i = 0; i < 5; i++) expect((await get('203.0.113.77')).status).toBe(200);
    expect((await get('203.0.113.77')).status).toBe(429);
    expect((await get('203.0.113.78')).status).toBe(200);
  });
});
