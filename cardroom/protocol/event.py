"""What engines say: events (with their hidden parts) and rejections."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

JSON = dict[str, Any]


class Event(msgspec.Struct, frozen=True):
    """Something that happened at the table.

    `data` is what everybody who hears of the event may know. `secret` holds the fields only
    the seats in `knowers` may know (which card was drawn, where a kitten went back). With
    `public=False` seats outside `knowers` do not hear of the event at all. Filtering happens in
    one place, `for_seat`, so that no caller can forget it.

    A msgspec struct rather than a dataclass: engines make one per thing that happens, and a
    struct is built several times faster (issue 16: engines fast enough for search).
    """

    kind: str
    data: JSON = msgspec.field(default_factory=dict)
    secret: JSON | None = None
    knowers: frozenset[int] = frozenset()
    public: bool = True

    def for_seat(self, seat: int | None) -> JSON | None:
        """The event as `seat` may see it (None: a spectator); None if they do not hear of it."""
        knows = seat is not None and seat in self.knowers
        if not self.public and not knows:
            return None
        out: JSON = {"event": self.kind, **self.data}
        if knows and self.secret:
            out.update(self.secret)
        return out

    def data_for_all(self) -> JSON:
        """The event as a seat outside `knowers` sees it, for a public event."""
        return {"event": self.kind, **self.data}

    def full(self) -> JSON:
        """Everything, hidden parts included: for scenarios, tests and records, never a player."""
        out: JSON = {"event": self.kind, **self.data}
        if self.secret:
            out.update(self.secret)
        return out


@dataclass(frozen=True, slots=True)
class Rejected:
    """A refused action: a stable `code` for programs and a `reason` for people.

    The reason is English; clients translate by code (with `params`) when they can.
    """

    code: str
    reason: str
    params: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"code": self.code, "reason": self.reason, **({"params": self.params} if self.params else {})}
