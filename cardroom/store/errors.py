"""What the store refuses, with a stable code for clients and a sentence for people."""

from __future__ import annotations

from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, ProgrammingError, StatementError

from cardroom.i18n import _
from cardroom.protocol import CardroomError

STORE_DOWN: tuple[type[Exception], ...] = (DBAPIError, OSError)
"""What a database that cannot do its work raises: a full disk, a lost connection, a lock."""

PERMANENT_SQLSTATES = frozenset({"0A", "21", "22", "23", "27", "42", "44"})
"""SQLSTATE classes of a statement that fails the same however often it is sent: feature not
supported, cardinality, data (a value too long, a NUL byte in text, a number out of range),
integrity (a duplicate key), triggered data change, syntax or access rule, check option. The
others (08 connection, 40 rollback, 53 resources, 57 operator intervention, 58 system...) say
the database is away or busy: the same statement may pass later."""


def sqlstate(exc: BaseException) -> str | None:
    """The SQLSTATE of a database error, whatever the driver (asyncpg and psycopg name it
    `sqlstate`, psycopg2 `pgcode`), looked for through SQLAlchemy's wrapper and the causes."""
    seen: BaseException | None = exc
    for _depth in range(6):
        if seen is None:
            return None
        code = getattr(seen, "sqlstate", None) or getattr(seen, "pgcode", None)
        if isinstance(code, str) and len(code) == 5:
            return code
        orig = seen.orig if isinstance(seen, StatementError) else None
        seen = orig if isinstance(orig, BaseException) else seen.__cause__
    return None


def refused_for_good(exc: BaseException) -> bool:
    """Whether a write failed for what it holds, not for the state of the database: retrying
    cannot help. asyncpg reports a data error (a value too long for its column) as a plain
    DBAPIError, so its SQLSTATE decides; SQLite's driver raises Python's own errors for a value
    it cannot bind (a lone surrogate, an integer past 64 bits): those are values too."""
    code = sqlstate(exc)
    if code is not None:
        return code[:2] in PERMANENT_SQLSTATES
    if isinstance(exc, DBAPIError):
        return isinstance(exc, IntegrityError | DataError | ProgrammingError)
    if isinstance(exc, StatementError) and isinstance(exc.orig, BaseException):
        exc = exc.orig  # a value SQLAlchemy could not prepare for the driver
    # UnicodeEncodeError is a ValueError, OverflowError an ArithmeticError.
    return isinstance(exc, ValueError | TypeError | ArithmeticError)


def reason(exc: BaseException) -> str:
    """What the database said, in one line, without the statement and its values."""
    inner = exc.orig if isinstance(exc, StatementError) and exc.orig is not None else exc
    text = str(inner).strip().splitlines()
    return f"{type(inner).__name__}: {text[0] if text else ''}"[:300]


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
