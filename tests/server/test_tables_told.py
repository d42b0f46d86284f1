"""An operator asks a running server what each table waits for (`kill -USR1`, docs/deploy.md,
"A table that stands still"): the server logs one line per table and goes on playing."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time

from tests.server.live import Client, run_server


def test_sigusr1_logs_what_each_table_waits_for_and_the_game_goes_on() -> None:
    with run_server(log_level="warning") as server:

        async def go() -> tuple[str, str]:
            anna = await Client.connect(server.ws_url, "Anna")
            await anna.send({"type": "create_table", "game": "kittens", "seats": 3, "bots": 2})
            table = str((await anna.expect("table"))["table"])
            await anna.send({"type": "start", "table": table})
            await anna.expect("events", table=table)
            os.kill(server.process.pid, signal.SIGUSR1)
            await asyncio.sleep(0.5)
            await anna.send({"type": "act", "table": table, "action": {"do": "draw"}, "ref": 7})
            while (answer := await anna.recv(10)).get("ref") != 7:
                pass
            await anna.close()
            return table, str(answer["type"])

        table, answer = asyncio.run(go())
        assert answer == "ack"  # Anna begins: her draw is played after the signal
        time.sleep(0.2)
        assert server.process.poll() is None  # the signal stopped nothing
    told = rf"table {table}: playing, version \d+, \d+ moves, .*next due \d+, .*clock task running"
    assert re.search(told, server.log), server.log
    assert "1 tables here; this node sure of its leases: True" in server.log
    assert re.search(r"journal: \d+ writes pending, failing False", server.log), server.log
