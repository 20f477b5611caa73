import { Elysia, t } from 'elysia';
import { apiKeyAuth, apiKeyErrors, inputCheck, type ApiKeyRoute } from './http/api-key-auth';
import type { AppDeps } from './deps';
import { AppError } from '../errors';
import { jsonObjectBody } from './http/json-object-body';
import { bulkyJsonResponse } from './http/json-response';
import { metaFor } from './http/request-context';
import { WebhookAllowList } from '../watchlists/webhooks/allow-list';
import { ChangesResponse, WatchedFacilitiesResponse, CreateBody, DEFAULT_ID_PAGE, DeletedResponse, DeliveriesResponse, MAX_ID_PAGE, PatchBody, RedeliverResponse, RegistryIdsResponse, SecretResponse, WatchlistListResponse, WatchlistResponse } from '../watchlists/model';
import { DEFAULT_DELIVERIES, MAX_DELIVERIES, MAX_FACILITY_PAGE, parseChangesQuery, parseDeliveriesQuery, parseIdPageQuery } from '../watchlists/query';
import { checkWatchlistBody } from '../watchlists/body';
import { createWatchlist, deleteWatchlist, ownWatchlist, present, presentSummary, registryIdPage, rotateSecret, updateWatchlist, watchedFacilities, watchlistChanges } from '../watchlists/service';

const IdParam = t.Object({ id: t.String({ pattern: '^wl_[0-9a-f]{16}$' }) });
const EventParam = t.Object({ id: t.String({ pattern: '^wl_[0-9a-f]{16}$' }), event_id: t.String({ pattern: '^msg_[0-9a-f]{32}$' }) });
/** Managing lists is housekeeping: never counted (docs/api.md). Polling `/changes` returns facility data and counts. */
const MANAGE: ApiKeyRoute = { endpoint: 'watchlists', counted: false };
/**
 * Create and change take a JSON object of at most 512 KiB: room for the largest list (10,000
 * twelve-digit IDs), pretty-printed too.
 */
const BODY = jsonObjectBody(512 * 1024, 'a watchlist of 10,000 IDs needs under 300 KiB');
const writeInput = (change: boolean) => inputCheck(['INVALID_BODY', 'PAYLOAD_TOO_LARGE', 'VALIDATION_ERROR'], (ctx) => checkWatchlistBody(BODY.input.check(ctx), change));
const WRITE: ApiKeyRoute = { ...MANAGE, input: writeInput(false) };
const CHANGE: ApiKeyRoute = { ...MANAGE, input: writeInput(true) };
// Query parameters are read by the input step (messages naming each one); the schemas document them.
const queryOf = (request: Request) => new URL(request.url).searchParams;
const CHANGES: ApiKeyRoute = { endpoint: 'watchlists', input: inputCheck(['VALIDATION_ERROR'], ({ request }) => parseChangesQuery(queryOf(request))) };
const DELIVERIES: ApiKeyRoute = { ...MANAGE, input: inputCheck(['VALIDATION_ERROR'], ({ request }) => parseDeliveriesQuery(queryOf(request))) };
const ID_PAGE: ApiKeyRoute = { ...MANAGE, input: inputCheck(['VALIDATION_ERROR'], ({ request }) => parseIdPageQuery(queryOf(request))) };
/** Names, scores and changes are facility data: a page of them counts, as `/changes` does. */
const FACILITY_PAGE: ApiKeyRoute = { endpoint: 'watchlists', input: inputCheck(['VALIDATION_ERROR'], ({ request }) => parseIdPageQuery(queryOf(request), MAX_FACILITY_PAGE)) };
const doc = (summary: string, description: string) => ({ tags: ['Watchlists'], summary, description: `${description} Details: docs/api.md (Watchlists), docs/webhooks.md.`, security: [{ apiKey: [] }] });
const NOT_COUNTED = 'Starter and above; Free: 403. Not counted against the monthly quota.';

export function watchlistRoutes(deps: AppDeps) {
  const allow = new WebhookAllowList(deps.config.webhookAllow);
  const d = () => ({ watch: deps.store.watch, index: deps.index, allow, now: deps.clock() });
  const watch = deps.store.watch;
  return new Elysia({ name: 'watchlist-routes' })
    .use(apiKeyAuth(deps))
    .post('/api/v1/watchlists', async ({ body, caller, facts, set }) => {
      set.status = 201;
      // this answer and the ones below can hold up to 10,000 IDs: one write however large (json-response.ts)
      return bulkyJsonResponse({ data: await createWatchlist(d(), caller, body), meta: metaFor(facts, deps.clock) }, set);
    }, {
      parse: BODY.parse,
      apiKey: WRITE,
      body: CreateBody,
      response: { 201: WatchlistResponse, ...apiKeyErrors(WRITE, 'VALIDATION_ERROR') },
      detail: doc('Create a watchlist', `${NOT_COUNTED} Too many IDs or lists for the plan, or a webhook_url the operator's allow-list does not name: 422. The webhook secret is in this answer only.`),
    })
    .get('/api/v1/watchlists', async ({ caller, facts }) => {
      const lists = (await watch.watchlistSummaries(caller.id)).map(presentSummary);
      return { data: { watchlists: lists, total: lists.length }, meta: metaFor(facts, deps.clock) };
    }, {
      apiKey: MANAGE,
      response: { 200: WatchlistListResponse, ...apiKeyErrors(MANAGE) },
      detail: doc("List the account's watchlists", `${NOT_COUNTED} Each list without its IDs (\`registry_id_count\` says how many): the answer stays small however large the lists are.`),
    })
    .get('/api/v1/watchlists/:id', async ({ caller, params, facts, set }) =>
      bulkyJsonResponse({ data: present(await ownWatchlist(watch, caller, params.id)), meta: metaFor(facts, deps.clock) }, set), { apiKey: MANAGE, params: IdParam, response: { 200: WatchlistResponse, ...apiKeyErrors(MANAGE, 'NOT_FOUND') }, detail: doc('Read a watchlist', `${NOT_COUNTED} With every ID (at most the plan's 10,000; pages of them: \`/registry_ids\`). Another account's list is 404.`) })
    .get('/api/v1/watchlists/:id/registry_ids', async ({ caller, params, input, facts, set }) => {
      const w = await ownWatchlist(watch, caller, params.id);
      const { cursor, limit } = input as ReturnType<typeof parseIdPageQuery>;
      return bulkyJsonResponse({ data: { watchlist_id: w.id, ...registryIdPage(w, cursor, limit), total: w.registry_ids.length }, meta: metaFor(facts, deps.clock) }, set);
    }, {
      apiKey: ID_PAGE,
      params: IdParam,
      query: t.Object({
        cursor: t.Optional(t.String({ description: 'The `next_cursor` of the page before' })),
        limit: t.Optional(t.Integer({ minimum: 1, maximum: MAX_ID_PAGE, default: DEFAULT_ID_PAGE, description: 'Most IDs per page' })),
      }, { noValidate: true }),
      response: { 200: RegistryIdsResponse, ...apiKeyErrors(ID_PAGE, 'NOT_FOUND') },
      detail: doc("A page of a watchlist's registry IDs", `${NOT_COUNTED} Ascending; \`next_cursor\` continues after the last ID given, so a list changed between pages repeats and skips none of the IDs it kept.`),
    })
    .get('/api/v1/watchlists/:id/facilities', async ({ caller, params, input, facts, set }) => {
      const w = await ownWatchlist(watch, caller, params.id);
      const { cursor, limit } = input as ReturnType<typeof parseIdPageQuery>;
      return bulkyJsonResponse({ data: { watchlist_id: w.id, ...watchedFacilities(deps.index, w, cursor, limit), total: w.registry_ids.length }, meta: metaFor(facts, deps.clock) }, set);
    }, {
      apiKey: FACILITY_PAGE,
      params: IdParam,
      query: t.Object({
        cursor: t.Optional(t.String({ description: 'The `next_cursor` of the page before' })),
        limit: t.Optional(t.Integer({ minimum: 1, maximum: MAX_FACILITY_PAGE, default: MAX_FACILITY_PAGE, description: 'Most facilities per page' })),
      }, { noValidate: true }),
      response: { 200: WatchedFacilitiesResponse, ...apiKeyErrors(FACILITY_PAGE, 'NOT_FOUND') },
      detail: doc("A page of a watchlist's facilities: name, score, enforcement flag and latest change", 'Starter and above; Free: 403. Counts as one call (facility data, as `/changes`). Ascending by ID, paged as `/registry_ids`; an ID not in the served release has null name and score.'),
    })
    .patch('/api/v1/watchlists/:id', async ({ caller, params, body, facts, set }) =>
      bulkyJsonResponse({ data: await updateWatchlist(d(), caller, params.id, body), meta: metaFor(facts, deps.clock) }, set), {
      parse: BODY.parse,
      apiKey: CHANGE,
      params: IdParam,
      body: PatchBody,
      response: { 200: WatchlistResponse, ...apiKeyErrors(CHANGE, 'NOT_FOUND', 'VALIDATION_ERROR') },
      detail: doc('Change a watchlist', `${NOT_COUNTED} Fields given replace the stored ones; null removes the rule or the webhook.`),
    })
    // The routes without a body take `parse: 'none'`: the API-key pipeline reads `body` (for the
    // routes that have one), so Elysia would read whatever is sent to them, however large.
    .delete('/api/v1/watchlists/:id', async ({ caller, params, facts }) => {
      await deleteWatchlist(watch, caller, params.id);
      return { data: { id: params.id, deleted: true as const }, meta: metaFor(facts, deps.clock) };
    }, { apiKey: MANAGE, parse: 'none', params: IdParam, response: { 200: DeletedResponse, ...apiKeyErrors(MANAGE, 'NOT_FOUND') }, detail: doc('Delete a watchlist and its pending deliveries', NOT_COUNTED) })
    .post('/api/v1/watchlists/:id/secret', async ({ caller, params, facts }) => ({
      data: { id: params.id, webhook_secret: await rotateSecret(d(), caller, params.id) },
      meta: metaFor(facts, deps.clock),
    }), {
      apiKey: MANAGE,
      parse: 'none',
      params: IdParam,
      response: { 200: SecretResponse, ...apiKeyErrors(MANAGE, 'NOT_FOUND', 'VALIDATION_ERROR') },
      detail: doc('Rotate the webhook signing secret', `${NOT_COUNTED} The new secret is shown once; the old one stops signing at once.`),
    })
    .get('/api/v1/watchlists/:id/changes', async ({ caller, params, input, facts, set }) => {
      const w = await ownWatchlist(watch, caller, params.id);
      const r = watchlistChanges(deps.index, w, (input as ReturnType<typeof parseChangesQuery>).since);
      return bulkyJsonResponse({ data: { watchlist_id: w.id, ...r, total: r.changes.length }, meta: metaFor(facts, deps.clock) }, set);
    }, {
      apiKey: CHANGES,
      params: IdParam,
      query: t.Object({ since: t.Optional(t.String({ format: 'date', description: 'Releases after this as-of date (a calendar date YYYY-MM-DD); default: the newest release only' })) }, { noValidate: true }),
      response: { 200: ChangesResponse, ...apiKeyErrors(CHANGES, 'NOT_FOUND') },
      detail: doc("The list's matching changes since a release", 'Starter and above; Free: 403. Counts as one call. For callers without a webhook receiver (air-gapped).'),
    })
    .get('/api/v1/watchlists/:id/deliveries', async ({ caller, params, input, facts, set }) => {
      const w = await ownWatchlist(watch, caller, params.id);
      const deliveries = await watch.listDeliveries(w.id, (input as ReturnType<typeof parseDeliveriesQuery>).limit);
      return bulkyJsonResponse({ data: { watchlist_id: w.id, deliveries, total: deliveries.length }, meta: metaFor(facts, deps.clock) }, set);
    }, {
      apiKey: DELIVERIES,
      params: IdParam,
      query: t.Object({ limit: t.Optional(t.Integer({ minimum: 1, maximum: MAX_DELIVERIES, default: DEFAULT_DELIVERIES })) }, { noValidate: true }),
      response: { 200: DeliveriesResponse, ...apiKeyErrors(DELIVERIES, 'NOT_FOUND') },
      detail: doc('Webhook deliveries of a watchlist, newest first', `${NOT_COUNTED} Each with its attempts (time, status code, error, a short excerpt of the answer).`),
    })
    .post('/api/v1/watchlists/:id/deliveries/:event_id/redeliver', async ({ caller, params, facts, set }) => {
      const w = await ownWatchlist(watch, caller, params.id);
      if (!(await watch.redeliver(w.id, params.event_id, deps.clock()))) throw new AppError('NOT_FOUND', `No delivery ${params.event_id} on watchlist ${w.id}`);
      set.status = 202;
      return { data: { id: params.event_id, status: 'pending' as const }, meta: metaFor(facts, deps.clock) };
    }, { apiKey: MANAGE, parse: 'none', params: EventParam, response: { 202: RedeliverResponse, ...apiKeyErrors(MANAGE, 'NOT_FOUND') }, detail: doc('Deliver an event again', `${NOT_COUNTED} Same webhook-id; a fresh 24 h retry window.`) });
}
