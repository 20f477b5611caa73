import { t, type Static } from '../shared/typebox';
import { Envelope } from '../shared/envelope';
import { ScoreChange } from '../index/history-tables/model';
import { Peers } from '../index/peers';
import { DataSufficient } from '../scoring/completeness';

/**
 * The portfolio's request body, for OpenAPI. The route's parse hook only reads the body (it hands Elysia a
 * placeholder) and `checkPortfolioBody` checks it strictly, with messages that say what is wrong,
 * after authentication; so the schema is `noValidate` and nothing is checked twice.
 */
export const PortfolioBody = t.Object({
  registry_ids: t.Array(t.String({ examples: ['990000914553'] }), {
    description:
      'EPA Registry IDs, at most the plan\'s batch limit (Starter 10, Platform 60, Enterprise 500), counted as sent. ' +
      'Duplicates are answered once. Matched exactly (no trimming).',
    examples: [['990000914553', '990001127439']],
  }),
}, { noValidate: true, additionalProperties: false });
export type PortfolioBody = Static<typeof PortfolioBody>;

/** The query a portfolio call may carry: the response form (read with `Accept` by chooseForm). */
export const PortfolioQuery = t.Object(
  { format: t.Optional(t.Union([t.Literal('json'), t.Literal('csv'), t.Literal('geojson')], { description: 'Response form; overrides Accept' })) },
  { noValidate: true },
);

/** A portfolio result (docs/area-and-portfolio.md). */
export const PortfolioItem = t.Object({
  registry_id: t.String({ examples: ['990000914553'] }),
  fac_name: t.String({ examples: ['PLOMULON REFINING CO'] }),
  overall_score: t.Integer({ minimum: 0, maximum: 100 }),
  active_enforcement: t.Boolean(),
  score_change: ScoreChange,
  /** Industry peers (portfolio is Starter+, so never redacted here); null without a NAICS code. */
  peers: t.Union([Peers, t.Null()]),
  data_sufficient: DataSufficient,
});
export type PortfolioItem = Static<typeof PortfolioItem>;

export const PortfolioResult = t.Object({
  results: t.Array(PortfolioItem, { description: 'One per distinct ID found, in the order of first appearance in the request' }),
  total: t.Integer({ minimum: 0, description: 'Count of results' }),
  not_found: t.Array(t.String(), { description: 'Distinct IDs not in the index, in request order; empty when all were found' }),
});
export type PortfolioResult = Static<typeof PortfolioResult>;

export const PortfolioResponse = Envelope(PortfolioResult);
