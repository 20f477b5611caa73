import { describe, expect, it } from 'bun:test';
import { generateKey } from '../../src/access/key-format';
import type { StateStore } from '../../src/state/store';
import { freshStores } from './fresh-stores';

/** 2026-11-15T12:00:00Z, and the next month's first instant. */
const NOW = Date.UTC(2026, 10, 15, 12);
const DEC_1 = Date.UTC(2026, 11, 1);
const HOUR = 3_600_000;

/**
 * The behaviour every StateStore must have, run against each implementation (SQLite, Redis with the
 * caller's clock). `open` gives a fresh, empty store per test.
 */
export function storeContract(name: string, open: () => Promise<StateStore>) {
  describe(`${name} store contract`, () => {
    const fresh = freshStores(open);
    async function withKey(s: StateStore, tier: 'free' | 'starter' = 'free', subject = '') {
      const a = await s.createAccount({ name: 'n', subject, tier, monthlyLimit: null, now: NOW });
      const k = generateKey();
      await s.setKey(a.id, k.hash, k.prefix, NOW);
      return { account: a, ...k };
    }

    describe('accounts', () => {
      it('a created account reads back with every field, and has no key yet', async () => {
        const s = await fresh();
        const a = await s.createAccount({ name: 'Acme', subject: 'auth0|1', tier: 'starter', monthlyLimit: 250, now: NOW });
        expect(a).toEqual({ id: a.id, name: 'Acme', subject: 'auth0|1', tier: 'starter', monthly_limit: 250, created_at: '2026-11-15T12:00:00.000Z', key_prefix: null, key_created_at: null });
        expect(a.id).toMatch(/^acct_[0-9a-f]{16}$/);
        expect(await s.getAccount(a.id)).toEqual(a);
      });

      it('an unknown account id reads as null and cannot be changed', async () => {
        const s = await fresh();
        expect(await s.getAccount('acct_0000000000000000')).toBeNull();
        expect(await s.setTier('acct_0000000000000000', 'platform')).toBe(false);
        expect(await s.setMonthlyLimit('acct_0000000000000000', 5)).toBe(false);
        expect(await s.revokeKey('acct_0000000000000000')).toBe(false);
        expect(await s.getAccount('acct_0000000000000000')).toBeNull();
      });

      it('tier and monthly limit change, and a null limit means the tier default again', async () => {
        const s = await fresh();
        const a = await s.createAccount({ name: '', subject: '', tier: 'free', monthlyLimit: null, now: NOW });
        expect(await s.setTier(a.id, 'enterprise')).toBe(true);
        expect(await s.setMonthlyLimit(a.id, 0)).toBe(true);
        expect(await s.getAccount(a.id)).toMatchObject({ tier: 'enterprise', monthly_limit: 0 });
        expect(await s.setMonthlyLimit(a.id, null)).toBe(true);
        expect((await s.getAccount(a.id))!.monthly_limit).toBeNull();
      });

      it('a subject finds its earliest account; the empty subject finds nothing', async () => {
        const s = await fresh();
        const first = await s.createAccount({ name: 'a', subject: 'sub-1', tier: 'free', monthlyLimit: null, now: NOW });
        await s.createAccount({ name: 'b', subject: 'sub-1', tier: 'free', monthlyLimit: null, now: NOW + 1000 });
        await s.createAccount({ name: 'c', subject: '', tier: 'free', monthlyLimit: null, now: NOW });
        expect((await s.findAccountBySubject('sub-1'))!.id).toBe(first.id);
        expect(await s.findAccountBySubject('sub-2')).toBeNull();
        expect(await s.findAccountBySubject('')).toBeNull();
      });

      it('accounts are listed by creation time', async () => {
        const s = await fresh();
        const late = await s.createAccount({ name: 'late', subject: '', tier: 'free', monthlyLimit: null, now: NOW + 5000 });
        const early = await s.createAccount({ name: 'early', subject: '', tier: 'free', monthlyLimit: null, now: NOW });
        expect((await s.listAccounts()).map((a) => a.id)).toEqual([early.id, late.id]);
      });
    });

    describe('keys', () => {
      it('a key finds its account, with display prefix and time, and nothing else finds it', async () => {
        const s = await fresh();
        const k = await withKey(s);
        expect(await s.findAccountByKeyHash(k.hash)).toMatchObject({ id: k.account.id, key_prefix: k.prefix, key_created_at: '2026-11-15T12:00:00.000Z' });
        expect(await s.findAccountByKeyHash(generateKey().hash)).toBeNull();
      });

      it('setting a new key kills the old one', async () => {
        const s = await fresh();
        const k = await withKey(s);
        const k2 = generateKey();
        await s.setKey(k.account.id, k2.hash, k2.prefix, NOW + 1);
        expect(await s.findAccountByKeyHash(k.hash)).toBeNull();
        expect((await s.findAccountByKeyHash(k2.hash))!.id).toBe(k.account.id);
      });

      it('a key set on an unknown account authenticates nobody', async () => {
        const s = await fresh();
        const k = generateKey();
        await s.setKey('acct_ffffffffffffffff', k.hash, k.prefix, NOW);
        expect(await s.findAccountByKeyHash(k.hash)).toBeNull();
      });

      it('revoking kills the key at once and clears its prefix; a second revoke reports nothing to do', async () => {
        const s = await fresh();
        const k = await withKey(s);
        expect(await s.revokeKey(k.account.id)).toBe(true);
        expect(await s.findAccountByKeyHash(k.hash)).toBeNull();
        expect(await s.getAccount(k.account.id)).toMatchObject({ key_prefix: null, key_created_at: null });
        expect(await s.revokeKey(k.account.id)).toBe(false);
      });
    });

    describe('key regeneration', () => {
      it('an account without a key has nothing to regenerate', async () => {
        const s = await fresh();
        const a = await s.createAccount({ name: '', subject: '', tier: 'free', monthlyLimit: null, now: NOW });
        const k = generateKey();
        expect(await s.regenerateKey(a.id, k.hash, k.prefix, NOW, 60_000)).toEqual({ ok: false, reason: 'no_key' });
        expect(await s.findAccountByKeyHash(k.hash)).toBeNull();
      });

      it('regeneration swaps keys, then is throttled for the rest of the minute, then allowed again', async () => {
        const s = await fresh();
        const k = await withKey(s);
        const k2 = generateKey();
        expect(await s.regenerateKey(k.account.id, k2.hash, k2.prefix, NOW, 60_000)).toEqual({ ok: true });
        expect(await s.findAccountByKeyHash(k.hash)).toBeNull();
        expect((await s.findAccountByKeyHash(k2.hash))!.key_prefix).toBe(k2.prefix);

        const k3 = generateKey();
        expect(await s.regenerateKey(k.account.id, k3.hash, k3.prefix, NOW + 20_500, 60_000)).toEqual({ ok: false, reason: 'throttled', retryAfterSec: 40 });
        expect((await s.findAccountByKeyHash(k2.hash))!.id).toBe(k.account.id);
        expect(await s.findAccountByKeyHash(k3.hash)).toBeNull();
        expect(await s.regenerateKey(k.account.id, k3.hash, k3.prefix, NOW + 60_000, 60_000)).toEqual({ ok: true });
        expect(await s.findAccountByKeyHash(k2.hash)).toBeNull();
      });

      it('of concurrent regenerations exactly one wins, and only its key works', async () => {
        const s = await fresh();
        const k = await withKey(s);
        const keys = Array.from({ length: 20 }, () => generateKey());
        const results = await Promise.all(keys.map((n) => s.regenerateKey(k.account.id, n.hash, n.prefix, NOW, 60_000)));
        const winners = keys.filter((_, i) => results[i]!.ok);
        expect(winners).toHaveLength(1);
        for (const n of keys) expect((await s.findAccountByKeyHash(n.hash))?.id ?? null).toBe(n === winners[0] ? k.account.id : null);
      });
    });

    describe('first key of a subject', () => {
      it('creates the account and installs the key; a second attempt finds the live key', async () => {
        const s = await fresh();
        const k = generateKey();
        const r = await s.issueFirstKey({ subject: 'idp|7', name: 'Seven', tier: 'free', keyHash: k.hash, prefix: k.prefix, now: NOW });
        expect(r).toMatchObject({ ok: true, created: true, account: { subject: 'idp|7', name: 'Seven', tier: 'free', key_prefix: k.prefix } });
        expect((await s.findAccountByKeyHash(k.hash))!.subject).toBe('idp|7');
        const again = await s.issueFirstKey({ subject: 'idp|7', name: 'Seven', tier: 'free', keyHash: generateKey().hash, prefix: 'x', now: NOW });
        expect(again).toMatchObject({ ok: false, reason: 'key_exists', account: { id: r.account.id } });
      });

      it('an existing account without a live key gets the key, keeping its id and tier', async () => {
        const s = await fresh();
        const a = await s.createAccount({ name: 'old', subject: 'idp|8', tier: 'platform', monthlyLimit: null, now: NOW });
        const k = generateKey();
        const r = await s.issueFirstKey({ subject: 'idp|8', name: 'new', tier: 'free', keyHash: k.hash, prefix: k.prefix, now: NOW });
        expect(r).toMatchObject({ ok: true, created: false, account: { id: a.id, tier: 'platform', key_prefix: k.prefix } });
      });

      it('concurrent first calls of one subject make one account and one live key', async () => {
        const s = await fresh();
        const keys = Array.from({ length: 10 }, () => generateKey());
        const results = await Promise.all(keys.map((k) => s.issueFirstKey({ subject: 'idp|9', name: '', tier: 'free', keyHash: k.hash, prefix: k.prefix, now: NOW })));
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        expect(new Set(results.map((r) => r.account.id)).size).toBe(1);
        expect(await s.listAccounts()).toHaveLength(1);
      });
    });

    describe('monthly usage', () => {
      it('counts up to the limit, then refuses without counting, with the month boundary as reset', async () => {
        const s = await fresh();
        const seen = [];
        for (let i = 0; i < 4; i++) seen.push(await s.consumeMonthly('acct_a', 3, NOW));
        expect(seen).toEqual([
          { allowed: true, used: 1, limit: 3, resetAt: DEC_1 },
          { allowed: true, used: 2, limit: 3, resetAt: DEC_1 },
          { allowed: true, used: 3, limit: 3, resetAt: DEC_1 },
          { allowed: false, used: 3, limit: 3, resetAt: DEC_1 },
        ]);
        expect(await s.monthlyUsage('acct_a', NOW)).toBe(3);
      });

      it('a limit of zero refuses the first call', async () => {
        const s = await fresh();
        expect(await s.consumeMonthly('acct_z', 0, NOW)).toEqual({ allowed: false, used: 0, limit: 0, resetAt: DEC_1 });
      });

      it('each UTC calendar month counts afresh, and accounts count apart', async () => {
        const s = await fresh();
        await s.consumeMonthly('acct_a', 1, DEC_1 - 1);
        expect((await s.consumeMonthly('acct_a', 1, DEC_1 - 1)).allowed).toBe(false);
        expect(await s.consumeMonthly('acct_a', 1, DEC_1)).toEqual({ allowed: true, used: 1, limit: 1, resetAt: Date.UTC(2027, 0, 1) });
        expect((await s.consumeMonthly('acct_b', 1, DEC_1 - 1)).allowed).toBe(true);
        expect(await s.monthlyUsage('acct_a', NOW)).toBe(1);
        expect(await s.monthlyUsage('acct_c', NOW)).toBe(0);
      });

      it('concurrent calls never overshoot: exactly the limit is allowed', async () => {
        const s = await fresh();
        const results = await Promise.all(Array.from({ length: 60 }, () => s.consumeMonthly('acct_c', 10, NOW)));
        expect(results.filter((r) => r.allowed)).toHaveLength(10);
        expect(results.filter((r) => r.allowed).map((r) => r.used).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        expect(await s.monthlyUsage('acct_c', NOW)).toBe(10);
      });

      it('a refund gives one call back and never goes below zero', async () => {
        const s = await fresh();
        await s.consumeMonthly('acct_r', 5, NOW);
        await s.consumeMonthly('acct_r', 5, NOW);
        await s.refundMonthly('acct_r', NOW);
        expect(await s.monthlyUsage('acct_r', NOW)).toBe(1);
        await s.refundMonthly('acct_r', NOW);
        await s.refundMonthly('acct_r', NOW);
        expect(await s.monthlyUsage('acct_r', NOW)).toBe(0);
        expect((await s.consumeMonthly('acct_r', 5, NOW)).used).toBe(1);
      });
    });

    describe('rolling windows', () => {
      it('allows `limit` hits per window; the next waits for the oldest hit to age out', async () => {
        const s = await fresh();
        for (let i = 0; i < 5; i++) expect(await s.hitWindow('ip:1', 5, HOUR, NOW + i * 60_000)).toEqual({ allowed: true, used: i + 1, limit: 5, resetAt: NOW + HOUR });
        expect(await s.hitWindow('ip:1', 5, HOUR, NOW + 30 * 60_000)).toEqual({ allowed: false, used: 5, limit: 5, resetAt: NOW + HOUR });
        // The window rolls: one hour after the first hit exactly one slot is free again.
        expect(await s.hitWindow('ip:1', 5, HOUR, NOW + HOUR)).toEqual({ allowed: true, used: 5, limit: 5, resetAt: NOW + 60_000 + HOUR });
        expect((await s.hitWindow('ip:1', 5, HOUR, NOW + HOUR + 1)).allowed).toBe(false);
        expect((await s.hitWindow('ip:1', 5, HOUR, NOW + HOUR + 60_000)).allowed).toBe(true);
      });

      it('windows of different keys are independent', async () => {
        const s = await fresh();
        expect((await s.hitWindow('ip:a', 1, HOUR, NOW)).allowed).toBe(true);
        expect((await s.hitWindow('ip:a', 1, HOUR, NOW)).allowed).toBe(false);
        expect((await s.hitWindow('ip:b', 1, HOUR, NOW)).allowed).toBe(true);
      });

      it('concurrent hits never overshoot the window limit', async () => {
        const s = await fresh();
        const results = await Promise.all(Array.from({ length: 40 }, () => s.hitWindow('ip:c', 5, HOUR, NOW)));
        expect(results.filter((r) => r.allowed)).toHaveLength(5);
      });
    });

    it('answers ping while it is usable', async () => {
      const s = await fresh();
      expect(await s.ping()).toBe(true);
    });
  });
}
