import { t, type Static } from '../shared/typebox';
import { Envelope } from '../shared/envelope';
import { ScoreChange } from '../index/history-tables/model';
import { Peers } from '../index/peers';
import { ActiveEnforcementBasis, ExplanationLine, MAX_POINTS, ProgramsInputs } from '../scoring/model';
import { DataCompleteness } from '../scoring/completeness';
import { LookupEvidence } from './evidence';

const ComponentScore = (max: number) =>
  t.Object({ score: t.Integer({ minimum: 0, maximum: max }), max_points: t.Literal(max) });

/** The score components, full form (docs/scoring.md). */
export const ScoreComponents = t.Object({
  baseline: t.Integer({ examples: [15] }),
  violation_frequency: ComponentScore(MAX_POINTS.violation_frequency),
  penalty_severity: ComponentScore(MAX_POINTS.penalty_severity),
  recency: ComponentScore(MAX_POINTS.recency),
  repeat_offender: ComponentScore(MAX_POINTS.repeat_offender),
  overall: t.Integer({ minimum: 0, maximum: 100 }),
});
export type ScoreComponents = Static<typeof ScoreComponents>;

/** The redacted form (Free tier on lookup; always on the demo). */
export const RedactedComponents = t.Object({
  redacted: t.Literal(true),
  message: t.String({ examples: ['Score components are available on the Starter plan or above'] }),
});
export type RedactedComponents = Static<typeof RedactedComponents>;

/** The lookup's query: `include=evidence` adds the ECHO records beside the score (left out by default: most callers want the score). */
export const LookupQuery = t.Object({
  include: t.Optional(
    t.Literal('evidence', { description: 'evidence: add `evidence`, the ECHO records beside the score (Starter+; redacted on Free)' }),
  ),
});

export const RegistryIdParam = t.Object({
  registry_id: t.String({
    pattern: '^[0-9]{1,15}$',
    description: 'EPA Registry ID: 1-15 digits (real ones are 12). Anything else is 404 NOT_FOUND and not counted.',
    examples: ['990000914553'],
  }),
});

/** Free tier: `programs`, `peers`, `explanation` and `evidence` are redacted the same way as `score_components`. */
export const RedactedDetail = t.Object({
  redacted: t.Literal(true),
  message: t.String({ examples: ['Program records, industry peers, explanations and evidence are available on the Starter plan or above'] }),
});
export type RedactedDetail = Static<typeof RedactedDetail>;

/**
 * The extras a Starter+ lookup shows beyond the score: each ECHO program's own record, the industry
 * peers and why the score lost points. A field whose source column is absent is null ("not
 * reported"), never 0.
 */
export const LookupExtras = t.Object({
  programs: t.Union([ProgramsInputs, RedactedDetail], {
    description: 'caa, cwa, rcra, sdwa: null for a program the facility is not in; inside, null = not reported by the source',
  }),
  peers: t.Union([Peers, t.Null(), RedactedDetail], { description: 'null when the facility has no NAICS code' }),
  explanation: t.Union([t.Array(ExplanationLine), RedactedDetail], {
    description: 'One line per component: points lost and the sentence the PDF report prints',
  }),
  evidence: t.Optional(
    t.Union([LookupEvidence, RedactedDetail], {
      description: 'Only with `include=evidence`: ECHO records beside the score (not part of it): quarter histories, federal cases, who acted last, TRI and GHG',
    }),
  ),
});
export type LookupExtras = Static<typeof LookupExtras>;

/** The facility record (docs/api.md). */
export const FacilityRecord = t.Object({
  registry_id: t.String({ examples: ['990000914553'] }),
  fac_name: t.String({ examples: ['PLOMULON REFINING CO'] }),
  fac_street: t.String(),
  fac_city: t.String(),
  fac_state: t.String({ minLength: 2, maxLength: 2 }),
  fac_zip: t.String(),
  location: t.Union([t.Object({ lat: t.Number(), lng: t.Number() }), t.Null()], {
    description: 'WGS84; null for a facility EPA lists without usable coordinates (never in an area search)',
  }),
  fac_naics: t.String(),
  overall_score: t.Integer({ minimum: 0, maximum: 100, description: '0-100, higher = better compliance (docs/scoring.md)' }),
  active_enforcement: t.Boolean({
    description:
      'true: a formal enforcement action or federal case dated in the 12 months before the data date, or a current significant violation being addressed by one dated on or after it began (the data cannot tell an open action from a closed one; docs/scoring.md)',
  }),
  active_enforcement_basis: t.Union([ActiveEnforcementBasis, t.Null()], { description: 'Which rule made active_enforcement true; null when false (or for an index that does not say)' }),
  score_components: t.Union([ScoreComponents, RedactedComponents]),
  score_change: ScoreChange,
  ...LookupExtras.properties,
  dfr_url: t.Union([t.String({ format: 'uri' }), t.Null()], {
    description: "ECHO's public Detailed Facility Report of the facility; null for an ID ECHO cannot have (EPA's are 12 digits starting 11; the FICTITIOUS sample's start 99)",
    examples: ['https://echo.epa.gov/detailed-facility-report?fid=110000350174'],
  }),
  data_completeness: t.Union([DataCompleteness, t.Null()], {
    description: 'What the source lacks and what the model could not place (docs/scoring.md); null only for an index without stored inputs',
  }),
});
export type FacilityRecord = Static<typeof FacilityRecord>;

export const FacilityResponse = Envelope(FacilityRecord);
