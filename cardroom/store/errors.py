"""What the store refuses, with a stable code for clients and a sentence for people."""

from __future__ import annotations

from cardroom.protocol import CardroomError


class StoreError(CardroomError):
    """A refusal: `code` is stable (clients branch on it), the message is in the caller's language."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
