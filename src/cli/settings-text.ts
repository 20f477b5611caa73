import { ALL_SETTINGS, kindOf, type Setting } from '../settings';

/** How a setting's default reads to an operator. */
function defaultText(setting: Setting): string {
  const d = setting.type.default;
  // an optional value without one (the JWT details) has its library default in its meaning
  if (d === undefined) return '';
  if (d === null || (Array.isArray(d) && d.length === 0)) return 'none';
  if (typeof d === 'boolean') return d ? 'on' : 'off';
  return String(d);
}

const placeholder = (setting: Setting) => ({ integer: ' N', number: ' X', boolean: '', array: ' A,B', object: ' K=V,...' } as Record<string, string>)[kindOf(setting.type)] ?? ' VALUE';

/** `serve --help`: every setting with its flag, variable(s), meaning and default. */
export function serveHelp(): string {
  const rows = ALL_SETTINGS.map((s) => {
    const flag = s.flag === '' ? '' : `--${s.flag}${placeholder(s)}`;
    const d = defaultText(s);
    return `  ${flag.padEnd(34)} ${s.env.join(', ').padEnd(30)} ${s.meaning}${d === '' ? '' : ` (default: ${d})`}`;
  });
  return [
    'facility-score serve [flags]',
    'A flag wins over its variable; a variable set to "" is unset. Settings: docs/operations.md.',
    `  ${'flag'.padEnd(34)} ${'environment'.padEnd(30)} meaning`,
    ...rows,
  ].join('\n');
}

/** The settings table of docs/operations.md (Markdown). */
export function settingsTable(): string {
  const rows = ALL_SETTINGS.map((s) => {
    const flag = s.flag === '' ? '' : `\`--${s.flag}\``;
    return `| ${s.env.map((e) => `\`${e}\``).join(', ')} | ${flag} | ${defaultText(s)} | ${s.meaning} |`;
  });
  return ['| environment | flag | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

export const TABLE_START = '<!-- settings table: generated from src/settings.ts by scripts/docs-settings.ts -->';
export const TABLE_END = '<!-- end of settings table -->';

/** `doc` with the text between the markers replaced by the current table. */
export function withSettingsTable(doc: string): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error('settings table markers not found');
  return `${doc.slice(0, start + TABLE_START.length)}\n${settingsTable()}\n${doc.slice(end)}`;
}
