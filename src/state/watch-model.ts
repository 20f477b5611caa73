import { t, type Static } from '../shared/typebox';

/**
 * Watchlists and webhook deliveries as the state store keeps them. They live here, below the
 * watchlist routes and the webhook dispatcher, because both stores (SQLite, Redis) hold them.
 */

/** What a watchlist reacts to (docs/api.md, "Watchlists"); absent = any change. */
/** Changes made only by a new score method (reason 'method') are not the facility's: a rule ignores them unless it sets this. */
const IncludeMethodChanges = t.Optional(t.Boolean({ description: "true: also report changes made only by a new score method (reason 'method'); default false" }));

export const Rule = t.Union([
  t.Object({ type: t.Literal('any_change'), include_method_changes: IncludeMethodChanges }, { additionalProperties: false }),
  t.Object({ type: t.Literal('score_dropped'), min_points: t.Integer({ minimum: 1, maximum: 100 }), include_method_changes: IncludeMethodChanges }, { additionalProperties: false }),
  t.Object({ type: t.Literal('enforcement_started'), include_method_changes: IncludeMethodChanges }, { additionalProperties: false }),
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

/** A watchlist without its IDs, as the list of an account's watchlists shows it: small whatever the lists hold. */
export type WatchlistSummaryRecord = Omit<WatchlistRecord, 'registry_ids'> & { registry_id_count: number };

/** The summary of a stored list. */
export function summaryOf(w: WatchlistRecord): WatchlistSummaryRecord {
  const { registry_ids, ...rest } = w;
  return { ...rest, registry_id_count: registry_ids.length };
}

export const Attempt = t.Object({
  at: t.String(),
  status_code: t.Union([t.Integer(), t.Null()]),
  error: t.Union([t.String(), t.Null()], {
    description: 'Null on success; else one of: "HTTP <status>", "redirect not followed", "no answer within <N> ms", "connection failed", "not sent: <reason>" (no request made)',
  }),
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
