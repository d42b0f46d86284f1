"""What the store refuses, with a stable code for clients and a sentence for people."""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError

from cardroom.i18n import _
from cardroom.protocol import CardroomError

STORE_DOWN: tuple[type[Exception], ...] = (DBAPIError, OSError)
"""What a database that cannot do its work raises: a full disk, a lost connection, a lock."""


class StoreError(CardroomError):
    """A refusal: `code` is stable (clients branch on it), the message is in the caller's language."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def store_unavailable() -> StoreError:
    """The answer while the database cannot write: nothing was done, try again later."""
    return StoreError(
        "store_unavailable", _("The server cannot use its database right now: try again in a moment.")
    )
