"""The bus on Redis (redis-py's asyncio client): what the nodes of a cluster share.

Keys, all under one prefix (`cardroom:`):
- `node:<id>`: a node is alive while this key is (renewed every beat, expires after NODE_MS);
  `nodes` is the set of ids ever registered, pruned of the dead when read.
- `tables`: the directory, a hash of table id -> {"node", "table": summary, "watchers": the
  spectators' ids, "creator": [player id, address] of who created it (for the limits on open
  tables, counted over every live node)}. Entries of a dead node are left until a node takes the table over (and
  reads who watched it there), and are not listed meanwhile.
- `presence:<node>`: a hash of player id -> name, expiring with its node.
- `chat`: the lobby chat, a list trimmed to CHAT_KEPT lines.
- `rate:<key>`: a shared token bucket (one Lua script, on the Redis clock).
- `lease:<table>`, `fence:<table>`: table ownership (cardroom/cluster/lease.py).
- channel `lobby`: every node's messages to the others' lobbies.
- stream `to:<node>`: messages to that node alone (the relay of players connected to one node
  and seated at another's table), read by that node from the last id it read: a node whose
  connection broke reads on from there, nothing published meanwhile is missed. An entry is
  its message (`m`, JSON) and, for the relay's frames, their bytes as the owner encoded them
  (`b`), read back unparsed (a client of its own that leaves replies undecoded) and written to
  the players' sockets as they are.

The lobby's writes go through one queue and one task, so they reach Redis in the order made.
While Redis is away the write that failed is tried again every beat, and those made meanwhile
wait behind it (up to OUTBOX_KEPT of them). The relay's messages have a queue and a task of
their own, each turn sending all those waiting in one round trip; they too wait while Redis is
away: a relayed player's moves and what their table sends back reach the other node once Redis
answers, in order. Only messages already in a stream when
Redis lost its data (a restart) are lost: the nodes then resync their relayed players
(cardroom/server/relay.py, `Relay.heard_again`). Besides, the directory and presence are
rewritten whole by `resync` when Redis answers again, and the heartbeat renews the rest.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

import msgspec
from redis import exceptions as redis_errors
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ConstantBackoff
from redis.exceptions import RedisError

from cardroom.cluster.bus import CHAT_KEPT, Creator, Deliver, Lost, new_node_id
from cardroom.cluster.lease import LEASE_MS, Leases
from cardroom.cluster.loops import stop_all
from cardroom.protocol import JSON

log = logging.getLogger("cardroom.cluster")


def _client(url: str, decode: bool) -> Redis:
    """A client of the bus's Redis: replies as text (`decode`) or as the bytes stored."""
    return Redis.from_url(
        url,
        decode_responses=decode,
        health_check_interval=10,
        socket_connect_timeout=2,
        retry=Retry(ConstantBackoff(0.05), 2),
    )


async def _spaced(last: float) -> None:
    """Wait until GATHER_S after `last` (not at all when that is past)."""
    if (wait := last + GATHER_S - time.monotonic()) > 0:
        await asyncio.sleep(wait)


def _said(exc: BaseException) -> str:
    """An error for the log: its type too when it is not Redis's own (an unexpected one)."""
    return str(exc) if isinstance(exc, RedisError | OSError) else f"{type(exc).__name__}: {exc}"


OUTBOX_KEPT = 50_000
"""Writes kept while Redis is away; past that many the oldest are dropped (the relay's players
resync when it is back)."""
_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(dict[str, Any]).decode
"""A relay stream entry's message (msgspec: several times quicker than the json module)."""

STREAM_KEPT = 10_000
"""Messages a node's relay stream keeps (a node that long behind has lost its players anyway)."""
NODE_MS = 3_000
"""A node is dead for the others this long after its last beat: its leases ran out before
(cardroom/cluster/lease.py), so the first node to see it dead can take its tables at once."""
BEAT_S = 0.5
"""The heartbeat: the node's key, its presence and its leases renewed (each a few keys)."""
GATHER_S = 0.010
"""The relay sends (and reads) at most this often: a busy node's messages of that time go in
one round trip. A round trip's cost is mostly the system calls of both ends and Redis's, not
the bytes; a trip every loop turn was the largest share of the relay's cost (issue 26). After
a quiet spell a message goes, and is read, at once."""
LEAVE_S = 5.0
"""The longest a node's leaving waits on Redis to withdraw it (then its key runs out instead)."""
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
        # Two quick retries (a connection that died with a Redis restart is made again), not
        # redis-py's ten with growing pauses: a call made while Redis is away fails within a
        # beat, and the heartbeat, trying every beat, writes this node's state back as soon as
        # Redis answers again (other nodes wait ADOPT_PAUSE_S for it, no longer).
        self.redis: Redis = _client(url, decode=True)
        self.raw: Redis = _client(url, decode=False)
        """The stream `to:<this node>` is read with this one: bytes in, bytes out."""
        self.leases = Leases(self.redis, self.node, prefix, lease_ms)
        self._allow: Any = self.redis.register_script(_ALLOW)
        self.outbox: asyncio.Queue[Callable[[], Awaitable[Any]]] = asyncio.Queue()
        self.sending: collections.deque[tuple[str, dict[str, bytes]]] = collections.deque()
        """(stream, entry's fields): the relay's messages waiting to go."""
        self.to_send = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.closing = False  # the loops end (a cancel alone may come back as a Redis error: loops.py)
        self.mine: dict[str, str] = {}  # this node's directory entries, to write again after Redis was away
        self.present: dict[str, str] = {}  # this node's players, likewise
        self.run_id = ""  # the Redis server's own id: a new one means it restarted
        self.registered = False  # this node's key was written once (a later absence: Redis lost it)
        self.sure_until = 0.0
        """Until when (monotonic) this node's leases are surely its own (`sure`, `_looked`)."""
        self.deliver: Deliver = lambda message: None
        self.lost: Lost = lambda table_id: None

    def _k(self, name: str) -> str:
        return self.prefix + name

    def _channels(self) -> list[str]:
        return [self._k("lobby")]

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
            asyncio.create_task(self._read_relay()),
            asyncio.create_task(self._send()),
        ]

    async def close(self) -> None:
        await self._drain()
        self.closing = True
        tasks, self.tasks = self.tasks, []
        await stop_all(tasks, LEAVE_S)
        # Leaving never hangs on a Redis that does not answer: what is not withdrawn by then
        # runs out with its key (the other nodes judge this one gone).
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            async with asyncio.timeout(LEAVE_S):
                await self.leases.release_all()
                if self.mine:
                    await self.redis.hdel(self._k("tables"), *self.mine)
                for table_id in self.mine:
                    await self._publish({"type": "table_closed", "node": self.node, "table": table_id})
                await self.redis.delete(self._k(f"node:{self.node}"), self._k(f"presence:{self.node}"))
                await self.redis.srem(self._k("nodes"), self.node)
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            async with asyncio.timeout(LEAVE_S):
                await self.redis.aclose()
                await self.raw.aclose()

    async def _drain(self, timeout: float = 5.0) -> None:
        """Let the writes made so far reach Redis (not waiting longer than `timeout` for a
        Redis that is away)."""
        deadline = time.monotonic() + timeout
        while (self.sending or not self.outbox.empty()) and self.tasks and not self.tasks[0].done():
            if time.monotonic() > deadline:
                log.warning("%d writes to Redis not made: it does not answer", self.outbox.qsize())
                return
            await asyncio.sleep(0.01)

    # -- the lobby's writes, in order ------------------------------------------------------
    def _later(self, op: Callable[[], Awaitable[Any]]) -> None:
        if self.outbox.qsize() >= OUTBOX_KEPT:
            self.outbox.get_nowait()  # Redis away too long: the oldest write is given up
        self.outbox.put_nowait(op)

    async def _write(self) -> None:
        while not self.closing:
            op = await self.outbox.get()
            away = False
            while not self.closing:
                try:
                    await op()
                    break
                except (redis_errors.ResponseError, redis_errors.DataError) as exc:
                    log.warning("a write to Redis failed (%s); it is redone when Redis answers again", exc)
                    break
                except Exception as exc:  # Redis away, or a reply lost with its connection
                    # This write waits for Redis, and every later one behind it.
                    if not away:
                        log.warning("Redis does not answer (%s): writes wait for it", _said(exc))
                    away = True
                    await asyncio.sleep(self.beat_s)

    async def _publish(self, message: JSON) -> None:
        await self.redis.publish(self._k("lobby"), json.dumps({"node": self.node, "message": message}))

    def publish(self, message: JSON) -> None:
        self._later(lambda: self._publish(message))

    def send(self, node: str, message: JSON, body: bytes = b"") -> None:
        if len(self.sending) >= OUTBOX_KEPT:
            self.sending.popleft()  # Redis away too long: the oldest is given up
        fields = {"m": _encode({"node": self.node, "message": message})}
        if body:
            fields["b"] = body
        self.sending.append((self._k(f"to:{node}"), fields))
        self.to_send.set()

    async def _send(self) -> None:
        """The relay's messages, each to its node's stream: all those waiting go in one round
        trip (a busy node sends thousands a second), in the order sent. While Redis is away
        they wait, and are sent again whole when it answers."""
        sent = 0.0
        while not self.closing:
            await self.to_send.wait()
            self.to_send.clear()
            while not self.sure() and not self.closing:  # what a stalled node's tables said
                await asyncio.sleep(self.beat_s / 10)  # waits for its leases to be known
            while self.sending and not self.closing:
                await _spaced(sent)  # what comes meanwhile goes in the same round trip
                sent = time.monotonic()
                batch = list(self.sending)
                self.sending.clear()
                try:
                    async with self.redis.pipeline(transaction=True) as pipe:  # all or none
                        for key, fields in batch:
                            pipe.xadd(key, fields, maxlen=STREAM_KEPT, approximate=True)  # type: ignore[arg-type]
                        for key in {key for key, _data in batch}:
                            pipe.pexpire(key, NODE_MS * 20)  # a dead node's is not kept
                        await pipe.execute()
                except Exception as exc:  # Redis away, or a reply lost with its connection
                    log.warning("the relay waits for Redis (%s)", _said(exc))
                    self.sending.extendleft(reversed(batch))
                    await asyncio.sleep(self.beat_s)

    def put_table(
        self, table_id: str, summary: JSON, watchers: Sequence[str] = (), creator: Creator | None = None
    ) -> None:
        entry = json.dumps(
            {"node": self.node, "table": summary, "watchers": list(watchers), "creator": creator}
        )
        self.mine[table_id] = entry

        async def op() -> None:
            await self.redis.hset(self._k("tables"), table_id, entry)
            await self._publish({"type": "table_update", "node": self.node, "table": summary})

        self._later(op)

    def drop_table(self, table_id: str) -> None:
        self.mine.pop(table_id, None)

        async def op() -> None:
            if (await self._entry(table_id)).get("node") == self.node:
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

    def sure(self) -> bool:
        return time.monotonic() < self.sure_until

    def _looked(self, began: float) -> None:
        """A beat begun at `began` has ended: the leases it renewed are this node's for a lease's
        time from then (Redis counts it from later still). A beat that found Redis away counts
        too: tables play on while Redis is away (a log is still fenced in the store); only a
        node that stood still, without looking at all, is unsure of its tables."""
        self.sure_until = max(self.sure_until, began + self.leases.lease_ms / 1000)

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

    async def _entries(self) -> dict[str, JSON]:
        """The directory's entries of live nodes, by table id (a dead node's wait to be taken)."""
        alive = set(await self.nodes())
        raws = await self.redis.hgetall(self._k("tables"))
        entries = {str(table_id): json.loads(raw) for table_id, raw in raws.items()}
        return {table_id: entry for table_id, entry in entries.items() if entry["node"] in alive}

    async def _entry(self, table_id: str) -> JSON:
        """The directory's entry of `table_id` ({} when it has none)."""
        raw = await self.redis.hget(self._k("tables"), table_id)
        return json.loads(raw) if raw is not None else {}

    async def tables(self) -> dict[str, tuple[str, JSON]]:
        return {
            table_id: (entry["node"], entry["table"]) for table_id, entry in (await self._entries()).items()
        }

    async def watchers(self, table_id: str) -> list[str]:
        return [str(p) for p in (await self._entry(table_id)).get("watchers", [])]

    async def creator(self, table_id: str) -> Creator | None:
        made = (await self._entry(table_id)).get("creator")
        return (str(made[0]), str(made[1])) if made else None

    async def created(self, player_id: str, address: str) -> tuple[int, int]:
        mine = here = 0
        for entry in (await self._entries()).values():
            made = entry.get("creator")
            if made:
                mine += made[0] == player_id
                here += made[1] == address
        return mine, here

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
        `resync`: Redis was away, write this node's tables and players again.

        The node's key is written last: when another node finds it, this node's tables,
        players and leases are in Redis too, even just after a restart (a node listed alive
        with its tables missing would have them missing from the others' lobbies). The leases
        are renewed first: a table found lost (this node stood still past its lease) is stopped
        and left out of the resync, which would name this node its owner again."""
        began = time.monotonic()
        if self.registered and not resync and not await self.redis.exists(self._k(f"node:{self.node}")):
            # Redis lost this node's key between two beats (it restarted faster than a beat
            # could fail): the directory and presence are written again all the same.
            log.warning("Redis forgot this node: its tables and players are written again")
            resync = True
        lost = await self.leases.renew_all()
        for table_id in lost:  # stopped at once, and never written again as this node's
            log.warning("lost the lease of table %s: another node may own it now", table_id)
            self.mine.pop(table_id, None)
            self.lost(table_id)
        if resync:
            await self.resync()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self._k(f"node:{self.node}"), "1", px=NODE_MS)
            pipe.sadd(self._k("nodes"), self.node)
            pipe.pexpire(self._k(f"presence:{self.node}"), NODE_MS)
            await pipe.execute()
        self.registered = True
        self._looked(began)  # after the tables lost are stopped: they never act again

    async def _heartbeat(self) -> None:
        """Beat every `beat_s` for as long as the node runs. What the log says of it is what a
        cluster's failure needs: each new reason a beat failed (not every beat), Redis back,
        and a beat so late that the others may have judged this node dead meanwhile."""
        failed = ""  # why the last beat failed ("" when it did not)
        last = time.monotonic()
        while not self.closing:
            await asyncio.sleep(self.beat_s)
            began = time.monotonic()
            if began - last > NODE_MS / 2000:
                log.warning(
                    "this node's beat came %.1f s after the last one (the loop was busy)", began - last
                )
            last = began
            try:
                await self._beat(resync=bool(failed))
            except Exception as exc:  # Redis away, or a reply lost with its connection: this
                # node would be judged dead if the heartbeat ended, so it never does
                said = _said(exc)
                if said != failed:
                    log.warning("Redis does not answer (%s): the lobby is rebuilt when it does", said)
                failed = said
                self._looked(began)
                continue
            if failed:
                log.warning("Redis answers again: this node's tables and players are written again")
            failed = ""

    async def resync(self) -> None:
        """Write this node's tables and players again (Redis restarted, or was unreachable), and
        tell the other nodes of each table again (a lobby that read the directory before this
        node wrote it lists them at once)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id, entry in self.mine.items():
                pipe.hset(self._k("tables"), table_id, entry)
                update = {"type": "table_update", "node": self.node, "table": json.loads(entry)["table"]}
                pipe.publish(self._k("lobby"), json.dumps({"node": self.node, "message": update}))
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
        while not self.closing:
            try:
                async for raw in pubsub.listen():
                    if raw.get("type") == "message":
                        envelope = json.loads(raw["data"])
                        if envelope.get("node") != self.node:
                            self._hand(envelope["message"])
            except Exception as exc:  # Redis away, or a reply lost with its connection
                log.warning("the lobby channel broke (%s); listening again", _said(exc))
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                while not self.closing:
                    await asyncio.sleep(self.beat_s)
                    try:
                        pubsub = await self._subscribe()
                        break
                    except Exception:  # still away
                        continue
                # What the other nodes published meanwhile was not heard: the lobby reads the
                # directory again.
                self._hand({"type": "bus_back", "node": self.node})

    def _hand(self, message: JSON) -> None:
        """Deliver one message: one that the lobby fails on is logged, and the next ones are
        delivered all the same (a listener that ended would cut this node off for good)."""
        try:
            self.deliver(message)
        except Exception:
            log.exception("a message from another node failed: %.200s", message)

    async def _read_relay(self) -> None:
        """Deliver the messages other nodes sent this one (its stream), from the last one read:
        after Redis was away, reading goes on from there. A Redis that restarted has a new,
        empty stream whose ids are later than any read (they count from its clock): what the
        others sent since is read whole. The relay is then told to resync (`bus_back`), for
        what was in the lost stream and not read yet."""
        last = "0-0"  # this node's id is new: its stream holds only messages for it
        broke = False
        read = 0.0
        while not self.closing:
            await _spaced(read)
            read = time.monotonic()
            try:
                found: Any = await self.raw.xread({self._k(f"to:{self.node}"): last}, count=500, block=1000)
            except Exception as exc:  # Redis away, or a reply lost with its connection
                if not broke:
                    log.warning("reading this node's relay stream failed (%s); reading again", _said(exc))
                broke = True
                await asyncio.sleep(self.beat_s)
                continue
            if broke:
                broke = False
                self._hand({"type": "bus_back", "node": self.node})
            for _stream, entries in found.items() if isinstance(found, dict) else found or []:
                for entry_id, fields in entries:
                    last = entry_id
                    message = _decode(fields[b"m"])["message"]
                    if b"b" in fields:
                        message["body"] = fields[b"b"]
                    self._hand(message)
