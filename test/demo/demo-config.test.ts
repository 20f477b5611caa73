import { describe, expect, it } from 'bun:test';
import { configFrom } from '../../src/cli/options';

describe('demo settings from the environment', () => {
  it('reads the geocoder URL, benchmark, timeout and match distance', () => {
    const c = configFrom(
      { FCS_GEOCODER_URL: 'http://127.0.0.1:9/geo', FCS_GEOCODER_BENCHMARK: 'Public_AR_Census2020', FCS_GEOCODER_TIMEOUT_MS: '250', FCS_DEMO_MATCH_MILES: '0.05' },
      {},
    );
    expect([c.geocoderUrl, c.geocoderBenchmark, c.geocoderTimeoutMs, c.demoMatchMiles]).toEqual(['http://127.0.0.1:9/geo', 'Public_AR_Census2020', 250, 0.05]);
  });

  it('defaults to offline only, Public_AR_Current, 1500 ms and 0.1 mile', () => {
    const c = configFrom({}, {});
    expect([c.geocoderUrl, c.geocoderBenchmark, c.geocoderTimeoutMs, c.demoMatchMiles]).toEqual([null, 'Public_AR_Current', 1500, 0.1]);
  });

  it.each([
    [{ FCS_GEOCODER_URL: 'ftp://x' }, 'geocoderUrl'],
    [{ FCS_GEOCODER_TIMEOUT_MS: '10' }, 'geocoderTimeoutMs'],
    [{ FCS_DEMO_MATCH_MILES: '5' }, 'demoMatchMiles'],
  ])('rejects %j at start', (env, field) => {
    expect(() => configFrom(env, {})).toThrow(field);
  });
});
