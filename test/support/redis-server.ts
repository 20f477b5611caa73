import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Subprocess } from 'bun';
import { tempDir } from './temp-dir';

/** A free TCP port on loopback (bound then released; good enough for tests). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

// Servers still running when the test process exits are killed, so none outlives a crashed run.
const live = new Set<Subprocess>();
process.on('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

/**
 * A real `redis-server` (Debian package) on a free loopback port, in its own temp dir, without
 * persistence unless `durable`. `restart()` keeps the port (a replica sees the same URL come back, empty);
 * `pause(ms)` is `CLIENT PAUSE`; `freeze()`/`thaw()` SIGSTOP/SIGCONT the server (a hung peer).
 */
export class RedisServer {
  private proc: Subprocess | null = null;
  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly durable: boolean,
  ) {}

  /** `durable`: append-only file fsynced before every reply, so a restart (even after SIGKILL) keeps all answered writes. */
  static async start(opts: { durable?: boolean } = {}): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), tempDir('redis'), opts.durable ?? false);
    await server.launch();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.proc !== null;
  }

  /** Runs one redis-cli command against this server and returns its output. */
  cli(...args: string[]): string {
    const p = Bun.spawnSync(['redis-cli', '-h', '127.0.0.1', '-p', String(this.port), ...args]);
    if (p.exitCode !== 0) throw new Error(`redis-cli ${args.join(' ')}: ${p.stderr.toString()}`);
    return p.stdout.toString().trim();
  }

  /** CLIENT PAUSE: every client (ours included) waits up to `ms` for its next reply. */
  pause(ms: number, mode: 'ALL' | 'WRITE' = 'ALL'): void {
    this.cli('CLIENT', 'PAUSE', String(ms), mode);
  }

  freeze(): void {
    this.proc?.kill('SIGSTOP');
  }

  thaw(): void {
    this.proc?.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    const p = this.proc;
    if (!p) return;
    this.proc = null;
    p.kill('SIGCONT');
    p.kill('SIGKILL');
    await p.exited;
    live.delete(p);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.launch();
  }

  /** Stops the server and removes its directory. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async launch(): Promise<void> {
    const proc = Bun.spawn(
      ['redis-server', '--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--daemonize', 'no', '--loglevel', 'warning',
        ...(this.durable ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'])],
      { stdout: 'ignore', stderr: 'pipe' },
    );
    this.proc = proc;
    live.add(proc);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) break;
      const ping = Bun.spawnSync(['redis-cli', '-h', '127.0.0.1', '-p', String(this.port), 'PING']);
      if (ping.stdout.toString().trim() === 'PONG') return;
      await Bun.sleep(25);
    }
    proc.kill('SIGKILL');
    this.proc = null;
    throw new Error(`redis-server did not start on port ${this.port}: ${await new Response(proc.stderr as ReadableStream).text()}`);
  }
}
