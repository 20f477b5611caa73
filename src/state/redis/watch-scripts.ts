/**
 * Lua scripts of the Redis watch store (watchlists and the webhook outbox), each atomic on the
 * server. ARGV[1] is the key namespace. Keys: `<ns>wl:<id>` watchlist JSON, `<ns>wls:<id>` its
 * summary (without the IDs, with their count; missing for a list written before summaries were
 * kept), `<ns>wla:<account>` zset of an account's lists (by creation order, `<ns>wlseq`), `<ns>wlhook` set of lists with a
 * webhook, `<ns>whrel` set of releases turned into events, `<ns>ev:<id>` event hash (e: event JSON,
 * wl, retry_from, status, next, attempts: JSON array), `<ns>evdue` zset of pending events by next
 * attempt, `<ns>evwl:<watchlist>` zset of a list's events by creation time.
 */

export const WATCH_SCRIPTS = {
  create: `
local ns, id, account = ARGV[1], ARGV[2], ARGV[3]
if redis.call('ZCARD', ns .. 'wla:' .. account) >= tonumber(ARGV[5]) then return 0 end
redis.call('SET', ns .. 'wl:' .. id, ARGV[4])
redis.call('SET', ns .. 'wls:' .. id, ARGV[7])
redis.call('ZADD', ns .. 'wla:' .. account, redis.call('INCR', ns .. 'wlseq'), id)
if ARGV[6] == '1' then redis.call('SADD', ns .. 'wlhook', id) end
return 1`,

  update: `
local ns, id, account = ARGV[1], ARGV[2], ARGV[3]
local cur = redis.call('GET', ns .. 'wl:' .. id)
if not cur or cjson.decode(cur).account_id ~= account then return 0 end
redis.call('SET', ns .. 'wl:' .. id, ARGV[4])
redis.call('SET', ns .. 'wls:' .. id, ARGV[6])
if ARGV[5] == '1' then redis.call('SADD', ns .. 'wlhook', id) else redis.call('SREM', ns .. 'wlhook', id) end
return 1`,

  delete: `
local ns, id, account = ARGV[1], ARGV[2], ARGV[3]
local cur = redis.call('GET', ns .. 'wl:' .. id)
if not cur or cjson.decode(cur).account_id ~= account then return 0 end
for _, ev in ipairs(redis.call('ZRANGE', ns .. 'evwl:' .. id, 0, -1)) do
  redis.call('DEL', ns .. 'ev:' .. ev)
  redis.call('ZREM', ns .. 'evdue', ev)
end
redis.call('DEL', ns .. 'evwl:' .. id, ns .. 'wl:' .. id, ns .. 'wls:' .. id)
redis.call('ZREM', ns .. 'wla:' .. account, id)
redis.call('SREM', ns .. 'wlhook', id)
return 1`,

  // ARGV: ns, now, then (id, watchlist_id, event JSON, created_at) per event.
  enqueue: `
local ns, now, added = ARGV[1], ARGV[2], 0
for i = 3, #ARGV, 4 do
  local id, wl, created = ARGV[i], ARGV[i + 1], ARGV[i + 3]
  local key = ns .. 'ev:' .. id
  if redis.call('EXISTS', key) == 0 then
    redis.call('HSET', key, 'e', ARGV[i + 2], 'wl', wl, 'retry_from', created, 'status', 'pending', 'next', now, 'attempts', '[]')
    redis.call('ZADD', ns .. 'evdue', now, id)
    redis.call('ZADD', ns .. 'evwl:' .. wl, created, id)
    added = added + 1
  end
end
return added`,

  // The lease is the claim: a claimed event's next attempt moves to now + lease, out of everyone's reach until then.
  // ARGV: ns, now, limit, lease, then the watchlists to skip (their destination is busy): with any,
  // every due event is looked at, so a long backlog of a busy destination does not hide the others.
  claim: `
local ns, now, limit, lease = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local skip = {}
for i = 5, #ARGV do skip[ARGV[i]] = true end
local ids
if #ARGV < 5 then ids = redis.call('ZRANGEBYSCORE', ns .. 'evdue', '-inf', now, 'LIMIT', 0, limit)
else ids = redis.call('ZRANGEBYSCORE', ns .. 'evdue', '-inf', now) end
local out, taken = {}, 0
for _, id in ipairs(ids) do
  if taken >= limit then break end
  local key = ns .. 'ev:' .. id
  local wl = redis.call('HGET', key, 'wl')
  if not (wl and skip[wl]) then
    redis.call('ZADD', ns .. 'evdue', now + lease, id)
    redis.call('HSET', key, 'next', now + lease)
    local f = redis.call('HMGET', key, 'e', 'retry_from', 'attempts')
    table.insert(out, f[1]); table.insert(out, f[2]); table.insert(out, f[3])
    taken = taken + 1
  end
end
return out`,

  // ARGV: ns, due time, then the event ids.
  release: `
local ns, due = ARGV[1], ARGV[2]
for i = 3, #ARGV do
  local key = ns .. 'ev:' .. ARGV[i]
  if redis.call('HGET', key, 'status') == 'pending' then
    redis.call('HSET', key, 'next', due)
    redis.call('ZADD', ns .. 'evdue', tonumber(due), ARGV[i])
  end
end
return 1`,

  // Attempts are appended as text: cjson would turn an empty array into {}.
  record: `
local ns, id = ARGV[1], ARGV[2]
local key = ns .. 'ev:' .. id
local cur = redis.call('HGET', key, 'attempts')
if not cur then return 0 end
local next_json = (cur == '[]') and ('[' .. ARGV[3] .. ']') or (string.sub(cur, 1, -2) .. ',' .. ARGV[3] .. ']')
redis.call('HSET', key, 'attempts', next_json, 'status', ARGV[4], 'next', ARGV[5])
if ARGV[4] == 'pending' then redis.call('ZADD', ns .. 'evdue', tonumber(ARGV[5]), id) else redis.call('ZREM', ns .. 'evdue', id) end
return 1`,

  deliveries: `
local ns = ARGV[1]
local out = {}
for _, id in ipairs(redis.call('ZREVRANGE', ns .. 'evwl:' .. ARGV[2], 0, tonumber(ARGV[3]) - 1)) do
  local f = redis.call('HMGET', ns .. 'ev:' .. id, 'e', 'status', 'next', 'attempts')
  table.insert(out, f[1]); table.insert(out, f[2]); table.insert(out, f[3]); table.insert(out, f[4])
end
return out`,

  redeliver: `
local ns, wl, id, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local key = ns .. 'ev:' .. id
if redis.call('HGET', key, 'wl') ~= wl then return 0 end
redis.call('HSET', key, 'status', 'pending', 'next', now, 'retry_from', now)
redis.call('ZADD', ns .. 'evdue', now, id)
return 1`,
} as const;
