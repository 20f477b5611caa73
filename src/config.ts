import { t, type Static } from './shared/typebox';
import { Value } from '@sinclair/typebox/value';
import { SETTINGS, schemaOf } from './settings';
import { JwtConfig } from './jwt-config';

/** Every setting of the service, from the table in src/settings.ts; src/cli/options.ts fills it from flags and env. */
export const Config = t.Object({ ...schemaOf(SETTINGS).properties, jwt: JwtConfig });
export type Config = Static<typeof Config>;

export const DEFAULT_CONFIG: Config = Object.freeze({
  ...Object.fromEntries(Object.entries(SETTINGS).map(([key, setting]) => [key, setting.type.default])),
  jwt: {},
}) as Config;

/** Merges overrides onto the defaults and validates; throws a one-line message on bad settings. */
export function makeConfig(overrides: Partial<Config> = {}): Config {
  const merged = { ...DEFAULT_CONFIG, ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) };
  const first = Value.Errors(Config, merged).First();
  if (first) throw new Error(`invalid configuration: ${first.path.slice(1) || 'config'} ${first.message}`);
  if ((merged as Config).webhookLeaseMs <= (merged as Config).webhookTimeoutMs) throw new Error('invalid configuration: webhookLeaseMs must exceed webhookTimeoutMs');
  return Object.freeze(merged) as Config;
}
