import { t, type Static } from 'elysia';
import { Envelope } from '../http/envelope';

const RegistryId = t.String({ pattern: '^[0-9]{1,15}$', examples: ['110000350174'] });

/** What a watchlist reacts to (docs/api.md, "Watchlists"); absent = any change. */
export const Rule = t.Union([
  t.Object({ type: t.Literal('any_change') }, { additionalProperties: false }),
  t.Object({ type: t.Literal('score_dropped'), min_points: t.Integer({ minimum: 1, maximum: 100 }) }, { additionalProperties: false }),
  t.Object({ type: t.Literal('enforcement_started') }, { additionalProperties: false }),
  t.Object({ type: t.Literal('facility_removed') }, { additionalProperties: false }),
]);
export type Rule = Static<typeof Rule>;

export const EventType = t.Union([t.Literal('facility.score_changed'), t.Literal('facility.enforcement_started'), t.Literal('facility.removed')]);
export type EventType = Static<typeof EventType>;

/** A watchlist as stored (the webhook secret included: it is needed to sign, so it cannot be a hash). */
export type WatchlistRecord = {
  id: string;
  account_id: string;
  name: string;
  registry_ids: string[];
  rule: Rule | null;
  webhook_url: string | null;
  webhook_secret: string | null;
  /** The release being served when the list was made: it gets events only for later releases. */
  base_as_of: string;
  created_at: string;
  updated_at: string;
};

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

export const Watchlist = t.Object({
  id: t.String({ examples: ['wl_3f9a0c1d2e4b5a67'] }),
  name: t.String(),
  registry_ids: t.Array(t.String()),
  rule: t.Union([Rule, t.Null()]),
  webhook_url: t.Union([t.String(), t.Null()]),
  base_as_of: t.String({ description: 'Release served when the list was made; events come for later releases only' }),
  created_at: t.String(),
  updated_at: t.String(),
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
  score_version: t.String(),
});
export type ChangeItem = Static<typeof ChangeItem>;

export const Attempt = t.Object({
  at: t.String(),
  status_code: t.Union([t.Integer(), t.Null()]),
  error: t.Union([t.String(), t.Null()]),
  response_excerpt: t.String({ description: 'At most the first 256 characters of the response body' }),
  duration_ms: t.Integer(),
});
export type Attempt = Static<typeof Attempt>;

export const Delivery = t.Object({
  id: t.String({ description: 'The webhook-id header: the same on every attempt and redelivery' }),
  type: EventType,
  registry_id: t.String(),
  as_of: t.String(),
  status: t.Union([t.Literal('pending'), t.Literal('delivered'), t.Literal('failed')]),
  created_at: t.String(),
  next_attempt_at: t.Union([t.String(), t.Null()]),
  attempts: t.Array(Attempt),
});
export type Delivery = Static<typeof Delivery>;

export const WatchlistResponse = Envelope(Watchlist);
export const WatchlistListResponse = Envelope(t.Object({ watchlists: t.Array(Watchlist), total: t.Integer() }));
export const DeletedResponse = Envelope(t.Object({ id: t.String(), deleted: t.Literal(true) }));
export const ChangesResponse = Envelope(
  t.Object({ watchlist_id: t.String(), since: t.Union([t.String(), t.Null()]), as_of: t.String(), changes: t.Array(ChangeItem), total: t.Integer() }),
);
export const DeliveriesResponse = Envelope(t.Object({ watchlist_id: t.String(), deliveries: t.Array(Delivery), total: t.Integer() }));
export const RedeliverResponse = Envelope(t.Object({ id: t.String(), status: t.Literal('pending') }));
export const SecretResponse = Envelope(t.Object({ id: t.String(), webhook_secret: t.String() }));
