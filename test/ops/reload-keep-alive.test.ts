import { afterAll, describe, expect, it } from 'bun:test';
import { Database } from 'bun:sqlite';
import { copyFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { SAMPLE } from '../../scripts/sample';
import { spatialFilePath } from '../../src/index/area/spatial-file';
import { cli, startServer, type Service } from '../support/process';
import { tempDir } from '../support/temp-dir';

/**
 * Keep-alive clients over loopback against a real `serve`, each sending POSTs one after another on
 * one HTTP/1.1 connection for as long as it is kept open. A response with `Connection: close` ends
 * that connection and the client opens a new one, as any client does; a connection closed without
 * that word, with the client's next request unanswered, is the failure (EOF) these tests look for.
 */
const services: Service[] = [];
afterAll(async () => {
  for (const s of services) await s.stop();
});

const IDS = new Database(SAMPLE.index, { readonly: true }).query<{ registry_id: string }, []>('SELECT registry_id FROM facility ORDER BY registry_id LIMIT 5').all().map((r) => r.registry_id);

type Answer = { status: number; close: boolean };

/** One HTTP/1.1 connection that sends a request and reads its answer (Content-Length framing), or fails on EOF. */
class KeptAlive {
  private buf = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | null = null;
  private constructor(private readonly sock: Socket) {
    sock.on('data', (d: Buffer) => ((this.buf = Buffer.concat([this.buf, d])), this.wake?.()));
    sock.on('close', () => ((this.ended = true), this.wake?.()));
    sock.on('error', () => ((this.ended = true), this.wake?.()));
  }

  static open(port: number): Promise<KeptAlive> {
    return new Promise((resolve, reject) => {
      const sock = connect(port, '127.0.0.1', () => resolve(new KeptAlive(sock)));
      sock.once('error', reject);
    });
  }

  async post(path: string, key: string, body: string): Promise<Answer> {
    this.sock.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end >= 0) {
        const head = this.buf.subarray(0, end).toString();
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? Number.NaN);
        if (Number.isNaN(length)) throw new Error(`an answer without Content-Length:\n${head}`);
        if (this.buf.length >= end + 4 + length) {
          this.buf = this.buf.subarray(end + 4 + length);
          return { status: Number(head.split(' ')[1]), close: /\r\nconnection: *close/i.test(head) };
        }
      }
      if (this.ended) throw new Error('EOF: the connection was closed with the request unanswered');
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  close(): void {
    this.sock.destroy();
  }
}

/** Sends POSTs back to back until `until()` holds; reconnects where the server said Connection: close (or after an EOF, which is counted). */
async function client(port: number, key: string, until: () => boolean) {
  const statuses = new Map<string, number>();
  let conn = await KeptAlive.open(port);
  let reconnects = 0;
  try {
    for (let i = 0; !until(); i++) {
      const a = await conn.post('/api/v1/portfolio', key, JSON.stringify({ registry_ids: [IDS[i % IDS.length]] })).catch(() => null);
      const seen = a ? String(a.status) : 'EOF';
      statuses.set(seen, (statuses.get(seen) ?? 0) + 1);
      if (!a || a.close) {
        conn.close();
        conn = await KeptAlive.open(port);
        reconnects++;
      }
    }
  } finally {
    conn.close();
  }
  return { statuses: Object.fromEntries(statuses), reconnects };
}

describe('SIGHUP reloads under kept-alive connections', () => {
  it("no kept-alive client's next request meets EOF: six POST clients across two reloads get only 200s", async () => {
    const dir = tempDir('reload-keep-alive');
    const index = join(dir, 'current.sqlite');
    copyFileSync(SAMPLE.index, index);
    copyFileSync(spatialFilePath(SAMPLE.index), spatialFilePath(index));
    const key = cli(['keys', 'create', '--tier', 'enterprise', '--print-key', '--state-dir', join(dir, 'state')]).stdout.trim();
    const s = await startServer(['--index', index, '--state-dir', join(dir, 'state')]);
    services.push(s);
    let done = false;
    const clients = Array.from({ length: 6 }, () => client(s.port, key, () => done));
    for (let reload = 1; reload <= 2; reload++) {
      await Bun.sleep(300);
      s.proc.kill('SIGHUP');
      await s.waitForLine((l) => l.msg === 'index reloaded' && s.lines.filter((x) => x.msg === 'index reloaded').length === reload, 30_000);
    }
    await Bun.sleep(300);
    done = true;
    const results = await Promise.all(clients);
    for (const r of results) expect(Object.keys(r.statuses)).toEqual(['200']);
    expect(results.every((r) => r.statuses['200']! > 10)).toBe(true);
  }, 90_000);
});
