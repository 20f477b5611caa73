import { openIndex } from '../index/bundled';
import { SCORE_VERSION } from '../scoring/score';
import { GIT_COMMIT, VERSION } from '../version';

/**
 * `--version`: version, commit, score method and the dataset the default index (FCS_INDEX, else the
 * bundled sample) holds. `indexOk` is false when that index cannot be opened (missing, corrupt, not
 * an index): the CLI then exits 1, so `--version` works as the check before switching an index.
 */
export async function versionText(env: Record<string, string | undefined>): Promise<{ text: string; indexOk: boolean }> {
  const lines = [`facility-score ${VERSION} (commit ${GIT_COMMIT})`, `score method ${SCORE_VERSION}`];
  try {
    const index = await openIndex(env.FCS_INDEX || null);
    const i = index.info;
    lines.push(`dataset ${i.dataset_name}, as of ${i.as_of}, ${i.facility_count} facilities${i.fictitious ? ' (FICTITIOUS SAMPLE)' : ''}, index score method ${i.score_version}, built ${i.built_at}`);
    index.close();
  } catch (e) {
    lines.push(`dataset unavailable: ${(e as Error).message}`);
    return { text: lines.join('\n'), indexOk: false };
  }
  return { text: lines.join('\n'), indexOk: true };
}
