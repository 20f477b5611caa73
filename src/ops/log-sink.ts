/**
 * The serving process's log: one JSON line per entry on stdout, written in batches. With access
 * logging on, a write per request cost a visible share of lookup throughput (scripts/bench-ab.ts); lines are
 * now collected and written once per event-loop turn, or at once past 64 KiB. A `kill -9` can lose
 * the current turn's lines (never a counted call: those are committed on their own); serve flushes
 * before every exit it makes.
 */
export type LineLog = {
  log: (entry: Record<string, unknown>) => void;
  /** Writes what is pending now. */
  flush: () => void;
};

export function lineLog(write: (text: string) => void = (text) => void process.stdout.write(text)): LineLog {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  const log = (entry: Record<string, unknown>) => {
    pending += `${JSON.stringify({ time: isoNow(), ...entry })}\n`;
    if (pending.length >= 65_536) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return { log, flush };
}

let lastMs = Number.NaN;
let lastIso = '';

/** ISO-8601 time of now, formatted once per millisecond however many lines share it. */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
