-- Hands a reserved try back (GuessCounter.release: the secret was right, or never checked).
-- KEYS: the counts; each loses one if it is above 0, and keeps its TTL (DECR does not touch it).
for i = 1, #KEYS do
  local count = tonumber(redis.call('GET', KEYS[i]))
  if count and count > 0 then
    redis.call('DECR', KEYS[i])
  end
end
return #KEYS
