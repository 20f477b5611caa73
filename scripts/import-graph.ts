/**
 * The import structure of src/: files, layers, circles and imports that run upward.
 *
 *   npx bun scripts/import-graph.ts            # summary: files per layer, circles, upward imports
 *   npx bun scripts/import-graph.ts --edges    # also every import, as "from -> to"
 *   npx bun scripts/import-graph.ts --json     # everything as JSON
 *   npx bun scripts/import-graph.ts <old checkout>/src --before-13   # the tree before issue 13
 *
 * Every relative import counts, `import type` included (a type import is still a dependency of
 * the code's shape). Layers are declared top-down in LAYERS; a file belongs to the first layer
 * whose pattern matches it. An import into the same or a lower layer is fine; into a higher one is
 * "upward". test/tooling/import-graph.test.ts holds the limits (no circle, at most 3 upward).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export type Layer = { name: string; what: string; files: RegExp[] };

/** Top-down. The first matching layer wins, so narrower patterns come before their folder's. */
export const LAYERS: Layer[] = [
  { name: 'browser', what: "the web page's browser code (a separate program bundled by scripts/build-web.ts; imports only itself and npm)", files: [/^web\/client\//] },
  { name: 'cli', what: 'entry point, commands, the serving process (listen, reload, drain)', files: [/^main\.ts$/, /^cli\//, /^ops\/service-process\.ts$/] },
  { name: 'app', what: 'createApp: composes the plugins and feature routes', files: [/^app\.ts$/] },
  {
    name: 'routes',
    what: 'feature routes and the HTTP plugins they use (request context, error handler, access log, OpenAPI, the API-key and JWT macros)',
    files: [/^[\w-]+\/routes\.ts$/, /^http\/(error-handler|openapi|openapi-document|request-context|cors|home|validation-message)\.ts$/, /^exports\/exportable\.ts$/, /^ops\/access-log\.ts$/, /^access\/api-key-auth\.ts$/, /^account\/auth\.ts$/],
  },
  { name: 'services', what: 'what the routes call, and the deps they are given (deps.ts)', files: [/^deps\.ts$/, /^(facilities|area|portfolio|reports|site-report|demo|account|ops|status|watchlists|webhooks|search|exports|web)\//] },
  { name: 'access/state/index', what: 'API-key access rules, the state store, the facility index, its release history and ingest, address normalisation', files: [/^(access|state|index|history|address)\//] },
  {
    name: 'vocabulary',
    what: 'the score model and the shared vocabulary: errors, tiers, log, config types, envelope schemas',
    files: [/^scoring\//, /^(errors|tiers|log|config|jwt-config|hash|version|worker-url)\.ts$/, /^http\/(envelope|json-response)\.ts$/],
  },
];

/**
 * For the tree before issue 13 (commit 71395f6): its files that moved, put in the layer of the
 * file their content lives in now, so the before and after figures compare like with like:
 * `npx bun scripts/import-graph.ts <old checkout>/src --before-13`.
 */
export const BEFORE_13: [RegExp, string][] = [
  [/^http\/auth\.ts$/, 'routes'],
  [/^(accounts\/|http\/rate-limit-headers\.ts$|demo\/(address|street-words|demo-limit)\.ts$)/, 'access/state/index'],
  [/^http\/errors\.ts$/, 'vocabulary'],
];

export type Graph = {
  files: string[];
  layerOf: Map<string, string>;
  edges: { from: string; to: string }[];
};

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(fromFile: string, spec: string, known: Set<string>): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(fromFile), spec);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) if (known.has(candidate)) return candidate;
  return null;
}

/** Reads the relative imports of every .ts file under `srcDir` (paths in the result are relative to it). */
export function readGraph(srcDir: string, moved: [RegExp, string][] = []): Graph {
  const root = resolve(srcDir);
  const absolute = walk(root);
  const known = new Set(absolute);
  const rel = (p: string) => relative(root, p).replaceAll('\\', '/');
  const edges: Graph['edges'] = [];
  for (const file of absolute) {
    const text = readFileSync(file, 'utf8');
    const seen = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const target = resolveImport(file, m[1] ?? m[2] ?? m[3]!, known);
      if (target && !seen.has(target)) {
        seen.add(target);
        edges.push({ from: rel(file), to: rel(target) });
      }
    }
  }
  const files = absolute.map(rel).sort();
  const layerOf = new Map(files.map((f) => [f, moved.find(([re]) => re.test(f))?.[1] ?? LAYERS.find((l) => l.files.some((re) => re.test(f)))?.name ?? '(no layer)']));
  return { files, layerOf, edges };
}

/** Strongly connected components with more than one file (or a file importing itself): the circles. */
export function circlesOf(g: Graph): string[][] {
  const next = new Map<string, string[]>(g.files.map((f) => [f, []]));
  for (const e of g.edges) next.get(e.from)!.push(e.to);
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next.get(v)!.includes(v)) out.push(component.sort());
    }
  };
  for (const f of g.files) if (!index.has(f)) visit(f);
  return out;
}

const rank = (layer: string) => {
  const i = LAYERS.findIndex((l) => l.name === layer);
  return i < 0 ? Number.POSITIVE_INFINITY : i;
};

/** Imports from a file into a file of a higher layer (a smaller rank). */
export function upwardImports(g: Graph): { from: string; to: string; fromLayer: string; toLayer: string }[] {
  return g.edges
    .map((e) => ({ ...e, fromLayer: g.layerOf.get(e.from)!, toLayer: g.layerOf.get(e.to)! }))
    .filter((e) => rank(e.toLayer) < rank(e.fromLayer));
}

export function summary(g: Graph) {
  return {
    files: g.files.length,
    imports: g.edges.length,
    layers: LAYERS.map((l) => ({ name: l.name, files: g.files.filter((f) => g.layerOf.get(f) === l.name).length })),
    unlayered: g.files.filter((f) => g.layerOf.get(f) === '(no layer)'),
    circles: circlesOf(g),
    upward: upwardImports(g),
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--')) ?? join(import.meta.dir, '..', 'src');
  const g = readGraph(dir, args.includes('--before-13') ? BEFORE_13 : []);
  const s = summary(g);
  if (args.includes('--json')) {
    console.log(JSON.stringify({ ...s, edges: g.edges, layerOf: Object.fromEntries(g.layerOf) }, null, 2));
  } else {
    console.log(`${s.files} files, ${s.imports} imports, ${LAYERS.length} layers, ${s.circles.length} circles, ${s.upward.length} upward imports`);
    console.log('\nLayers, top-down:');
    for (const l of s.layers) console.log(`  ${l.name.padEnd(20)} ${String(l.files).padStart(3)} files  ${LAYERS.find((x) => x.name === l.name)!.what}`);
    if (s.unlayered.length > 0) console.log(`  (no layer)           ${s.unlayered.length} files: ${s.unlayered.join(', ')}`);
    console.log(`\nCircles (${s.circles.length}):`);
    for (const c of s.circles) console.log(`  ${c.join(' <-> ')}`);
    console.log(`\nUpward imports (${s.upward.length}):`);
    for (const u of s.upward) console.log(`  ${u.from} (${u.fromLayer}) -> ${u.to} (${u.toLayer})`);
    if (args.includes('--edges')) {
      console.log('\nImports:');
      for (const e of g.edges) console.log(`  ${e.from} -> ${e.to}`);
    }
  }
}
