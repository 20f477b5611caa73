import { t, type Static } from '../shared/typebox';
import { Envelope } from '../shared/envelope';
import { Attempt, Delivery, EventType, Rule, type WatchlistRecord, type WatchlistSummaryRecord } from '../state/watch-model';
import { ChangeReason } from '../index/history-tables/model';
import { DataSufficient } from '../scoring/completeness';

export { Attempt, Delivery, EventType, Rule, type WatchlistRecord, type WatchlistSummaryRecord };

const RegistryId = t.String({ pattern: '^[0-9]{12}$', examples: ['110000350174'] });

/** Pages of a list's IDs (`GET /watchlists/{id}/registry_ids`). */
export const DEFAULT_ID_PAGE = 1_000;
export const MAX_ID_PAGE = 1_000;

export const CreateBody = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 200 }),
    registry_ids: t.Array(RegistryId),
    rule: t.Optional(t.Union([Rule, t.Null()])),
    webhook_url: t.Optional(t.Union([t.String({ maxLength: 2000 }), t.Null()])),
  },
  { additionalProperties: false },
);
export type CreateBody = Static<typeof CreateBody>;

export const PatchBody = t.Partial(CreateBody, { additionalProperties: false });
export type PatchBody = Static<typeof PatchBody>;

const SummaryFields = {
  id: t.String({ examples: ['wl_3f9a0c1d2e4b5a67'] }),
  name: t.String(),
  registry_id_count: t.Integer({ minimum: 0, description: 'How many registry IDs the list watches' }),
  rule: t.Union([Rule, t.Null()]),
  webhook_url: t.Union([t.String(), t.Null()]),
  base_as_of: t.String({ description: 'Release served when the list was made; events come for later releases only' }),
  created_at: t.String(),
  updated_at: t.String(),
};

/** A list in the account's list of watchlists: everything but its IDs, so the answer stays small. */
export const WatchlistSummary = t.Object(SummaryFields);
export type WatchlistSummary = Static<typeof WatchlistSummary>;

export const Watchlist = t.Object({
  ...SummaryFields,
  registry_ids: t.Array(t.String(), { description: 'Every watched ID (at most the plan\'s 10,000); pages of them: GET /api/v1/watchlists/{id}/registry_ids' }),
  /** Only in the answer that made the secret (creation, first webhook URL, rotation): shown once. */
  webhook_secret: t.Optional(t.String({ examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] })),
});
export type Watchlist = Static<typeof Watchlist>;

/** One matching change, the `data` of a webhook event and an item of `/changes`. */
export const ChangeItem = t.Object({
  type: EventType,
  registry_id: t.String(),
  fac_name: t.Union([t.String(), t.Null()]),
  as_of: t.String(),
  previous_as_of: t.Union([t.String(), t.Null()]),
  overall_score: t.Union([t.Integer(), t.Null()]),
  previous_score: t.Union([t.Integer(), t.Null()]),
  active_enforcement: t.Union([t.Boolean(), t.Null()]),
  previous_enforcement: t.Union([t.Boolean(), t.Null()]),
  score_method: t.String({ description: 'The facility-score method of the release' }),
  reason: ChangeReason,
});
export type ChangeItem = Static<typeof ChangeItem>;

export const WatchlistResponse = Envelope(Watchlist);
export const WatchlistListResponse = Envelope(t.Object({ watchlists: t.Array(WatchlistSummary), total: t.Integer() }));
export const RegistryIdsResponse = Envelope(
  t.Object({
    watchlist_id: t.String(),
    registry_ids: t.Array(t.String(), { description: 'One page of the IDs, ascending (as strings)' }),
    total: t.Integer({ minimum: 0, description: 'How many IDs the whole list holds' }),
    next_cursor: t.Union([t.String(), t.Null()], { description: 'Give as `cursor` for the next page; null on the last page' }),
  }),
);
export const DeletedResponse = Envelope(t.Object({ id: t.String(), deleted: t.Literal(true) }));
export const ChangesResponse = Envelope(
  t.Object({ watchlist_id: t.String(), since: t.Union([t.String(), t.Null()]), as_of: t.String(), changes: t.Array(ChangeItem), total: t.Integer() }),
);
export const DeliveriesResponse = Envelope(t.Object({ watchlist_id: t.String(), deliveries: t.Array(Delivery), total: t.Integer() }));
export const RedeliverResponse = Envelope(t.Object({ id: t.String(), status: t.Literal('pending') }));
export const SecretResponse = Envelope(t.Object({ id: t.String(), webhook_secret: t.String() }));

/** One watched facility as the list shows it: what the index holds now, and its latest change of any release held. */
export const WatchedFacility = t.Object({
  registry_id: t.String(),
  fac_name: t.Union([t.String(), t.Null()], { description: 'null: not in the served release (not yet, or removed)' }),
  overall_score: t.Union([t.Integer({ minimum: 0, maximum: 100 }), t.Null()]),
  active_enforcement: t.Union([t.Boolean(), t.Null()]),
  data_sufficient: t.Union([DataSufficient, t.Null()], { description: `${DataSufficient.description}; null: not in the served release` }),
  last_change: t.Union(
    [
      t.Object({
        as_of: t.String({ description: 'The release of the change' }),
        kind: t.Union([t.Literal('added'), t.Literal('changed'), t.Literal('removed')]),
        overall_score: t.Union([t.Integer(), t.Null()]),
        previous_score: t.Union([t.Integer(), t.Null()]),
      }),
      t.Null(),
    ],
    { description: 'The latest release in which the facility changed (any rule); null when no release held shows a change' },
  ),
});
export type WatchedFacility = Static<typeof WatchedFacility>;

export const WatchedFacilitiesResponse = Envelope(
  t.Object({
    watchlist_id: t.String(),
    facilities: t.Array(WatchedFacility, { description: 'One page of the list, by registry ID ascending' }),
    total: t.Integer({ minimum: 0, description: 'How many IDs the whole list holds' }),
    next_cursor: t.Union([t.String(), t.Null()], { description: 'Give as `cursor` for the next page; null on the last page' }),
  }),
);
