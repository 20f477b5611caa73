import { FacilityIndex } from '../index/facility-index';
import { SCORE_VERSION } from '../scoring/score';
import { GIT_COMMIT, VERSION } from '../version';
import { resolveIndexPath } from '../index/bundled';

/** `--version`: version, commit, score method and the dataset the default index holds. */
export function versionText(env: Record<string, string | undefined>): string {
  const lines = [`facility-score ${VERSION} (commit ${GIT_COMMIT})`, `score method ${SCORE_VERSION}`];
  try {
    const index = FacilityIndex.open(resolveIndexPath(env.FCS_INDEX ?? null));
    const i = index.info;
    lines.push(`dataset ${i.dataset_name}, as of ${i.as_of}, ${i.facility_count} facilities${i.fictitious ? ' (FICTITIOUS SAMPLE)' : ''}, built ${i.built_at}`);
    index.close();
  } catch (e) {
    lines.push(`dataset unavailable: ${(e as Error).message}`);
  }
  return lines.join('\n');
}
