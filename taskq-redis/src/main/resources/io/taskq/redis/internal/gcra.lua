-- GCRA (M5, D13). Touches exactly one key: KEYS[1] = taskq:{schema}:sw_gcra:{name}, a string
-- holding the theoretical arrival time (TAT, µs).
-- ARGV: emission_interval_us (T), burst, permits, now_us (empty: the server clock; tests only)
-- A request for n permits is admitted when now >= TAT + n*T - burst*T; it moves TAT by n*T.
-- Returns {allowed 0|1, retry_after_us, remaining}. Integer arithmetic only (exact below 2^53).
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
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

local tat = tonumber(redis.call('GET', KEYS[1]))
if not tat or tat < now then
  tat = now
end
local tolerance = interval * burst
local new_tat = tat + permits * interval
local allow_at = new_tat - tolerance

if now < allow_at then
  return {0, allow_at - now, math.max(0, math.floor((now + tolerance - tat) / interval))}
end
-- once TAT has passed, the key is the same as no key
redis.call('SET', KEYS[1], string.format('%.0f', new_tat),
  'PX', string.format('%.0f', math.ceil((new_tat - now) / 1000) + ttl_slack_ms))
return {1, 0, math.floor((now + tolerance - new_tat) / interval)}
