import { describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

// Only src/index/ speaks SQL to the index file (docs/architecture.md, "A boundary owns its storage"):
// elsewhere in src/ nothing opens SQLite but the state store, and nothing holds the index's
// connection. Tests and scripts may (they check files with SQL of their own, through connectionOf).

const SRC = join(import.meta.dir, '..', '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const SQLITE = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)['"]bun:sqlite['"]/;
/** What hands out a connection to an index file: FacilityIndex's (connectionOf) and IndexWriter's (`database`), for tests. */
const HANDLE = /\bconnectionOf\b|\.database\b/;
/** A `db` member read off some object (the index's connection was `index.db`). */
const DB_MEMBER = /\.db\b|\[\s*['"`]db['"`]\s*\]/;

/** Why the file at `path` (relative to src/) crosses the index's boundary; empty when it does not. */
function crossings(path: string, text: string): string[] {
  if (path.startsWith('index/')) return [];
  const state = path.startsWith('state/');
  const why: string[] = [];
  if (SQLITE.test(text) && !state) why.push('imports bun:sqlite');
  if (HANDLE.test(text)) why.push("takes an index file's connection");
  if (DB_MEMBER.test(text) && !state) why.push('reads a db member');
  return why;
}

describe('no module outside src/index/ touches the index file', () => {
  it('outside src/index/ only src/state/ imports bun:sqlite, and nothing takes or reads an index connection', () => {
    const found = sources(SRC)
      .map((file) => ({ file: relative(SRC, file), why: crossings(relative(SRC, file), readFileSync(file, 'utf8')) }))
      .filter((f) => f.why.length > 0);
    expect(found).toEqual([]);
  });

  it("FacilityIndex keeps its connection private and hands it out only through connectionOf", () => {
    const path = join(SRC, 'index', 'facility-index.ts');
    const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const cls = file.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'FacilityIndex')!;
    const isPrivate = (n: ts.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.PrivateKeyword);
    const members: { name: string; private: boolean; type: string }[] = [];
    for (const m of cls.members) {
      if (ts.isConstructorDeclaration(m)) {
        for (const p of m.parameters) if (ts.isIdentifier(p.name) && ts.getModifiers(p)?.length) members.push({ name: p.name.text, private: isPrivate(p), type: p.type?.getText() ?? '' });
      } else if (m.name && ts.isIdentifier(m.name)) {
        const type = ts.isPropertyDeclaration(m) || ts.isMethodDeclaration(m) || ts.isGetAccessorDeclaration(m) ? (m.type?.getText() ?? '') : '';
        members.push({ name: m.name.text, private: isPrivate(m), type });
      }
    }
    expect(members.find((m) => m.name === 'db')).toEqual({ name: 'db', private: true, type: 'Database' });
    expect(members.filter((m) => !m.private && /\bDatabase\b/.test(m.type))).toEqual([]);
    const exportedReturningDatabase = file.statements
      .filter((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword))
      .filter((f) => /\bDatabase\b/.test(f.type?.getText() ?? ''))
      .map((f) => f.name?.text);
    expect(exportedReturningDatabase).toEqual(['connectionOf']);
  });
});

describe('the boundary check finds what it must fail on', () => {
  it.each([
    ['search/x.ts', "import type { Database } from 'bun:sqlite';", ['imports bun:sqlite']],
    ['ops/x.ts', "const { Database } = await import('bun:sqlite');", ['imports bun:sqlite']],
    ['ops/x.ts', 'const file = index.db.filename;', ['reads a db member']],
    ['search/x.ts', "const db = (index as any)['db'];", ['reads a db member']],
    ['area/x.ts', "import { connectionOf } from '../index/facility-index';", ["takes an index file's connection"]],
    ['state/x.ts', 'connectionOf(index).query(sql);', ["takes an index file's connection"]],
    ['state/x.ts', "import { Database } from 'bun:sqlite'; this.db.exec(sql);", []],
    ['index/x.ts', "import { Database } from 'bun:sqlite'; index.db.exec(sql);", []],
    ['search/x.ts', "import { FacilitySearch } from './facility-search'; const dbName = 'x';", []],
  ])('%s: %s', (path, text, expected) => {
    expect(crossings(path, text)).toEqual(expected);
  });
});
