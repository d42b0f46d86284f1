"""Stats and OpenSkill ratings, per game: accounts and bot levels are rated; guests are not.

After each finished game every seat is one team in a Plackett-Luce update by place (ties
share a place). A game is rated from its record (`rate`), in the transaction that records its
end (`Records.finish_game`): each seat as it was taken when the game began, so a player who
left is rated for the place their stand-in finished in (docs/api.md); and a game is rated
once, by its table's owner, only as its record says it is over. A guest has no lasting
identity, so a guest plays each game as a newcomer (the default rating) and nothing of theirs
is kept. The leaderboard orders by the conservative estimate mu - 3 sigma (`ordinal`), so that
a lucky first game does not top it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import desc, select
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from cardroom.protocol import JSON
from cardroom.store.accounts import now_ms
from cardroom.store.schema import accounts, game_seats, games, rating_history, ratings

MODEL = PlackettLuce()


def account_subject(account_id: int) -> str:
    return f"a:{account_id}"


def bot_subject(level: str) -> str:
    return f"bot:{level}"


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's result: who (`subject`, None for a guest), shown as `name`, and its place."""

    subject: str | None
    name: str
    place: int


class Ratings:
    """Leaderboards and histories, read directly (the updates: `rate`, from the journal)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def leaderboard(self, game: str, limit: int = 50) -> list[JSON]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(ratings)
                    .where(ratings.c.game == game)
                    .order_by(desc(ratings.c.mu - 3 * ratings.c.sigma))
                    .limit(limit)
                )
            ).all()
        return [
            {
                "rank": i + 1,
                "name": r.name,
                "bot": r.subject.startswith("bot:"),
                "level": r.subject.removeprefix("bot:") if r.subject.startswith("bot:") else None,
                "rating": round(ordinal(r.mu, r.sigma), 2),
                "mu": round(r.mu, 2),
                "sigma": round(r.sigma, 2),
                "played": r.played,
                "won": r.won,
            }
            for i, r in enumerate(rows)
        ]

    async def profile(self, account_id: int) -> JSON:
        """Per game: played, won, rating, and its history (one point per game)."""
        subject = account_subject(account_id)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(ratings).where(ratings.c.subject == subject))).all()
            points = (
                await conn.execute(
                    select(rating_history)
                    .where(rating_history.c.subject == subject)
                    .order_by(rating_history.c.id)
                )
            ).all()
        out: dict[str, JSON] = {}
        for r in rows:
            out[r.game] = {
                "played": r.played,
                "won": r.won,
                "rating": round(ordinal(r.mu, r.sigma), 2),
                "history": [],
            }
        for p in points:
            if p.game in out:
                out[p.game]["history"].append(
                    {"game_id": p.game_id, "at_ms": p.at_ms, "rating": round(ordinal(p.mu, p.sigma), 2)}
                )
        return out


def rate(conn: Connection, game_id: str) -> None:
    """Rate a game that ends in this transaction, from its record: who sat at each seat when
    it began (an account, a bot level, or a guest), at the place the record gives the seat."""
    game = conn.execute(select(games.c.game).where(games.c.id == game_id)).scalar_one()
    seats = conn.execute(
        select(game_seats).where(game_seats.c.game_id == game_id).order_by(game_seats.c.seat)
    ).all()
    _rate(conn, str(game), game_id, [_standing(seat) for seat in seats])


def _standing(seat: Any) -> Standing:
    if seat.account_id is not None:
        return Standing(account_subject(seat.account_id), seat.name, seat.place)
    if seat.bot_level is not None:
        return Standing(bot_subject(seat.bot_level), f"Bot {seat.bot_level}", seat.place)
    return Standing(None, seat.name, seat.place)


def _rate(conn: Connection, game: str, game_id: str, standings: list[Standing]) -> None:
    standings = _without_deleted(conn, standings)
    subjects = [s.subject for s in standings if s.subject is not None]
    known = {
        r.subject: r
        for r in (
            conn.execute(select(ratings).where(ratings.c.game == game, ratings.c.subject.in_(subjects)))
        ).all()
    }
    teams = []
    for s in standings:
        row = known.get(s.subject) if s.subject is not None else None
        teams.append([MODEL.rating(mu=row.mu, sigma=row.sigma) if row else MODEL.rating()])
    rated = MODEL.rate(teams, ranks=[s.place for s in standings])
    best = min(s.place for s in standings)
    at = now_ms()
    seen: set[str] = set()
    ordered = sorted(zip(standings, rated, strict=True), key=lambda pair: pair[0].place)
    for s, team in ordered:
        if s.subject is None or s.subject in seen:
            continue  # a guest; or a bot level at several seats, rated once per game (its best seat)
        seen.add(s.subject)
        new = team[0]
        row = known.get(s.subject)
        won = 1 if s.place == best else 0
        if row is None:
            conn.execute(
                ratings.insert().values(
                    subject=s.subject, game=game, name=s.name, mu=new.mu, sigma=new.sigma, played=1, won=won
                )
            )
        else:
            conn.execute(
                ratings.update()
                .where(ratings.c.subject == s.subject, ratings.c.game == game)
                .values(mu=new.mu, sigma=new.sigma, played=row.played + 1, won=row.won + won, name=s.name)
            )
        conn.execute(
            rating_history.insert().values(
                subject=s.subject, game=game, game_id=game_id, at_ms=at, mu=new.mu, sigma=new.sigma
            )
        )


def _without_deleted(conn: Connection, standings: list[Standing]) -> list[Standing]:
    """An account deleted while its game was played is rated as a guest: nothing of it is kept."""
    ids = [int(s.subject[2:]) for s in standings if s.subject is not None and s.subject.startswith("a:")]
    if not ids:
        return standings
    alive = {account_subject(r.id) for r in conn.execute(select(accounts.c.id).where(accounts.c.id.in_(ids)))}
    return [
        Standing(None, s.name, s.place)
        if s.subject is not None and s.subject.startswith("a:") and s.subject not in alive
        else s
        for s in standings
    ]


async def account_names(engine: AsyncEngine, ids: list[int]) -> dict[int, str]:
    async with engine.connect() as conn:
        rows = (
            await conn.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids)))
        ).all()
    return {r.id: r.name for r in rows}
