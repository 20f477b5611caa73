import { afterAll, describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import { SqliteStateStore } from '../../src/state/sqlite-store';
import { NOT_SENT_DORMANT, WebhookDispatcher } from '../../src/watchlists/webhooks/dispatcher';
import { emitReleaseEvents } from '../../src/watchlists/webhooks/release-events';
import type { WatchlistRecord } from '../../src/watchlists/model';
import { makeConfig } from '../../src/config';
import { historyIndex } from '../support/history-index';
import { cli } from '../support/process';
import { A, B, C, D, HISTORY, HISTORY_2, RELEASES, RELEASES_2, ROWS_2, ROWS_3 } from '../support/release-fixture';
import { tempDir } from '../support/temp-dir';
import { startReceiver } from '../support/webhook-receiver';

// The operator's side of dormant watchlists: `keys` run as a real process on a state directory,
// the dispatcher and the release step in this process on the same state file. Each `keys` process
// takes about a second on a busy machine, hence the longer timeouts.

const stateDir = tempDir('keys-watchlists');
const s = ['--state-dir', stateDir];
const receiver = startReceiver();
const store = new SqliteStateStore(join(stateDir, 'state.sqlite'));
afterAll(async () => {
  receiver.stop();
  await store.close();
});

const settings = makeConfig({ webhookAllow: ['127.0.0.1/32'], webhookRetryBaseMs: 50, webhookTimeoutMs: 1000, webhookLeaseMs: 5000 });
const accounts = (id: string) => store.getAccount(id);
const dispatcher = new WebhookDispatcher({ watch: store.watch, accounts, settings, log: () => undefined, clock: Date.now });

function account(tier: string): string {
  const r = cli(['keys', 'create', '--tier', tier, '--json', ...s]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).account_id;
}

async function listOf(accountId: string, id: string): Promise<WatchlistRecord> {
  const w: WatchlistRecord = { id, account_id: accountId, name: `list of ${accountId}`, registry_ids: [A, B, C, D], rule: null, webhook_url: receiver.url(`/${id}`), webhook_secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', base_as_of: '2026-10-01', created_at: '2026-10-02T00:00:00.000Z', updated_at: '2026-10-02T00:00:00.000Z' };
  expect(await store.watch.createWatchlist(w, 100)).toBe(true);
  return w;
}

const watchlistsOf = (id: string) => {
  const r = cli(['keys', 'watchlists', id, '--json', ...s]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { id: string; state: string; webhook_url: string | null; registry_ids: number }[];
};

describe('revoked and downgraded accounts: dormant watchlists, operator commands', () => {
  const revoked = account('enterprise');
  const downgraded = account('platform');
  const bystander = account('starter');

  it('keys watchlists lists an account\'s lists with their webhook and state', async () => {
    await listOf(revoked, 'wl_00000000000000d1');
    await listOf(downgraded, 'wl_00000000000000d2');
    await listOf(bystander, 'wl_00000000000000d3');
    expect(watchlistsOf(revoked)).toEqual([expect.objectContaining({ id: 'wl_00000000000000d1', state: 'live', registry_ids: 4, webhook_url: receiver.url('/wl_00000000000000d1') })]);
    const text = cli(['keys', 'watchlists', revoked, ...s]).stdout;
    expect(text).toContain('wl_00000000000000d1\tlive\t4 IDs\tany_change\t');
  }, 30_000);

  it('after keys revoke and keys set-tier free, queued events are not sent and a new release makes none for them', async () => {
    // Events of an earlier release, queued while the accounts were live.
    const r2 = historyIndex(ROWS_2, RELEASES_2, HISTORY_2);
    expect(await emitReleaseEvents({ index: r2, watch: store.watch, accounts, now: Date.now(), log: () => undefined })).toBe(9);

    const rv = cli(['keys', 'revoke', revoked, ...s]);
    expect(rv.code).toBe(0);
    expect(rv.stdout).toContain('its 1 watchlist is dormant');
    const dg = cli(['keys', 'set-tier', downgraded, 'free', ...s]);
    expect(dg.code).toBe(0);
    expect(dg.stdout).toContain('dormant');

    await dispatcher.tick();
    const paths = receiver.received.map((r) => r.path);
    expect(paths.filter((p) => p === '/wl_00000000000000d3').length).toBe(3);
    expect(paths.filter((p) => p !== '/wl_00000000000000d3')).toEqual([]);
    for (const id of ['wl_00000000000000d1', 'wl_00000000000000d2']) {
      const ds = await store.watch.listDeliveries(id, 10);
      expect(ds.length).toBe(3);
      for (const d of ds) expect(d).toMatchObject({ status: 'failed', attempts: [{ error: NOT_SENT_DORMANT, status_code: null }] });
    }
    expect(watchlistsOf(revoked)[0]!.state).toBe('dormant');
    expect(watchlistsOf(downgraded)[0]!.state).toBe('dormant');
  }, 30_000);

  it('a new release while dormant makes no events for the dormant lists; after keys regenerate and an upgrade they resume', async () => {
    const r3 = historyIndex(ROWS_3, RELEASES, HISTORY);
    // Release 3 arrives while both are dormant: only the bystander's list gets its 2 changes.
    expect(await emitReleaseEvents({ index: r3, watch: store.watch, accounts, now: Date.now(), log: () => undefined })).toBe(2);
    expect(cli(['keys', 'regenerate', revoked, ...s]).code).toBe(0);
    expect(cli(['keys', 'set-tier', downgraded, 'platform', ...s]).code).toBe(0);
    expect(watchlistsOf(revoked)[0]!.state).toBe('live');
    // Back to live: a dormant-era failure can be redelivered, and it now goes out.
    const [missed] = await store.watch.listDeliveries('wl_00000000000000d1', 1);
    expect(await store.watch.redeliver('wl_00000000000000d1', missed!.id, Date.now())).toBe(true);
    const before = receiver.received.length;
    await dispatcher.tick();
    expect(receiver.received.slice(before).map((r) => [r.path, r.id])).toEqual(expect.arrayContaining([['/wl_00000000000000d1', missed!.id]]));
    expect(receiver.received.slice(before).filter((r) => r.path === '/wl_00000000000000d3').length).toBe(2);
  }, 30_000);

  it('keys delete-watchlist removes a list and its deliveries; only the owner\'s id finds it', async () => {
    const wrongOwner = cli(['keys', 'delete-watchlist', bystander, 'wl_00000000000000d1', ...s]);
    expect(wrongOwner.code).toBe(1);
    expect(wrongOwner.stderr).toContain(`${bystander} has no watchlist wl_00000000000000d1`);
    const r = cli(['keys', 'delete-watchlist', revoked, 'wl_00000000000000d1', ...s]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('deleted watchlist wl_00000000000000d1');
    expect(watchlistsOf(revoked)).toEqual([]);
    expect(cli(['keys', 'watchlists', revoked, ...s]).stdout).toContain(`${revoked} has no watchlists`);
    expect(await store.watch.listDeliveries('wl_00000000000000d1', 10)).toEqual([]);
    expect(watchlistsOf(bystander).length).toBe(1);
  }, 30_000);

  it.each([
    [['keys', 'watchlists'], /an account id is required/],
    [['keys', 'watchlists', 'acct_nope'], /no account acct_nope/],
    [['keys', 'delete-watchlist', 'acct_nope', 'wl_0000000000000000'], /no account acct_nope/],
  ])('bad usage %p fails with a one-line reason and exit code 1', (args, message) => {
    const r = cli([...args, ...s]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
  }, 30_000);
});
