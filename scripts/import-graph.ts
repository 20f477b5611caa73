/**
 * The import structure of src/: files, layers, circles and imports that run upward, between files
 * and between folders.
 *
 *   npx bun scripts/import-graph.ts            # summary: files per layer, circles, upward imports
 *   npx bun scripts/import-graph.ts --edges    # also every import, as "from -> to"
 *   npx bun scripts/import-graph.ts --json     # everything as JSON
 *   npx bun scripts/import-graph.ts <old checkout>/src --flat-layout   # a tree from before the HTTP layer
 *
 * Every import of a file under src/ counts, `import type` included (a type import is still a
 * dependency of the code's shape); dependency-cruiser reads and resolves them. Layers are declared top-down in LAYERS, by folder (a top-level file is its own
 * folder); a file belongs to the first layer whose pattern matches it. An import into the same or a
 * lower layer is fine; into a higher one is "upward". A folder is the first segment of a path under
 * src/; the folder graph has an arrow where any file of one imports a file of another.
 * test/tooling/import-graph.test.ts holds the limits (no circle of files or of folders, at most 3
 * upward imports and at most 3 upward folder arrows).
 */
import { join, resolve } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';

export type Layer = { name: string; what: string; files: RegExp[] };

/** Top-down. The first matching layer wins, so narrower patterns come before their folder's. */
export const LAYERS: Layer[] = [
  { name: 'browser', what: "the web page's browser code (a separate program bundled by scripts/build-web.ts; imports only itself and npm)", files: [/^web\/client\//] },
  { name: 'cli', what: 'entry point, commands, the serving process (listen, reload, drain)', files: [/^main\.ts$/, /^cli\//] },
  {
    name: 'api',
    what: 'the HTTP layer: createApp and its deps, one routes file per feature, the plugins (request context, error handler, CORS, OpenAPI, access log, the API-key and JWT macros)',
    files: [/^api\//],
  },
  {
    name: 'features',
    what: 'the engines the routes call, one folder per capability; none imports Elysia',
    files: [/^(render|facilities|portfolio|reports|site-report|demo|account|ops|search|exports|history|watchlists|web)\//],
  },
  { name: 'ingest', what: "the ingest pipeline: read the exporter, map each row to named fields, score, hand the records to the index's writers", files: [/^ingest\//] },
  { name: 'access/state/index', what: "API-key access rules, the state store, the facility index (every file of a release: the SQLite index with its release history, .area, .search; their formats, writers and readers), address normalisation", files: [/^(access|state|index|address)\//] },
  { name: 'area', what: 'the radius search as an algorithm: cell layout, ring walk, top-k and geometry over arrays it is handed; no file I/O', files: [/^area\//] },
  {
    name: 'vocabulary',
    what: 'the score model, the HTTP wire (request and response bodies, query parameters: no Elysia) and the shared vocabulary: errors, tiers, log, config types, the schema vocabulary, envelope schemas, IP ranges, state codes',
    files: [/^(scoring|shared|wire)\//, /^(errors|tiers|log|config|settings|jwt-config|hash|version|worker-url)\.ts$/],
  },
];

/**
 * For a tree from before the HTTP layer (routes and plugins inside feature folders): its files
 * that moved, put in the layer of the file their content lives in now, so figures compare like with
 * like: `npx bun scripts/import-graph.ts <old checkout>/src --flat-layout`.
 */
export const FLAT_LAYOUT: [RegExp, string][] = [
  [/^(app|deps)\.ts$|^[\w-]+\/routes\.ts$|^http\/(auth|error-handler|openapi|openapi-document|request-context|cors|home|validation-message|json-response)\.ts$|^exports\/exportable\.ts$|^ops\/access-log\.ts$|^access\/api-key-auth\.ts$|^account\/auth\.ts$/, 'api'],
  [/^(accounts\/|http\/rate-limit-headers\.ts$|demo\/(address|street-words|demo-limit)\.ts$)/, 'access/state/index'],
  [/^ops\/service-process\.ts$/, 'cli'],
  [/^http\/(errors|envelope)\.ts$/, 'vocabulary'],
];

export type Graph = {
  files: string[];
  layerOf: Map<string, string>;
  edges: { from: string; to: string }[];
};

/**
 * Reads the imports of every .ts file under `srcDir` with dependency-cruiser (paths in the result
 * are relative to it): static, dynamic and type-only imports, resolved as TypeScript resolves them.
 */
export async function readGraph(srcDir: string, moved: [RegExp, string][] = []): Promise<Graph> {
  const root = resolve(srcDir);
  const result = await cruise(['.'], {
    baseDir: root,
    // a type import is a dependency of the code's shape, so it counts
    tsPreCompilationDeps: true,
    exclude: { path: '\\.d\\.ts$' },
    doNotFollow: { path: 'node_modules' },
  });
  const modules = (result.output as ICruiseResult).modules.filter((m) => m.source.endsWith('.ts') && !m.source.includes('node_modules/'));
  const known = new Set(modules.map((m) => m.source));
  const edges: Graph['edges'] = [];
  for (const m of modules) {
    const targets = new Set(m.dependencies.filter((d) => !d.coreModule && !d.couldNotResolve && known.has(d.resolved)).map((d) => d.resolved));
    for (const to of targets) edges.push({ from: m.source, to });
  }
  const files = [...known].sort();
  const layerOf = new Map(files.map((f) => [f, moved.find(([re]) => re.test(f))?.[1] ?? LAYERS.find((l) => l.files.some((re) => re.test(f)))?.name ?? '(no layer)']));
  return { files, layerOf, edges };
}

/** Strongly connected components with more than one node (or a node importing itself). */
function componentsOf(nodes: readonly string[], edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>(nodes.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)!.push(e.to);
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
  for (const f of nodes) if (!index.has(f)) visit(f);
  return out;
}

/** Files that import each other, directly or round a loop: the circles. */
export function circlesOf(g: Graph): string[][] {
  return componentsOf(g.files, g.edges);
}

/** The folder a file is in: the first segment of its path (`index/area/x.ts` -> `index/`); a top-level file is its own. */
export const folderOf = (file: string) => (file.includes('/') ? `${file.slice(0, file.indexOf('/'))}/` : file);

/** One arrow per pair of folders where a file of the one imports a file of the other. */
export function folderArrows(g: Graph): { from: string; to: string; imports: { from: string; to: string }[] }[] {
  const arrows = new Map<string, { from: string; to: string; imports: { from: string; to: string }[] }>();
  for (const e of g.edges) {
    const from = folderOf(e.from), to = folderOf(e.to);
    if (from === to) continue;
    const key = `${from} ${to}`;
    if (!arrows.has(key)) arrows.set(key, { from, to, imports: [] });
    arrows.get(key)!.imports.push(e);
  }
  return [...arrows.values()];
}

/** Folders that import each other, directly or round a loop (no file circle needed: a/x -> b/y and b/z -> a/w is one). */
export function folderCirclesOf(g: Graph): string[][] {
  return componentsOf([...new Set(g.files.map(folderOf))].sort(), folderArrows(g));
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

/** Folder arrows that carry at least one upward import. */
export function upwardFolderArrows(g: Graph): { from: string; to: string; imports: string[] }[] {
  const up = upwardImports(g);
  return folderArrows(g)
    .map((a) => ({ from: a.from, to: a.to, imports: up.filter((u) => folderOf(u.from) === a.from && folderOf(u.to) === a.to).map((u) => `${u.from} -> ${u.to}`) }))
    .filter((a) => a.imports.length > 0);
}

export function summary(g: Graph) {
  return {
    files: g.files.length,
    imports: g.edges.length,
    layers: LAYERS.map((l) => ({ name: l.name, files: g.files.filter((f) => g.layerOf.get(f) === l.name).length })),
    unlayered: g.files.filter((f) => g.layerOf.get(f) === '(no layer)'),
    circles: circlesOf(g),
    upward: upwardImports(g),
    folders: new Set(g.files.map(folderOf)).size,
    folderArrows: folderArrows(g).length,
    folderCircles: folderCirclesOf(g),
    upwardFolders: upwardFolderArrows(g),
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--')) ?? join(import.meta.dir, '..', 'src');
  const g = await readGraph(dir, args.includes('--flat-layout') ? FLAT_LAYOUT : []);
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
    console.log(`\nFolders: ${s.folders} (a top-level file counts as one), ${s.folderArrows} arrows between them`);
    console.log(`Folder circles (${s.folderCircles.length}):`);
    for (const c of s.folderCircles) console.log(`  ${c.join(' <-> ')}`);
    console.log(`Upward folder arrows (${s.upwardFolders.length}):`);
    for (const a of s.upwardFolders) console.log(`  ${a.from} -> ${a.to}: ${a.imports.join(', ')}`);
    if (args.includes('--edges')) {
      console.log('\nImports:');
      for (const e of g.edges) console.log(`  ${e.from} -> ${e.to}`);
    }
  }
}
