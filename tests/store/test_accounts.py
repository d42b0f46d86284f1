"""Accounts: register, log in, sessions that last, log out, profiles, and every refusal."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest
from sqlalchemy import select, update

from cardroom.store import Store, StoreError
from cardroom.store.accounts import PASSWORD_COST_ENV, _make_hasher, now_ms
from cardroom.store.schema import accounts, reserved_names, sessions


async def _refusal(coro: Any) -> str:
    with pytest.raises(StoreError) as info:
        await coro
    return info.value.code


def test_a_player_registers_logs_in_and_the_session_finds_them(with_store: Any) -> None:
    async def go(store: Store) -> None:
        anna = await store.accounts.register("Anna", "correct horse")
        account, token = await store.accounts.login("anna", "correct horse")  # names ignore case
        assert account.id == anna.id and account.name == "Anna"
        assert (await store.accounts.session(token)).id == anna.id

    with_store(go)


def test_passwords_are_kept_as_argon2id_hashes_and_tokens_only_as_digests(with_store: Any) -> None:
    async def go(store: Store) -> None:
        await store.accounts.register("Anna", "correct horse")
        _, token = await store.accounts.login("Anna", "correct horse")
        async with store.engine.connect() as conn:
            stored = (await conn.execute(select(accounts.c.password_hash))).scalar_one()
            kept = [r[0] for r in (await conn.execute(select(sessions.c.token_hash))).all()]
        assert stored.startswith("$argon2id$") and "correct horse" not in stored
        assert token not in kept and len(kept) == 1

    with_store(go)


def test_passwords_are_hashed_at_argon2ids_recommended_cost_unless_told_low() -> None:
    """The tests hash at the lowest cost (tests/__init__.py); a server without the setting, as
    `make run` starts it, at the recommended one; a hash of either cost reads under the other,
    and a low one is rehashed at the recommended cost's next sign-in."""
    env = {k: v for k, v in os.environ.items() if k != PASSWORD_COST_ENV}
    show = (
        "from cardroom.store.accounts import _hasher as h; print(h.time_cost, h.memory_cost, h.parallelism)"
    )
    default = subprocess.run(
        [sys.executable, "-c", show], env=env, capture_output=True, text=True, timeout=60
    )
    assert default.stdout.split() == ["3", "65536", "4"], default.stderr
    wrong = subprocess.run(
        [sys.executable, "-c", show],
        env={**env, PASSWORD_COST_ENV: "cheap"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        wrong.returncode != 0 and "CARDROOM_PASSWORD_COST is low or recommended, not 'cheap'" in wrong.stderr
    )
    low, recommended = _make_hasher("low"), _make_hasher(None)
    cheap = low.hash("correct horse")
    assert recommended.verify(cheap, "correct horse") and recommended.check_needs_rehash(cheap)
    assert low.verify(recommended.hash("correct horse"), "correct horse")


def test_a_wrong_password_or_unknown_name_gets_one_message_and_no_session(with_store: Any) -> None:
    async def go(store: Store) -> None:
        await store.accounts.register("Anna", "correct horse")
        assert await _refusal(store.accounts.login("Anna", "wrong horse")) == "wrong_login"
        assert await _refusal(store.accounts.login("Nobody", "correct horse")) == "wrong_login"
        async with store.engine.connect() as conn:
            assert (await conn.execute(select(sessions))).first() is None

    with_store(go)


def test_a_name_is_taken_whatever_its_case_and_the_first_account_is_untouched(with_store: Any) -> None:
    async def go(store: Store) -> None:
        await store.accounts.register("Anna", "correct horse")
        assert await _refusal(store.accounts.register("ANNA", "another pass")) == "name_taken"
        account, _ = await store.accounts.login("Anna", "correct horse")
        assert account.name == "Anna"

    with_store(go)


def test_bad_names_and_passwords_are_refused(with_store: Any) -> None:
    async def go(store: Store) -> None:
        assert await _refusal(store.accounts.register("", "correct horse")) == "bad_name"
        assert await _refusal(store.accounts.register("x" * 25, "correct horse")) == "bad_name"
        assert await _refusal(store.accounts.register("bell\x07", "correct horse")) == "bad_name"
        assert await _refusal(store.accounts.register("Anna", "short")) == "bad_password"
        assert not await store.accounts.exists("Anna")

    with_store(go)


def test_an_expired_session_is_refused_and_forgotten(with_store: Any) -> None:
    async def go(store: Store) -> None:
        await store.accounts.register("Anna", "correct horse")
        _, token = await store.accounts.login("Anna", "correct horse")
        async with store.engine.begin() as conn:
            await conn.execute(update(sessions).values(expires_ms=1))
        assert await _refusal(store.accounts.session(token)) == "session_expired"
        async with store.engine.connect() as conn:
            assert (await conn.execute(select(sessions))).first() is None
        assert await _refusal(store.accounts.session("made-up-token-0123456789")) == "session_expired"

    with_store(go)


def test_logging_out_ends_that_session_only(with_store: Any) -> None:
    async def go(store: Store) -> None:
        await store.accounts.register("Anna", "correct horse")
        _, phone = await store.accounts.login("Anna", "correct horse")
        _, laptop = await store.accounts.login("Anna", "correct horse")
        await store.accounts.logout(phone)
        assert await _refusal(store.accounts.session(phone)) == "session_expired"
        assert (await store.accounts.session(laptop)).name == "Anna"

    with_store(go)


def test_the_profile_keeps_language_sound_speech_verbosity_and_keys(with_store: Any) -> None:
    async def go(store: Store) -> None:
        anna = await store.accounts.register("Anna", "correct horse", lang="it")
        assert anna.profile["lang"] == "it"
        await store.accounts.save_profile(anna.id, {"volume": 0.2, "muted": True, "speech": True})
        await store.accounts.save_profile(anna.id, {"verbosity": "brief", "keys": {"kittens": {"draw": "g"}}})
        account, _ = await store.accounts.login("Anna", "correct horse")
        assert account.profile == {
            "lang": "it",
            "volume": 0.2,
            "muted": True,
            "speech": True,
            "verbosity": "brief",
            "keys": {"kittens": {"draw": "g"}},
            "turn_title": True,
            "turn_notify": False,
            "turn_vibrate": True,
            "always_pass": False,
        }

    with_store(go)


def test_the_profile_keeps_the_turn_alerts(with_store: Any) -> None:
    """Issue 23: the title, notification and vibration alerts are each kept on or off."""

    async def go(store: Store) -> None:
        anna = await store.accounts.register("Anna", "correct horse")
        await store.accounts.save_profile(anna.id, {"turn_title": False, "turn_notify": True})
        await store.accounts.save_profile(anna.id, {"turn_vibrate": False})
        account, _ = await store.accounts.login("Anna", "correct horse")
        assert (
            account.profile["turn_title"],
            account.profile["turn_notify"],
            account.profile["turn_vibrate"],
        ) == (
            False,
            True,
            False,
        )

    with_store(go)


@pytest.mark.parametrize(
    "changes",
    [
        "loud",
        {"volume": 2},
        {"volume": True},
        {"lang": "xx"},
        {"muted": "yes"},
        {"turn_notify": "yes"},
        {"turn_title": 1},
        {"turn_vibrate": None},
        {"verbosity": "chatty"},
        {"keys": {"kittens": {"draw": 5}}},
        {"colour": "red"},
    ],
)
def test_a_bad_profile_change_is_refused_and_nothing_changes(with_store: Any, changes: Any) -> None:
    async def go(store: Store) -> None:
        anna = await store.accounts.register("Anna", "correct horse")
        assert await _refusal(store.accounts.save_profile(anna.id, changes)) == "bad_profile"
        account, _ = await store.accounts.login("Anna", "correct horse")
        assert account.profile == anna.profile

    with_store(go)


def test_a_deleted_accounts_name_is_kept_from_everyone_until_its_reserved_period_ends(
    with_store: Any,
) -> None:
    async def go(store: Store) -> None:
        anna = await store.accounts.register("Anna", "correct horse")
        assert await _refusal(store.accounts.delete(anna.id, "wrong horse")) == "wrong_password"
        assert await store.accounts.exists("anna")
        await store.accounts.delete(anna.id, "correct horse")
        assert await store.accounts.find("Anna") is None
        assert await store.accounts.exists("ANNA")  # no guest takes it either
        assert await _refusal(store.accounts.register("anna", "another horse")) == "name_taken"
        async with store.engine.begin() as conn:  # the reserved period passes
            await conn.execute(update(reserved_names).values(until_ms=now_ms() - 1))
        assert not await store.accounts.exists("Anna")
        assert (await store.accounts.register("anna", "another horse")).name == "anna"
        # Nobody may pass for a deleted account under the name its seats keep.
        assert await store.accounts.exists("Deleted Player")
        assert await _refusal(store.accounts.register("deleted  player", "any horse")) == "name_taken"

    with_store(go)


def test_the_profile_keeps_the_standing_choice_to_let_every_card_go(with_store: Any) -> None:
    """Issue 21: "always pass" in Exploding Kittens's Nope windows is a setting kept with the
    account (off unless asked for); a value that is not on or off is refused and changes nothing."""

    async def go(store: Store) -> None:
        anna = await store.accounts.register("Anna", "correct horse")
        account, _ = await store.accounts.login("Anna", "correct horse")
        assert account.profile["always_pass"] is False
        await store.accounts.save_profile(anna.id, {"always_pass": True})
        with pytest.raises(StoreError) as refused:
            await store.accounts.save_profile(anna.id, {"always_pass": "yes"})
        assert refused.value.code == "bad_profile"
        account, _ = await store.accounts.login("Anna", "correct horse")
        assert account.profile["always_pass"] is True

    with_store(go)
