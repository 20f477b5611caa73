import { describe, expect, it } from 'bun:test';
import { pdfText } from '../reports/pdf-tools';
import { call, type World } from './world';

/** The two PDF documents: a facility's dossier and the site report at an address (docs/reports.md, docs/site-report.md). */
export function reportsContract(world: () => World) {
  describe('documents', () => {
    it("a Platform key gets the facility's dossier as a PDF naming the facility", async () => {
      const w = world();
      const res = await call(w, `/api/v1/facility/${w.facility.registry_id}/report`, { method: 'POST', key: 'platform' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const text = pdfText(new Uint8Array(await res.arrayBuffer()));
      expect(text).toContain(w.facility.registry_id);
    });

    it("a Platform key gets the site report at the facility's address, as JSON and as a PDF", async () => {
      const w = world();
      const post = (format: string) =>
        call(w, `/api/v1/site-report?format=${format}`, { method: 'POST', key: 'platform', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address: w.facility.address }) });
      const json = await post('json');
      expect(json.status).toBe(200);
      const data = ((await json.json()) as any).data;
      expect(data.site).toMatchObject({ located_by: 'address', matched_registry_id: w.facility.registry_id });
      const pdf = await post('pdf');
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdfText(new Uint8Array(await pdf.arrayBuffer()))).toContain(w.facility.fac_name);
    });
  });
}
