/** Shared helpers for benchmark scripts: free ports, child servers, wrk runs and their parsed figures. */
import { Database } from 'bun:sqlite';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type WrkResult = { rps: number; p50ms: number; p99ms: number; non2xx: number; errors: number };

function toMs(v: string): number {
  const m = v.match(/^([\d.]+)(us|ms|s)$/);
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
}

/** Runs wrk (Debian package) against `url`; `lua` is an optional script body. */
export function runWrk(url: string, opts: { connections: number; seconds: number; threads?: number; luaPath?: string; cpu?: number }): WrkResult {
  const args = [`-t${opts.threads ?? 1}`, `-c${opts.connections}`, `-d${opts.seconds}s`, '--latency'];
  if (opts.luaPath) args.push('-s', opts.luaPath);
  const [cmd, ...pre] = pinnedTo(opts.cpu, ['wrk']);
  const r = spawnSync(cmd!, [...pre, ...args, url], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`wrk failed: ${r.stderr || r.error}`);
  const out = r.stdout;
  const rps = Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1]);
  const p50 = out.match(/50%\s+([\d.]+\w+)/)?.[1] ?? '';
  const p99 = out.match(/99%\s+([\d.]+\w+)/)?.[1] ?? '';
  const non2xx = Number(out.match(/Non-2xx or 3xx responses:\s+(\d+)/)?.[1] ?? 0);
  const errors = [...out.matchAll(/(connect|read|write|timeout) (\d+)/g)].reduce((s, m) => s + Number(m[2]), 0);
  return { rps, p50ms: toMs(p50), p99ms: toMs(p99), non2xx, errors };
}

export function requireWrk(): void {
  if (spawnSync('wrk', ['--version']).error) {
    console.error('wrk is not installed: apt-get install -y wrk');
    process.exit(2);
  }
}

/**
 * CPUs for a load test on one machine: the server on one core and wrk on another, as the figures
 * in ../shared/MEASURED.md were taken. Unpinned, the scheduler moves both around and run-to-run
 * spread doubles. Null when `taskset` is missing or there are fewer than two CPUs.
 */
export function benchCpus(): { server: number; client: number } | null {
  if (navigator.hardwareConcurrency < 2 || spawnSync('taskset', ['--version']).error) return null;
  return { server: 0, client: 1 };
}

function pinnedTo(cpu: number | undefined, cmd: string[]): string[] {
  return cpu === undefined ? cmd : ['taskset', '-c', String(cpu), ...cmd];
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Starts a child process (optionally pinned to `cpu`) and resolves once a line on stdout matches `ready`. */
export function startChild(command: string[], ready: RegExp, env: Record<string, string> = {}, cpu?: number) {
  const cmd = pinnedTo(cpu, command);
  const child = spawn(cmd[0]!, cmd.slice(1), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise<{ stop: () => void; output: string; pid: number }>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`child did not become ready: ${output}`)), 120_000);
    child.stdout!.on('data', (d) => {
      output += d.toString();
      const m = output.match(ready);
      if (m) {
        clearTimeout(timer);
        resolve({ stop: () => child.kill('SIGKILL'), output, pid: child.pid! });
      }
    });
    child.on('exit', (code) => reject(new Error(`child exited ${code}: ${output}`)));
  });
}

export function fmt(n: number, digits = 2): string {
  return Number.isFinite(n) ? n.toFixed(digits) : 'n/a';
}

const ROOT = join(import.meta.dir, '..', '..');
const MAIN = join(ROOT, 'src', 'main.ts');

/** Up to `n` random registry IDs of an index file (the lookups a benchmark cycles through). */
export function randomIds(indexPath: string, n = 20_000): { ids: string[]; facilities: number } {
  const db = new Database(indexPath, { readonly: true });
  const facilities = (db.query('SELECT count(*) AS n FROM facility').get() as { n: number }).n;
  const ids = (db.query(`SELECT registry_id FROM facility ORDER BY random() LIMIT ${n}`).all() as { registry_id: string }[]).map((r) => r.registry_id);
  db.close();
  return { ids, facilities };
}

/**
 * A key of `tier` (default Enterprise) with a cap no run reaches, made with the CLI in the given store
 * (`--state-dir D` or `--redis-url U`); `main` is the checkout's src/main.ts (default: this one), run from its root.
 */
export function benchKey(stateArgs: string[], main = MAIN, tier = 'enterprise'): string {
  const cwd = join(main, '..', '..');
  const created = Bun.spawnSync([process.execPath, main, 'keys', 'create', '--tier', tier, '--json', ...stateArgs], { cwd });
  if (created.exitCode !== 0) throw new Error(`keys create failed: ${created.stderr}`);
  const { key, account_id } = JSON.parse(created.stdout.toString());
  Bun.spawnSync([process.execPath, main, 'keys', 'set-limit', account_id, '1000000000', ...stateArgs], { cwd });
  return key;
}

/** A wrk script that asks for the JSON site report of each of `sites` in turn with `key`; returns its path. */
export function siteReportLua(path: string, sites: readonly object[], key: string): string {
  // each body a Lua string literal: JSON.stringify's quoting and escapes are valid in Lua
  const bodies = sites.map((s) => JSON.stringify(JSON.stringify(s)));
  writeFileSync(
    path,
    `local bodies = {${bodies.join(',')}}
local i = 0
wrk.method = "POST"
wrk.headers["X-API-Key"] = "${key}"
wrk.headers["Content-Type"] = "application/json"
request = function()
  i = i % #bodies + 1
  return wrk.format(nil, "/api/v1/site-report", nil, bodies[i])
end
`,
  );
  return path;
}

/** A wrk script that searches 1 mile around each of `sites` in turn (limit 100, nearest first) with `key`; returns its path. */
export function areaLua(path: string, sites: readonly { lat: number; lng: number }[], key: string): string {
  const paths = sites.map((s) => JSON.stringify(`/api/v1/area?lat=${s.lat}&lng=${s.lng}&radius_miles=1&limit=100`));
  writeFileSync(
    path,
    `local paths = {${paths.join(',')}}
local i = 0
wrk.headers["X-API-Key"] = "${key}"
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
`,
  );
  return path;
}

/** A wrk script that looks up a random one of `ids` per request with `key` (`suffix` after the ID, e.g. `/history`); returns its path. */
export function lookupLua(path: string, ids: readonly string[], key: string, suffix = ''): string {
  writeFileSync(
    path,
    `local ids = {${ids.map((i) => `"${i}"`).join(',')}}
math.randomseed(42)
wrk.headers["X-API-Key"] = "${key}"
request = function()
  return wrk.format("GET", "/api/v1/facility/" .. ids[math.random(#ids)] .. "${suffix}")
end
`,
  );
  return path;
}
