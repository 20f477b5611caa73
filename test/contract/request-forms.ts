import { describe, expect, it } from 'bun:test';
import { connect } from 'node:net';
import { MAX_REQUEST_BODY_BYTES } from '../../src/api/http/request-guard';
import type { World } from './world';

type Raw = { status: number; headers: Map<string, string>; body: string };

/** Writes `head` (and then `body`, if any) to a fresh connection and reads one response back. */
function rawRequest(port: number, head: string, body?: (write: (b: string | Uint8Array) => boolean) => void): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new Error(`no complete response within 10 s; got ${JSON.stringify(buf.toString('latin1').slice(0, 300))}`)), 10_000);
    const finish = (e?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (e) return reject(e);
      const text = buf.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: buf.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1')).toString('utf8') });
    };
    const complete = () => {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(buf.subarray(0, end).toString('latin1'));
      return length !== null && buf.length >= end + 4 + Number(length[1]);
    };
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (complete()) finish();
    });
    socket.on('close', () => finish());
    // The server may answer and close before the whole body is written: that is not a failure.
    socket.on('error', () => undefined);
    socket.write(head);
    body?.((b) => socket.write(b));
  });
}

/** The answer is the error envelope in JSON, its request id in X-Request-Id, and one access-log line says so. */
async function expectEnvelope(w: World, res: Raw, status: number, code: string) {
  expect([res.status, res.headers.get('content-type')]).toEqual([status, 'application/json; charset=utf-8']);
  const body = JSON.parse(res.body);
  expect(body).toEqual({
    error: { code, status, message: expect.any(String) },
    meta: { request_id: expect.stringMatching(/^req_[0-9A-Z]{20}$/), timestamp: expect.any(String), response_time_ms: expect.any(Number) },
  });
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(res.headers.get('x-request-id')).toBe(body.meta.request_id);
  const line = await w.service.waitForLine((l) => l.msg === 'request' && l.request_id === body.meta.request_id, 5_000);
  expect(line).toMatchObject({ status, error_code: code });
  return body;
}

/**
 * Request forms fetch cannot send (CONNECT host:port, a broken Host, a declared length Bun would
 * refuse), written byte for byte over loopback (docs/api.md, "Requests refused before any route").
 * That they leave only JSON lines in the log is the log contract's, registered after this.
 */
export function requestFormsContract(world: () => World) {
  const raw = (head: string, body?: (write: (b: string | Uint8Array) => boolean) => void) => rawRequest(world().service.port, head, body);

  describe('requests no route can take get the envelope, never an HTML page or an empty body', () => {
    it('CONNECT to host:port (authority form) is 405: this server is not a proxy', async () => {
      const res = await raw('CONNECT 1.2.3.4:443 HTTP/1.1\r\nHost: 1.2.3.4:443\r\n\r\n');
      const body = await expectEnvelope(world(), res, 405, 'METHOD_NOT_ALLOWED');
      expect(body.error.message).toBe('CONNECT is not allowed: this server is not a proxy');
      // RFC 9110 10.2.1: an empty Allow says the target allows no method.
      expect(res.headers.get('allow')).toBe('');
    });

    it('CONNECT to a host name and port is 405 too (the URL parser reads "example.com:" as a scheme)', async () => {
      await expectEnvelope(world(), await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), 405, 'METHOD_NOT_ALLOWED');
    });

    it('TRACE on a path is 405 naming the methods the path takes', async () => {
      const res = await raw('TRACE /api/v1/status HTTP/1.1\r\nHost: x\r\n\r\n');
      await expectEnvelope(world(), res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.get('allow')).toBe('GET');
    });

    for (const [what, host] of [['a space', 'a b'], ['an unclosed IPv6 bracket', '[::1'], ['a port out of range', 'localhost:99999']]) {
      it(`a Host header with ${what} is 400 INVALID_REQUEST`, async () => {
        const body = await expectEnvelope(world(), await raw(`GET /api/v1/status HTTP/1.1\r\nHost: ${host}\r\n\r\n`), 400, 'INVALID_REQUEST');
        expect(body.error.message).toContain('Host');
      });
    }
  });

  describe('a short Host header (a container service name) reaches the routes', () => {
    it.each(['x', 'api', 'db:8080'])('Host: %s gets the facility lookup and the portfolio, not a 404 for a path read wrong', async (host) => {
      const key = world().keys.enterprise;
      const lookup = await raw(`GET /api/v1/facility/${world().facility.registry_id} HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${key}\r\nConnection: close\r\n\r\n`);
      expect([lookup.status, JSON.parse(lookup.body).data.registry_id]).toEqual([200, world().facility.registry_id]);
      const ids = JSON.stringify({ registry_ids: [world().facility.registry_id] });
      const portfolio = await raw(`POST /api/v1/portfolio HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${ids.length}\r\nConnection: close\r\n\r\n${ids}`);
      expect([portfolio.status, JSON.parse(portfolio.body).data.total]).toEqual([200, 1]);
    });
  });

  describe('a body over the server limit is 413 PAYLOAD_TOO_LARGE in the envelope', () => {
    const over = MAX_REQUEST_BODY_BYTES + 1;

    for (const [what, method, path] of [['a body route', 'POST', '/api/v1/portfolio'], ['a route that reads no body', 'POST', '/api/v1/account/key'], ['an unknown path', 'PUT', '/nowhere']]) {
      it(`a declared length over 1 MiB on ${what} is refused before the body is sent, and the connection is closed`, async () => {
        const res = await raw(`${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${over}\r\n\r\n`);
        const body = await expectEnvelope(world(), res, 413, 'PAYLOAD_TOO_LARGE');
        expect(body.error.message).toBe(`The request body is over ${MAX_REQUEST_BODY_BYTES} bytes (1 MiB); no request body of this API needs more than 512 KiB`);
        expect(res.headers.get('connection')).toBe('close');
      });
    }

    it('a declared length of 10 GB is the same 413, not a bare one from the HTTP layer', async () => {
      await expectEnvelope(world(), await raw('POST /api/v1/portfolio HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\n'), 413, 'PAYLOAD_TOO_LARGE');
    });

    it('a chunked body (no Content-Length) over 1 MiB is 413 from the route that reads it', async () => {
      const chunk = 'x'.repeat(64 * 1024);
      const res = await raw(`POST /api/v1/portfolio HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-API-Key: ${world().keys.enterprise}\r\nTransfer-Encoding: chunked\r\n\r\n`, (write) => {
        for (let sent = 0; sent <= over; sent += chunk.length) write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
        write('0\r\n\r\n');
      });
      await expectEnvelope(world(), res, 413, 'PAYLOAD_TOO_LARGE');
    });
  });

  describe('what Bun answers itself (docs/api.md, "Requests refused before any route")', () => {
    it('an asterisk-form target (OPTIONS *) is refused by the HTTP parser with a bare 400 before the app sees it', async () => {
      const res = await raw('OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n');
      expect([res.status, res.headers.get('connection'), res.body]).toEqual([400, 'close', '']);
    });
  });
}
