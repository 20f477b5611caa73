import { it } from 'bun:test';
import { renderReport } from '../src/reports/document';
import { buildReportView } from '../src/reports/view';
import { FULLEST_HISTORY, FULLEST_INFO, FULLEST_ROW } from '../test/reports/fullest-dossier';
it('probe', async () => {
  const pdf = await renderReport(buildReportView(FULLEST_ROW, FULLEST_INFO, { generatedAt: 0, documentId: '0123456789abcdef' }, FULLEST_HISTORY));
  await Bun.write('/tmp/fullest.pdf', pdf);
});
