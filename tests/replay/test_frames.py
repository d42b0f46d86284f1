"""Frames: a stored game rebuilt step by step shows each seat what it heard at the table, and
nothing more; a game that is over can be shown whole."""

from __future__ import annotations

import pytest

from cardroom.narrate.narrator import Narrator
from cardroom.protocol import JSON
from cardroom.protocol.record import Move, Record
from cardroom.replay import frames
from tests.replay.conftest import NAMES, Played, Stored


def _games(stored: Stored) -> dict[str, Played]:
    return {"burrito": stored.burrito, "kittens": stored.kittens}


def _names(played: Played) -> list[str]:
    return NAMES[: played.record.players]


def _heard(played: Played, seat: int | None) -> list[JSON]:
    """What `seat` heard while the game was played live, in order."""
    return [e for _, batch in played.batches for e in (ev.for_seat(seat) for ev in batch) if e is not None]


@pytest.mark.parametrize("game", ["burrito", "kittens"])
def test_a_seat_replay_holds_what_the_seat_heard_and_no_other_seats_secret(stored: Stored, game: str) -> None:
    played = _games(stored)[game]
    for seat in range(played.record.players):
        shots = frames(played.record, seat, _names(played), "en", everything=False, end_at=played.end_at)
        seen = [e for shot in shots for e in shot["events"]]
        assert seen == _heard(played, seat)
        hidden = 0
        position = 0
        for _, batch in played.batches:
            for event in batch:
                mine = event.for_seat(seat)
                if mine is None:
                    continue
                if event.secret and seat not in event.knowers:
                    hidden += 1
                    assert not set(event.secret) & set(seen[position]), (seat, event)
                position += 1
        assert hidden > 0, "the game had no secret of another seat to keep"
        assert shots[-1]["view"] == played.table.view(seat)


@pytest.mark.parametrize("game", ["burrito", "kittens"])
def test_a_spectator_replay_shows_no_hand(stored: Stored, game: str) -> None:
    played = _games(stored)[game]
    shots = frames(played.record, None, _names(played), "en", everything=False, end_at=played.end_at)
    assert [e for shot in shots for e in shot["events"]] == _heard(played, None)
    assert shots[-1]["view"] == played.table.view(None)


@pytest.mark.parametrize("game", ["burrito", "kittens"])
def test_a_replay_of_everything_holds_every_secret_and_every_hand(stored: Stored, game: str) -> None:
    played = _games(stored)[game]
    shots = frames(played.record, None, _names(played), "en", everything=True, end_at=played.end_at)
    seen = [e for shot in shots for e in shot["events"]]
    assert seen == [event.full() for _, batch in played.batches for event in batch]
    position = 0
    secrets = 0
    for _, batch in played.batches:
        for event in batch:
            if event.secret:
                secrets += 1
                assert event.secret.items() <= seen[position].items()
            position += 1
    assert secrets > 0
    players = played.record.players
    last = shots[-1]["view"]
    assert last["table"] == played.table.view(None)
    assert last["seats"] == [played.table.view(i) for i in range(players)]


def test_the_whole_replay_names_every_dealt_hand(stored: Stored) -> None:
    played = stored.burrito
    first = frames(played.record, None, _names(played), "en", everything=True, end_at=played.end_at)[0]
    hands = [line for line in first["texts"] if "Your hand" in line]
    assert [line.split(":")[0] for line in hands] == [f"To {name}" for name in _names(played)]
    alone = frames(played.record, 1, _names(played), "en", everything=False, end_at=played.end_at)[0]
    assert [line for line in alone["texts"] if "Your hand" in line] == [hands[1].removeprefix("To Bruno: ")]


@pytest.mark.parametrize("everything", [False, True])
def test_frames_are_numbered_in_time_order_from_the_deal(stored: Stored, everything: bool) -> None:
    played = stored.kittens
    seat = None if everything else 0
    shots = frames(played.record, seat, _names(played), "en", everything=everything, end_at=played.end_at)
    assert [shot["i"] for shot in shots] == list(range(len(shots)))
    times = [shot["at"] for shot in shots]
    assert times[0] == 0 and times == sorted(times) and times[-1] <= played.end_at
    assert shots[0]["events"] and shots[0]["texts"]  # the deal
    assert all(shot["events"] for shot in shots)
    heard_batches = [b for _, b in played.batches if everything or any(e.for_seat(seat) for e in b)]
    assert len(shots) == len(heard_batches)


def test_refused_moves_make_no_frame(stored: Stored) -> None:
    played = stored.burrito
    moves = played.record.moves[:]
    moves.insert(1, Move(moves[0].at, 0, {"do": "throw", "target": 1}))  # no fight: refused
    record = Record(played.record.game, played.record.players, {}, played.record.seed, moves=moves)
    names = _names(played)
    assert frames(record, 0, names, "en", end_at=played.end_at) == frames(
        played.record, 0, names, "en", end_at=played.end_at
    )


def test_the_texts_are_the_servers_sentences_in_the_readers_language(stored: Stored) -> None:
    played = stored.kittens
    names = _names(played)
    english = frames(played.record, 2, names, "en", end_at=played.end_at)
    italian = frames(played.record, 2, names, "it", end_at=played.end_at)
    assert [s["events"] for s in italian] == [s["events"] for s in english]
    assert [s["texts"] for s in italian] != [s["texts"] for s in english]
    shot = italian[5]
    texts, _urgent = Narrator("kittens").lines(shot["events"], 2, names, shot["view"], "it")
    assert shot["texts"] == texts


def test_a_seat_that_is_not_at_the_table_is_refused(stored: Stored) -> None:
    with pytest.raises(ValueError):
        frames(stored.kittens.record, 3, NAMES, "en")
