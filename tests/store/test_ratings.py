"""Stats and OpenSkill ratings: winners go up, losers down, bots are rated, guests leave no trace."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from cardroom.protocol.record import Record
from cardroom.store import SeatRecord, Store
from cardroom.store.ratings import account_subject
from cardroom.store.schema import rating_history, ratings


def _played(store: Store, game: str, game_id: str, seats: list[SeatRecord], places: list[int]) -> None:
    """A game as a table records it: started with its seats, then ended at these places."""
    store.records.start_game(game_id, "room", Record(game, len(seats), {}, 7), seats)
    store.records.finish_game(game_id, 1000, places.index(min(places)), places)


def test_the_winner_rises_the_loser_falls_and_both_count_a_game(with_store: Any) -> None:
    async def go(store: Store) -> Any:
        anna = await store.accounts.register("Anna", "correct horse")
        marco = await store.accounts.register("Marco", "correct horse")
        seats = [SeatRecord("Anna", "p1", anna.id), SeatRecord("Marco", "p2", marco.id)]
        for n in range(3):
            _played(store, "kittens", f"g{n}", seats, [1, 2])
        await store.journal.flush()
        return await store.ratings.leaderboard("kittens"), await store.ratings.profile(anna.id)

    board, anna = with_store(go)
    assert [(r["name"], r["played"], r["won"]) for r in board] == [("Anna", 3, 3), ("Marco", 3, 0)]
    assert board[0]["rating"] > board[1]["rating"]
    points = [p["rating"] for p in anna["kittens"]["history"]]
    assert len(points) == 3 and points == sorted(points)  # each win raised her rating


def test_bots_are_rated_and_guests_are_not_kept(with_store: Any) -> None:
    async def go(store: Store) -> list[str]:
        seats = [
            SeatRecord("Guest", "p1"),
            SeatRecord("Bo", bot_level="hard"),
            SeatRecord("Cy", bot_level="hard"),
        ]
        _played(store, "burrito", "g1", seats, [1, 2, 3])
        await store.journal.flush()
        async with store.engine.connect() as conn:
            return [r.subject for r in (await conn.execute(select(ratings.c.subject))).all()]

    assert with_store(go) == ["bot:hard"]


def test_a_tie_shares_a_place(with_store: Any) -> None:
    async def go(store: Store) -> Any:
        a = await store.accounts.register("Anna", "correct horse")
        b = await store.accounts.register("Bea", "correct horse")
        _played(
            store, "burrito", "g1", [SeatRecord("Anna", "p1", a.id), SeatRecord("Bea", "p2", b.id)], [1, 1]
        )
        await store.journal.flush()
        return await store.ratings.leaderboard("burrito")

    board = with_store(go)
    assert board[0]["rating"] == board[1]["rating"] and board[0]["won"] == board[1]["won"] == 1


def test_an_account_deleted_during_its_game_leaves_no_rating_when_the_game_ends(with_store: Any) -> None:
    async def go(store: Store) -> tuple[list[str], str]:
        anna = await store.accounts.register("Anna", "correct horse")
        marco = await store.accounts.register("Marco", "correct horse")
        seats = [SeatRecord("Anna", "p1", anna.id), SeatRecord("Marco", "p2", marco.id)]
        store.records.start_game("g1", "room", Record("kittens", 2, {}, 7), seats)
        await store.journal.flush()
        await store.accounts.delete(anna.id, "correct horse")  # while the game is played
        store.records.finish_game("g1", 1000, 0, [1, 2])
        await store.journal.flush()
        async with store.engine.connect() as conn:
            rated = [r.subject for r in await conn.execute(select(ratings.c.subject))]
        return rated, account_subject(marco.id)

    rated, marco = with_store(go)
    assert rated == [marco]


def test_a_game_is_rated_once_by_its_owner_as_its_record_says_it_is_over(with_store: Any) -> None:
    """A stale owner's end of the game (a lower fencing number: store/fencing.py) is refused
    whole, its rating with it; the owner's end rates the game; a second end rates nothing."""

    async def go(store: Store) -> dict[str, Any]:
        anna = await store.accounts.register("Anna", "correct horse")
        seats = [SeatRecord("Anna", "p1", anna.id), SeatRecord("Bo", bot_level="normal")]
        store.records.start_game("g1", "room", Record("kittens", 2, {}, 7), seats)
        await store.records.claim_table("room", "g1", 2)  # another node took the table over
        store.records.finish_game("g1", 900, 1, [2, 1], fence=1)  # the stale owner's end
        await store.journal.flush()
        before = (await store.ratings.leaderboard("kittens"), (await store.records.get("g1")).state)
        store.records.finish_game("g1", 1000, 0, [1, 2], fence=2)
        store.records.finish_game("g1", 1100, 1, [2, 1], fence=2)  # a second end
        await store.journal.flush()
        async with store.engine.connect() as conn:
            history = (await conn.execute(select(rating_history.c.subject, rating_history.c.at_ms))).all()
        return {
            "before": before,
            "board": await store.ratings.leaderboard("kittens"),
            "record": await store.records.get("g1"),
            "history": history,
        }

    seen = with_store(go)
    assert seen["before"] == ([], "playing")  # the stale end changed nothing, rated nobody
    board = [(r["name"], r["played"], r["won"]) for r in seen["board"]]
    assert board == [("Anna", 1, 1), ("Bot normal", 1, 0)]  # rated once, by the owner's end
    record = seen["record"]
    assert record.state == "over" and record.winner == 0 and [s.place for s in record.seats] == [1, 2]
    assert len(seen["history"]) == 2  # one point in each history
    assert all(at >= record.finished_ms for _subject, at in seen["history"])  # rated as it ended
