"""The bus on Redis (redis-py's asyncio client): what the nodes of a cluster share.

Keys, all under one prefix (`cardroom:`):
- `node:<id>`: a node is alive while this key is (renewed every beat, expires after NODE_MS);
  `nodes` is the set of ids ever registered, pruned of the dead when read.
- `tables`: the directory, a hash of table id -> {"node", "table": summary, "watchers": the
  spectators' ids}. Entries of a dead node are left until a node takes the table over (and
  reads who watched it there), and are not listed meanwhile.
- `presence:<node>`: a hash of player id -> name, expiring with its node.
- `chat`: the lobby chat, a list trimmed to CHAT_KEPT lines.
- `rate:<key>`: a shared token bucket (one Lua script, on the Redis clock).
- `lease:<table>`, `fence:<table>`: table ownership (cardroom/cluster/lease.py).
- channel `lobby`: every node's messages to the others' lobbies; channel `to:<node>`: messages
  to that node alone (the relay of players connected to one node and seated at another's table).

The lobby's writes go through one queue and one task, so they reach Redis in the order made; a
write that fails (Redis away) is logged and dropped: the directory and presence are rewritten
whole by `resync` when Redis answers again, and the heartbeat renews the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from cardroom.cluster.bus import CHAT_KEPT, Deliver, Lost, new_node_id
from cardroom.cluster.lease import LEASE_MS, Leases
from cardroom.protocol import JSON

log = logging.getLogger("cardroom.cluster")

NODE_MS = 5_000
BEAT_S = 1.0
PREFIX = "cardroom:"

_ALLOW = """
local now = redis.call('TIME')
now = tonumber(now[1]) + tonumber(now[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(saved[1]) or burst
local stamp = tonumber(saved[2]) or now
tokens = math.min(burst, tokens + (now - stamp) * rate)
local ok = 0
if tokens >= 1 then
  tokens = tokens - 1
  ok = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return ok
"""


class RedisBus:
    """A node of a cluster, on the Redis at `url`."""

    clustered = True

    def __init__(
        self,
        url: str,
        node: str | None = None,
        prefix: str = PREFIX,
        lease_ms: int = LEASE_MS,
        beat_s: float = BEAT_S,
    ) -> None:
        self.node = node or new_node_id()
        self.prefix = prefix
        self.beat_s = beat_s
        self.redis: Redis = Redis.from_url(url, decode_responses=True, health_check_interval=10)
        self.leases = Leases(self.redis, self.node, prefix, lease_ms)
        self._allow: Any = self.redis.register_script(_ALLOW)
        self.outbox: asyncio.Queue[Callable[[], Awaitable[Any]]] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []
        self.mine: dict[str, str] = {}  # this node's directory entries, to write again after Redis was away
        self.present: dict[str, str] = {}  # this node's players, likewise
        self.run_id = ""  # the Redis server's own id: a new one means it restarted
        self.registered = False  # this node's key was written once (a later absence: Redis lost it)
        self.deliver: Deliver = lambda message: None
        self.lost: Lost = lambda table_id: None

    def _k(self, name: str) -> str:
        return self.prefix + name

    def _channels(self) -> list[str]:
        return [self._k("lobby"), self._k(f"to:{self.node}")]

    # -- joining and leaving ---------------------------------------------------------------
    async def open(self, deliver: Deliver, lost: Lost) -> None:
        self.deliver, self.lost = deliver, lost
        await self.redis.ping()  # a wrong address is one clear error at start, not a silent node
        self.run_id = await self._run_id()
        await self._beat()
        pubsub = await self._subscribe()
        self.tasks = [
            asyncio.create_task(self._write()),
            asyncio.create_task(self._listen(pubsub)),
            asyncio.create_task(self._heartbeat()),
        ]

    async def close(self) -> None:
        await self._drain()
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(RedisError, OSError):
            await self.leases.release_all()
            if self.mine:
                await self.redis.hdel(self._k("tables"), *self.mine)
            for table_id in self.mine:
                await self._publish({"type": "table_closed", "node": self.node, "table": table_id})
            await self.redis.delete(self._k(f"node:{self.node}"), self._k(f"presence:{self.node}"))
            await self.redis.srem(self._k("nodes"), self.node)
        await self.redis.aclose()

    async def _drain(self) -> None:
        while not self.outbox.empty() and self.tasks and not self.tasks[0].done():
            await asyncio.sleep(0.01)

    # -- the lobby's writes, in order ------------------------------------------------------
    def _later(self, op: Callable[[], Awaitable[Any]]) -> None:
        self.outbox.put_nowait(op)

    async def _write(self) -> None:
        while True:
            op = await self.outbox.get()
            try:
                await op()
            except (RedisError, OSError) as exc:
                log.warning("a write to Redis failed (%s); it is redone when Redis answers again", exc)

    async def _publish(self, message: JSON) -> None:
        await self.redis.publish(self._k("lobby"), json.dumps({"node": self.node, "message": message}))

    def publish(self, message: JSON) -> None:
        self._later(lambda: self._publish(message))

    def send(self, node: str, message: JSON) -> None:
        data = json.dumps({"node": self.node, "message": message})
        self._later(lambda: self.redis.publish(self._k(f"to:{node}"), data))

    def put_table(self, table_id: str, summary: JSON, watchers: Sequence[str] = ()) -> None:
        entry = json.dumps({"node": self.node, "table": summary, "watchers": list(watchers)})
        self.mine[table_id] = entry

        async def op() -> None:
            await self.redis.hset(self._k("tables"), table_id, entry)
            await self._publish({"type": "table_update", "node": self.node, "table": summary})

        self._later(op)

    def drop_table(self, table_id: str) -> None:
        self.mine.pop(table_id, None)

        async def op() -> None:
            raw = await self.redis.hget(self._k("tables"), table_id)
            if raw is not None and json.loads(raw)["node"] == self.node:
                await self.redis.hdel(self._k("tables"), table_id)
            await self._publish({"type": "table_closed", "node": self.node, "table": table_id})

        self._later(op)

    def here(self, player_id: str, name: str) -> None:
        self.present[player_id] = name
        self._later(lambda: self.redis.hset(self._k(f"presence:{self.node}"), player_id, name))

    def left(self, player_id: str) -> None:
        self.present.pop(player_id, None)
        self._later(lambda: self.redis.hdel(self._k(f"presence:{self.node}"), player_id))

    def say(self, line: JSON) -> None:
        async def op() -> None:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.rpush(self._k("chat"), json.dumps(line))
                pipe.ltrim(self._k("chat"), -CHAT_KEPT, -1)
                await pipe.execute()
            await self._publish({"type": "chat", "line": line})

        self._later(op)

    # -- leases ----------------------------------------------------------------------------
    async def claim(self, table_id: str, floor: int = 0) -> int | None:
        return await self.leases.claim(table_id, floor)

    def release(self, table_id: str) -> None:
        self._later(lambda: self.leases.release(table_id))

    # -- reads -----------------------------------------------------------------------------
    async def nodes(self) -> list[str]:
        known = sorted(str(n) for n in await self.redis.smembers(self._k("nodes")))
        if not known:
            return []
        alive = await self.redis.mget([self._k(f"node:{n}") for n in known])
        dead = [n for n, a in zip(known, alive, strict=True) if a is None]
        if dead:
            await self.redis.srem(self._k("nodes"), *dead)
        return [n for n, a in zip(known, alive, strict=True) if a is not None]

    async def tables(self) -> dict[str, tuple[str, JSON]]:
        alive = set(await self.nodes())
        found: dict[str, tuple[str, JSON]] = {}
        for table_id, raw in (await self.redis.hgetall(self._k("tables"))).items():
            entry = json.loads(raw)
            if entry["node"] in alive:
                found[str(table_id)] = (entry["node"], entry["table"])
        return found

    async def watchers(self, table_id: str) -> list[str]:
        raw = await self.redis.hget(self._k("tables"), table_id)
        return [str(p) for p in json.loads(raw).get("watchers", [])] if raw is not None else []

    async def where(self, player_ids: Iterable[str]) -> dict[str, str]:
        wanted = list(player_ids)
        found: dict[str, str] = {}
        for node in await self.nodes() if wanted else []:
            names = await self.redis.hmget(self._k(f"presence:{node}"), wanted)
            found |= {p: node for p, name in zip(wanted, names, strict=True) if name is not None}
        return found

    async def online(self) -> dict[str, str]:
        found: dict[str, str] = {}
        for node in await self.nodes():
            for player_id, name in (await self.redis.hgetall(self._k(f"presence:{node}"))).items():
                found[str(player_id)] = str(name)
        return found

    async def steady(self) -> bool:
        """Whether Redis is the same server as at the last look (its run id changes at a restart,
        when every key is gone: whichever node beats first, the others' tables are missing)."""
        known, self.run_id = self.run_id, await self._run_id()
        return known == self.run_id

    async def _run_id(self) -> str:
        return str((await self.redis.info("server"))["run_id"])

    async def chat_log(self) -> list[JSON]:
        return [json.loads(raw) for raw in await self.redis.lrange(self._k("chat"), 0, -1)]

    async def allow(self, key: str, rate: float, burst: float) -> bool:
        return bool(await self._allow(keys=[self._k(f"rate:{key}")], args=[rate, burst]))

    # -- the heartbeat and the listener ----------------------------------------------------
    async def _beat(self, resync: bool = False) -> None:
        """This node is alive; its presence stays; its leases are renewed (or found lost).
        `resync`: Redis was away, write this node's tables and players again."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self._k(f"node:{self.node}"), "1", px=NODE_MS, get=True)
            pipe.sadd(self._k("nodes"), self.node)
            pipe.pexpire(self._k(f"presence:{self.node}"), NODE_MS)
            was, *_rest = await pipe.execute()
        if was is None and self.registered and not resync:
            # Redis lost this node's key between two beats (it restarted faster than a beat
            # could fail): the directory and presence are written again all the same.
            log.warning("Redis forgot this node: its tables and players are written again")
            resync = True
        if resync:
            await self.resync()
        self.registered = True
        for table_id in await self.leases.renew_all():
            log.warning("lost the lease of table %s: another node may own it now", table_id)
            self.lost(table_id)

    async def _heartbeat(self) -> None:
        away = False
        while True:
            await asyncio.sleep(self.beat_s)
            try:
                await self._beat(resync=away)
                away = False
            except (RedisError, OSError) as exc:
                if not away:
                    log.warning("Redis does not answer (%s): the lobby is rebuilt when it does", exc)
                away = True

    async def resync(self) -> None:
        """Write this node's tables and players again (Redis restarted, or was unreachable)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id, entry in self.mine.items():
                pipe.hset(self._k("tables"), table_id, entry)
            for player_id, name in self.present.items():
                pipe.hset(self._k(f"presence:{self.node}"), player_id, name)
            await pipe.execute()

    async def _subscribe(self) -> Any:
        pubsub: Any = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(*self._channels())
        except BaseException:
            await pubsub.aclose()
            raise
        return pubsub

    async def _listen(self, pubsub: Any) -> None:
        """Deliver the other nodes' messages. When the channel breaks (Redis restarted), a new
        subscription is made, tried every beat until Redis answers: a pub/sub whose
        resubscription failed has no connection left, and listening on it would end this task
        for good (no more relayed players' messages, no more lobby news)."""
        while True:
            try:
                async for raw in pubsub.listen():
                    if raw.get("type") != "message":
                        continue
                    envelope = json.loads(raw["data"])
                    if envelope.get("node") != self.node:
                        self.deliver(envelope["message"])
            except (RedisError, OSError, RuntimeError) as exc:
                log.warning("the lobby channel broke (%s); listening again", exc)
                with contextlib.suppress(RedisError, OSError, RuntimeError):
                    await pubsub.aclose()
                while True:
                    await asyncio.sleep(self.beat_s)
                    try:
                        pubsub = await self._subscribe()
                        break
                    except (RedisError, OSError):
                        continue
