#!/usr/bin/env bun
/**
 * `npm run build`: one self-contained executable, dist/facility-score (docs/operations.md).
 *   npm run build                                   this machine's platform -> dist/facility-score
 *   npm run build -- --target bun-linux-arm64       -> dist/facility-score-linux-arm64
 *   npm run build -- --target all                   linux x64 and arm64
 *   npm run build -- --outfile PATH                 (single target) write here instead
 *   npm run build -- --runtime PATH                 Bun executable of the target platform (offline cross build)
 *   npm run build -- --no-bytecode                  skip ahead-of-time bytecode (smaller, slower start)
 * Embedded: the code, the bundled sample index and its area file (data/sample.sqlite{,.area}, rebuilt first when stale), the
 * web page (dist/web, bundled first by scripts/build-web.ts when stale) and the docs page assets. FCS_GIT_COMMIT is defined at build time from git (or the env variable).
 * A cross build needs the Bun runtime of the target platform: `--runtime`, or Bun's own cache
 * (~/.bun/install/cache/bun-<os>-<arch>-v<version>), else Bun downloads it from the npm registry.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { contentHash } from '../src/index/embedded-copy';

const ROOT = join(import.meta.dir, '..');
export const TARGETS = ['bun-linux-x64', 'bun-linux-arm64'] as const;
export type Target = (typeof TARGETS)[number];

/** The target this machine runs, when it is one we ship. */
export function hostTarget(): Target | null {
  if (process.platform !== 'linux') return null;
  if (process.arch === 'x64') return 'bun-linux-x64';
  if (process.arch === 'arm64') return 'bun-linux-arm64';
  return null;
}

function run(cmd: string[], what: string): string {
  const p = Bun.spawnSync(cmd, { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`${what} failed (exit ${p.exitCode}):\n${p.stderr.toString()}${p.stdout.toString()}`);
  return p.stdout.toString();
}

/** Short commit of the checkout, `-dirty` when it has uncommitted changes; FCS_GIT_COMMIT wins. */
export function gitCommit(env: Record<string, string | undefined> = process.env): string {
  if (env.FCS_GIT_COMMIT) return env.FCS_GIT_COMMIT;
  try {
    const head = Bun.spawnSync(['git', 'rev-parse', '--short=12', 'HEAD'], { cwd: ROOT });
    if (head.exitCode !== 0) return 'unknown';
    const dirty = Bun.spawnSync(['git', 'status', '--porcelain', '--untracked-files=no'], { cwd: ROOT }).stdout.toString().trim() !== '';
    return `${head.stdout.toString().trim()}${dirty ? '-dirty' : ''}`;
  } catch {
    return 'unknown'; // no git on this machine (e.g. a container build without FCS_GIT_COMMIT)
  }
}

/** npm package holding the Bun runtime of a target (what Bun itself downloads for a cross build). */
export function runtimePackage(target: Target): string {
  return `@oven/bun-linux-${target === 'bun-linux-arm64' ? 'aarch64' : 'x64'}@${Bun.version}`;
}

function offlineHint(target: Target): string {
  const pkg = runtimePackage(target);
  return (
    `A ${target} build needs that platform's Bun runtime and this machine could not download it. Fetch it once where the npm ` +
    `registry is reachable:\n  npm pack ${pkg} && tar xzf oven-bun-linux-*.tgz\nthen build with --runtime package/bin/bun (docs/operations.md).`
  );
}

export type BuildOptions = { target?: Target; outfile?: string; runtime?: string; bytecode?: boolean; commit?: string };

/** Builds one executable; returns its path, size and the commit it carries. */
export function buildBinary(opts: BuildOptions = {}): { outfile: string; bytes: number; commit: string; target: Target } {
  const target = opts.target ?? hostTarget();
  if (!target) throw new Error(`no default target for ${process.platform}-${process.arch}; pass --target ${TARGETS.join('|')}`);
  const outfile = opts.outfile ?? join(ROOT, 'dist', target === hostTarget() ? 'facility-score' : `facility-score-${target.slice(4)}`);
  mkdirSync(join(outfile, '..'), { recursive: true });
  // The sample must exist before bundling: the binary embeds it (src/index/bundled.ts).
  run([process.execPath, 'run', 'scripts/sample.ts', 'ensure'], 'building the bundled sample index');
  // So are the web page's files (src/web/assets.ts imports dist/web/bundle.json).
  run([process.execPath, 'run', 'scripts/build-web.ts', 'ensure'], 'bundling the web page');
  const commit = opts.commit ?? gitCommit();
  // The binary serves its embedded sample from a file copy it checks against this hash (src/index/bundled.ts).
  const sampleHash = contentHash(readFileSync(join(ROOT, 'data', 'sample.sqlite')));
  const cmd = [
    // Worker modules are extra entry points: Workers load them from inside the binary
    // (src/worker-url.ts).
    process.execPath, 'build', 'src/main.ts', 'src/ingest/ingest-worker.ts', 'src/index/search-tables/build-worker.ts', 'src/ops/prepare-worker.ts', 'src/state/checkpoint-worker.ts', 'src/render/worker.ts',
    // No whitespace or identifier minifying: Elysia reads each handler's source text (Function.toString) to
    // decide what its context carries, and on one-line, renamed code it misses `server` (so no peer
    // address for the demo limit) and prints warnings. Syntax minifying keeps lines and names.
    '--compile', '--minify-syntax', `--target=${target}`, `--outfile=${outfile}`,
    `--define=FCS_GIT_COMMIT=${JSON.stringify(commit)}`,
    `--define=FCS_SAMPLE_HASH=${JSON.stringify(sampleHash)}`,
    // A binary on a server reads no .env or bunfig.toml from whatever directory it is started in.
    '--no-compile-autoload-dotenv', '--no-compile-autoload-bunfig',
  ];
  // Bytecode compiled ahead of time roughly halves start-up (docs/operations.md); ESM keeps main.ts's top-level await.
  if (opts.bytecode !== false) cmd.push('--bytecode', '--format=esm');
  if (opts.runtime) {
    if (!existsSync(opts.runtime)) throw new Error(`--runtime ${opts.runtime}: no such file`);
    cmd.push(`--compile-executable-path=${opts.runtime}`);
  }
  try {
    run(cmd, `bun build --compile (${target})`);
  } catch (e) {
    if (!String((e as Error).message).includes('Failed to download')) throw e;
    throw new Error(`${(e as Error).message.trim()}\n${offlineHint(target)}`);
  }
  return { outfile, bytes: statSync(outfile).size, commit, target };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Bun.argv.slice(2),
    options: {
      target: { type: 'string' },
      outfile: { type: 'string' },
      runtime: { type: 'string' },
      'no-bytecode': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log('npm run build -- [--target bun-linux-x64|bun-linux-arm64|all] [--outfile PATH] [--runtime PATH] [--no-bytecode]');
    process.exit(0);
  }
  const wanted = values.target === 'all' ? [...TARGETS] : values.target ? [values.target] : [hostTarget()];
  for (const t of wanted) {
    if (!t || !(TARGETS as readonly string[]).includes(t)) {
      console.error(`build: unsupported target ${t ?? `${process.platform}-${process.arch}`}; use ${TARGETS.join(', ')} or all`);
      process.exit(2);
    }
  }
  if (wanted.length > 1 && (values.outfile || values.runtime)) {
    console.error('build: --outfile and --runtime apply to one target; build the targets one at a time');
    process.exit(2);
  }
  try {
    for (const target of wanted as Target[]) {
      const started = performance.now();
      const r = buildBinary({ target, outfile: values.outfile, runtime: values.runtime, bytecode: !values['no-bytecode'] });
      console.log(`${r.outfile}  ${target}  ${(r.bytes / 1e6).toFixed(1)} MB  commit ${r.commit}  ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } catch (e) {
    console.error(`build: ${(e as Error).message}`);
    process.exit(1);
  }
}
