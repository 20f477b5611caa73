import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { makeWorld } from '../helpers';
import { ROOT } from '../support/process';

const HERE = import.meta.dir;
const GENERATED = join(HERE, '.generated');
const world = makeWorld();
const { key } = await world.keyFor('starter');
let base = '';

beforeAll(async () => {
  world.app.listen({ port: 0, hostname: '127.0.0.1' });
  base = `http://127.0.0.1:${world.app.server!.port}`;
  // The types come from the document as a client would fetch it.
  const doc = await (await fetch(`${base}/swagger/json`)).json();
  mkdirSync(GENERATED, { recursive: true });
  writeFileSync(join(GENERATED, 'openapi.ts'), astToString(await openapiTS(doc as never)));
  writeFileSync(
    join(GENERATED, 'tsconfig.json'),
    JSON.stringify({ extends: '../../../tsconfig.json', include: ['./openapi.ts', '../openapi-client.ts'], exclude: [] }),
  );
});
afterAll(() => world.app.stop(true));

// The Eden Treaty test (eden.test.ts) is type-checked with the whole project by `npm run typecheck`:
// its types come from src/api/app.ts, and checking the app's types here would cost the suite ~50 s.
describe('a client typed by openapi-typescript from our document', () => {
  it('tsc type-checks the client against the generated types with 0 errors', () => {
    const r = Bun.spawnSync([join(ROOT, 'node_modules', '.bin', 'tsc'), '--noEmit', '-p', join(GENERATED, 'tsconfig.json')], { cwd: ROOT });
    expect(`${r.stdout}${r.stderr}`).toBe('');
    expect(r.exitCode).toBe(0);
  }, 120_000);

  it('the generated types do not widen integers to strings', async () => {
    const types = await Bun.file(join(GENERATED, 'openapi.ts')).text();
    expect(types).toMatch(/overall_score: number;/);
    expect(types).not.toMatch(/overall_score: string \| number/);
  });

  it('the openapi-typescript client reads real responses', async () => {
    const { FacilityScoreClient } = await import('./openapi-client');
    const client = new FacilityScoreClient(base, key);
    const one = await client.facility('990000000002');
    expect(one.data.overall_score).toBe(41);
    const near = await client.area({ lat: 29.7604, lng: -95.3698, radius_miles: 5 });
    expect(near.data.facilities.map((f) => f.registry_id)).toEqual(['990000000003']);
    const batch = await client.portfolio({ registry_ids: ['990000000001', '990000000404'] });
    expect(batch.data.not_found).toEqual(['990000000404']);
    await expect(client.facility('990000000404')).rejects.toThrow(/^404: No facility with registry ID 990000000404/);
  });
});
