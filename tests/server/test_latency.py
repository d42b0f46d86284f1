"""Issue 26: the server measures its own acknowledgements and its loop's lateness, so that a
load test can tell the server's delays from its own, and a host can see them in /healthz."""

from __future__ import annotations

import asyncio
import time

from cardroom.clients.botclient import Timings
from cardroom.server.latency import BOUNDS_MS, Histogram, percentile
from tests.server.live import LiveServer
from tests.server.play import FAST_BURRITO, Witness, create_and_start, play_until


def test_a_percentile_is_the_bucket_a_tenth_wide_that_holds_it() -> None:
    """Ninety-eight answers of 1 ms and two slow ones: the median is about 1 ms, the 99th
    percentile the first slow one, each known to a tenth of itself; the counts of two readings
    subtract to what came between them."""
    times = Histogram()
    for ms in [1.0] * 98 + [100.0, 200.0]:
        times.add(ms)
    summary = times.summary()
    assert summary["count"] == 100
    assert 1.0 <= summary["p50"] <= 1.1 and 100.0 <= summary["p99"] <= 110.0
    before = list(times.counts)
    times.add(5000.0)
    between = [b - a for a, b in zip(before, times.counts, strict=True)]
    assert 5000.0 <= (percentile(between, 50) or 0) <= 5500.0
    assert percentile([0] * len(times.counts), 99) is None
    times.add(10 * BOUNDS_MS[-1])
    assert percentile(times.counts, 100) == float("inf")  # past the last bound: said so, not hidden


def test_healthz_tells_how_long_acknowledgements_took_inside_the_server(server: LiveServer) -> None:
    """A network player acts at a burrito table (against a bot) on a durable store: each
    acknowledgement it got is counted at the server, no slower there than the player saw it; and
    the server's loop lateness, sampled four times a second, is counted too."""
    before = server.health()["latency"]
    timings = Timings()

    async def go() -> Witness:
        host = Witness(server.ws_url, "Lat", "burrito", "normal", seed=3, timings=timings)
        await create_and_start(host, "burrito", seats=2, bots=1, options=FAST_BURRITO)
        await host.send({"type": "start", "table": host.table})
        await play_until([host], acks=12, limit_s=60)
        await host.close()
        return host

    host = asyncio.run(go())
    time.sleep(0.6)  # two turns of the housekeeping at least
    after = server.health()["latency"]
    acks = after["ack_ms"]["count"] - before["ack_ms"]["count"]
    assert acks >= len(host.acked) >= 12
    between = [b - a for a, b in zip(before["ack_ms"]["buckets"], after["ack_ms"]["buckets"], strict=True)]
    inside = percentile(between, 50)
    seen = sorted(timings.ack)[len(timings.ack) // 2]
    assert inside is not None and inside <= seen * 1.1 + 1  # the network and the client come on top
    assert after["loop_lag_ms"]["count"] > before["loop_lag_ms"]["count"]
    assert after["loop_lag_ms"]["p99"] is not None
