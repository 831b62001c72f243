-- A wrong guess's pause (GuessCounter.failed). KEYS: block keys; ARGV: the pause of each, in ms (0: none).
-- A pause only ever lengthens a block, so a late failure cannot shorten a longer one.
for i = 1, #KEYS do
  local ms = tonumber(ARGV[i])
  if ms > 0 and redis.call('PTTL', KEYS[i]) < ms then
    redis.call('SET', KEYS[i], '1', 'PX', ms)
  end
end
return #KEYS
