import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLE } from '../../scripts/sample';
import { ROOT, startServer, type Service } from '../support/process';

/**
 * Every shell block marked ```sh runnable in the README and the docs runs, as written, against a
 * real server on loopback: the docs cannot rot silently. The only rewrite is the address
 * (localhost:8080 -> this test's port, also given as PORT); the blocks share the server's state dir through the env,
 * as a user's second shell shares ./var with `npm start`.
 */
const DOCS = ['README.md', 'data/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

export function runnableBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh runnable\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

const blocks = DOCS.flatMap((file) => runnableBlocks(readFileSync(join(ROOT, file), 'utf8')).map((code, i) => [`${file} block ${i + 1}`, code] as const));

let server: Service;
const stateDir = mkdtempSync(join(tmpdir(), 'fcs-docs-'));

beforeAll(async () => {
  // The README's examples use the bundled sample's IDs: serve exactly that index, as `npm start` does.
  const ensure = Bun.spawnSync([process.execPath, 'run', 'scripts/sample.ts', 'ensure'], { cwd: ROOT });
  if (ensure.exitCode !== 0) throw new Error(`sample build failed: ${ensure.stderr}`);
  server = await startServer([], { FCS_STATE_DIR: stateDir });
}, 120_000);
afterAll(async () => {
  await server?.stop('SIGTERM');
  rmSync(stateDir, { recursive: true, force: true });
});

describe('runnable shell blocks in the docs', () => {
  it('the README has its Try-it block marked runnable, on the port PORT names (8080 unless set)', () => {
    const tryIt = blocks.find(([name, code]) => name.startsWith('README.md') && code.includes('--print-key'));
    expect(tryIt?.[1]).toStartWith('PORT=${PORT:-8080}');
    expect(tryIt?.[1]).not.toContain(':8080');
  });

  it.each(blocks)('%s runs with exit 0', async (_name, code) => {
    const { out, err, exit } = await runBlock(code);
    if (exit !== 0) throw new Error(`exit ${exit}\n--- stdout\n${out}\n--- stderr\n${err}`);
    expect(exit).toBe(0);
  }, 60_000);

  it("the README's Try-it prints each answer as a JSON line of its own, the last one ended too", async () => {
    const [, code] = blocks.find(([name, c]) => name.startsWith('README.md') && c.includes('--print-key'))!;
    const { out } = await runBlock(code);
    expect(out.endsWith('\n')).toBe(true);
    const lines = out.slice(0, -1).split('\n');
    // one line per answer printed (`-w '\n'`); the watchlist's creation is read into WL, not printed
    expect(lines).toHaveLength(code.match(/-w '\\n'/g)!.length);
    for (const line of lines) expect(Object.keys(JSON.parse(line))).toContain('data');
  }, 60_000);

  it("the README's Try-it watchlist shows, at once, a change in the sample's newest release for each facility it watches: a score drop and an enforcement action started", async () => {
    const [, code] = blocks.find(([name, c]) => name.startsWith('README.md') && c.includes('--print-key'))!;
    const watched = JSON.parse(/"registry_ids":(\[[^\]]*\])\}' localhost:\$PORT\/api\/v1\/watchlists/.exec(code)![1]!) as string[];
    const { out } = await runBlock(code);
    const answer = (JSON.parse(out.trim().split('\n').at(-1)!) as { data: { as_of: string; changes: { registry_id: string; type: string; overall_score: number; previous_score: number }[] } }).data;
    expect(answer.as_of).toBe(SAMPLE.asOf);
    expect(answer.changes.map((c) => c.registry_id).sort()).toEqual([...watched].sort());
    expect(answer.changes.map((c) => c.type).sort()).toEqual(['facility.enforcement_started', 'facility.score_changed']);
    const changed = answer.changes.find((c) => c.type === 'facility.score_changed')!;
    expect(changed.overall_score).toBeLessThan(changed.previous_score);
  }, 60_000);
});

/** Runs a block in bash as a reader's second shell would: PORT says where `npm start` listens. */
async function runBlock(code: string) {
  const script = code.replaceAll('localhost:8080', `127.0.0.1:${server.port}`);
  const proc = Bun.spawn(['bash', '-euo', 'pipefail', '-c', script], {
    cwd: ROOT,
    env: { ...process.env, FCS_STATE_DIR: stateDir, PORT: String(server.port) },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 50_000);
  const [out, err, exit] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { out, err, exit };
}
