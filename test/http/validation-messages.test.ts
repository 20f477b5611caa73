import { describe, expect, it } from 'bun:test';
import { json, makeWorld } from '../helpers';

// Every parameter of every endpoint, given a bad value: the answer names the parameter as the caller
// wrote it and says what it takes. Never "the request", never "a valid value", never a bare type
// that a given value already has ("since must be a string, got "x"").

const world = makeWorld();
const { key } = await world.keyFor('enterprise');
const JSON_TYPE = { 'content-type': 'application/json' };
const list: string = (await json(await world.call('/api/v1/watchlists', { method: 'POST', key, headers: JSON_TYPE, body: '{"name": "n", "registry_ids": ["990000000001"]}' }))).data.id;
const WL = `/api/v1/watchlists/${list}`;
const AREA = '/api/v1/area?lat=39.78&lng=-89.65&radius_miles=5';
const SEARCH = '/api/v1/search?q=test';

type Case = [field: string, method: string, path: string, body: string | undefined, what: RegExp];

const body = (method: string, path: string) => (field: string, text: string, what: RegExp): Case => [field, method, path, text, what];
const post = body('POST', '/api/v1/watchlists');
const patch = body('PATCH', WL);

const CASES: Case[] = [
  ['registry_id', 'GET', '/api/v1/facility/abc', undefined, /registry ID of 1 to 15 digits/],
  ['registry_id', 'GET', '/api/v1/facility/12.5/history', undefined, /registry ID of 1 to 15 digits/],
  ['registry_id', 'POST', '/api/v1/facility/x1/report', undefined, /registry ID of 1 to 15 digits/],
  ['id', 'GET', '/api/v1/watchlists/wl_nothex', undefined, /watchlist id \(wl_ and 16 hex digits\)/],
  ['event_id', 'POST', `${WL}/deliveries/msg_1/redeliver`, undefined, /event id \(msg_ and 32 hex digits\)/],
  ['lat', 'GET', '/api/v1/area?lng=1&radius_miles=1', undefined, /latitude/],
  ['lat', 'GET', '/api/v1/area?lat=&lng=1&radius_miles=1', undefined, /latitude/],
  ['lng', 'GET', '/api/v1/area?lat=1&lng=200&radius_miles=1', undefined, /longitude/],
  ['radius_miles', 'GET', '/api/v1/area?lat=1&lng=1&radius_miles=26', undefined, /at most 25/],
  ['limit', 'GET', `${AREA}&limit=0`, undefined, /whole number from 1 to 500/],
  ['limit', 'GET', `${AREA}&limit=`, undefined, /whole number from 1 to 500/],
  ['sort', 'GET', `${AREA}&sort=name`, undefined, /"distance" or "score"/],
  ['state', 'GET', `${AREA}&state=ZZ`, undefined, /2-letter US state/],
  ['state', 'GET', `${AREA}&state=`, undefined, /2-letter US state/],
  ['active_enforcement', 'GET', `${AREA}&active_enforcement=yes`, undefined, /true or false/],
  ['format', 'GET', `${AREA}&format=xml`, undefined, /json, csv or geojson/],
  ['q', 'GET', '/api/v1/search', undefined, /words/],
  ['state', 'GET', `${SEARCH}&state=ZZ`, undefined, /2-letter US state/],
  ['naics', 'GET', `${SEARCH}&naics=x`, undefined, /2 to 6 digits/],
  ['min_score', 'GET', `${SEARCH}&min_score=101`, undefined, /whole number from 0 to 100/],
  ['max_score', 'GET', `${SEARCH}&max_score=-1`, undefined, /whole number from 0 to 100/],
  ['limit', 'GET', `${SEARCH}&limit=0`, undefined, /whole number from 1 to 100/],
  ['format', 'GET', `${SEARCH}&format=pdf`, undefined, /json, csv or geojson/],
  ['address', 'GET', '/api/v1/demo/facility', undefined, /string of 1 to 200 characters/],
  ['address', 'GET', `/api/v1/demo/facility?address=${'x'.repeat(201)}`, undefined, /string of 1 to 200 characters/],
  ['registry_ids', 'POST', '/api/v1/portfolio', '{}', /array of registry ID strings/],
  ['registry_ids[0]', 'POST', '/api/v1/portfolio', '{"registry_ids": [1]}', /a string/],
  ['lat', 'POST', '/api/v1/site-report', '{"lat": 100, "lng": 1}', /latitude in decimal degrees from -90 to 90/],
  ['lat', 'POST', '/api/v1/site-report', '{"lat": "x", "lng": 1}', /a number/],
  ['address', 'POST', '/api/v1/site-report', '{"address": 5}', /a string/],
  ['format', 'POST', '/api/v1/site-report?format=xml', '{"lat": 1, "lng": 1}', /json, csv, geojson or pdf/],
  ['since', 'GET', `${WL}/changes?since=x`, undefined, /calendar date YYYY-MM-DD/],
  ['since', 'GET', `${WL}/changes?since=`, undefined, /calendar date YYYY-MM-DD/],
  ['since', 'GET', `${WL}/changes?since=2026-01-01&since=2026-02-01`, undefined, /give it once/],
  ['limit', 'GET', `${WL}/deliveries?limit=0`, undefined, /whole number from 1 to 500/],
  ['limit', 'GET', `${WL}/deliveries?limit=x`, undefined, /whole number from 1 to 500/],
  ['limit', 'GET', `${WL}/registry_ids?limit=1001`, undefined, /whole number from 1 to 1000/],
  ['cursor', 'GET', `${WL}/registry_ids?cursor=abc`, undefined, /next_cursor of the page before/],
  ...[post, patch].flatMap((b) => [
    b('name', '{"name": "", "registry_ids": []}', /string of 1 to 200 characters/),
    b('name', '{"name": 5, "registry_ids": []}', /string of 1 to 200 characters/),
    b('registry_ids', '{"name": "n", "registry_ids": "1"}', /a list/),
    b('registry_ids', '{"name": "n", "registry_ids": ["1", "x"]}', /EPA Registry IDs of 12 digits; 2 are not: \[0\] "1", \[1\] "x"/),
    b('rule', '{"name": "n", "registry_ids": [], "rule": 5}', /an object whose type is one of "any_change", "score_dropped"/),
    b('rule.type', '{"name": "n", "registry_ids": [], "rule": {"type": "sometimes"}}', /one of "any_change", "score_dropped", "enforcement_started", "facility_removed"/),
    b('rule.min_points', '{"name": "n", "registry_ids": [], "rule": {"type": "score_dropped"}}', /whole number from 1 to 100/),
    b('rule.min_points', '{"name": "n", "registry_ids": [], "rule": {"type": "score_dropped", "min_points": 0}}', /whole number from 1 to 100/),
    b('webhook_url', '{"name": "n", "registry_ids": [], "webhook_url": 5}', /string of at most 2000 characters or null/),
  ]),
  post('name', '{"registry_ids": []}', /string of 1 to 200 characters/),
  post('registry_ids', '{"name": "n"}', /a list/),
];

describe('validation messages name the field and what it takes', () => {
  it.each(CASES)('%s (%s %s %s)', async (field, method, path, text, what) => {
    const res = await world.call(path, { method, key, ...(text === undefined ? {} : { headers: JSON_TYPE, body: text }) });
    expect([400, 404, 422]).toContain(res.status);
    const { error } = await json(res);
    const escaped = field.replace(/[.[\]]/g, '\\$&');
    expect(error.message).toMatch(new RegExp(`(^|: |; )${escaped} (must be|is required|was given)`));
    expect(error.message).toMatch(what);
    // A type the value already has tells the caller nothing.
    expect(error.message).not.toMatch(/the request|a valid value|must be a string, got "|must be a number, got -?\d|must be an object, got an object/);
  });
});
