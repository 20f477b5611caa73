import { afterEach } from 'bun:test';
import type { StateStore } from '../../src/state/store';

/** Inside a describe: `fresh()` opens a new, empty store with `open`; every store opened is closed after each test. */
export function freshStores(open: () => Promise<StateStore>): () => Promise<StateStore> {
  const opened: StateStore[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });
  return async () => {
    const s = await open();
    opened.push(s);
    return s;
  };
}
