import { Database } from 'bun:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBinary } from '../../scripts/build';
import { ROOT, spawnService, type Service } from '../support/process';
import { runTempDir, tempDir } from '../support/temp-dir';

export { ROOT };

/** The commit the test build carries, to prove `--define FCS_GIT_COMMIT` reaches `--version`. */
export const TEST_COMMIT = 'testbuild0001';

let built: { outfile: string; bytes: number } | null = null;

/** Builds the executable once per test run (about 10 s; ~150 MB), into a temp dir so dist/ is left alone; the end of the run removes it. */
export function binary(): string {
  if (!built) built = buildBinary({ outfile: join(runTempDir('test-binary'), 'facility-score'), commit: TEST_COMMIT });
  return built.outfile;
}

/** What data/sample.sqlite says about itself, read with plain SQLite (not the code under test). */
export function sampleFacts(): { info: { dataset_name: string; as_of: string; facility_count: number }; row: Record<string, any> } {
  const db = new Database(join(ROOT, 'data', 'sample.sqlite'), { readonly: true });
  const info = JSON.parse((db.query("SELECT value FROM index_meta WHERE key = 'info'").get() as { value: string }).value);
  const row = db.query('SELECT registry_id, fac_street, fac_city, fac_state, fac_zip, lat, lng FROM facility ORDER BY registry_id LIMIT 1').get() as Record<string, any>;
  db.close();
  return { info, row };
}

/** The binary's whole environment: PATH, and TMPDIR so its temp files land in the run's temp dir. */
function baseEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', TMPDIR: tmpdir() };
}

/** Runs the binary to completion (from a directory holding nothing, so nothing but the binary is used). */
export function run(args: string[], env: Record<string, string> = {}, cwd = tempDir('bin-run')) {
  const p = Bun.spawnSync([binary(), ...args], { env: { ...baseEnv(), ...env }, cwd });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

export type Server = Service;

/** Starts the binary's `serve` on a free port (port 0), from an empty directory, and waits for its "listening" line. */
export function startServe(args: string[], env: Record<string, string> = {}): Promise<Server> {
  return spawnService([binary(), 'serve', '--port', '0', '--host', '127.0.0.1', ...args], {
    env: { ...baseEnv(), ...env },
    cwd: tempDir('bin-run'),
    startMs: 20_000,
  });
}

/** `keys list --json` row of one account. */
export function usageOf(stateDir: string, accountId: string): number {
  const r = run(['keys', 'list', '--json', '--state-dir', stateDir]);
  if (r.code !== 0) throw new Error(`keys list failed: ${r.stderr}`);
  const row = (JSON.parse(r.stdout) as { account_id: string; calls_this_month: number }[]).find((a) => a.account_id === accountId);
  if (!row) throw new Error(`no account ${accountId} in keys list`);
  return row.calls_this_month;
}
