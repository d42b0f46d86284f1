"""Stats and OpenSkill ratings: winners go up, losers down, bots are rated, guests leave no trace."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from cardroom.store import Standing, Store
from cardroom.store.ratings import account_subject, bot_subject
from cardroom.store.schema import ratings


def test_the_winner_rises_the_loser_falls_and_both_count_a_game(with_store: Any) -> None:
    async def go(store: Store) -> Any:
        anna = await store.accounts.register("Anna", "correct horse")
        marco = await store.accounts.register("Marco", "correct horse")
        for n in range(3):
            store.ratings.game_over(
                "kittens",
                f"g{n}",
                [
                    Standing(account_subject(anna.id), "Anna", 1),
                    Standing(account_subject(marco.id), "Marco", 2),
                ],
            )
        await store.journal.flush()
        return await store.ratings.leaderboard("kittens"), await store.ratings.profile(anna.id)

    board, anna = with_store(go)
    assert [(r["name"], r["played"], r["won"]) for r in board] == [("Anna", 3, 3), ("Marco", 3, 0)]
    assert board[0]["rating"] > board[1]["rating"]
    points = [p["rating"] for p in anna["kittens"]["history"]]
    assert len(points) == 3 and points == sorted(points)  # each win raised her rating


def test_bots_are_rated_and_guests_are_not_kept(with_store: Any) -> None:
    async def go(store: Store) -> list[str]:
        store.ratings.game_over(
            "burrito",
            "g1",
            [
                Standing(None, "Guest", 1),
                Standing(bot_subject("hard"), "Bot (hard)", 2),
                Standing(bot_subject("hard"), "Bot (hard)", 3),
            ],
        )
        await store.journal.flush()
        async with store.engine.connect() as conn:
            return [r.subject for r in (await conn.execute(select(ratings.c.subject))).all()]

    assert with_store(go) == ["bot:hard"]


def test_a_tie_shares_a_place(with_store: Any) -> None:
    async def go(store: Store) -> Any:
        a = await store.accounts.register("Anna", "correct horse")
        b = await store.accounts.register("Bea", "correct horse")
        store.ratings.game_over(
            "burrito",
            "g1",
            [Standing(account_subject(a.id), "Anna", 1), Standing(account_subject(b.id), "Bea", 1)],
        )
        await store.journal.flush()
        return await store.ratings.leaderboard("burrito")

    board = with_store(go)
    assert board[0]["rating"] == board[1]["rating"] and board[0]["won"] == board[1]["won"] == 1


def test_an_account_deleted_during_its_game_leaves_no_rating_when_the_game_ends(with_store: Any) -> None:
    async def go(store: Store) -> tuple[list[str], str]:
        anna = await store.accounts.register("Anna", "correct horse")
        marco = await store.accounts.register("Marco", "correct horse")
        await store.accounts.delete(anna.id, "correct horse")  # while the game is played
        store.ratings.game_over(
            "kittens",
            "g1",
            [Standing(account_subject(anna.id), "Anna", 1), Standing(account_subject(marco.id), "Marco", 2)],
        )
        await store.journal.flush()
        async with store.engine.connect() as conn:
            rated = [r.subject for r in await conn.execute(select(ratings.c.subject))]
        return rated, account_subject(marco.id)

    rated, marco = with_store(go)
    assert rated == [marco]
