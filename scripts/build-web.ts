#!/usr/bin/env bun
/**
 * The web page's assets (docs/web.md), bundled with Bun's bundler:
 *   bun run scripts/build-web.ts ensure    build dist/web/ when missing or stale (fast otherwise)
 *   bun run scripts/build-web.ts build     rebuild unconditionally
 * Output: dist/web/bundle.json (every file the page serves, with its URL path and content type: what
 * the server reads in a checkout and what `npm run build` embeds in the binary) plus the same files
 * loose under dist/web/ for inspection. Stale = a file under src/web/client, or a package version
 * it bundles, changed.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

const ROOT = join(import.meta.dir, '..');
const CLIENT = join(ROOT, 'src', 'web', 'client');
export const WEB_OUT = join(ROOT, 'dist', 'web');
export const WEB_BUNDLE = join(WEB_OUT, 'bundle.json');
/** Packages the bundle carries: their versions are part of the staleness hash. */
const BUNDLED_PACKAGES = ['d3-geo', 'topojson-client', 'us-atlas'];
/** Files outside the client folder that the bundle takes in (plain modules without imports). */
const SHARED_SOURCES = [join(ROOT, 'src', 'shared', 'completeness-notes.ts')];

export type WebFile = { path: string; type: string; body: string };
export type WebBundle = { source_hash: string; built_at: string; files: WebFile[] };

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

/** Hash of everything the bundle is made from. */
export function sourceHash(): string {
  const h = createHash('sha256');
  for (const f of filesUnder(CLIENT)) h.update(relative(CLIENT, f)).update('\0').update(readFileSync(f)).update('\0');
  for (const f of SHARED_SOURCES) h.update(relative(ROOT, f)).update('\0').update(readFileSync(f)).update('\0');
  for (const p of BUNDLED_PACKAGES) h.update(readFileSync(join(ROOT, 'node_modules', p, 'package.json')));
  h.update(readFileSync(join(import.meta.dir, 'build-web.ts')));
  return h.digest('hex').slice(0, 16);
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Bundles src/web/client into dist/web; returns the bundle. */
export async function buildWeb(): Promise<WebBundle> {
  const result = await Bun.build({
    entrypoints: [join(CLIENT, 'main.ts')],
    target: 'browser',
    minify: true,
    // The map (d3-geo, the us-atlas outlines: most of the bytes) is a chunk the area view imports
    // when opened, so the first view parses only the page's own code.
    splitting: true,
    format: 'esm',
    // Hashed names: the server marks them immutable, so a new build is a new URL.
    naming: { entry: '[name]-[hash].[ext]', asset: '[name]-[hash].[ext]', chunk: '[name]-[hash].[ext]' },
    sourcemap: 'none',
  });
  if (!result.success) throw new Error(`web bundle failed:\n${result.logs.map(String).join('\n')}`);
  const files: WebFile[] = [];
  let entry: string | null = null;
  for (const out of result.outputs) {
    const name = basename(out.path);
    const ext = name.slice(name.lastIndexOf('.'));
    const type = TYPES[ext];
    if (!type) throw new Error(`web bundle: unexpected output ${name}`);
    files.push({ path: `/assets/${name}`, type, body: await out.text() });
    if (out.kind === 'entry-point') entry = `/assets/${name}`;
  }
  const css = files.filter((f) => f.path.endsWith('.css'));
  if (!entry || css.length !== 1) throw new Error('web bundle: expected one entry script and one stylesheet');
  // The icon is served by us too: without one the browser asks for /favicon.ico and logs a 404.
  const icon = readFileSync(join(CLIENT, 'favicon.svg'), 'utf8');
  files.push({ path: `/assets/favicon-${createHash('sha256').update(icon).digest('hex').slice(0, 8)}.svg`, type: TYPES['.svg']!, body: icon });
  const html = readFileSync(join(CLIENT, 'index.html'), 'utf8')
    .replace('%SCRIPT%', entry)
    .replace('%STYLE%', css[0]!.path)
    .replace('%ICON%', files[files.length - 1]!.path);
  files.unshift({ path: '/', type: TYPES['.html']!, body: html });
  const bundle: WebBundle = { source_hash: sourceHash(), built_at: new Date().toISOString(), files };
  rmSync(WEB_OUT, { recursive: true, force: true });
  mkdirSync(join(WEB_OUT, 'assets'), { recursive: true });
  for (const f of files) writeFileSync(join(WEB_OUT, f.path === '/' ? 'index.html' : f.path.slice(1)), f.body);
  writeFileSync(WEB_BUNDLE, JSON.stringify(bundle));
  return bundle;
}

/** Why dist/web needs (re)building, or null when current. */
export function webStaleReason(): string | null {
  if (!existsSync(WEB_BUNDLE)) return 'missing';
  try {
    const built = JSON.parse(readFileSync(WEB_BUNDLE, 'utf8')) as WebBundle;
    return built.source_hash === sourceHash() ? null : 'sources changed';
  } catch (e) {
    return `unreadable (${(e as Error).message})`;
  }
}

/** Builds when missing or stale; cheap when current (one hash over the client sources). */
export async function ensureWeb(log: (line: string) => void = (l) => console.error(l)): Promise<void> {
  const reason = webStaleReason();
  if (reason === null) return;
  const started = performance.now();
  const bundle = await buildWeb();
  const bytes = bundle.files.reduce((n, f) => n + Buffer.byteLength(f.body), 0);
  const gzip = bundle.files.reduce((n, f) => n + Bun.gzipSync(Buffer.from(f.body)).length, 0);
  log(`web: built ${relative(ROOT, WEB_OUT)} (${reason}): ${bundle.files.length} files, ${(bytes / 1024).toFixed(0)} KiB, ${(gzip / 1024).toFixed(0)} KiB gzip, ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.main) {
  const mode = Bun.argv[2] ?? 'ensure';
  if (mode === 'build') rmSync(WEB_BUNDLE, { force: true });
  else if (mode !== 'ensure') {
    console.error('usage: bun run scripts/build-web.ts [ensure|build]');
    process.exit(2);
  }
  try {
    await ensureWeb();
  } catch (e) {
    console.error(`build-web: ${(e as Error).message}`);
    process.exit(1);
  }
}
