import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));

/** Every installed package's stated Node range (package-lock.json: exactly what `npm ci` installs). */
const stated: [string, string][] = Object.entries(lock.packages as Record<string, { engines?: unknown }>)
  .filter(([path, p]) => path !== '' && typeof (p.engines as { node?: unknown } | undefined)?.node === 'string')
  .map(([path, p]) => [path.replace(/^.*node_modules\//, ''), (p.engines as { node: string }).node]);

describe('package.json engines.node is honest about the dependencies', () => {
  const ours = String(pkg.engines?.node);
  const bound = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(ours);
  const lowest = bound ? `${bound[1]}.${bound[2] ?? 0}.${bound[3] ?? 0}` : undefined;

  it('states one lower bound (">=X.Y.Z"), the lowest Node it promises', () => {
    expect(lowest).toBeDefined();
  });

  it('the lock file states Node ranges to check against at all', () => {
    expect(stated.length).toBeGreaterThan(20);
  });

  // Checked at the promised lowest version and at later ones, since some ranges have gaps (">=20.19 <22 || >=22.12").
  it.each(stated)('%s (node %s) accepts every Node engines.node allows', (_name, range) => {
    const [major, minor] = lowest!.split('.').map(Number) as [number, number];
    for (const v of [lowest!, `${major}.${minor}.99`, `${major}.99.0`, `${major + 1}.0.0`, `${major + 2}.0.0`, '30.0.0']) {
      expect({ node: v, satisfies: Bun.semver.satisfies(v, range) }).toEqual({ node: v, satisfies: true });
    }
  });
});
