-- Sliding-window log (M5, D13). Touches exactly one key: KEYS[1] = taskq:{schema}:sw:{name},
-- a sorted set with one member per permit taken, scored by the instant (µs) it was taken.
-- A permit taken at t counts while now < t + window.
-- ARGV: limit, window_us, permits, member_prefix (unique per call), now_us (empty: the server
-- clock; tests only)
-- Returns {allowed 0|1, retry_after_us, remaining}. Integer arithmetic only (exact below 2^53).
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local permits = tonumber(ARGV[3])
local prefix = ARGV[4]
local now = tonumber(ARGV[5])
-- Expiry only frees memory: a key past its horizon decides exactly like a missing key. The slack
-- keeps real-time expiry behind that horizon; a test-driven clock may run far from real time.
local ttl_slack_ms = 1000
if now then
  ttl_slack_ms = 3600000
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local score = string.format('%.0f', now)

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.0f', now - window))
local count = redis.call('ZCARD', KEYS[1])

if count + permits <= limit then
  local batch = {}
  for i = 1, permits do
    batch[#batch + 1] = score
    batch[#batch + 1] = prefix .. ':' .. i
    if #batch >= 1000 or i == permits then
      redis.call('ZADD', KEYS[1], unpack(batch))
      batch = {}
    end
  end
  -- the newest entry leaves the window last
  redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.ceil(window / 1000) + ttl_slack_ms))
  return {1, 0, limit - count - permits}
end

-- refused: the request fits once the oldest (count + permits - limit) entries have left
local leaving = count + permits - limit
local entry = redis.call('ZRANGE', KEYS[1], leaving - 1, leaving - 1, 'WITHSCORES')
local retry = tonumber(entry[2]) + window - now
return {0, retry, math.max(0, limit - count)}
