import { describe, expect, it } from 'bun:test';
import { configFrom } from '../../src/cli/options';
import { makeConfig } from '../../src/config';

describe('serve settings from the environment', () => {
  it('a variable set to the empty string counts as not set (FCS_PORT= in a unit file is not port 0)', () => {
    const env = { FCS_PORT: '', PORT: '', FCS_HOST: '', FCS_INDEX: '', FCS_STATE_DIR: '', FCS_REPORT_CACHE_MAX_MB: '', FCS_GEOCODER_BENCHMARK: '', FCS_SHUTDOWN_TIMEOUT_MS: '', FCS_LOG_REQUESTS: '' };
    const c = configFrom(env, {});
    const d = makeConfig();
    expect([c.port, c.host, c.indexPath, c.stateDir, c.reportCacheMaxMb, c.geocoderBenchmark, c.shutdownTimeoutMs, c.logRequests]).toEqual([
      d.port, d.host, null, d.stateDir, d.reportCacheMaxMb, d.geocoderBenchmark, d.shutdownTimeoutMs, d.logRequests,
    ]);
  });

  it('a set variable still counts, and a flag still wins over it', () => {
    expect(configFrom({ FCS_PORT: '9090' }, {}).port).toBe(9090);
    expect(configFrom({ PORT: '9091' }, {}).port).toBe(9091);
    expect(configFrom({ FCS_PORT: '9090' }, { port: '9092' }).port).toBe(9092);
    expect(configFrom({ FCS_INDEX: '/srv/x.sqlite' }, {}).indexPath).toBe('/srv/x.sqlite');
  });
});
