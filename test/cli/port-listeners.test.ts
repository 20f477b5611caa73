import { afterAll, describe, expect, it } from 'bun:test';
import { canonicalAddress, listenersOn, sharesAddress } from '../../src/cli/port-listeners';
import { MAIN, ROOT, tempIndex } from '../support/process';

const servers: ReturnType<typeof Bun.serve>[] = [];
afterAll(() => {
  for (const s of servers) s.stop(true);
});
const listen = (hostname: string) => {
  const s = Bun.serve({ port: 0, hostname, fetch: () => new Response('x') });
  servers.push(s);
  return s.port!;
};

describe('listeners on a port, from the kernel\'s socket tables', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['::1', '::1'],
    ['::', '::'],
  ])('a server on %s is found at %s', (host, want) => {
    expect(listenersOn(listen(host))).toEqual([want]);
  });

  it('a port nobody listens on has none, though a connection to another port is open', async () => {
    const port = listen('127.0.0.1');
    const res = await fetch(`http://127.0.0.1:${port}/`, { keepalive: true });
    expect(await res.text()).toBe('x');
    servers.pop()!.stop(true);
    expect(listenersOn(port)).toEqual([]);
  });

  it('reads rows as the kernel writes them (little-endian words), and says null when no table can be read', () => {
    const v4 = '  sl  local_address rem_address   st\n   0: 0100007F:1F90 00000000:0000 0A 0\n   1: 0100007F:1F91 00000000:0000 0A 0\n   2: 0100007F:1F90 0100007F:D431 01 0\n';
    const v6 = '  sl  local_address rem_address   st\n   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 0\n   1: 0000000000000000FFFF00000100007F:1F90 00000000000000000000000000000000:0000 0A 0\n';
    const tables: Record<string, string> = { '/proc/net/tcp': v4, '/proc/net/tcp6': v6 };
    const read = (p: string) => {
      if (!(p in tables)) throw new Error('ENOENT');
      return tables[p]!;
    };
    // 127.0.0.1:8080 listening (the established row on 8080 is not a listener), ::1, and ::ffff:127.0.0.1 as 127.0.0.1
    expect(listenersOn(8080, read)).toEqual(['127.0.0.1', '::1', '127.0.0.1']);
    expect(listenersOn(8081, read)).toEqual(['127.0.0.1']);
    expect(listenersOn(8080, () => { throw new Error('ENOENT'); })).toBeNull();
  });
});

describe('addresses in one spelling, and which listeners a server would share', () => {
  it.each([
    ['10.0.0.1', '10.0.0.1'],
    ['::1', '::1'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['FE80::0001', 'fe80::1'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['0:0:0:0:0:ffff:7f00:1', '127.0.0.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['::', '::'],
  ])('%s is %s', (ip, want) => {
    expect(canonicalAddress(ip)).toBe(want);
  });

  it.each(['localhost', 'example.org', '', '1.2.3'])('%p is not an IP literal', (host) => {
    expect(canonicalAddress(host)).toBeNull();
  });

  it.each([
    ['127.0.0.1', '127.0.0.1', true],
    ['127.0.0.1', '0.0.0.0', true],
    ['127.0.0.1', '::', true],
    ['0.0.0.0', '10.0.0.1', true],
    ['::', '::1', true],
    ['127.0.0.1', '127.0.0.2', false],
    ['::1', '127.0.0.1', false],
  ] as const)('a server on %s and a listener on %s: shared %p', (host, listener, shared) => {
    expect(sharesAddress(host, listener)).toBe(shared);
  });
});

describe('a starting serve opens no socket before its own', () => {
  it('a client polling its port the whole time is refused until it listens, then answered: never accepted and reset', async () => {
    const { dir, indexPath } = tempIndex();
    const port = listen('127.0.0.1');
    servers.pop()!.stop(true);
    const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--host', '127.0.0.1', '--port', String(port), '--index', indexPath, '--state-dir', dir], { env: { ...process.env, FCS_LOG_REQUESTS: '0' }, cwd: ROOT, stdout: 'ignore', stderr: 'ignore' });
    const outcomes = new Map<string, number>();
    try {
      for (let i = 0; i < 100_000; i++) {
        let outcome: string;
        try {
          const res = await fetch(`http://127.0.0.1:${port}/healthz`, { keepalive: false });
          outcome = String(res.status);
          await res.arrayBuffer();
        } catch (e) {
          outcome = /ECONNREFUSED|Unable to connect/i.test((e as Error).message) ? 'refused' : (e as Error).message;
        }
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        if (outcome === '200') break;
      }
    } finally {
      proc.kill('SIGKILL');
      await proc.exited;
    }
    expect(outcomes.get('refused')).toBeGreaterThan(10);
    expect([...outcomes.keys()].sort()).toEqual(['200', 'refused']);
  }, 60_000);
});
