"""Table leases in Redis: each table owned by exactly one node at a time, with a fencing number.

A lease is one key, `lease:<table>`, holding `<node>:<fence>`, that expires unless its owner
renews it. Taking a free lease also takes the table's next fencing number (`fence:<table>`,
INCR: it only grows, and never expires). Each step is one Lua script, so taking, renewing and
giving up compare the holder and act in one atomic step: a node renews or gives up only a
lease that is still its own, with its own number.

A lease says who should write; the fencing number is what makes it so. A node that lost its
lease without noticing (a pause longer than the lease) still carries its old number, and the
store refuses moves with a number older than the newest one written (cardroom/store/fencing.py).
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

LEASE_MS = 2_500
"""A dead node's tables are free this long after its last renewal (renewed every half second,
before the node's own key, which lives a little longer: redis_bus.NODE_MS), so that another
node has them within 5 s (issue 15): the node seen dead, at its next look for orphans (every
half second), takes the lease at once and resumes the table from its log."""

_CLAIM = """
local held = redis.call('GET', KEYS[1])
if held then
  local owner, fence = string.match(held, '^(.*):(%d+)$')
  if owner == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return tonumber(fence)
  end
  return -1
end
local floor = tonumber(ARGV[3])
if tonumber(redis.call('GET', KEYS[2]) or '0') < floor then
  redis.call('SET', KEYS[2], floor)
end
local fence = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. fence, 'PX', ARGV[2])
return fence
"""

_RENEW = """
local held = redis.call('GET', KEYS[1])
if held == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
if not held then
  return -1
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class Leases:
    """The leases one node holds: `claim`, `renew_all` (its heartbeat), `release`."""

    def __init__(self, redis: Redis, node: str, prefix: str, lease_ms: int = LEASE_MS) -> None:
        self.redis = redis
        self.node = node
        self.prefix = prefix
        self.lease_ms = lease_ms
        self.held: dict[str, int] = {}  # table -> fencing number
        self._claim: Any = redis.register_script(_CLAIM)
        self._renew: Any = redis.register_script(_RENEW)
        self._release: Any = redis.register_script(_RELEASE)

    def _keys(self, table_id: str) -> list[str]:
        return [f"{self.prefix}lease:{table_id}", f"{self.prefix}fence:{table_id}"]

    async def claim(self, table_id: str, floor: int = 0) -> int | None:
        """The table's fencing number if this node owns it now (already did, or took it free)."""
        fence = int(await self._claim(keys=self._keys(table_id), args=[self.node, self.lease_ms, floor]))
        if fence < 0:
            return None
        self.held[table_id] = fence
        return fence

    async def renew_all(self) -> list[str]:
        """Renew every lease held; the tables whose lease another node holds now (dropped).

        A lease that is simply gone (Redis restarted and lost it) is taken again, with a fencing
        number above the one it had: the table goes on here, unless another node was quicker.
        """
        if not self.held:
            return []
        tables = list(self.held)
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in tables:
                value = f"{self.node}:{self.held[table_id]}"
                await self._renew(keys=self._keys(table_id)[:1], args=[value, self.lease_ms], client=pipe)
            answers = await pipe.execute()
        lost = []
        for table_id, answer in zip(tables, answers, strict=True):
            if answer == 1 or table_id not in self.held:
                continue
            # Taken again before it is let go: if Redis fails again meanwhile (a connection
            # that died with the restart), the lease is still held here and tried next beat,
            # never silently dropped (another node would take the table from a live owner).
            if answer == -1 and await self.claim(table_id, self.held[table_id]) is not None:
                continue
            self.held.pop(table_id, None)
            lost.append(table_id)
        return lost

    async def release(self, table_id: str) -> None:
        fence = self.held.pop(table_id, None)
        if fence is not None:
            await self._release(keys=self._keys(table_id)[:1], args=[f"{self.node}:{fence}"])

    async def release_all(self) -> None:
        for table_id in list(self.held):
            await self.release(table_id)
