import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, cli } from '../support/process';

/** Every `--flag` of the settings tables (rows naming an environment variable) in the operations and accounts docs. */
function documentedServeFlags(): string[] {
  const text = ['operations.md', 'accounts.md'].map((f) => readFileSync(join(ROOT, 'docs', f), 'utf8')).join('\n');
  const rows = text.split('\n').filter((l) => l.startsWith('|') && /`(FCS_|REDIS_URL)/.test(l));
  return [...new Set(rows.flatMap((l) => [...l.matchAll(/`(--[a-z][a-z-]+)/g)].map((m) => m[1]!)))];
}

describe('serve accepts every flag the docs promise', () => {
  const flags = documentedServeFlags();

  it('the docs list the core flags at all', () => {
    expect(flags).toEqual(expect.arrayContaining(['--port', '--host', '--index', '--state-dir', '--redis-url', '--report-cache-dir', '--report-cache-max-mb', '--trusted-proxies']));
  });

  it.each(flags)('serve %s is a known option', (flag) => {
    // --help stops after option parsing, which is strict: an unknown flag exits 1 with "Unknown option".
    const r = cli(['serve', flag, 'x', '--help']);
    expect(r.stderr).not.toContain('Unknown option');
    expect(r.code).toBe(0);
  });
});
