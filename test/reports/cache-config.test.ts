import { describe, expect, it } from 'bun:test';
import { configFrom } from '../../src/cli/options';

describe('report cache size cap setting', () => {
  it('defaults to 1024 MiB; FCS_REPORT_CACHE_MAX_MB sets it; the flag wins over the environment', () => {
    expect(configFrom({}, {}).reportCacheMaxMb).toBe(1024);
    expect(configFrom({ FCS_REPORT_CACHE_MAX_MB: '200' }, {}).reportCacheMaxMb).toBe(200);
    expect(configFrom({ FCS_REPORT_CACHE_MAX_MB: '200' }, { 'report-cache-max-mb': '50' }).reportCacheMaxMb).toBe(50);
  });

  it.each(['0', '-5', '1.5', 'lots', ''])('refuses %j at start, naming the setting', (value) => {
    expect(() => configFrom({}, { 'report-cache-max-mb': value })).toThrow('reportCacheMaxMb');
  });
});

describe('report cache memory tier setting', () => {
  it('defaults to 64 MiB; FCS_REPORT_CACHE_MEMORY_MB sets it (0 turns it off); the flag wins over the environment', () => {
    expect(configFrom({}, {}).reportCacheMemoryMb).toBe(64);
    expect(configFrom({ FCS_REPORT_CACHE_MEMORY_MB: '0' }, {}).reportCacheMemoryMb).toBe(0);
    expect(configFrom({ FCS_REPORT_CACHE_MEMORY_MB: '0' }, { 'report-cache-memory-mb': '16' }).reportCacheMemoryMb).toBe(16);
  });

  it.each(['-1', '1.5', 'lots', '65537', ''])('refuses %j at start, naming the setting', (value) => {
    expect(() => configFrom({}, { 'report-cache-memory-mb': value })).toThrow('reportCacheMemoryMb');
  });
});
