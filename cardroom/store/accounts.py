"""Accounts, sessions and profiles.

Passwords are hashed with argon2id (in a worker thread: a hash takes tens of milliseconds and
must not stall the tables). A session token is 32 random bytes; the database keeps only its
SHA-256, so neither a log nor a copy of the database gives anyone a session.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from cardroom.i18n import LANGUAGES, _
from cardroom.protocol import JSON
from cardroom.store.errors import StoreError
from cardroom.store.names import MAX_NAME_CHARS, checked_name, clean_name, name_keys
from cardroom.store.schema import account_names, accounts, sessions

MIN_PASSWORD = 8
MAX_PASSWORD = 256
SESSION_DAYS = 30
SESSION_MS = SESSION_DAYS * 24 * 3600 * 1000
VERBOSITY = ("normal", "brief", "verbose")  # cardroom.narrate.speech.VERBOSITIES
DEFAULT_PROFILE: JSON = {
    "lang": "en",
    "volume": 0.6,
    "muted": False,
    "speech": False,
    "verbosity": "normal",
    "keys": {},
}

_hasher = PasswordHasher()  # argon2id, the library's current recommended parameters


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
    for flag in ("muted", "speech"):
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


class Accounts:
    """Register, log in, find a session, log out, keep a profile."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def register(self, raw_name: str, password: str, lang: str = "en") -> Account:
        name = checked_name(raw_name, _("Choose a name of 1 to 24 printable characters."))
        self._check_password(password)
        hashed = await asyncio.to_thread(_hasher.hash, password)
        profile = {**DEFAULT_PROFILE, "lang": lang if lang in LANGUAGES else "en"}
        try:
            async with self.engine.begin() as conn:
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
        token = secrets.token_urlsafe(32)
        now = now_ms()
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(sessions).values(
                    token_hash=token_hash(token),
                    account_id=row.id,
                    created_ms=now,
                    expires_ms=now + SESSION_MS,
                )
            )
        return Account(row.id, row.name, {**DEFAULT_PROFILE, **row.profile}), token

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
                    select(sessions.c.expires_ms, accounts.c.id, accounts.c.name, accounts.c.profile)
                    .join(accounts, accounts.c.id == sessions.c.account_id)
                    .where(sessions.c.token_hash == key)
                )
            ).first()
            if row is not None and row.expires_ms <= now:
                await conn.execute(delete(sessions).where(sessions.c.token_hash == key))
            elif row is not None and row.expires_ms - now < SESSION_MS - 24 * 3600 * 1000:
                # In use: the session lasts another SESSION_DAYS from today (written once a day at most).
                await conn.execute(
                    update(sessions).where(sessions.c.token_hash == key).values(expires_ms=now + SESSION_MS)
                )
        if row is None or row.expires_ms <= now:
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
        """Whether the name, or a look-alike of it, is an account's."""
        name = clean_name(raw_name)
        if name is None:
            return False
        async with self.engine.connect() as conn:
            count = await conn.scalar(
                select(func.count())
                .select_from(account_names)
                .where(account_names.c.key.in_(sorted(name_keys(name))))
            )
        return bool(count)

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
            result = await conn.execute(delete(sessions).where(sessions.c.expires_ms <= now_ms()))
        return int(result.rowcount or 0)


@functools.cache
def _dummy_hash() -> str:
    return _hasher.hash("not anyone's password")


def _dummy_verify(password: str) -> None:
    with contextlib.suppress(VerificationError):
        _hasher.verify(_dummy_hash(), password)
