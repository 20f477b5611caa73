/** Places in the gate a test shares with its render workers (./gated-worker.ts). */
export const OPEN = 0, STARTED = 1, CRASH = 2;
