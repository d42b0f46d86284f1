"""The guided first game over the wire (issue 24, docs/guide.md, docs/protocol.md `guide`): a
private table started at once, the coach's line when it waits, any other move refused with it,
nothing listed, nothing stored."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cardroom.guide.coach import Guide
from tests.server.live import Client, run_server
from tests.server.test_api import call


def test_a_guided_game_over_the_wire(tmp_path: Path) -> None:
    with run_server({"CARDROOM_DATA": str(tmp_path)}) as server:

        async def scenario() -> tuple[str, str]:
            learner = await Client.connect(server.ws_url, "Learner")
            await learner.send({"type": "guide", "game": "chess"})
            assert (await learner.expect("error"))["code"] == "bad_game"
            await learner.send({"type": "guide", "game": "kittens"})
            table = await learner.expect("table", state="playing")
            assert table["private"] and table["you"] == 0 and len(table["seats"]) == 3
            names = [s["name"] for s in table["seats"]]
            guide = Guide("kittens")
            first = await learner.expect("coach")
            assert first["step"] == 0 and first["text"] == guide.text(0, names)
            assert first["intro"] == guide.opening(names) and first["progress"] == "Step 1 of 5"
            # Anything but the step's move is refused with its line, and changes nothing.
            await learner.send(
                {
                    "type": "act",
                    "table": table["table"],
                    "action": {"do": "play", "cards": ["skip"]},
                    "ref": 1,
                }
            )
            refused = await learner.expect("error")
            assert refused["code"] == "guide_step" and refused["ref"] == 1
            assert refused["message"] == "Not this one yet. " + guide.text(0, names)
            await learner.send({"type": "act", "table": table["table"], "action": {"do": "draw"}, "ref": 2})
            ack = await learner.expect("ack")
            second = await learner.expect("coach")
            assert second["step"] == 1 and second["text"] == guide.text(1, names)
            # Nobody else sees the table in the list.
            other = await Client.connect(server.ws_url, "Other")
            listed = await other.expect("tables")
            assert table["table"] not in [t["id"] for t in listed["tables"]]
            assert learner.token is not None
            await other.close()
            await learner.close()
            return str(ack["game"]), learner.token

        game, token = asyncio.run(scenario())
        # Never stored: not among the learner's own games, not to be found by its id.
        status, answer = call(server, "GET", "/api/records", headers={"X-Cardroom-Player": token})
        assert status == 200 and game not in str(answer)
        status, _answer = call(server, "GET", f"/api/records/{game}", headers={"X-Cardroom-Player": token})
        assert status == 404
