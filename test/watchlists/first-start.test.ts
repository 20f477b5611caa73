import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { Database } from 'bun:sqlite';
import { SAMPLE } from '../../scripts/sample';
import { cli, startServer, type Service } from '../support/process';
import { removeTempDirs, tempDir } from '../support/temp-dir';

/**
 * First start: `serve` of the bundled FICTITIOUS sample with an empty state dir, over HTTP. A user who
 * makes a watchlist of facilities that changed between the sample's two releases sees those changes
 * at once: the list's facilities with their last change, its changes, and each facility's
 * score_change. The facilities are picked from data/sample.sqlite with plain SQLite.
 */
type Pick = { registry_id: string; before: number | null; after: number | null; was_enforced: number | null; is_enforced: number | null; change: string };

function picks(): Record<'dropped' | 'rose' | 'started' | 'removed' | 'same', Pick> {
  const db = new Database(SAMPLE.index, { readonly: true });
  try {
    const one = (where: string) =>
      db.query(`SELECT n.registry_id, p.overall_score AS before, n.overall_score AS after, p.active_enforcement AS was_enforced, n.active_enforcement AS is_enforced, n.change
        FROM history n JOIN history p ON p.registry_id = n.registry_id AND p.seq = 1 WHERE n.seq = 2 AND ${where} ORDER BY n.registry_id LIMIT 1`).get() as Pick;
    const same = db.query('SELECT registry_id FROM facility WHERE registry_id NOT IN (SELECT registry_id FROM history) ORDER BY registry_id LIMIT 1').get() as { registry_id: string };
    return {
      dropped: one("n.change = 'changed' AND n.overall_score < p.overall_score AND n.active_enforcement = p.active_enforcement"),
      rose: one("n.change = 'changed' AND n.overall_score > p.overall_score AND n.active_enforcement = p.active_enforcement"),
      started: one("n.change = 'changed' AND n.active_enforcement = 1 AND p.active_enforcement = 0"),
      removed: one("n.change = 'removed'"),
      same: { registry_id: same.registry_id, before: null, after: null, was_enforced: null, is_enforced: null, change: 'none' },
    };
  } finally {
    db.close();
  }
}

let server: Service;
let key: string;
const p = picks();
const ids = Object.values(p).map((x) => x.registry_id);
const call = async (path: string, init: RequestInit = {}) => {
  const r = await fetch(`${server.base}${path}`, { ...init, headers: { 'x-api-key': key, 'content-type': 'application/json', ...init.headers } });
  return { status: r.status, body: (await r.json()) as { data: any } };
};

beforeAll(async () => {
  const stateDir = tempDir('first-start');
  const made = cli(['keys', 'create', '--tier', 'starter', '--print-key', '--state-dir', stateDir]);
  if (made.code !== 0) throw new Error(made.stderr);
  key = made.stdout.trim();
  server = await startServer(['--state-dir', stateDir]);
}, 60_000);
afterAll(async () => {
  await server?.stop('SIGTERM');
  removeTempDirs();
});

describe('first start on the bundled sample, a watchlist of facilities that changed', () => {
  it('the status names both releases and still says the data is fictitious', async () => {
    const { data } = (await call('/api/v1/status')).body;
    expect(data.releases.map((r: { as_of: string }) => r.as_of)).toEqual([SAMPLE.previousAsOf, SAMPLE.asOf]);
    expect(data.dataset.fictitious).toBe(true);
    expect(data.notice).toStartWith('FICTITIOUS SAMPLE');
  });

  it("shows each facility's last change in the list at once, and none for one that did not change", async () => {
    const made = await call('/api/v1/watchlists', { method: 'POST', body: JSON.stringify({ name: 'first start', registry_ids: ids }) });
    expect(made.status).toBe(201);
    expect(made.body.data.base_as_of).toBe(SAMPLE.asOf);
    const { facilities } = (await call(`/api/v1/watchlists/${made.body.data.id}/facilities`)).body.data;
    const byId = new Map(facilities.map((f: { registry_id: string }) => [f.registry_id, f]));
    for (const k of ['dropped', 'rose', 'started'] as const) {
      expect(byId.get(p[k].registry_id)).toMatchObject({ overall_score: p[k].after, last_change: { as_of: SAMPLE.asOf, kind: 'changed', overall_score: p[k].after, previous_score: p[k].before } });
    }
    expect(byId.get(p.removed.registry_id)).toMatchObject({ fac_name: null, last_change: { as_of: SAMPLE.asOf, kind: 'removed', overall_score: null, previous_score: p.removed.before } });
    expect(byId.get(p.same.registry_id)).toMatchObject({ last_change: null });
  });

  it("lists the newest release's changes as the webhook events they would be, one per changed facility", async () => {
    const made = await call('/api/v1/watchlists', { method: 'POST', body: JSON.stringify({ name: 'first start, changes', registry_ids: ids }) });
    const { data } = (await call(`/api/v1/watchlists/${made.body.data.id}/changes`)).body;
    expect(data).toMatchObject({ since: SAMPLE.previousAsOf, as_of: SAMPLE.asOf });
    const types = Object.fromEntries(data.changes.map((c: { registry_id: string; type: string }) => [c.registry_id, c.type]));
    expect(types).toEqual({
      [p.dropped.registry_id]: 'facility.score_changed',
      [p.rose.registry_id]: 'facility.score_changed',
      [p.started.registry_id]: 'facility.enforcement_started',
      [p.removed.registry_id]: 'facility.removed',
    });
  });

  it("gives a changed facility's record its score_change from the earlier release", async () => {
    const { data } = (await call(`/api/v1/facility/${p.dropped.registry_id}`)).body;
    expect(data.score_change).toEqual({ previous_score: p.dropped.before, previous_as_of: SAMPLE.previousAsOf, reason: 'data' });
  });
});
