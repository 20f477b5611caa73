/**
 * The Lua scripts of the Redis state store. Each runs atomically on the server, so every
 * check-and-count is one step no other replica can interleave with.
 *
 * Conventions: ARGV[1] is the key namespace (e.g. `fcs:`); the last ARGV is a nonce that the script
 * returns as the last element of its reply, so the client can prove each reply belongs to its request.
 * A "now" argument of '' means "use the Redis server's TIME" (production); a number is the caller's
 * clock (tests). Keys: `<ns>a:<id>` account hash, `<ns>k:<sha256>` key -> account id,
 * `<ns>s:<subject>` subject -> account id, `<ns>accounts` sorted set of ids by creation time,
 * `<ns>u:<id>:<YYYY-MM>` monthly usage, `<ns>w:<key>` rolling-window hit times.
 */

import { ACCOUNT_FIELDS_LUA } from './account-codec';

/** Usage counters outlive their month by this much, so `keys list` can still show last month for a while. */
export const USAGE_KEEP_MS = 35 * 86_400_000;
/** Window lists live this long past the window, so a caller clock slightly behind Redis loses no hits. */
export const WINDOW_SLACK_MS = 60_000;

/** Time and calendar helpers, for scripts that decide by month or window. */
const CLOCK = `
local function now_ms(arg)
  if arg ~= '' then return tonumber(arg) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- Howard Hinnant's days_from_civil / civil_from_days: UTC calendar arithmetic without os.date.
local function days_from_civil(y, m, d)
  if m <= 2 then y = y - 1 end
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local mp = (m > 2) and (m - 3) or (m + 9)
  local doy = math.floor((153 * mp + 2) / 5) + d - 1
  local doe = yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
end
-- The UTC calendar month of an instant as YYYY-MM, and the instant (ms) the next month begins.
local function month_of(ms)
  local z = math.floor(ms / 86400000) + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local m = (mp < 10) and (mp + 3) or (mp - 9)
  local y = yoe + era * 400
  if m <= 2 then y = y + 1 end
  local ny, nm = y, m + 1
  if nm == 13 then ny, nm = y + 1, 1 end
  return string.format('%d-%02d', y, m), days_from_civil(ny, nm, 1) * 86400000
end
`;

/** Account and key helpers. */
const ACCOUNTS = `
local ACCOUNT_FIELDS = ${ACCOUNT_FIELDS_LUA}
local function account(ns, id)
  return redis.call('HMGET', ns .. 'a:' .. id, unpack(ACCOUNT_FIELDS))
end
local function live_key(ns, id)
  local h = redis.call('HGET', ns .. 'a:' .. id, 'key_hash')
  if h and h ~= '' then return h end
  return nil
end
local function install_key(ns, id, hash, prefix, at)
  local old = live_key(ns, id)
  if old then redis.call('DEL', ns .. 'k:' .. old) end
  redis.call('SET', ns .. 'k:' .. hash, id)
  redis.call('HSET', ns .. 'a:' .. id, 'key_hash', hash, 'key_prefix', prefix, 'key_created_at', at)
end
local function create_account(ns, id, name, subject, tier, limit, at, at_ms)
  redis.call('HSET', ns .. 'a:' .. id, 'id', id, 'name', name, 'subject', subject, 'tier', tier, 'monthly_limit', limit,
    'created_at', at, 'created_ms', at_ms, 'key_hash', '', 'key_prefix', '', 'key_created_at', '', 'last_regenerated_at', '')
  redis.call('ZADD', ns .. 'accounts', at_ms, id)
  if subject ~= '' then
    -- The subject names its earliest-created account (as the SQLite store's ORDER BY created_at).
    local sk = ns .. 's:' .. subject
    local cur = redis.call('GET', sk)
    if not cur or tonumber(redis.call('HGET', ns .. 'a:' .. cur, 'created_ms') or '0') > tonumber(at_ms) then redis.call('SET', sk, id) end
  end
end
`;

/** ARGV: ns, limit, now, nonce -> {allowed 0|1, used, resetAt, month, nonce} */
const consume = `
local now = now_ms(ARGV[3])
local month, reset = month_of(now)
local key = ARGV[1] .. 'u:' .. KEYS[1] .. ':' .. month
local used = tonumber(redis.call('GET', key) or '0')
if used >= tonumber(ARGV[2]) then return {0, used, reset, month, ARGV[4]} end
used = redis.call('INCR', key)
redis.call('PEXPIRE', key, reset - now + ${USAGE_KEEP_MS})
return {1, used, reset, month, ARGV[4]}`;

/** ARGV: ns, now, month ('' = month of now), nonce -> {nonce}. Never goes below zero. */
const refund = `
local month = ARGV[3]
if month == '' then month = month_of(now_ms(ARGV[2])) end
local key = ARGV[1] .. 'u:' .. KEYS[1] .. ':' .. month
if tonumber(redis.call('GET', key) or '0') > 0 then redis.call('DECR', key) end
return {ARGV[4]}`;

/** ARGV: ns, now, nonce -> {used, nonce} */
const usage = `
local month = month_of(now_ms(ARGV[2]))
return {tonumber(redis.call('GET', ARGV[1] .. 'u:' .. KEYS[1] .. ':' .. month) or '0'), ARGV[3]}`;

/** KEYS[1] window name. ARGV: ns, limit, windowMs, now, nonce -> {allowed 0|1, used, resetAt, nonce} */
const hitWindow = `
local key = ARGV[1] .. 'w:' .. KEYS[1]
local limit, win, now = tonumber(ARGV[2]), tonumber(ARGV[3]), now_ms(ARGV[4])
local times = redis.call('LRANGE', key, 0, -1)
local kept = {}
for _, t in ipairs(times) do if tonumber(t) > now - win then kept[#kept + 1] = t end end
if #kept ~= #times then
  redis.call('DEL', key)
  if #kept > 0 then redis.call('RPUSH', key, unpack(kept)) end
end
if #kept >= limit then
  local first = kept[1] and tonumber(kept[1]) or now
  if #kept > 0 then redis.call('PEXPIRE', key, win + ${WINDOW_SLACK_MS}) end
  return {0, #kept, first + win, ARGV[5]}
end
redis.call('RPUSH', key, string.format('%d', now))
redis.call('PEXPIRE', key, win + ${WINDOW_SLACK_MS})
return {1, #kept + 1, tonumber(kept[1] or now) + win, ARGV[5]}`;

/** KEYS[1] account id. ARGV: ns, name, subject, tier, monthly_limit ('' = null), created_at, created_ms, nonce -> {nonce} */
const createAccount = `
create_account(ARGV[1], KEYS[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7])
return {ARGV[8]}`;

/** KEYS[1] account id. ARGV: ns, field, value, nonce -> {1 if the account exists, nonce} */
const setField = `
if redis.call('EXISTS', ARGV[1] .. 'a:' .. KEYS[1]) == 0 then return {0, ARGV[4]} end
redis.call('HSET', ARGV[1] .. 'a:' .. KEYS[1], ARGV[2], ARGV[3])
return {1, ARGV[4]}`;

/** KEYS[1] account id. ARGV: ns, hash, prefix, at, nonce -> {1 if installed, nonce} */
const setKey = `
if redis.call('EXISTS', ARGV[1] .. 'a:' .. KEYS[1]) == 0 then return {0, ARGV[5]} end
install_key(ARGV[1], KEYS[1], ARGV[2], ARGV[3], ARGV[4])
return {1, ARGV[5]}`;

/** KEYS[1] account id. ARGV: ns, nonce -> {1 if a live key was killed, nonce} */
const revokeKey = `
local old = live_key(ARGV[1], KEYS[1])
if not old then return {0, ARGV[2]} end
redis.call('DEL', ARGV[1] .. 'k:' .. old)
redis.call('HSET', ARGV[1] .. 'a:' .. KEYS[1], 'key_hash', '', 'key_prefix', '', 'key_created_at', '')
return {1, ARGV[2]}`;

/** KEYS[1] account id. ARGV: ns, hash, prefix, at, now, throttleMs, nonce -> {'ok'|'no_key'|'throttled', waitMs, nonce} */
const regenerateKey = `
if not live_key(ARGV[1], KEYS[1]) then return {'no_key', 0, ARGV[7]} end
local now = now_ms(ARGV[5])
local last = redis.call('HGET', ARGV[1] .. 'a:' .. KEYS[1], 'last_regenerated_at')
if last and last ~= '' and now - tonumber(last) < tonumber(ARGV[6]) then
  return {'throttled', tonumber(last) + tonumber(ARGV[6]) - now, ARGV[7]}
end
install_key(ARGV[1], KEYS[1], ARGV[2], ARGV[3], ARGV[4])
redis.call('HSET', ARGV[1] .. 'a:' .. KEYS[1], 'last_regenerated_at', string.format('%d', now))
return {'ok', 0, ARGV[7]}`;

/** KEYS[1] key hash. ARGV: ns, nonce -> {account (HMGET of ACCOUNT_FIELDS) or {}, nonce} */
const findByKey = `
local id = redis.call('GET', ARGV[1] .. 'k:' .. KEYS[1])
if not id then return {{}, ARGV[2]} end
return {account(ARGV[1], id), ARGV[2]}`;

/**
 * KEYS[1] subject. ARGV: ns, new id, name, tier, at, at_ms, hash, prefix, nonce
 * -> {'ok'|'key_exists', account (HMGET of ACCOUNT_FIELDS), created 0|1, nonce}
 */
const issueFirstKey = `
local ns, subject = ARGV[1], KEYS[1]
local id = nil
if subject ~= '' then id = redis.call('GET', ns .. 's:' .. subject) end
local created = 0
if id then
  if live_key(ns, id) then return {'key_exists', account(ns, id), 0, ARGV[9]} end
else
  id = ARGV[2]
  create_account(ns, id, ARGV[3], subject, ARGV[4], '', ARGV[5], ARGV[6])
  created = 1
end
install_key(ns, id, ARGV[7], ARGV[8], ARGV[5])
return {'ok', account(ns, id), created, ARGV[9]}`;

// Each script carries only the helpers it uses: Lua re-creates them on every call.
const BODIES = {
  consume: CLOCK + consume,
  refund: CLOCK + refund,
  usage: CLOCK + usage,
  hitWindow: CLOCK + hitWindow,
  createAccount: ACCOUNTS + createAccount,
  setField,
  setKey: ACCOUNTS + setKey,
  revokeKey: ACCOUNTS + revokeKey,
  regenerateKey: CLOCK + ACCOUNTS + regenerateKey,
  findByKey: ACCOUNTS + findByKey,
  issueFirstKey: ACCOUNTS + issueFirstKey,
};
export type ScriptName = keyof typeof BODIES;

export type Script = { source: string; sha: string };

/** Every script with its helpers, and its SHA-1 for EVALSHA. */
export const SCRIPTS = Object.fromEntries(
  Object.entries(BODIES).map(([name, source]) => [name, { source, sha: new Bun.CryptoHasher('sha1').update(source).digest('hex') }]),
) as Record<ScriptName, Script>;
