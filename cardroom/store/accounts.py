"""Accounts, sessions and profiles.

Passwords are hashed with argon2id (in a worker thread: a hash takes tens of milliseconds and
must not stall the tables). A session token is 32 random bytes; the database keeps only its
SHA-256, so neither a log nor a copy of the database gives anyone a session. A session ends
after SESSION_DAYS without use, and in any case `lifetime_ms` after it was opened (the absolute
lifetime, `cardroom serve --session-days`): a stolen token that is kept in use does not last.

A deleted account leaves its games to the others under DELETED_NAME, its ratings are removed,
and its name is kept from everyone for RESERVED_DAYS, so that nobody can pass for its owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import os
import secrets
import time
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from cardroom.i18n import LANGUAGES, _
from cardroom.protocol import JSON
from cardroom.store.errors import StoreError
from cardroom.store.names import MAX_NAME_CHARS, checked_name, clean_name, name_keys, same
from cardroom.store.schema import (
    account_names,
    accounts,
    game_seats,
    players,
    rating_history,
    ratings,
    reserved_names,
    sessions,
)

MIN_PASSWORD = 8
MAX_PASSWORD = 256
SESSION_DAYS = 30
DAY_MS = 24 * 3600 * 1000
SESSION_MS = SESSION_DAYS * DAY_MS
"""A session unused this long ends (each day of use renews it)."""
LIFETIME_DAYS = 90
"""A session ends this long after it was opened, used or not (the default of `--session-days`)."""
RESERVED_DAYS = 180
"""How long a deleted account's name stays out of anyone's reach."""
DELETED_NAME = "deleted player"
"""The name a deleted account's seats keep in the game records (stored, not translated: a name);
no account and no guest may take it."""
VERBOSITY = ("normal", "brief", "verbose")  # cardroom.narrate.speech.VERBOSITIES
DEFAULT_PROFILE: JSON = {
    "lang": "en",
    "volume": 0.6,
    "muted": False,
    "speech": False,
    "verbosity": "normal",
    "keys": {},
    # Turn alerts (issue 23): the tab's title and icon, a notification while the page is
    # hidden (the browser asks first), a short vibration on phones.
    "turn_title": True,
    "turn_notify": False,
    "turn_vibrate": True,
    # Exploding Kittens (issue 21): let every card go without a Nope, from each game's start.
    "always_pass": False,
}

PASSWORD_COST_ENV = "CARDROOM_PASSWORD_COST"
"""`low` hashes at argon2id's lowest cost: the tests (tests/__init__.py), which create and sign in
to accounts by the hundred, each hash a quarter of a second of CPU at the recommended cost.
A hash carries its own parameters, so either reads the other's; a server given `low` rehashes
nothing, and one without it rehashes a `low` hash at the next sign-in (`check_needs_rehash`)."""


def _make_hasher(cost: str | None) -> PasswordHasher:
    if cost == "low":
        return PasswordHasher(time_cost=1, memory_cost=8 * 1024, parallelism=1)
    if cost not in (None, "", "recommended"):
        raise ValueError(f"{PASSWORD_COST_ENV} is low or recommended, not {cost!r}")
    return PasswordHasher()  # argon2id, the library's current recommended parameters


_hasher = _make_hasher(os.environ.get(PASSWORD_COST_ENV))


def now_ms() -> int:
    return int(time.time() * 1000)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_text(raw: str, limit: int) -> str | None:
    """Text people can read, for names and chat alike: printable characters only (no NUL, no
    control or formatting character such as a bidirectional override, which could make a line
    read as something else), 1 to `limit` of them, spaces squeezed; None otherwise."""
    text = " ".join(raw.split())
    if not text or len(text) > limit or not text.isprintable():
        return None
    return text


def name_key(name: str) -> str:
    """Names compare without case: "Anna" and "ANNA" are one name."""
    return name.casefold()


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    profile: JSON


def _key_name(value: Any) -> bool:
    """A game, an action or a key of the key map: 1 to 32 printable characters (no NUL, no
    control character), as the page shows them back."""
    return isinstance(value, str) and 1 <= len(value) <= 32 and value.isprintable()


def check_profile(raw: Any) -> JSON:
    """A complete profile from a partial one; anything unknown or of the wrong type is refused."""
    if not isinstance(raw, dict):
        raise StoreError("bad_profile", _("The settings must be an object."))
    unknown = sorted(set(raw) - set(DEFAULT_PROFILE))
    if unknown:
        raise StoreError("bad_profile", _("Unknown setting: {name}.").format(name=unknown[0]))
    out = dict(raw)
    if "lang" in out and out["lang"] not in LANGUAGES:
        raise StoreError("bad_profile", _("Unknown language."))
    volume = out.get("volume", 0.0)
    if isinstance(volume, bool) or not isinstance(volume, int | float) or not 0 <= volume <= 1:
        raise StoreError("bad_profile", _("The volume is a number from 0 to 1."))
    for flag in ("muted", "speech", "turn_title", "turn_notify", "turn_vibrate", "always_pass"):
        if flag in out and not isinstance(out[flag], bool):
            raise StoreError("bad_profile", _("{name} is on or off.").format(name=flag))
    if "verbosity" in out and out["verbosity"] not in VERBOSITY:
        raise StoreError("bad_profile", _("Unknown verbosity."))
    keys = out.get("keys", {})
    if (
        not isinstance(keys, dict)
        or not all(
            _key_name(game)
            and isinstance(bound, dict)
            and len(bound) <= 64
            and all(_key_name(k) and _key_name(v) for k, v in bound.items())
            for game, bound in keys.items()
        )
        or len(keys) > 8
    ):
        raise StoreError("bad_profile", _("The key map is a short list of actions and keys per game."))
    return out


async def _kept(conn: AsyncConnection, name: str) -> bool:
    """Whether the name, or a look-alike of it, is a deleted account's still kept from anyone;
    nobody ever passes for the deleted (DELETED_NAME)."""
    if same(name, DELETED_NAME):
        return True
    kept = await conn.scalar(
        select(func.count())
        .select_from(reserved_names)
        .where(reserved_names.c.name_key.in_(sorted(name_keys(name))), reserved_names.c.until_ms > now_ms())
    )
    return bool(kept)


class Accounts:
    """Register, log in, find a session, log out, keep a profile; change the password, end
    every session, delete the account."""

    def __init__(self, engine: AsyncEngine, lifetime_ms: int = LIFETIME_DAYS * DAY_MS) -> None:
        self.engine = engine
        self.lifetime_ms = lifetime_ms
        """The absolute lifetime of a session, however much it is used."""

    async def register(self, raw_name: str, password: str, lang: str = "en") -> Account:
        name = checked_name(raw_name, _("Choose a name of 1 to 24 printable characters."))
        self._check_password(password)
        hashed = await asyncio.to_thread(_hasher.hash, password)
        profile = {**DEFAULT_PROFILE, "lang": lang if lang in LANGUAGES else "en"}
        try:
            async with self.engine.begin() as conn:
                if await _kept(conn, name):
                    raise StoreError("name_taken", _("That name is taken: choose another."))
                result = await conn.execute(
                    insert(accounts).values(
                        name=name,
                        name_key=name_key(name),
                        password_hash=hashed,
                        profile=profile,
                        created_ms=now_ms(),
                    )
                )
                account_id = result.inserted_primary_key[0] if result.inserted_primary_key else None
                # A look-alike of an account's name collides here (store/names.py).
                await conn.execute(
                    insert(account_names),
                    [{"key": key, "account_id": account_id} for key in sorted(name_keys(name))],
                )
        except IntegrityError as exc:
            raise StoreError("name_taken", _("That name is taken: choose another.")) from exc
        assert account_id is not None
        return Account(int(account_id), name, profile)

    @staticmethod
    def _check_password(password: str) -> None:
        if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise StoreError(
                "bad_password",
                _("A password has {low} to {high} characters.").format(low=MIN_PASSWORD, high=MAX_PASSWORD),
            )

    async def login(self, raw_name: str, password: str) -> tuple[Account, str]:
        """The account and a new session token; one message for a wrong name or password."""
        wrong = StoreError("wrong_login", _("Wrong name or password."))
        name = clean_text(raw_name, MAX_NAME_CHARS) if isinstance(raw_name, str) else None
        if name is None or not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise wrong
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(accounts).where(accounts.c.name_key == name_key(name)))).first()
        if row is None:
            await asyncio.to_thread(_dummy_verify, password)  # the same time as a wrong password
            raise wrong
        await self._verify(row, password, wrong)
        token = secrets.token_urlsafe(32)
        now = now_ms()
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(sessions).values(
                    token_hash=token_hash(token),
                    account_id=row.id,
                    created_ms=now,
                    expires_ms=now + min(SESSION_MS, self.lifetime_ms),
                )
            )
        return Account(row.id, row.name, {**DEFAULT_PROFILE, **row.profile}), token

    async def _verify(self, row: Any, password: str, wrong: StoreError) -> None:
        """`password` is the account row's, else `wrong`; an old hash is brought up to date."""
        if not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise wrong
        try:
            await asyncio.to_thread(_hasher.verify, row.password_hash, password)
        except (VerificationError, InvalidHashError) as exc:
            raise wrong from exc
        if _hasher.check_needs_rehash(row.password_hash):
            rehashed = await asyncio.to_thread(_hasher.hash, password)
            async with self.engine.begin() as conn:
                await conn.execute(
                    update(accounts).where(accounts.c.id == row.id).values(password_hash=rehashed)
                )

    async def _owner(self, account_id: int, password: str) -> Any:
        """The account's row, once `password` proved to be its password."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(accounts).where(accounts.c.id == account_id))).first()
        if row is None:
            raise StoreError("no_account", _("That account does not exist."))
        await self._verify(
            row, password, StoreError("wrong_password", _("That is not your current password."))
        )
        return row

    async def session(self, token: str) -> Account:
        """The account of a session token; an unknown or expired one is refused."""
        expired = StoreError("session_expired", _("Your session has expired: log in again."))
        if not isinstance(token, str) or not 16 <= len(token) <= 128:
            raise expired
        now = now_ms()
        key = token_hash(token)
        async with self.engine.begin() as conn:
            row = (
                await conn.execute(
                    select(
                        sessions.c.created_ms,
                        sessions.c.expires_ms,
                        accounts.c.id,
                        accounts.c.name,
                        accounts.c.profile,
                    )
                    .join(accounts, accounts.c.id == sessions.c.account_id)
                    .where(sessions.c.token_hash == key)
                )
            ).first()
            ends = None if row is None else min(row.expires_ms, row.created_ms + self.lifetime_ms)
            if row is not None and ends is not None and ends <= now:
                await conn.execute(delete(sessions).where(sessions.c.token_hash == key))
            elif row is not None and row.expires_ms - now < SESSION_MS - DAY_MS:
                # In use: the session lasts another SESSION_DAYS from today (written once a day at
                # most), never past its absolute lifetime.
                renewed = min(now + SESSION_MS, row.created_ms + self.lifetime_ms)
                await conn.execute(
                    update(sessions).where(sessions.c.token_hash == key).values(expires_ms=renewed)
                )
        if row is None or ends is None or ends <= now:
            raise expired
        return Account(row.id, row.name, {**DEFAULT_PROFILE, **row.profile})

    async def logout(self, token: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash(token)))

    async def save_profile(self, account_id: int, changes: Any) -> JSON:
        """Merge `changes` into the profile; the whole profile comes back."""
        checked = check_profile(changes)
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(accounts.c.profile).where(accounts.c.id == account_id))).first()
            if row is None:
                raise StoreError("no_account", _("That account does not exist."))
            profile = {**DEFAULT_PROFILE, **row.profile, **checked}
            await conn.execute(update(accounts).where(accounts.c.id == account_id).values(profile=profile))
        return profile

    async def exists(self, raw_name: str) -> bool:
        """Whether the name, or a look-alike of it, is an account's, or a deleted account's still
        kept from anyone."""
        name = clean_name(raw_name)
        if name is None:
            return False
        async with self.engine.connect() as conn:
            count = await conn.scalar(
                select(func.count())
                .select_from(account_names)
                .where(account_names.c.key.in_(sorted(name_keys(name))))
            )
            kept = await _kept(conn, name)
        return bool(count) or kept

    async def change_password(self, account_id: int, old: str, new: str, keep: str) -> list[str]:
        """A new password, once the old one is given; every session of the account but `keep`
        (the digest of the one asking) ends. The digests of the sessions that ended."""
        self._check_password(new)
        await self._owner(account_id, old)
        hashed = await asyncio.to_thread(_hasher.hash, new)
        async with self.engine.begin() as conn:
            await conn.execute(
                update(accounts).where(accounts.c.id == account_id).values(password_hash=hashed)
            )
            return await _end_sessions(conn, account_id, keep)

    async def end_sessions(self, account_id: int) -> list[str]:
        """Log out everywhere: every session of the account ends; their digests."""
        async with self.engine.begin() as conn:
            return await _end_sessions(conn, account_id)

    async def delete(self, account_id: int, password: str) -> list[str]:
        """Delete the account, once its password is given: its seats in the records keep their
        games under DELETED_NAME, its ratings and players go, its name is kept from everyone
        for RESERVED_DAYS. The digests of the sessions that ended."""
        row = await self._owner(account_id, password)
        subject = f"a:{account_id}"  # cardroom.store.ratings.account_subject
        async with self.engine.begin() as conn:
            ended = await _end_sessions(conn, account_id)
            await conn.execute(
                update(game_seats)
                .where(game_seats.c.account_id == account_id)
                .values(name=DELETED_NAME, account_id=None, player_id=None)
            )
            await conn.execute(delete(ratings).where(ratings.c.subject == subject))
            await conn.execute(delete(rating_history).where(rating_history.c.subject == subject))
            await conn.execute(delete(players).where(players.c.account_id == account_id))
            # Every key of what the name looks like: no look-alike may pass for the deleted account.
            keys = sorted(name_keys(row.name))
            await conn.execute(delete(reserved_names).where(reserved_names.c.name_key.in_(keys)))
            until = now_ms() + RESERVED_DAYS * DAY_MS
            await conn.execute(insert(reserved_names), [{"name_key": k, "until_ms": until} for k in keys])
            await conn.execute(delete(accounts).where(accounts.c.id == account_id))
        return ended

    async def export(self, account_id: int, current: str) -> JSON:
        """What the account itself holds: its name, creation, profile, and its sessions without
        their digests (when each was opened, when it ends unused and at the latest, and which
        one asks: `current`, a digest)."""
        async with self.engine.connect() as conn:
            account = (await conn.execute(select(accounts).where(accounts.c.id == account_id))).first()
            if account is None:
                raise StoreError("no_account", _("That account does not exist."))
            rows = (
                await conn.execute(
                    select(sessions)
                    .where(sessions.c.account_id == account_id)
                    .order_by(sessions.c.created_ms)
                )
            ).all()
        return {
            "account": {"id": account.id, "name": account.name, "created_ms": account.created_ms},
            "profile": {**DEFAULT_PROFILE, **account.profile},
            "sessions": [
                {
                    "created_ms": r.created_ms,
                    "expires_ms": min(r.expires_ms, r.created_ms + self.lifetime_ms),
                    "ends_ms": r.created_ms + self.lifetime_ms,
                    "current": r.token_hash == current,
                }
                for r in rows
            ],
        }

    async def find(self, raw_name: str) -> Account | None:
        """The account of that name (any case), if there is one."""
        name = clean_text(raw_name, MAX_NAME_CHARS) if isinstance(raw_name, str) else None
        if name is None:
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(accounts).where(accounts.c.name_key == name_key(name)))).first()
        return None if row is None else Account(row.id, row.name, {**DEFAULT_PROFILE, **row.profile})

    async def expire_sessions(self) -> int:
        """Forget sessions past their date; how many went."""
        async with self.engine.begin() as conn:
            now = now_ms()
            result = await conn.execute(
                delete(sessions).where(
                    (sessions.c.expires_ms <= now) | (sessions.c.created_ms <= now - self.lifetime_ms)
                )
            )
            await conn.execute(delete(reserved_names).where(reserved_names.c.until_ms <= now))
        return int(result.rowcount or 0)


async def _end_sessions(conn: AsyncConnection, account_id: int, keep: str | None = None) -> list[str]:
    """Delete the account's sessions but `keep`; their digests (to close their websockets)."""
    where = sessions.c.account_id == account_id
    if keep is not None:
        where = where & (sessions.c.token_hash != keep)
    ended = [r.token_hash for r in (await conn.execute(select(sessions.c.token_hash).where(where))).all()]
    await conn.execute(delete(sessions).where(where))
    return ended


@functools.cache
def _dummy_hash() -> str:
    return _hasher.hash("not anyone's password")


def _dummy_verify(password: str) -> None:
    with contextlib.suppress(VerificationError):
        _hasher.verify(_dummy_hash(), password)
