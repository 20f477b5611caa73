import { describe, expect, it } from 'bun:test';
import { generateKey, hashKey } from '../../src/access/key-format';
import { SqliteStateStore } from '../../src/state/sqlite-store';
import { FIXED_NOW } from '../helpers';
import { tempPath } from '../support/temp-dir';

function twoConnections() {
  const path = tempPath('key-cache', 'state.sqlite');
  return { server: new SqliteStateStore(path), admin: new SqliteStateStore(path) };
}

describe('cached key lookups of the SQLite state store', () => {
  it('a key revoked by another process (the admin CLI) stops working within 250 ms', async () => {
    const { server, admin } = twoConnections();
    const a = await admin.createAccount({ name: 'x', subject: '', tier: 'starter', monthlyLimit: null, now: FIXED_NOW });
    const k = generateKey();
    await admin.setKey(a.id, k.hash, k.prefix, FIXED_NOW);
    expect((await server.findAccountByKeyHash(k.hash))?.id).toBe(a.id);
    await admin.revokeKey(a.id);
    await Bun.sleep(300);
    expect(await server.findAccountByKeyHash(k.hash)).toBeNull();
  });

  it('a tier changed by another process is seen within 250 ms', async () => {
    const { server, admin } = twoConnections();
    const a = await admin.createAccount({ name: 'x', subject: '', tier: 'free', monthlyLimit: null, now: FIXED_NOW });
    const k = generateKey();
    await admin.setKey(a.id, k.hash, k.prefix, FIXED_NOW);
    expect((await server.findAccountByKeyHash(k.hash))?.tier).toBe('free');
    await admin.setTier(a.id, 'platform');
    await Bun.sleep(300);
    expect((await server.findAccountByKeyHash(k.hash))?.tier).toBe('platform');
  });

  it('a regeneration in this process kills the old key at the very next lookup', async () => {
    const { server } = twoConnections();
    const a = await server.createAccount({ name: 'x', subject: 's', tier: 'starter', monthlyLimit: null, now: FIXED_NOW });
    const old = generateKey();
    await server.setKey(a.id, old.hash, old.prefix, FIXED_NOW);
    expect(await server.findAccountByKeyHash(old.hash)).not.toBeNull();
    const fresh = generateKey();
    expect(await server.regenerateKey(a.id, fresh.hash, fresh.prefix, FIXED_NOW, 60_000)).toEqual({ ok: true });
    expect(await server.findAccountByKeyHash(old.hash)).toBeNull();
    expect((await server.findAccountByKeyHash(fresh.hash))?.id).toBe(a.id);
  });

  it('wrong keys are not cached, so a flood of them holds no memory', async () => {
    const { server } = twoConnections();
    for (let i = 0; i < 1000; i++) expect(await server.findAccountByKeyHash(hashKey(`fcs_live_wrong${i}`))).toBeNull();
    expect((server as any).keyCache.size).toBe(0);
  });
});
