import { join } from 'node:path';
import type { Config } from '../../src/config';
import type { FacilityRow } from '../../src/index/model';
import { reportKey } from '../../src/reports/service';
import { makeWorld } from '../helpers';

/**
 * A world over `rows` whose report cache lives in `dir` (unless `config` says otherwise), a
 * Platform key, and helpers: export a dossier, where its cache entry lives, the cache's warnings
 * and its disk counters.
 */
export async function reportWorld(dir: string, rows: FacilityRow[], config: Partial<Config> = { reportCacheDir: dir }) {
  const world = makeWorld({ rows, config });
  const { key } = await world.keyFor('platform');
  const exportOf = async (id = rows[0]!.registry_id) => {
    const res = await world.call(`/api/v1/facility/${id}/report`, { method: 'POST', key });
    return {
      res,
      status: res.status,
      cache: res.headers.get('x-cache'),
      type: res.headers.get('content-type'),
      requestId: res.headers.get('x-request-id')!,
      pdf: new Uint8Array(await res.arrayBuffer()),
    };
  };
  const entryPath = (row = rows[0]!) => join(dir, `${reportKey(row, world.deps.index.info)}.pdf`);
  const warnings = () => world.logs.filter((l) => l.level === 'warn' && String(l.msg).startsWith('report cache'));
  const stats = () => world.deps.reportCache!.stats;
  return { world, exportOf, entryPath, warnings, stats };
}
