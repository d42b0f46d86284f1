"""Refused actions, per seat: what one seat's refusals may cost a table.

A refused action changes nothing and is not logged (cardroom/drive/virtual.py), but each one
still costs the rules a check and its seat an answer. So every seat has a budget of refusals
(`Limits.refusals_per_s` after `refusals_burst`, a token bucket): once it is spent, that seat's
actions are answered `too_many_refusals` without reaching the game, until the budget refills.
Nobody else at the table notices; the seat's own next action after the wait plays as usual.
"""

from __future__ import annotations

import logging

from cardroom.i18n import _
from cardroom.protocol import JSON
from cardroom.server.connection import RateLimit
from cardroom.server.limits import Limits
from cardroom.server.wire import error

log = logging.getLogger("cardroom.server")


class Refusals:
    """Each seat's budget of refused actions at one table, for one game."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.seats: dict[int, RateLimit] = {}
        self.counts: dict[int, int] = {}
        """Refused actions per seat this game (for the server's log; never in the record)."""
        self.told: set[int] = set()
        """Seats whose spent budget the log has named this game (once each, not per refusal)."""

    def clear(self) -> None:
        """A new game: every seat's budget is whole again."""
        self.seats.clear()
        self.counts.clear()
        self.told.clear()

    def _limit(self, seat: int) -> RateLimit:
        limit = self.seats.get(seat)
        if limit is None:
            limit = self.seats[seat] = RateLimit(self.limits.refusals_per_s, self.limits.refusals_burst)
        return limit

    def blocked(self, seat: int, ref: int | None) -> JSON | None:
        """The answer to an action of a seat whose budget is spent, or None when it may play."""
        if not self._limit(seat).spent():
            return None
        return error(
            "too_many_refusals",
            _("Too many of your actions were refused: wait a moment, then play on."),
            ref=ref,
        )

    def refused(self, table: str, seat: int) -> None:
        """An action of `seat` was refused: it uses up one of the seat's budget."""
        self.counts[seat] = self.counts.get(seat, 0) + 1
        limit = self._limit(seat)
        limit.allow()
        if limit.spent() and seat not in self.told:
            self.told.add(seat)
            log.info(
                "table %s seat %d: %d refused actions, its actions wait (too_many_refusals)",
                table,
                seat,
                self.counts[seat],
            )
