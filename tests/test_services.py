"""The test session brings up its own PostgreSQL and Redis and leaves nothing behind (issue 11):
`make test` on a fresh machine needs no service started by hand."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from sqlalchemy import text

from cardroom.server.process import listens
from cardroom.store.db import create_engine
from tests import services

ROOT = Path(__file__).resolve().parents[1]
OVERRIDDEN_PG = "CARDROOM_TEST_POSTGRES" in os.environ


def redis_ping(url: str) -> bytes:
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), timeout=5) as s:
        s.sendall(b"*1\r\n$4\r\nPING\r\n")
        return s.recv(64)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def process_uid(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    raise AssertionError(f"no Uid line for {pid}")


def test_the_test_postgresql_answers_queries() -> None:
    async def version() -> str:
        engine = create_engine(services.postgres_url())
        try:
            async with engine.connect() as conn:
                return str((await conn.execute(text("SELECT version()"))).scalar_one())
        finally:
            await engine.dispose()

    assert asyncio.run(version()).startswith("PostgreSQL")


def test_the_session_postgresql_is_private_and_never_runs_as_root() -> None:
    url = services.postgres_url()
    if OVERRIDDEN_PG:  # a server of your own: the session starts none
        assert url == os.environ["CARDROOM_TEST_POSTGRES"] and "postgres" not in services.running()
        return
    server = services.running()["postgres"]
    assert urlsplit(url).hostname == "127.0.0.1"
    assert urlsplit(url).port != 5432, "a private port, not a system service's"
    assert server.process.poll() is None
    assert server.folder.is_dir() and server.folder.name.startswith(services.PREFIX)
    assert process_uid(server.process.pid) != 0


def test_the_test_redis_answers_ping() -> None:
    assert redis_ping(services.redis_url()) == b"+PONG\r\n"


def test_a_killed_session_leftovers_are_removed_by_the_next() -> None:
    orphan = services.start_redis()
    dead = subprocess.Popen(["true"])
    dead.wait()
    (orphan.folder / services.OWNER_FILE).write_text(str(dead.pid))

    removed = services.clean_leftovers()

    assert orphan.folder in removed
    assert not orphan.folder.exists()
    orphan.process.wait(timeout=10)  # killed, and reaped here since we started it
    with pytest.raises(OSError):
        redis_ping(orphan.url)


INNER = """
import signal
from cardroom.server.process import listens
from tests import services

# Ctrl+C at a terminal always reaches pytest; a session started in the background by a
# non-interactive shell (`make test &`) inherits SIGINT ignored, so say it as a terminal would.
signal.signal(signal.SIGINT, signal.default_int_handler)

def test_uses_both():
    services.postgres_url()
    services.redis_url()
    servers = services.running().values()
    print("FOLDERS", *[s.folder for s in servers], flush=True)
    print("READY", *[s.process.pid for s in servers], flush=True)
    import time
    time.sleep({sleep})
"""


def run_inner_session(tmp_path: Path, sleep: float, interrupt: bool) -> tuple[int, str]:
    test_file = tmp_path / "test_inner.py"
    test_file.write_text(textwrap.dedent(INNER.format(sleep=sleep)))
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDROOM_TEST_")}
    inner = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-s",
            "-p",
            "tests.conftest",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(tmp_path),
            str(test_file),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert inner.stdout is not None
    seen = ""
    if interrupt:
        deadline = time.monotonic() + 90
        for line in inner.stdout:
            seen += line
            if "READY" in line or time.monotonic() > deadline:
                break
        inner.send_signal(signal.SIGINT)
    out, _ = inner.communicate(timeout=120)
    return inner.returncode, seen + out


@pytest.mark.parametrize("interrupt", [False, True], ids=["finished", "ctrl-c"])
def test_a_session_stops_its_servers_and_removes_their_data(tmp_path: Path, interrupt: bool) -> None:
    code, out = run_inner_session(tmp_path, sleep=30 if interrupt else 0, interrupt=interrupt)

    assert code == (2 if interrupt else 0), out
    ready = next(line for line in out.splitlines() if line.startswith("READY"))
    pids = [int(pid) for pid in ready.split()[1:]]
    assert len(pids) == 2, ready
    assert not [pid for pid in pids if alive(pid)], "a throwaway server outlived its session"
    folders = next(line for line in out.splitlines() if line.startswith("FOLDERS")).split()[1:]
    assert len(folders) == 2 and all(f.startswith(tempfile.gettempdir()) for f in folders), folders
    assert not [f for f in folders if Path(f).exists()], "a throwaway server's folder outlived its session"


def test_without_root_missing_packages_are_named_in_one_line_and_exit_2() -> None:
    """`make test` installs what it needs only as root; anyone else is told what to install."""
    bin_dir = Path(tempfile.mkdtemp(prefix="cardroom-packages-"))  # a PATH without tmux, redis-server
    bin_dir.chmod(0o755)
    python = shutil.which("python3")
    assert python
    (bin_dir / "python3").symlink_to(python)
    script = bin_dir / "test-packages"  # a copy nobody can read, wherever the clone lies
    shutil.copy(ROOT / "scripts" / "test-packages", script)
    script.chmod(0o755)
    as_nobody: dict[str, object] = {"user": "nobody", "group": "nogroup", "extra_groups": []}
    done = subprocess.run(
        ["/bin/bash", str(script)],
        env={"PATH": str(bin_dir)},
        capture_output=True,
        text=True,
        timeout=60,
        **(as_nobody if os.geteuid() == 0 else {}),  # type: ignore[arg-type]
    )

    shutil.rmtree(bin_dir)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "make test needs these Debian packages" in lines[0]
    assert "tmux" in lines[0] and "redis-server" in lines[0]


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A loopback port another process listens on, for as long as the test runs."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield int(other.getsockname()[1])


@pytest.mark.parametrize("start", [services.start_postgres, services.start_redis], ids=["postgres", "redis"])
def test_a_server_given_a_port_another_took_starts_on_another(
    start: Callable[[], services.Service], taken_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two test workers can be handed the same free port a moment apart: a CI run's worker
    created its database in another worker's PostgreSQL. The server that finds its port taken is
    started on another, and what the tests are given is the server this session started."""
    ports, free = [taken_port], services.free_port
    monkeypatch.setattr(services, "free_port", lambda: ports.pop(0) if ports else free())
    server = start()
    try:
        assert ports == [], "the taken port was not tried"
        assert server.port != taken_port and listens(server.process.pid, server.port)
    finally:
        server.stop()
