import { describe, expect, it } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { circlesOf, folderCirclesOf, readGraph, summary, upwardFolderArrows, upwardImports } from '../../scripts/import-graph';
import { tempDir } from '../support/temp-dir';

const SRC = join(import.meta.dir, '..', '..', 'src');
const MAX_UPWARD = 3;
const graph = await readGraph(SRC);

describe('the import structure of src/ (scripts/import-graph.ts)', () => {
  const s = summary(graph);

  it('has no circle', () => {
    expect(s.circles).toEqual([]);
  });

  it(`has at most ${MAX_UPWARD} imports from a lower layer to a higher one`, () => {
    expect(s.upward.length).toBeLessThanOrEqual(MAX_UPWARD);
  });

  it('has no circle between folders', () => {
    expect(s.folderCircles).toEqual([]);
  });

  it(`has at most ${MAX_UPWARD} arrows from a folder to a folder of a higher layer`, () => {
    expect(s.upwardFolders.length).toBeLessThanOrEqual(MAX_UPWARD);
  });

  it('names the HTTP framework only in src/api and the schema vocabulary (src/shared/typebox.ts)', () => {
    const files = graph.files.filter((f) => !f.startsWith('api/') && f !== 'shared/typebox.ts');
    const naming = files.filter((f) => /from\s*['"](elysia|@elysiajs\/[\w-]+)['"]/.test(readFileSync(join(SRC, f), 'utf8')));
    expect(naming).toEqual([]);
  });

  it('puts every file in a declared layer (a new folder is added to LAYERS in scripts/import-graph.ts)', () => {
    expect(s.unlayered).toEqual([]);
  });
});

describe('the graph reader finds what it must fail on', () => {
  /** A tiny src/ tree: `files` maps a path to the paths it imports. */
  function tree(files: Record<string, string[]>): string {
    const dir = tempDir('import-graph');
    for (const [path, imports] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      const depth = path.split('/').length - 1;
      const up = depth === 0 ? './' : '../'.repeat(depth);
      writeFileSync(join(dir, path), imports.map((to, i) => `import type { X${i} } from '${up}${to.replace(/\.ts$/, '')}';\n`).join('') + 'export type X = 1;\n');
    }
    return dir;
  }

  it('a circle through three files, type imports included', async () => {
    const g = await readGraph(tree({ 'config.ts': ['ops/metrics.ts'], 'ops/metrics.ts': ['reports/cache.ts'], 'reports/cache.ts': ['config.ts'] }));
    expect(circlesOf(g)).toEqual([['config.ts', 'ops/metrics.ts', 'reports/cache.ts']]);
  });

  it('an import from the shared vocabulary up into a feature route', async () => {
    const g = await readGraph(tree({ 'errors.ts': ['api/facilities.ts'], 'api/facilities.ts': [] }));
    expect(upwardImports(g).map((u) => `${u.from} -> ${u.to}`)).toEqual(['errors.ts -> api/facilities.ts']);
    expect(upwardFolderArrows(g)).toEqual([{ from: 'errors.ts', to: 'api/', imports: ['errors.ts -> api/facilities.ts'] }]);
  });

  it('imports downward or within a layer are not upward', async () => {
    const g = await readGraph(tree({ 'api/app.ts': ['api/facilities.ts'], 'api/facilities.ts': ['facilities/service.ts', 'errors.ts'], 'facilities/service.ts': ['scoring/score.ts'], 'scoring/score.ts': [] }));
    expect(upwardImports(g)).toEqual([]);
    expect(upwardFolderArrows(g)).toEqual([]);
    expect(circlesOf(g)).toEqual([]);
    expect(folderCirclesOf(g)).toEqual([]);
  });

  it('a circle of folders whose files form none: two folders importing each other through different files', async () => {
    const g = await readGraph(tree({ 'watchlists/service.ts': ['index/history/changes.ts'], 'index/history/changes.ts': [], 'index/reader.ts': ['watchlists/rules.ts'], 'watchlists/rules.ts': [] }));
    expect(circlesOf(g)).toEqual([]);
    expect(folderCirclesOf(g)).toEqual([['index/', 'watchlists/']]);
  });

  it('counts one upward folder arrow for many upward imports between the same two folders', async () => {
    const g = await readGraph(tree({ 'state/a.ts': ['watchlists/model.ts'], 'state/b.ts': ['watchlists/model.ts', 'watchlists/rules.ts'], 'watchlists/model.ts': [], 'watchlists/rules.ts': [] }));
    expect(upwardImports(g)).toHaveLength(3);
    expect(upwardFolderArrows(g).map((a) => `${a.from} -> ${a.to}`)).toEqual(['state/ -> watchlists/']);
  });
});

describe('worker modules', () => {
  /** `import` statements that load a `*-worker` module for its values (type-only imports are erased). */
  function valueImportsOfWorkers(srcDir: string): string[] {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts'))
          for (const m of readFileSync(path, 'utf8').matchAll(/^\s*import\s+(?!type\s)[^;]*?from\s*['"]([^'"]*-worker)['"]/gm)) found.push(`${relative(srcDir, path)} -> ${m[1]}`);
      }
    };
    walk(srcDir);
    return found;
  }

  it("are imported by no other module except for types: a value import runs the worker's onmessage in the importing thread and keeps the process alive", () => {
    expect(valueImportsOfWorkers(SRC)).toEqual([]);
  });

  it('the check finds a value import, and lets a type-only one pass', () => {
    const dir = tempDir('worker-imports');
    writeFileSync(join(dir, 'a.ts'), "import { SEP } from './b-worker';\n");
    writeFileSync(join(dir, 'c.ts'), "import type { X } from './b-worker';\n");
    expect(valueImportsOfWorkers(dir)).toEqual(['a.ts -> ./b-worker']);
  });
});
