/** A structured log line sink; serve writes JSON lines to stdout, tests collect them. */
export type Log = (entry: Record<string, unknown>) => void;
