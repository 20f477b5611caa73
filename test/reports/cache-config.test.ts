import { describe, expect, it } from 'bun:test';
import { configFrom } from '../../src/cli/options';

// The report cache's two sizes, each read from its flag or environment variable (the flag wins).
const SIZES = [
  { setting: 'reportCacheMaxMb', flag: 'report-cache-max-mb', env: 'FCS_REPORT_CACHE_MAX_MB', byDefault: 1024, fromEnv: '200', fromFlag: '50', refused: ['0', '-5', '1.5', 'lots', ''] },
  { setting: 'reportCacheMemoryMb', flag: 'report-cache-memory-mb', env: 'FCS_REPORT_CACHE_MEMORY_MB', byDefault: 64, fromEnv: '0', fromFlag: '16', refused: ['-1', '1.5', 'lots', '65537', ''] },
] as const;

describe.each(SIZES)('report cache setting $setting', ({ setting, flag, env, byDefault, fromEnv, fromFlag, refused }) => {
  it(`defaults to ${byDefault} MiB; ${env} sets it; the flag wins over the environment`, () => {
    expect(configFrom({}, {})[setting]).toBe(byDefault);
    expect(configFrom({ [env]: fromEnv }, {})[setting]).toBe(Number(fromEnv));
    expect(configFrom({ [env]: fromEnv }, { [flag]: fromFlag })[setting]).toBe(Number(fromFlag));
  });

  it.each(refused)('refuses %j at start, naming the setting', (value) => {
    expect(() => configFrom({}, { [flag]: value })).toThrow(setting);
  });
});
