import { describe, expect, it } from 'bun:test';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { textsOf } from '../../src/area/text-bytes';
import { FindingColumns } from '../../src/site-report/finding-columns';
import type { Listed } from '../../src/site-report/service';
import { memoryIndex } from '../helpers';
import { rng } from '../area/fixtures';
import { scatter } from './fixtures';

const decode = (b: Uint8Array, from: number, to: number) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8', from, to);

describe('the findings\' columns gathered in position order', () => {
  const rand = rng(77);
  // long, partly non-ASCII names so one report's texts outgrow the first 64 KiB of the text copy
  // and some IDs kept as text
  const rows = scatter(rand, { lat: 29.7604, lng: -95.3698 }, 1_500, 2, 990_300_000_000).map((g, i) => ({
    ...g.row,
    registry_id: i % 97 === 0 ? `TX-${i}` : g.row.registry_id,
    fac_name: `${g.row.fac_name} ${'É'.repeat(i % 7)}${'X'.repeat(40 + (i % 50))}`,
  }));
  const spatial = buildSpatialIndex(memoryIndex(rows));
  const texts = textsOf(spatial);

  it('holds the fixture the test runs on: IDs kept as text among them', () => {
    expect(spatial.idOther.size).toBeGreaterThan(10);
  });

  /** `n` positions in a shuffled order (the findings' order jumps between cells), as a listing. */
  const listedOf = (n: number): Listed[] => {
    const pos = Array.from({ length: spatial.count }, (_, p) => p);
    for (let i = pos.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [pos[i], pos[j]] = [pos[j]!, pos[i]!];
    }
    return pos.slice(0, n).map((p) => ({ pos: p, distance: 0, bearing: 0, listing: { keys: [], at: [] } }));
  };

  it('holds, for each finding in its own order, what the spatial index holds at its position, through the reused text copy', () => {
    for (const n of [spatial.count, 3, spatial.count - 1]) {
      const listed = listedOf(n);
      const f = new FindingColumns(spatial, listed);
      if (n === spatial.count) expect(f.addrTo.reduce((a, b) => Math.max(a, b), 0)).toBeGreaterThan(1 << 16);
      listed.forEach(({ pos }, i) => {
        const r = f.record;
        expect([r.idNum[i], r.idLen[i], r.state[i], r.score[i], r.site[i], r.flags[i]]).toEqual([spatial.idNum[pos]!, spatial.idLen[pos]!, spatial.state[pos]!, spatial.score[pos]!, spatial.site[pos]!, spatial.flags[pos]!]);
        expect(r.idOther.get(i)).toBe(spatial.idOther.get(pos));
        expect(decode(f.text, f.nameFrom[i]!, f.addrFrom[i]!)).toBe(texts.name(pos));
        const [street, city, zip] = decode(f.text, f.addrFrom[i]!, f.addrTo[i]!).split('\x1f');
        expect({ street, city, zip }).toEqual(texts.address(pos) as never);
      });
      f.release();
    }
  });

  it('an empty listing gathers nothing', () => {
    const f = new FindingColumns(spatial, []);
    expect([f.record.idNum.length, f.nameFrom.length, f.addrTo.length]).toEqual([0, 0, 0]);
    f.release();
  });
});
