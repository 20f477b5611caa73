import { beforeAll, describe, expect, it } from 'bun:test';
import { csvBatches } from '../../src/ingest/csv-records';
import { openSource } from '../../src/ingest/source';
import { SAMPLE } from '../../scripts/sample';
import { evolveLines, type EvolveManifest } from '../../scripts/synth/evolve';

/**
 * The generator's --evolve across a quarter boundary: ECHO's quarterly histories end at the as-of
 * date's quarter, so a release in a later quarter shows each history moved on. With no facility
 * touched (change share 0), each row of the later file is checked against the same facility's row now.
 */
type Row = Record<string, string>;
const vs = (h: string) => [...h].filter((q) => q === 'V' || q === 'S').length;
const HISTORIES = [
  ['FAC_3YR_COMPLIANCE_HISTORY', 'FAC_QTRS_WITH_NC'],
  ['CAA_3YR_COMPL_QTRS_HISTORY', 'CAA_QTRS_WITH_NC'],
  ['RCRA_3YR_COMPL_QTRS_HISTORY', 'RCRA_QTRS_WITH_NC'],
  ['CWA_13QTRS_COMPL_HISTORY', 'CWA_QTRS_WITH_NC'],
] as const;

async function rowsOf(chunks: AsyncIterable<Uint8Array>): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  let header: string[] = [];
  for await (const batch of csvBatches(chunks)) for (const r of batch) {
    if (r.line === 1) header = r.fields;
    else if (r.fields.some((v) => v !== '')) out.set(r.fields[0]!, Object.fromEntries(header.map((h, i) => [h, r.fields[i]!])));
  }
  return out;
}

async function evolved(asOf: string): Promise<Map<string, Row>> {
  const lines: string[] = [];
  for await (const l of evolveLines(csvBatches(openSource(SAMPLE.csv).chunks), { seed: 'quarters', asOf, changeShare: 0 }, {} as EvolveManifest)) lines.push(l);
  return rowsOf((async function* () { yield new TextEncoder().encode(lines.join('\r\n') + '\r\n'); })());
}

let now: Map<string, Row>;
beforeAll(async () => {
  now = await rowsOf(openSource(SAMPLE.csv).chunks);
}, 60_000);

describe('evolving a release into the next quarter (generate-sample --evolve)', () => {
  it('moves every quarterly history on by one quarter, the new quarter keeping the latest letter, with quarters in violation recounted', async () => {
    const later = await evolved('2027-01-05');
    let withHistory = 0, violating = 0;
    for (const [id, b] of later) {
      const a = now.get(id)!;
      expect(b.FAC_COMPLIANCE_STATUS).toBe(a.FAC_COMPLIANCE_STATUS);
      for (const [h, n] of HISTORIES) {
        if (!a[h]) continue;
        expect(b[h]).toBe(a[h]!.slice(1) + a[h]!.at(-1));
        if (a[n]) expect(Number(b[n])).toBe(vs(b[h]!));
      }
      if (a.FAC_3YR_COMPLIANCE_HISTORY) withHistory++;
      if (/[VS]$/.test(a.FAC_3YR_COMPLIANCE_HISTORY ?? '')) violating++;
    }
    expect(withHistory).toBeGreaterThan(1000);
    expect(violating).toBeGreaterThan(0);
  }, 60_000);

  it('leaves the histories as they are within the same quarter', async () => {
    const later = await evolved('2026-11-07');
    for (const [id, b] of later) {
      const a = now.get(id)!;
      for (const [h, n] of HISTORIES) expect([b[h], b[n]]).toEqual([a[h], a[n]]);
    }
  }, 60_000);
});
