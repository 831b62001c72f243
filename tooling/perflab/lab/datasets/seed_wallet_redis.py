"""The wallet data set's Redis (tooling/perflab/lab/datasets/seed_wallet.py): redis-cli on the app's Redis db, and the Lua script a reset prunes
the wallet's cache keys with. Stdlib only (redis-cli does the talking)."""
import os
import shutil
import subprocess

from perflab.lab import labsecrets
from perflab.lab.datasets import seedlib

# The seed gives member N the phone 010 followed by N in 8 digits and the reset puts every phone back, so an entry
# wallet:member-by-phone::010NNNNNNNN whose value is member N (N within the seed) is right again; names never change.
# One Lua script, so the check and the delete happen inside Redis.
PRUNE_LUA = '''
local members, cursor, kept, deleted = tonumber(ARGV[1]), "0", 0, 0
repeat
  local page = redis.call("SCAN", cursor, "MATCH", "wallet:*", "COUNT", 1000)
  cursor = page[1]
  for _, key in ipairs(page[2]) do
    local digits = string.match(key, "^wallet:member%-by%-phone::010(%d%d%d%d%d%d%d%d)$")
    local id = digits and tonumber(digits)
    local value = id and redis.call("GET", key)
    local cached = value and tonumber(string.match(value, "\\"id\\"%s*:%s*(%d+)"))
    if id and id >= 1 and id <= members and cached == id then
      kept = kept + 1
    else
      redis.call("DEL", key)
      deleted = deleted + 1
    end
  end
until cursor == "0"
return {kept, deleted}'''


class Redis:
    """redis-cli on the app's Redis db (--redis-db); its password is REDISCLI_AUTH when set, else the app's own
    (spring.data.redis.password in the config tree, as compose's secrets service writes it), else none."""

    def __init__(self, lab: seedlib.Lab, db: str) -> None:
        self.lab, self.db = lab, db
        password = os.environ.get("REDISCLI_AUTH") or labsecrets.redis_password()
        self.env = dict(os.environ, REDISCLI_AUTH=password) if password else None

    def reachable(self) -> bool:
        """Whether the wallet's Redis keys can be touched; says why not."""
        if not shutil.which("redis-cli"):
            self.lab.say(f"redis-cli not found: delete the wallet:* keys in Redis db {self.db} yourself")
        elif not seedlib.service_up("redis"):
            self.lab.say(f"Redis is not running on {seedlib.service_address('redis')}: no cached wallet keys to delete")
        else:
            return True
        return False

    def cli(self, *args: str) -> str:
        done = subprocess.run(["redis-cli", "-h", seedlib.env("PERFLAB_REDIS_HOST", "127.0.0.1"),
                               "-p", seedlib.env("PERFLAB_REDIS_PORT", "6379"), "-n", str(self.db), *args],
                              stdout=subprocess.PIPE, text=True, env=self.env)
        if done.returncode:
            raise seedlib.Exit(done.returncode)
        return done.stdout

    def delete(self, pattern: str) -> int:
        """Deletes the keys that match, 500 a command; returns how many there were."""
        keys = self.cli("--scan", "--pattern", pattern).splitlines()
        for start in range(0, len(keys), 500):
            self.cli("DEL", *keys[start:start + 500])
        return len(keys)
