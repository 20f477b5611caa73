import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_STATUS } from '../../src/errors';
import { openIndex } from '../../src/index/bundled';
import { json, makeWorld, type TestWorld } from '../helpers';
import { ROOT } from '../support/process';
import { deref } from '../support/openapi';

// The served document, over the bundled sample: its examples must name facilities that exist there.
let world: TestWorld;
let doc: any;
const dir = mkdtempSync(join(tmpdir(), 'fcs-openapi-'));

beforeAll(async () => {
  const ensure = Bun.spawnSync([process.execPath, 'run', 'scripts/sample.ts', 'ensure'], { cwd: ROOT });
  if (ensure.exitCode !== 0) throw new Error(`sample build failed: ${ensure.stderr}`);
  world = makeWorld({ deps: { index: await openIndex(null) } });
  doc = await json(await world.call('/swagger/json'));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

describe('the OpenAPI document validates', () => {
  it('Redocly CLI (recommended rules, redocly.yaml) finds 0 errors and 0 warnings', () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const r = Bun.spawnSync([join(ROOT, 'node_modules', '.bin', 'redocly'), 'lint', file, '--format', 'json', '--config', join(ROOT, 'redocly.yaml')], { cwd: ROOT });
    const report = JSON.parse(r.stdout.toString());
    const problems = report.problems.map((p: any) => `${p.severity} ${p.ruleId} ${p.location?.[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('@apidevtools/swagger-parser validates it', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
  });
});

describe('conventions every route follows (routes added later included)', () => {
  it('declares 3.1 (its schemas use 3.1 keywords), servers, and both security schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(JSON.stringify(doc)).toContain('"examples"');
    expect(doc.servers.length).toBeGreaterThan(0);
    expect(doc.components.securitySchemes).toEqual({
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      accountJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    });
  });

  it('reusable schemas live under components, and success bodies refer to them', () => {
    expect(Object.keys(doc.components.schemas)).toContain('Meta');
    for (const { op } of operations()) {
      for (const [status, r] of Object.entries(op.responses as Record<string, any>)) {
        const media = deref(doc, r).content?.['application/json'];
        if (media && status.startsWith('2')) expect(media.schema.$ref).toStartWith('#/components/schemas/');
      }
    }
  });

  it('each error status has its own response: the codes of that status the route declares (closed enum), one example per code', () => {
    const byStatus = new Map<number, string[]>();
    for (const [code, status] of Object.entries(ERROR_STATUS)) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    for (const { op } of operations()) {
      for (const [status, r] of Object.entries(op.responses as Record<string, any>)) {
        if (status === 'default' || Number(status) < 400) continue;
        const media = deref(doc, r).content['application/json'];
        const schema = deref(doc, media.schema);
        const codes: string[] = schema.properties.error.properties.code.enum;
        expect(codes.length).toBeGreaterThan(0);
        for (const c of codes) expect(byStatus.get(Number(status))).toContain(c);
        expect(schema.properties.error.properties.status.const).toBe(Number(status));
        const examples = Object.values(media.examples as Record<string, any>).map((e) => e.value.error);
        expect(examples.map((e) => e.code).sort()).toEqual([...codes].sort());
        for (const e of examples) expect(e.status).toBe(Number(status));
      }
    }
  });

  it('request bodies are JSON only; every response has a description and X-Request-Id', () => {
    for (const { op } of operations()) {
      if (op.requestBody) expect(Object.keys(op.requestBody.content)).toEqual(['application/json']);
      for (const r of Object.values(op.responses as Record<string, any>)) {
        const resolved = deref(doc, r);
        expect(resolved.description?.length).toBeGreaterThan(0);
        expect(Object.keys(resolved.headers ?? {})).toContain('X-Request-Id');
        // one body per response; the export forms (CSV, GeoJSON) of area, portfolio, search and the site report, and the site report's PDF, come beside their JSON
        const forms = Object.keys(resolved.content ?? {});
        expect(forms.filter((m) => m !== 'text/csv' && m !== 'application/geo+json' && m !== 'application/pdf').length).toBeLessThanOrEqual(1);
        if (forms.length > 1) expect(forms).toContain('application/json');
      }
    }
  });

  it('API-key operations document a 401 with WWW-Authenticate; metered ones (402/429) the quota headers on success and Retry-After on 429', () => {
    const keyed = operations().filter((o) => JSON.stringify(o.op.security ?? []).includes('apiKey'));
    expect(keyed.length).toBeGreaterThan(3);
    for (const { op } of keyed) expect(Object.keys(deref(doc, op.responses['401']).headers)).toContain('WWW-Authenticate');
    const metered = keyed.filter(({ op }) => '429' in op.responses || '402' in op.responses);
    expect(metered.map((o) => o.path)).toContain('/api/v1/facility/{registry_id}');
    for (const { op } of metered) {
      const ok = Object.entries(op.responses as Record<string, any>).find(([s]) => s.startsWith('2'))![1];
      for (const h of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) expect(Object.keys(ok.headers)).toContain(h);
      if (op.responses['429']) expect(Object.keys(deref(doc, op.responses['429']).headers)).toContain('Retry-After');
    }
  });

  it('every operation with input or credentials documents a 4xx (the rule redocly.yaml turns off for the probes)', () => {
    for (const { op } of operations()) {
      const takesSomething = (op.security ?? []).length > 0 || (op.parameters ?? []).length > 0 || op.requestBody;
      if (takesSomething) expect(Object.keys(op.responses).some((s) => s.startsWith('4'))).toBe(true);
    }
  });

  it('integers are integers (no string form that clients would type as string | number)', () => {
    const facility = deref(doc, doc.paths['/api/v1/facility/{registry_id}'].get.responses['200'].content['application/json'].schema);
    expect(facility.properties.data.properties.overall_score.type).toBe('integer');
    expect(deref(doc, { $ref: '#/components/schemas/Meta' }).properties.response_time_ms.type).toBe('integer');
    expect(JSON.stringify(doc)).not.toContain('"format":"integer"');
  });

  it('Meta documents the dataset of a data answer, and every export documents its provenance headers', () => {
    const meta = deref(doc, { $ref: '#/components/schemas/Meta' });
    expect(Object.keys(meta.properties.dataset.properties).sort()).toEqual(['as_of', 'fictitious', 'name', 'score_method']);
    expect(meta.required).not.toContain('dataset');
    for (const path of ['/api/v1/area', '/api/v1/search']) {
      expect(Object.keys(doc.paths[path].get.responses['200'].headers)).toEqual(expect.arrayContaining(['X-Dataset-As-Of', 'X-Dataset-Fictitious', 'X-Score-Method']));
    }
    for (const path of ['/api/v1/portfolio', '/api/v1/site-report']) {
      expect(Object.keys(doc.paths[path].post.responses['200'].headers)).toEqual(expect.arrayContaining(['X-Dataset-As-Of', 'X-Dataset-Fictitious', 'X-Score-Method']));
    }
  });
});

describe('examples are real', () => {
  it('every registry ID in the document exists in the bundled sample and answers 200', async () => {
    const ids = [...new Set(JSON.stringify(doc).match(/\b99\d{10}\b/g) ?? [])];
    expect(ids.length).toBeGreaterThan(0);
    const { key } = await world.keyFor('enterprise');
    for (const id of ids) {
      const res = await world.call(`/api/v1/facility/${id}`, { key });
      expect([id, res.status]).toEqual([id, 200]);
    }
  });

  it('the demo address example finds its facility', async () => {
    const param = doc.paths['/api/v1/demo/facility'].get.parameters.find((p: any) => p.name === 'address');
    const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (r) => world.app.handle(r) });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/demo/facility?address=${encodeURIComponent(param.example)}`);
      expect(res.status).toBe(200);
    } finally {
      server.stop(true);
    }
  });
});
