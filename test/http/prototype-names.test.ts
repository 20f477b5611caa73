import { describe, expect, it } from 'bun:test';
import { json, makeWorld } from '../helpers';

// Client input that names an Object property: a lookup in a plain object finds the prototype
// ("constructor" is a function) where a map finds nothing. Every documented operation, each of
// its query parameters, an unknown one, the response form and a body of such names.
const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
const world = makeWorld();
const { key } = await world.keyFor('enterprise');
const json_ = { 'content-type': 'application/json' };
const listId: string = (await json(await world.call('/api/v1/watchlists', { method: 'POST', key, headers: json_, body: JSON.stringify({ name: 'n', registry_ids: ['990000000001'] }) }))).data.id;
const doc = await json(await world.call('/swagger/json'));
const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

function requestsWith(name: string, path: string, method: string, op: any): [string, RequestInit][] {
  const at = path.replace('{id}', listId).replace('{registry_id}', '990000000001').replace('{event_id}', `msg_${'0'.repeat(32)}`);
  const query = (op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name);
  const out: [string, RequestInit][] = [...query, name].map((q: string) => [`${at}?${q}=${name}`, {}]);
  out.push([`${at}?format=${name}`, { headers: { accept: name } }]);
  if (op.requestBody) {
    out.push([at, { headers: json_, body: JSON.stringify({ [name]: name, name, registry_ids: [name], address: name, rule: { [name]: name }, search_distances: { [name]: 1 } }) }]);
  }
  return out.map(([u, init]) => [u, { ...init, method: method.toUpperCase() }]);
}

describe('names of Object properties as input', () => {
  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('%s answers them without a 5xx', async (_name, { path, method, op }) => {
    for (const name of NAMES) {
      for (const [url, init] of requestsWith(name, path, method, op)) {
        const res = await world.call(url, { ...init, key });
        expect([url, init.body, res.status < 500]).toEqual([url, init.body, true]);
      }
    }
  });
});
