import { describe, expect, it } from 'bun:test';
import { DEFAULT_ROWS, json, makeWorld } from '../helpers';

describe('GET /api/v1/status (public)', () => {
  it('states dataset name, as-of date, facility count, score method version and that the sample is fictitious', async () => {
    const w = makeWorld({ rows: DEFAULT_ROWS });
    const { data } = await json(await w.call('/api/v1/status'));
    expect(data.dataset).toMatchObject({ dataset_name: 'test fixture', as_of: '2026-11-01', facility_count: DEFAULT_ROWS.length, score_version: 'test', fictitious: true });
    expect(data.notice).toContain('FICTITIOUS');
  });

  it('says nothing about a fictitious sample when the index is real data', async () => {
    const w = makeWorld({ rows: DEFAULT_ROWS });
    (w.deps.index as any).info = { ...w.deps.index.info, fictitious: false };
    const { data } = await json(await w.call('/api/v1/status'));
    expect(data.dataset.fictitious).toBe(false);
    expect(data.notice).not.toContain('FICTITIOUS');
  });
});
