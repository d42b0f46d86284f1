"""Leases on Redis (cardroom/cluster/lease.py): a lease its owner stops renewing runs out, the
next owner gets a higher fencing number, and the old owner learns it lost the table."""

from __future__ import annotations

import asyncio
import secrets
import time

import redis
from redis.asyncio import Redis

from cardroom.cluster.lease import Leases
from cardroom.cluster.redis_bus import RedisBus
from tests.services import redis_url


def test_a_lease_not_renewed_runs_out_and_the_next_owner_gets_a_higher_fencing_number() -> None:
    prefix = f"test-{secrets.token_hex(4)}:"

    async def go() -> tuple[int | None, int | None, int | None, list[str], list[str]]:
        redis = Redis.from_url(redis_url(), decode_responses=True)
        try:
            # b's lease is long: a slow machine between b's claim and a's renewal must not let it
            # run out too (a then takes the table again, as after a Redis restart: stop 44's CI).
            a, b = Leases(redis, "a", prefix, lease_ms=300), Leases(redis, "b", prefix, lease_ms=30_000)
            first = await a.claim("t1")
            taken_early = await b.claim("t1")
            await asyncio.sleep(0.5)  # a is paused past its lease
            second = await b.claim("t1")
            lost = await a.renew_all()
            kept = await b.renew_all()
            return first, taken_early, second, lost, kept
        finally:
            await redis.aclose()

    first, taken_early, second, lost, kept = asyncio.run(go())
    assert taken_early is None
    assert first is not None and second is not None and second > first
    assert lost == ["t1"] and kept == []


def test_fencing_numbers_stay_above_what_the_store_has_seen_when_redis_forgot_them() -> None:
    """A Redis that lost its data (restarted without saving) must not hand out a number the
    store has already seen: the claimer passes the store's newest as a floor."""
    prefix = f"test-{secrets.token_hex(4)}:"

    async def go() -> int | None:
        redis = Redis.from_url(redis_url(), decode_responses=True)
        try:
            return await Leases(redis, "a", prefix).claim("t9", floor=41)
        finally:
            await redis.aclose()

    assert asyncio.run(go()) == 42


def test_a_node_whose_lease_was_taken_is_told_by_its_heartbeat() -> None:
    prefix = f"test-{secrets.token_hex(4)}:"

    async def go() -> list[str]:
        lost: list[str] = []
        node = RedisBus(redis_url(), prefix=prefix, beat_s=0.05)
        await node.open(lambda message: None, lost.append)
        other = Redis.from_url(redis_url(), decode_responses=True)
        try:
            assert await node.claim("t1") is not None
            await other.delete(f"{prefix}lease:t1")  # ran out, as when the node was paused
            assert await Leases(other, "thief", prefix).claim("t1") is not None
            for _ in range(100):
                if lost:
                    break
                await asyncio.sleep(0.02)
            return lost
        finally:
            await node.close()
            await other.aclose()

    assert asyncio.run(go()) == ["t1"]


def test_a_node_that_stood_still_past_its_lease_is_unsure_until_its_heartbeat_has_asked_redis() -> None:
    """A node whose event loop stood still longer than a lease (a pause) may have lost its
    tables without knowing: it is unsure (`Bus.sure`) from the moment it runs again, a lease
    found taken is reported lost while it is still unsure, and only then is it sure again."""
    prefix = f"test-{secrets.token_hex(4)}:"

    async def go() -> tuple[bool, bool, list[tuple[str, bool]], bool]:
        lost: list[tuple[str, bool]] = []
        node = RedisBus(redis_url(), prefix=prefix, lease_ms=400, beat_s=0.05)
        await node.open(lambda message: None, lambda table: lost.append((table, node.sure())))
        thief = redis.Redis.from_url(redis_url(), decode_responses=True)
        try:
            assert await node.claim("t1") is not None
            # Sure once a beat has renewed the lease (at once on a quiet machine; a clean run's
            # busy one had no beat in the 0.2 s this waited).
            ready = asyncio.get_running_loop().time() + 5
            while not node.sure() and asyncio.get_running_loop().time() < ready:
                await asyncio.sleep(0.02)
            before = node.sure()
            time.sleep(0.6)  # the whole node stands still past its lease (its loop is blocked)...
            thief.set(f"{prefix}lease:t1", "thief:9", px=5000)  # ...and another node takes the table
            after = node.sure()  # the first thing it knows on waking, before any beat
            deadline = asyncio.get_running_loop().time() + 5
            while not (lost and node.sure()) and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.02)
            return before, after, lost, node.sure()
        finally:
            await node.close()
            thief.close()

    before, after, lost, again = asyncio.run(go())
    assert before and not after  # sure while it beats; unsure once it stood still
    assert lost == [("t1", False)]  # the lease taken is reported before it is sure again
    assert again
