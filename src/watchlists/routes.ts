import { Elysia, t } from 'elysia';
import { apiKeyAuth } from '../access/api-key-auth';
import type { AppDeps } from '../deps';
import { ErrorEnvelope } from '../http/envelope';
import { metaFor } from '../http/request-context';
import { WebhookAllowList } from '../webhooks/allow-list';
import { watchlistAuth } from './auth';
import { ChangesResponse, CreateBody, DeletedResponse, DeliveriesResponse, PatchBody, RedeliverResponse, SecretResponse, WatchlistListResponse, WatchlistResponse } from './model';
import { createWatchlist, deleteWatchlist, ownWatchlist, present, rotateSecret, updateWatchlist, watchlistChanges } from './service';
import { AppError } from '../errors';

const IdParam = t.Object({ id: t.String({ pattern: '^wl_[0-9a-f]{16}$' }) });
const EventParam = t.Object({ id: t.String({ pattern: '^wl_[0-9a-f]{16}$' }), event_id: t.String({ pattern: '^msg_[0-9a-f]{32}$' }) });
const errors = { 401: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope, 500: ErrorEnvelope, 503: ErrorEnvelope };
const withBody = { ...errors, 400: ErrorEnvelope, 422: ErrorEnvelope };
const doc = (summary: string, description: string) => ({ tags: ['Watchlists'], summary, description: `${description} Details: docs/api.md (Watchlists), docs/webhooks.md.`, security: [{ apiKey: [] }] });
const NOT_COUNTED = 'Starter and above; Free: 403. Not counted against the monthly quota.';

export function watchlistRoutes(deps: AppDeps) {
  const allow = new WebhookAllowList(deps.config.webhookAllow);
  const d = () => ({ watch: deps.store.watch, index: deps.index, allow, now: deps.clock() });
  const watch = deps.store.watch;
  return new Elysia({ name: 'watchlist-routes' })
    .use(watchlistAuth(deps))
    .use(apiKeyAuth(deps))
    .post('/api/v1/watchlists', async ({ body, caller, request, set }) => {
      set.status = 201;
      return { data: await createWatchlist(d(), caller, body), meta: metaFor(request, deps.clock) };
    }, {
      watchlistKey: true,
      body: CreateBody,
      response: { 201: WatchlistResponse, ...withBody },
      detail: doc('Create a watchlist', `${NOT_COUNTED} Too many IDs or lists for the plan, or a webhook_url the operator's allow-list does not name: 422. The webhook secret is in this answer only.`),
    })
    .get('/api/v1/watchlists', async ({ caller, request }) => {
      const lists = (await watch.listWatchlists(caller.id)).map((w) => present(w));
      return { data: { watchlists: lists, total: lists.length }, meta: metaFor(request, deps.clock) };
    }, { watchlistKey: true, response: { 200: WatchlistListResponse, ...errors }, detail: doc("List the account's watchlists", NOT_COUNTED) })
    .get('/api/v1/watchlists/:id', async ({ caller, params, request }) => ({
      data: present(await ownWatchlist(watch, caller, params.id)),
      meta: metaFor(request, deps.clock),
    }), { watchlistKey: true, params: IdParam, response: { 200: WatchlistResponse, ...errors }, detail: doc('Read a watchlist', `${NOT_COUNTED} Another account's list is 404.`) })
    .patch('/api/v1/watchlists/:id', async ({ caller, params, body, request }) => ({
      data: await updateWatchlist(d(), caller, params.id, body),
      meta: metaFor(request, deps.clock),
    }), { watchlistKey: true, params: IdParam, body: PatchBody, response: { 200: WatchlistResponse, ...withBody }, detail: doc('Change a watchlist', `${NOT_COUNTED} Fields given replace the stored ones; null removes the rule or the webhook.`) })
    .delete('/api/v1/watchlists/:id', async ({ caller, params, request }) => {
      await deleteWatchlist(watch, caller, params.id);
      return { data: { id: params.id, deleted: true as const }, meta: metaFor(request, deps.clock) };
    }, { watchlistKey: true, params: IdParam, response: { 200: DeletedResponse, ...errors }, detail: doc('Delete a watchlist and its pending deliveries', NOT_COUNTED) })
    .post('/api/v1/watchlists/:id/secret', async ({ caller, params, request }) => ({
      data: { id: params.id, webhook_secret: await rotateSecret(d(), caller, params.id) },
      meta: metaFor(request, deps.clock),
    }), { watchlistKey: true, params: IdParam, response: { 200: SecretResponse, ...errors, 422: ErrorEnvelope }, detail: doc('Rotate the webhook signing secret', `${NOT_COUNTED} The new secret is shown once; the old one stops signing at once.`) })
    .get('/api/v1/watchlists/:id/changes', async ({ caller, params, query, request }) => {
      const w = await ownWatchlist(watch, caller, params.id);
      const r = watchlistChanges(deps.index, w, query.since);
      return { data: { watchlist_id: w.id, ...r, total: r.changes.length }, meta: metaFor(request, deps.clock) };
    }, {
      apiKey: 'watchlists',
      params: IdParam,
      query: t.Object({ since: t.Optional(t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Releases after this as-of date (YYYY-MM-DD); default: the newest release only' })) }),
      response: { 200: ChangesResponse, ...errors, 402: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope },
      detail: { ...doc("The list's matching changes since a release", 'Starter and above; Free: 403. Counts as one call. For callers without a webhook receiver (air-gapped).') },
    })
    .get('/api/v1/watchlists/:id/deliveries', async ({ caller, params, query, request }) => {
      const w = await ownWatchlist(watch, caller, params.id);
      const deliveries = await watch.listDeliveries(w.id, query.limit ?? 100);
      return { data: { watchlist_id: w.id, deliveries, total: deliveries.length }, meta: metaFor(request, deps.clock) };
    }, {
      watchlistKey: true,
      params: IdParam,
      query: t.Object({ limit: t.Optional(t.Integer({ minimum: 1, maximum: 500 })) }),
      response: { 200: DeliveriesResponse, ...errors, 422: ErrorEnvelope },
      detail: doc('Webhook deliveries of a watchlist, newest first', `${NOT_COUNTED} Each with its attempts (time, status code, error, a short excerpt of the answer).`),
    })
    .post('/api/v1/watchlists/:id/deliveries/:event_id/redeliver', async ({ caller, params, request, set }) => {
      const w = await ownWatchlist(watch, caller, params.id);
      if (!(await watch.redeliver(w.id, params.event_id, deps.clock()))) throw new AppError('NOT_FOUND', `No delivery ${params.event_id} on watchlist ${w.id}`);
      set.status = 202;
      return { data: { id: params.event_id, status: 'pending' as const }, meta: metaFor(request, deps.clock) };
    }, { watchlistKey: true, params: EventParam, response: { 202: RedeliverResponse, ...errors }, detail: doc('Deliver an event again', `${NOT_COUNTED} Same webhook-id; a fresh 24 h retry window.`) });
}
