"""Throwaway PostgreSQL and Redis servers for one test session.

Each server is started the first time a test asks for it, on a free loopback port, with its
data in a temporary folder; it is stopped and the folder removed when the session ends, on
Ctrl+C too (tests/conftest.py calls `stop_all`). A folder left by a session that was killed
outright is found by the next session (its owner's pid is gone) and cleaned up then, so no
server process or data outlives two runs. `CARDROOM_TEST_POSTGRES` and `CARDROOM_TEST_REDIS`
point the tests at servers of your own instead; nothing is started then.

Why not pytest-postgresql and pytest-redis: their process fixtures run `pg_ctl` as the current
user, and PostgreSQL refuses to run as root (pytest-postgresql issues #341 and #455, closed
with "use another user"), which is how CI and a fresh Debian machine run. So this module
follows their recipe (initdb into a temporary folder, a free port, trust authentication on
loopback only, stop at the end) and, when run as root, hands the folder and the server to an
unprivileged user (Debian's `postgres`, else `nobody`). Redis needs nothing of the kind, and
keeping both in one place gives them one life cycle.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cardroom.server.process import PORT_TRIES, free_port, listens

PREFIX = "cardroom-test-"
OWNER_FILE = "owner.pid"  # the test session's pid: the folder is a leftover once it is gone
SERVER_FILE = "server.pid"  # the server's pid (Redis renames its process: no command line to find)
START_TIMEOUT_S = 60.0


class ServiceError(RuntimeError):
    """A throwaway server could not be started; the message says what to install or set."""


def _postgres_bin(name: str) -> str:
    """The newest Debian PostgreSQL's `name` (initdb, pg_ctl), else one on PATH."""
    found = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda p: int(Path(p).parts[4]) if Path(p).parts[4].isdigit() else 0,
    )
    path = found[-1] if found else shutil.which(name)
    if not path:
        raise ServiceError(
            f"PostgreSQL's {name} was not found: install Debian's postgresql package "
            "(make test does it as root), or set CARDROOM_TEST_POSTGRES to a database you may empty."
        )
    return path


def _unprivileged() -> pwd.struct_passwd | None:
    """The user that owns the server when we are root (PostgreSQL refuses root), else None."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise ServiceError("running as root, and neither a 'postgres' nor a 'nobody' user exists")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _wait_ours(port: int, process: subprocess.Popen[bytes], what: str, log: Path) -> bool:
    """Until `process` itself listens on `port` (True), or it exits because another process took
    the port between `free_port` and its bind (False: try another). Something else answering at
    the port is not ours: a CI run's test once created its database in another worker's
    PostgreSQL, which had been given the same free port a moment earlier."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            if b"address already in use" in log.read_bytes().lower():
                return False
            raise ServiceError(f"{what} exited at start ({process.returncode}): {_tail(log)}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            if listens(process.pid, port):
                return True
        time.sleep(0.05)
    raise ServiceError(f"{what} did not answer on 127.0.0.1:{port} in {START_TIMEOUT_S:.0f} s: {_tail(log)}")


def _on_a_free_port(
    start: Callable[[int], subprocess.Popen[bytes]],
    folder: Path,
    what: str,
    log: Path,
    port: int | None = None,
    how: signal.Signals = signal.SIGTERM,
) -> tuple[subprocess.Popen[bytes], int]:
    """`start(port)` on a free port (or `port`: a restart) until the server it started holds it;
    the process and its port. On failure the server is stopped and `folder` removed."""
    for attempt in range(PORT_TRIES):
        at = port or free_port()
        process = start(at)
        (folder / SERVER_FILE).write_text(str(process.pid))
        try:
            if _wait_ours(at, process, what, log):
                return process, at
        except BaseException:
            _stop(process, how)
            shutil.rmtree(folder, ignore_errors=True)
            raise
        if port is not None or attempt + 1 == PORT_TRIES:
            break
    shutil.rmtree(folder, ignore_errors=True)
    raise ServiceError(f"{what}: another process took each port it was given: {_tail(log)}")


def _tail(log: Path) -> str:
    try:
        return " | ".join(log.read_text(errors="replace").strip().splitlines()[-5:])
    except OSError:
        return "(no log)"


def _stop(process: subprocess.Popen[bytes], how: signal.Signals = signal.SIGTERM) -> None:
    """Ask the server to stop (`how`), then SIGKILL its whole process group if it lingers."""
    if process.poll() is None:
        process.send_signal(how)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@dataclass
class Service:
    """One throwaway server: its process, its folder, and the URL tests connect to."""

    url: str
    folder: Path
    process: subprocess.Popen[bytes]
    stop_signal: signal.Signals = field(default=signal.SIGTERM)

    @property
    def port(self) -> int:
        """The loopback port it listens on (to start it again on the same one)."""
        return int(self.url.rsplit(":", 1)[1].split("/")[0])

    def stop(self) -> None:
        _stop(self.process, self.stop_signal)
        shutil.rmtree(self.folder, ignore_errors=True)


def _folder(kind: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{kind}-"))
    (folder / OWNER_FILE).write_text(str(os.getpid()))
    return folder


def start_postgres() -> Service:
    """initdb + postgres on a free port; database `cardroom_test` owned by role `cardroom`."""
    initdb, postgres = _postgres_bin("initdb"), _postgres_bin("postgres")
    folder = _folder("postgres")
    data, log = folder / "data", folder / "server.log"
    owner = _unprivileged()
    as_owner: dict[str, object] = {}
    if owner is not None:
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_owner = {"user": owner.pw_uid, "group": owner.pw_gid, "extra_groups": []}
    try:
        subprocess.run(
            [initdb, "-D", str(data), "-U", "cardroom", "--auth=trust", "-E", "UTF8", "--no-sync"],
            check=True,
            capture_output=True,
            env={**os.environ, "LC_ALL": "C.UTF-8"},
            **as_owner,  # type: ignore[arg-type]
        )
    except subprocess.CalledProcessError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise ServiceError(f"initdb failed: {exc.stderr.decode(errors='replace').strip()}") from exc

    def start(port: int) -> subprocess.Popen[bytes]:
        settings = {
            "port": str(port),
            "listen_addresses": "127.0.0.1",
            "unix_socket_directories": str(folder),
            # A throwaway cluster: the tests kill our server, never PostgreSQL, so durability
            # settings only cost time here.
            "fsync": "off",
            "synchronous_commit": "off",
            "full_page_writes": "off",
            "max_connections": "200",
        }
        args = [postgres, "-D", str(data)] + [f"-c{k}={v}" for k, v in settings.items()]
        with log.open("wb") as out:
            return subprocess.Popen(
                args,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                **as_owner,  # type: ignore[arg-type]
            )

    # SIGINT is PostgreSQL's fast shutdown: SIGTERM would wait for every client to leave.
    process, port = _on_a_free_port(start, folder, "PostgreSQL", log, how=signal.SIGINT)
    try:
        _psql_ready(port, process, log)
    except BaseException:
        _stop(process, signal.SIGINT)
        shutil.rmtree(folder, ignore_errors=True)
        raise
    url = f"postgresql://cardroom@127.0.0.1:{port}/cardroom_test"
    return Service(url, folder, process, signal.SIGINT)


def _psql_ready(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    """Create the test database once the server accepts queries (it listens a little earlier)."""
    createdb = _postgres_bin("createdb")
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        done = subprocess.run(
            [createdb, "-h", "127.0.0.1", "-p", str(port), "-U", "cardroom", "cardroom_test"],
            capture_output=True,
        )
        if done.returncode == 0:
            return
        if process.poll() is not None or time.monotonic() > deadline:
            raise ServiceError(f"PostgreSQL did not take the test database: {done.stderr!r} {_tail(log)}")
        time.sleep(0.1)


def start_redis(port: int | None = None) -> Service:
    """redis-server on a free loopback port (or `port`: a restart), nothing saved to disk."""
    server = shutil.which("redis-server")
    if not server:
        raise ServiceError(
            "redis-server was not found: install Debian's redis-server package "
            "(make test does it as root), or set CARDROOM_TEST_REDIS to a Redis you may flush."
        )
    folder = _folder("redis")
    log = folder / "server.log"

    def start(at: int) -> subprocess.Popen[bytes]:
        args = [server, "--port", str(at), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        args += ["--dir", str(folder), "--daemonize", "no", "--protected-mode", "yes"]
        return _launch(args, log)

    process, port = _on_a_free_port(start, folder, "Redis", log, port)
    return Service(f"redis://127.0.0.1:{port}/0", folder, process)


def _launch(args: list[str], output: Path) -> subprocess.Popen[bytes]:
    """Start a server in a session of its own, its output to `output`."""
    with output.open("wb") as out:
        return subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


NGINX = "/usr/sbin/nginx"


def start_proxy(routes: dict[str, int], default: int) -> Service:
    """nginx on a free loopback port in front of servers on loopback: each path of `routes`
    (a websocket path, exactly) to that server's /ws, everything else to `default`; the headers
    of docs/security.md's site, with the port kept in Host (the page's origin has one here).
    The caller stops it (`Service.stop`)."""
    if not Path(NGINX).exists():
        raise ServiceError(
            "nginx was not found: install Debian's nginx-light package (make test does it as root)."
        )
    folder = _folder("nginx")
    proxied = """
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $http_connection;
            proxy_read_timeout 120s;"""
    locations = "".join(
        f"\n        location = {path} {{\n            proxy_pass http://127.0.0.1:{to}/ws;{proxied}\n        }}"
        for path, to in routes.items()
    )
    temp = " ".join(
        f"{kind}_temp_path {folder}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    log = folder / "server.log"

    def start(port: int) -> subprocess.Popen[bytes]:
        (folder / "nginx.conf").write_text(
            f"""daemon off;
    master_process off;
    pid {folder}/nginx.pid;
    error_log {folder}/server.log warn;
    events {{ worker_connections 512; }}
    http {{
        access_log off;
        {temp}
        server {{
            listen 127.0.0.1:{port};{locations}
            location / {{
                proxy_pass http://127.0.0.1:{default};{proxied}
            }}
        }}
    }}
    """
        )
        args = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(log)]
        return _launch(args, folder / "stdout.log")

    process, port = _on_a_free_port(start, folder, "nginx", log)
    return Service(f"http://127.0.0.1:{port}", folder, process)


_running: dict[str, Service] = {}


def postgres_url() -> str:
    """The test PostgreSQL: `CARDROOM_TEST_POSTGRES`, else this session's throwaway server."""
    if given := os.environ.get("CARDROOM_TEST_POSTGRES"):
        return given
    if "postgres" not in _running:
        _running["postgres"] = start_postgres()
    return _running["postgres"].url


def redis_url() -> str:
    """The test Redis: `CARDROOM_TEST_REDIS`, else this session's throwaway server."""
    if given := os.environ.get("CARDROOM_TEST_REDIS"):
        return given
    if "redis" not in _running:
        _running["redis"] = start_redis()
    return _running["redis"].url


def running() -> dict[str, Service]:
    """The throwaway servers this session started (for the tests of this module)."""
    return dict(_running)


def stop_all() -> None:
    """Stop every server this session started and remove its folder."""
    while _running:
        _, service = _running.popitem()
        service.stop()


def clean_leftovers() -> list[Path]:
    """Stop and remove what a killed session left behind: folders whose owner pid is gone."""
    removed = []
    for folder in Path(tempfile.gettempdir()).glob(f"{PREFIX}*"):
        try:
            owner = int((folder / OWNER_FILE).read_text())
        except (OSError, ValueError):
            continue
        if _alive(owner):
            continue
        _kill_servers_in(folder)
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _kill_servers_in(folder: Path) -> None:
    """SIGKILL a leftover server, found by the pid file written when it started."""
    pids: set[int] = set()
    with contextlib.suppress(OSError, ValueError):
        pids.add(int((folder / SERVER_FILE).read_text()))
    for pid in pids:  # each server leads its own process group (start_new_session)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
