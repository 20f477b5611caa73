import { afterEach, describe, expect, it, setSystemTime } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { explainComponents } from '../../src/scoring/explain';
import { scoreFacility } from '../../src/scoring/score';
import { scenarioArb } from './arbitraries';

const SCORING_DIR = join(import.meta.dir, '../../src/scoring');

describe('the score never depends on the wall clock', () => {
  afterEach(() => setSystemTime());

  it('gives the same scores and explanations with the system clock set to 1999, now and 2099', () => {
    const samples = fc.sample(scenarioArb, { numRuns: 200, seed: 7 });
    const run = () => samples.map(({ inputs, asOf }) => [scoreFacility(inputs, asOf), explainComponents(inputs, asOf)]);
    const real = run();
    setSystemTime(new Date('1999-01-01T00:00:00Z'));
    expect(run()).toEqual(real);
    setSystemTime(new Date('2099-12-31T23:59:59Z'));
    expect(run()).toEqual(real);
  });

  // a static guard for what a clock-faking run cannot catch (randomness, I/O, env)
  it.each(readdirSync(SCORING_DIR).filter((f) => f.endsWith('.ts')))('%s reads no clock, randomness, file, env or database', (file) => {
    const src = readFileSync(join(SCORING_DIR, file), 'utf8');
    expect(src).not.toMatch(/Date\.now|new Date\(\s*\)|performance\.now|Math\.random|process\.(env|argv)|Bun\.(file|env|spawn)|from 'node:|from 'fs|bun:sqlite|fetch\(/);
  });
});
