import { binary, run as runBinary, startServe } from '../binary/support';
import { cli, MAIN, spawnService, type Service } from '../support/process';
import { tempDir } from '../support/temp-dir';

/**
 * A form of the server the HTTP contract runs against: how to start its `serve` on a free loopback
 * port and how to run its CLI (keys are made with the target's own `keys`). One contract, several
 * forms: what users run is what the suites test.
 */
export type Target = {
  name: string;
  /** Work done once before the first start (building the binary). */
  prepare: () => void;
  cli: (args: string[], env?: Record<string, string>) => { code: number | null; stdout: string; stderr: string };
  serve: (args: string[], env?: Record<string, string>) => Promise<Service>;
};

/** `serve` of src/main.ts run by Bun from the checkout, as `npm start` does. */
export const checkout: Target = {
  name: 'the checkout (src/main.ts)',
  prepare: () => {},
  cli: (args, env = {}) => cli(args, env),
  serve: (args, env = {}) =>
    spawnService([process.execPath, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', ...args], {
      env: { ...process.env, ...env },
      cwd: tempDir('checkout-run'),
    }),
};

/** The executable `npm run build` makes (built once per test run), started from an empty directory. */
export const compiled: Target = {
  name: 'the compiled binary',
  prepare: () => void binary(),
  cli: (args, env = {}) => runBinary(args, env),
  serve: (args, env = {}) => startServe(args, env),
};

export const TARGETS: readonly Target[] = [checkout, compiled];
