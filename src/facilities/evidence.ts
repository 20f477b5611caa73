import { t, type Static } from '../shared/typebox';
import type { StoredEvidence } from '../index/beside-score';
import { latestActionOf } from '../index/evidence';

export { latestActionOf };

const History = t.Union([t.String({ examples: ['____VV______'] }), t.Null()]);

/**
 * Whether ECHO can have a page for this facility: EPA's FRS Registry IDs are 12 digits starting 11.
 * The bundled FICTITIOUS sample's invented IDs start 99, and a link for one would open an ECHO error.
 */
export function echoCanHave(registryId: string): boolean {
  return /^11[0-9]{10}$/.test(registryId);
}

/** ECHO's public Detailed Facility Report of a facility; null for an ID ECHO cannot have. */
export function dfrUrlOf(registryId: string): string | null {
  return echoCanHave(registryId) ? `https://echo.epa.gov/detailed-facility-report?fid=${registryId}` : null;
}

/** ECHO's public enforcement case report of a federal case; null when its facility's ID is not one ECHO can have (invented cases). */
export function caseUrlOf(caseId: string, registryId: string): string | null {
  return echoCanHave(registryId) ? `https://echo.epa.gov/enforcement-case-report?id=${encodeURIComponent(caseId)}` : null;
}

/**
 * A Starter+ lookup's `evidence`: the ECHO records behind the score, shown beside it and never read
 * by it. Null: the source has no such column ("not reported").
 */
export const LookupEvidence = t.Object({
  quarter_history: t.Object(
    { caa: History, cwa: History, rcra: History },
    { description: 'Per-program compliance by quarter, oldest first: _ none, V violation, S significant, U undetermined (CAA and RCRA 12 quarters, CWA 13)' },
  ),
  federal_cases: t.Union([t.Array(t.Object({ case_id: t.String(), url: t.Union([t.String({ format: 'uri' }), t.Null()]) })), t.Null()], {
    description: 'FEC_CASE_IDS, each with its ECHO enforcement case report (url null when the facility ID is not one ECHO can have, as in the FICTITIOUS sample)',
  }),
  latest_action_by: t.Union([t.Literal('EPA'), t.Literal('state'), t.Null()], {
    description: 'Who took the latest formal or informal action on record (EPA on a same-day tie); null when no action date is reported',
  }),
  latest_action_date: t.Union([t.String({ format: 'date' }), t.Null()]),
  tri_on_site_releases_lbs: t.Union([t.Number({ minimum: 0 }), t.Null()], { description: 'TRI on-site releases, pounds, latest reporting year' }),
  tri_releases_transfers_lbs: t.Union([t.Number({ minimum: 0 }), t.Null()], { description: 'TRI releases and transfers, pounds' }),
  ghg_co2_tonnes: t.Union([t.Number({ minimum: 0 }), t.Null()], { description: 'Greenhouse Gas Reporting Program, metric tons CO2e' }),
});
export type LookupEvidence = Static<typeof LookupEvidence>;

/**
 * The API's evidence of a facility's stored one: each field is what ingest stored or, absent (ingest
 * stores non-empty values only), the index's empty value (null where no source reported the column).
 */
export function lookupEvidenceOf({ stored: s, empty: m }: StoredEvidence, registryId: string): LookupEvidence {
  const latest = latestActionOf({
    last_formal_action_epa: s.last_formal_action_epa ?? m.last_formal_action_epa,
    last_informal_action_epa: s.last_informal_action_epa ?? m.last_informal_action_epa,
    last_formal_action_state: s.last_formal_action_state ?? m.last_formal_action_state,
    last_informal_action_state: s.last_informal_action_state ?? m.last_informal_action_state,
  });
  const cases = s.fec_case_ids ?? m.fec_case_ids;
  return {
    quarter_history: { caa: s.caa_history ?? m.caa_history, cwa: s.cwa_history ?? m.cwa_history, rcra: s.rcra_history ?? m.rcra_history },
    federal_cases: cases === null ? null : cases.map((case_id) => ({ case_id, url: caseUrlOf(case_id, registryId) })),
    latest_action_by: latest.by,
    latest_action_date: latest.date,
    tri_on_site_releases_lbs: s.tri_on_site_releases_lbs ?? m.tri_on_site_releases_lbs,
    tri_releases_transfers_lbs: s.tri_releases_transfers_lbs ?? m.tri_releases_transfers_lbs,
    ghg_co2_tonnes: s.ghg_co2_tonnes ?? m.ghg_co2_tonnes,
  };
}
