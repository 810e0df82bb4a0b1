-- Progress report (M5, D13). Touches exactly one key: KEYS[1] = taskq:{schema}:progress:{job_id},
-- a hash {fraction, message, detail?, reported_at_us} replaced by each report, with a TTL; then
-- publishes the report on the schema-wide channel (a channel is not a key).
-- ARGV: channel, job_id, fraction, message, message_json, detail_json ('' = none), ttl_ms
-- Returns the report's instant in µs on the server clock, as a string.
local t = redis.call('TIME')
local now = string.format('%.0f', tonumber(t[1]) * 1000000 + tonumber(t[2]))

redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'fraction', ARGV[3], 'message', ARGV[4], 'reported_at_us', now)
local detail = ARGV[6]
if detail ~= '' then
  redis.call('HSET', KEYS[1], 'detail', detail)
else
  detail = 'null'
end
redis.call('PEXPIRE', KEYS[1], ARGV[7])

redis.call('PUBLISH', ARGV[1], '{"job_id":' .. ARGV[2] .. ',"fraction":' .. ARGV[3]
  .. ',"reported_at_us":' .. now .. ',"message":' .. ARGV[5] .. ',"detail":' .. detail .. '}')
return now
