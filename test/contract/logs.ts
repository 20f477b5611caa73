import { describe, expect, it } from 'bun:test';
import { call, type World } from './world';

/** Lines of `text` that are not one JSON object each. */
function notJsonObjects(lines: string[]): string[] {
  return lines.filter((line) => {
    try {
      const v = JSON.parse(line);
      return typeof v !== 'object' || v === null || Array.isArray(v);
    } catch {
      return true;
    }
  });
}

/**
 * Logs are one JSON object per line, on stdout and stderr alike, from start to stop (docs/operations.md).
 * Registered last: it reads all the server printed in the tests before it, then stops the server.
 */
export function jsonLogsContract(world: () => World) {
  describe('the log', () => {
    it('is one JSON object per line through keyed calls, errors and a SIGTERM', async () => {
      const w = world();
      const id = w.facility.registry_id;
      const statuses = [
        (await call(w, `/api/v1/facility/${id}`, { key: 'enterprise' })).status,
        (await call(w, `/api/v1/facility/${id}/history`, { key: 'enterprise' })).status,
        (await call(w, '/api/v1/area?lat=91&lng=0&radius_miles=5', { key: 'enterprise' })).status,
        (await call(w, `/api/v1/facility/${id}`, { headers: { 'x-api-key': 'wrong' } })).status,
        (await call(w, '/api/v1/portfolio', { method: 'POST', key: 'enterprise', headers: { 'content-type': 'application/json' }, body: '{' })).status,
      ];
      expect(statuses).toEqual([200, 200, 422, 401, 400]);
      expect(await w.stop('SIGTERM')).toBe(0);
      const { stdout, stderr } = w.service.printed();
      expect(stdout.length).toBeGreaterThan(5);
      expect({ stdout: notJsonObjects(stdout), stderr: notJsonObjects(stderr) }).toEqual({ stdout: [], stderr: [] });
      expect(w.service.lines.at(-1)).toMatchObject({ msg: 'stopped', clean: true });
    });
  });
}
