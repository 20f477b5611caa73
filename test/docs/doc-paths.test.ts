import { describe, expect, it } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from '../support/process';

/**
 * The docs name files of the tree (`src/area/`, `scripts/build.ts`, `test/state/store-contract.ts`)
 * and link each other. A file moved or deleted without its docs fails here, naming the doc and line.
 */
const DOCS = ['README.md', 'data/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Repository paths a text names: `src/...`, `scripts/...`, `test/...` not inside a longer path or URL. */
export function namedPaths(text: string): string[] {
  const found = [...text.matchAll(/(?<![\w.\/$@-])((?:src|scripts|test)\/[\w.\/*-]*)/g)].map((m) => m[1]!.replace(/[.]+$/, ''));
  return [...new Set(found)];
}

/** Whether `path` names something in the tree; a `*` in it is a glob that must match at least one file. */
export function pathExists(path: string, root = ROOT): boolean {
  if (!path.includes('*')) return existsSync(join(root, path));
  return [...new Bun.Glob(path).scanSync({ cwd: root, onlyFiles: false })].length > 0;
}

/** Relative Markdown links and images of a page (`[x](api.md)`, `](docs/web-page.png)`), without their `#anchor`. */
export function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)|<img src="([^"]+)"/g)]
    .map((m) => (m[1] ?? m[2])!)
    .filter((target) => !/^[a-z]+:/i.test(target));
}

function missingIn(file: string): string[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const missing: string[] = [];
  lines.forEach((line, i) => {
    for (const path of namedPaths(line)) if (!pathExists(path)) missing.push(`${file}:${i + 1}: ${path}`);
    for (const link of relativeLinks(line)) if (!existsSync(join(ROOT, dirname(file), link))) missing.push(`${file}:${i + 1}: link ${link}`);
  });
  return missing;
}

describe('paths named in the docs exist', () => {
  it.each(DOCS)('every src/, scripts/ and test/ path and every relative link in %s exists', (file) => {
    expect(missingIn(file)).toEqual([]);
  });
});

describe('the path reader finds what it must check', () => {
  it.each([
    ['the layout lives in `src/area/spatial-index.ts`.', ['src/area/spatial-index.ts']],
    ['run `npx bun scripts/build.ts` and test/state/', ['scripts/build.ts', 'test/state/']],
    ['benchmarks: scripts/bench-*.ts', ['scripts/bench-*.ts']],
    ['one folder per feature: `src/<feature>/`', ['src/']],
    ["import type { App } from 'facility-score/src/app'", []],
    ['https://example.org/src/x.ts and $bunfs/root/index/ingest/ and ./src/x', []],
  ])('%s', (text, paths) => {
    expect(namedPaths(text)).toEqual(paths);
  });

  it('a file that is not there is missing; a glob with no match is missing', () => {
    expect(pathExists('src/api/app.ts')).toBe(true);
    expect(pathExists('src/accounts/keys.ts')).toBe(false);
    expect(pathExists('scripts/bench-*.ts')).toBe(true);
    expect(pathExists('scripts/nothing-*.ts')).toBe(false);
  });

  it('links keep their target and drop anchors and URLs', () => {
    expect(relativeLinks('see [api](api.md#errors), [x](https://example.org/a.md) and <img src="docs/web-page.png" alt="">')).toEqual(['api.md', 'docs/web-page.png']);
  });
});
