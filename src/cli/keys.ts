import { mintAccountToken } from '../account/jwt-mint';
import { monthlyLimitOf } from '../access/quota';
import { generateKey } from '../access/key-format';
import { TIERS, TIER_RULES, type Tier } from '../tiers';
import { openStateStore } from '../state/open-store';
import type { StateStore } from '../state/store';
import type { Account } from '../state/model';
import { printable } from './printable';
import { watchlistsLive } from '../watchlists/limits';
import { configFrom, parse } from './options';

const HELP = `facility-score keys <subcommand> [--state-dir DIR] [--redis-url URL]
  create --tier free|starter|platform|enterprise [--name N] [--subject S] [--json | --print-key]
                                                 new account + key (key printed once; --print-key prints only the key)
  list [--json]                                  accounts with tier, key prefix, usage this month
  (--json output of create, regenerate and list uses the same field names as the account API: account_id, tier, key_prefix, ...)
  revoke <account-id>                            kill the account's key at once (its watchlists go dormant)
  set-tier <account-id> <tier>                   (free: its watchlists go dormant; they resume on a plan with watchlists)
  set-limit <account-id> <calls|default>         per-account monthly cap
  regenerate <account-id> [--json]               new key for the account (old one dead at once; key printed once)
  watchlists <account-id> [--json]               the account's watchlists, live or dormant, with their webhook URL
  delete-watchlist <account-id> <watchlist-id>   delete a list and its queued deliveries (the owner cannot while dormant)
  token --subject S [--ttl SECONDS] [--name N]   account-login JWT signed with FCS_JWT_SECRET (no identity provider)`;

function asTier(s: string | undefined): Tier {
  if (!s || !(TIERS as readonly string[]).includes(s)) throw new Error(`--tier must be one of ${TIERS.join(', ')}`);
  return s as Tier;
}

/** One set of field names for every `--json` output of `keys` (create, regenerate, list). */
function accountFields(a: Account) {
  return {
    account_id: a.id,
    tier: a.tier,
    key_prefix: a.key_prefix,
    name: a.name,
    subject: a.subject,
    monthly_limit: a.monthly_limit,
    created_at: a.created_at,
    key_created_at: a.key_created_at,
  };
}

/** What an operator should know after a change that may have put an account's lists to sleep. */
async function dormantNote(store: StateStore, id: string): Promise<string> {
  const a = await store.getAccount(id);
  const n = (await store.watch.listWatchlists(id)).length;
  if (!a || n === 0 || watchlistsLive(a)) return '';
  return `; its ${n} watchlist${n === 1 ? ' is' : 's are'} dormant (no webhooks) until it has a live key on a plan with watchlists (\`keys watchlists ${id}\`, \`keys delete-watchlist\`)`;
}

async function mustExist(store: StateStore, id: string | undefined) {
  if (!id) throw new Error('an account id is required (see `keys list`)');
  const account = await store.getAccount(id);
  if (!account) throw new Error(`no account ${id}`);
  return account;
}

export async function keysCommand(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const { values, positionals } = parse(args, {
    tier: { type: 'string' },
    name: { type: 'string' },
    subject: { type: 'string' },
    json: { type: 'boolean' },
    'print-key': { type: 'boolean' },
    ttl: { type: 'string' },
  });
  const [sub, ...rest] = positionals;
  if (values.help || !sub) {
    console.log(HELP);
    return values.help ? 0 : 2;
  }
  const config = configFrom(env, values);
  const now = Date.now();
  if (sub === 'token') {
    console.log(await mintAccountToken(config.jwt, { subject: values.subject ?? '', ttlSec: Number(values.ttl ?? 3600), now, name: values.name }));
    return 0;
  }
  const store = await openStateStore(config);
  try {
    switch (sub) {
      case 'create': {
        const tier = asTier(values.tier);
        // One account per identity-provider subject: the account API finds accounts by it.
        if (values.subject && (await store.findAccountBySubject(values.subject))) throw new Error(`an account with subject ${values.subject} already exists (see \`keys list\`)`);
        const account = await store.createAccount({ name: values.name ?? '', subject: values.subject ?? '', tier, monthlyLimit: null, now });
        const k = generateKey();
        await store.setKey(account.id, k.hash, k.prefix, now);
        // --print-key: just the key and a newline, for KEY=$(... --print-key) in scripts.
        if (values['print-key']) console.log(k.key);
        else if (values.json) console.log(JSON.stringify({ key: k.key, ...accountFields((await store.getAccount(account.id))!) }));
        else console.log(`account ${account.id} (${TIER_RULES[tier].label})\nAPI key (shown once, store it now): ${k.key}`);
        return 0;
      }
      case 'list': {
        const accounts = await store.listAccounts();
        const rows = await Promise.all(accounts.map(async (a) => ({ ...accountFields(a), calls_this_month: await store.monthlyUsage(a.id, now), effective_limit: monthlyLimitOf(a) })));
        if (values.json) console.log(JSON.stringify(rows));
        else for (const r of rows) console.log(`${r.account_id}\t${r.tier}\t${r.key_prefix ?? '(no key)'}\t${r.calls_this_month}/${r.effective_limit}\t${r.name}\t${r.subject}`);
        return 0;
      }
      case 'revoke': {
        const a = await mustExist(store, rest[0]);
        const revoked = await store.revokeKey(a.id);
        console.log((revoked ? `revoked the key of ${a.id}` : `${a.id} had no live key`) + (await dormantNote(store, a.id)));
        return 0;
      }
      case 'regenerate': {
        const a = await mustExist(store, rest[0]);
        const k = generateKey();
        // The operator is not throttled (that limit protects the self-service endpoint), and an account without a key gets one.
        await store.setKey(a.id, k.hash, k.prefix, now);
        if (values.json) console.log(JSON.stringify({ key: k.key, ...accountFields((await store.getAccount(a.id))!) }));
        else console.log(`account ${a.id}: new API key (shown once, store it now; the old key no longer works): ${k.key}`);
        return 0;
      }
      case 'set-tier': {
        const a = await mustExist(store, rest[0]);
        await store.setTier(a.id, asTier(rest[1]));
        console.log(`${a.id} is now ${rest[1]}${await dormantNote(store, a.id)}`);
        return 0;
      }
      case 'watchlists': {
        const a = await mustExist(store, rest[0]);
        const live = watchlistsLive(a);
        const rows = (await store.watch.listWatchlists(a.id)).map((w) => ({ id: w.id, name: w.name, registry_ids: w.registry_ids.length, rule: w.rule?.type ?? 'any_change', webhook_url: w.webhook_url, state: live ? 'live' : 'dormant', created_at: w.created_at }));
        if (values.json) console.log(JSON.stringify(rows));
        else if (rows.length === 0) console.log(`${a.id} has no watchlists`);
        else for (const r of rows) console.log(`${r.id}\t${r.state}\t${r.registry_ids} IDs\t${r.rule}\t${r.webhook_url ?? '(no webhook)'}\t${printable(r.name)}`);
        return 0;
      }
      case 'delete-watchlist': {
        const a = await mustExist(store, rest[0]);
        if (!rest[1]) throw new Error('a watchlist id is required (see `keys watchlists <account-id>`)');
        if (!(await store.watch.deleteWatchlist(rest[1], a.id))) throw new Error(`${a.id} has no watchlist ${printable(rest[1])}`);
        console.log(`deleted watchlist ${rest[1]} of ${a.id} and its queued deliveries`);
        return 0;
      }
      case 'set-limit': {
        const a = await mustExist(store, rest[0]);
        const v = rest[1];
        if (v === undefined || (v !== 'default' && !/^\d+$/.test(v))) throw new Error('limit must be a whole number of calls or "default"');
        await store.setMonthlyLimit(a.id, v === 'default' ? null : Number(v));
        console.log(`${a.id} monthly limit: ${v === 'default' ? `tier default (${TIER_RULES[a.tier].monthlyCalls})` : v}`);
        return 0;
      }
      default:
        throw new Error(`unknown keys subcommand "${sub}"\n${HELP}`);
    }
  } finally {
    await store.close();
  }
}
