import { parseArgs, type ParseArgsConfig } from 'node:util';
import { makeConfig, type Config } from '../config';
import { ALL_SETTINGS, kindOf, listOf, type Setting } from '../settings';
import { WebhookAllowList } from '../watchlists/webhooks/allow-list';

/** Options shared by commands that touch state or the index; flags override env. */
export const COMMON_OPTIONS = {
  index: { type: 'string' },
  'state-dir': { type: 'string' },
  'redis-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Every setting's `serve` flag (src/settings.ts): a yes/no is a bare flag, the rest take a value. */
export const SERVE_OPTIONS = Object.fromEntries(
  ALL_SETTINGS.filter((s) => s.flag !== '').map((s) => [s.flag, { type: kindOf(s.type) === 'boolean' ? 'boolean' : 'string' }]),
) as Record<string, { type: 'string' | 'boolean' }>;

export function parse<const O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  const all = { ...COMMON_OPTIONS, ...options } as typeof COMMON_OPTIONS & O;
  return parseArgs({ args, options: all, allowPositionals: true, strict: true });
}

/**
 * A setting's value from its flag, else its first set variable; undefined when neither is given.
 * A variable set to '' (FCS_PORT= in a unit file or .env) is not set; a flag given '' is: a number
 * then reads as NaN and is refused by the config check, not taken as 0.
 */
function valueOf(setting: Setting, env: Record<string, string | undefined>, flags: Record<string, unknown>): unknown {
  const flag = setting.flag === '' ? undefined : flags[setting.flag];
  if (flag === true) return true;
  const text = (flag as string | undefined) ?? setting.env.map((name) => env[name]).find((v) => v !== undefined && v !== '');
  if (text === undefined) return undefined;
  if (setting.read) return setting.read(text);
  switch (kindOf(setting.type)) {
    case 'integer':
    case 'number':
      return text === '' ? Number.NaN : Number(text);
    case 'boolean':
      return !['0', 'false'].includes(text);
    case 'array':
      return listOf(text);
    default:
      return text === '' ? undefined : text;
  }
}

/** Config from env, overridden by whichever flags were given. */
export function configFrom(env: Record<string, string | undefined>, flags: Record<string, unknown>): Config {
  const values = (group: 'config' | 'jwt') =>
    Object.fromEntries(ALL_SETTINGS.filter((s) => s.group === group).flatMap((s) => {
      const v = valueOf(s, env, flags);
      return v === undefined ? [] : [[s.key, v]];
    }));
  const config = makeConfig({ ...values('config'), jwt: values('jwt') } as Partial<Config>);
  // Checked at load, so a bad entry stops every command with its name, not the first delivery.
  new WebhookAllowList(config.webhookAllow);
  return config;
}
