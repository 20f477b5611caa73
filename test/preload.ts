// Loaded before every test file (bunfig.toml). Keeps test output quiet and deterministic.
import { afterAll } from 'bun:test';
import { beginTempRun, endTempRun } from './support/temp-dir';

process.env.TZ = 'UTC';

// Every temp file of the run, children's included, goes under one directory of this run; at the
// end the run removes it and fails if a test left anything in it (test/support/temp-dir.ts).
const runDir = beginTempRun();
afterAll(() => {
  const left = endTempRun(runDir);
  if (left.length > 0) {
    throw new Error(`the test run left temp files behind (a test must remove what it makes, or make it with tempDir()): ${left.join(', ')}`);
  }
});
