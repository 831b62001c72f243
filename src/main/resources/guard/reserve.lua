-- Reserves one try of every guessed secret at once, before the secret is checked (GuessCounter.reserve).
-- KEYS: per secret i, its count (2i-1) and its block (2i); ARGV: per secret i, its max failures (2i-1) and window ms (2i).
-- Refuses with {0, i, ms until the refusal ends, busy} when secret i is blocked (busy 0: until the block ends) or its
-- count has reached its max with no block (busy 1: tries still being checked hold the window's last places; ask again
-- soon, within BUSY_MS);
-- else counts the try in every count, each given its window here (PEXPIRE when it has no TTL, so no count can
-- live forever), and returns {1, count 1, ms left in window 1, count 2, ...}.
local BUSY_MS = 1000
local n = #KEYS / 2
for i = 1, n do
  local blocked = redis.call('PTTL', KEYS[2 * i])
  if blocked > 0 then
    return {0, i, blocked, 0}
  end
  local count = tonumber(redis.call('GET', KEYS[2 * i - 1])) or 0
  if count >= tonumber(ARGV[2 * i - 1]) then
    local left = redis.call('PTTL', KEYS[2 * i - 1])
    if left < 0 then
      redis.call('PEXPIRE', KEYS[2 * i - 1], ARGV[2 * i])
      left = tonumber(ARGV[2 * i])
    end
    return {0, i, math.min(left, BUSY_MS), 1}
  end
end
local reply = {1}
for i = 1, n do
  local count = redis.call('INCR', KEYS[2 * i - 1])
  local left = redis.call('PTTL', KEYS[2 * i - 1])
  if left < 0 then
    redis.call('PEXPIRE', KEYS[2 * i - 1], ARGV[2 * i])
    left = tonumber(ARGV[2 * i])
  end
  reply[#reply + 1] = count
  reply[#reply + 1] = left
end
return reply
