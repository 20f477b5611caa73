/**
 * Process state the ops endpoints report. serve.ts owns it: `draining` turns true on SIGTERM so
 * /readyz says 503 to any probe still reaching a keep-alive connection while in-flight work ends.
 */
export type Lifecycle = { draining: boolean };

export function newLifecycle(): Lifecycle {
  return { draining: false };
}
