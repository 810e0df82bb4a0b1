-- Token bucket (M5, D13). Touches exactly one key: KEYS[1] = taskq:{schema}:rl:tb:{name},
-- a hash {tokens, ts}: whole tokens held, and the instant (µs) from which the next token accrues.
-- ARGV: capacity, interval_us (µs per token), permits, now_us (empty: the server clock; tests only)
-- Returns {allowed 0|1, retry_after_us, remaining}. Integer arithmetic only (exact below 2^53).
local capacity = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local permits = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
-- Expiry only frees memory: a key past its horizon decides exactly like a missing key. The slack
-- keeps real-time expiry behind that horizon; a test-driven clock may run far from real time.
local ttl_slack_ms = 1000
if now then
  ttl_slack_ms = 3600000
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end

local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
if not tokens or not ts then
  tokens = capacity
  ts = now
elseif now > ts then
  local gained = math.floor((now - ts) / interval)
  tokens = tokens + gained
  ts = ts + gained * interval
end
if tokens >= capacity then
  -- full: nothing accrues until a token is taken
  tokens = capacity
  ts = now
end

local allowed = 0
local retry = 0
if tokens >= permits then
  tokens = tokens - permits
  allowed = 1
else
  retry = (permits - tokens) * interval - (now - ts)
end

-- a request takes at least one token, so the bucket is never full here; once it refills, the key
-- expires and a missing key reads as a full bucket
local until_full = (capacity - tokens) * interval - (now - ts)
redis.call('HSET', KEYS[1], 'tokens', string.format('%.0f', tokens), 'ts', string.format('%.0f', ts))
redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.ceil(until_full / 1000) + ttl_slack_ms))
return {allowed, retry, tokens}
