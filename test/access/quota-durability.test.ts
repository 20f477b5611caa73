import { describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import { cli, startServer, tempIndex } from '../support/process';

describe('counted calls survive the process (real serve process)', () => {
  it('after kill -9, every call answered 200 is still counted, and the cap still holds', async () => {
    const { dir, indexPath } = tempIndex();
    const stateDir = join(dir, 'state');
    const args = ['--index', indexPath, '--state-dir', stateDir];
    const { key, account_id } = JSON.parse(cli(['keys', 'create', '--tier', 'free', '--json', '--state-dir', stateDir]).stdout);

    const first = await startServer(args);
    let ok = 0;
    for (let i = 0; i < 6; i++) {
      const r = await fetch(`${first.base}/api/v1/facility/990000000001`, { headers: { 'x-api-key': key } });
      if (r.status === 200) ok++;
    }
    expect(ok).toBe(6);
    await first.stop('SIGKILL');

    const listed = (JSON.parse(cli(['keys', 'list', '--json', '--state-dir', stateDir]).stdout) as any[]).find((a) => a.account_id === account_id);
    expect(listed.calls_this_month).toBe(6);

    const second = await startServer(args);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await fetch(`${second.base}/api/v1/facility/990000000001`, { headers: { 'x-api-key': key } })).status);
    await second.stop('SIGKILL');
    expect(statuses).toEqual([200, 200, 200, 200, 402, 402]);
  });

  it('a missing index fails at start with a one-line error', () => {
    const r = cli(['serve', '--index', '/nonexistent/index.sqlite', '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('index file not found');
  });
});
