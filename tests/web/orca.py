"""A real screen reader for the browser tests: Orca 43 on a virtual display, its speech as text.

Each session runs its own X display (Xvfb), D-Bus session (which starts the AT-SPI bus Orca and
Chromium talk over), speech-dispatcher and Orca. Speech-dispatcher's generic module "says" each
utterance with tests/web/orca_speak.py, which takes the time a synthesiser would at Orca's rate
and logs its start and end: what Orca sent to speech, what it cut (a start without an end) and
when. Keys go through the X server (xdotool), so Orca hears them as a person's keys: they
interrupt its speech and its browse mode sees them, as for a person at the keyboard.
Nothing here is shared with another test run: no `orca --replace` (it kills every Orca of the
user), and every process is stopped by its own process group.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

SPEAK = Path(__file__).with_name("orca_speak.py")

# Orca's rate, from 0 to 100 (its default 50 is speech-dispatcher's 0: 175 words a minute in
# orca_speak.py). The tests use 70 (speech-dispatcher's 40: about 270 words a minute), in the
# range screen reader users set and a little above the page's own figure (docs/speech.md).
RATE = 70

# What Playwright's key names are for xdotool.
XKEYS = {
    "Enter": "Return",
    "Space": "space",
    " ": "space",
    "ArrowRight": "Right",
    "ArrowLeft": "Left",
    "ArrowUp": "Up",
    "ArrowDown": "Down",
    "Escape": "Escape",
    "Tab": "Tab",
    "Shift+Tab": "shift+Tab",
}

MISSING_HINT = "install Debian's orca, xvfb and xdotool (`make test` does: scripts/test-packages)"


@dataclass(frozen=True)
class Utterance:
    """One thing Orca sent to speech: when it began, when it ended (None: cut), its text."""

    start: float
    end: float | None
    text: str
    pid: int = 0

    def running(self) -> bool:
        """Still being said: its process lives (a cut one was killed)."""
        if self.end is not None:
            return False
        try:
            stat = Path(f"/proc/{self.pid}/stat").read_text()
        except OSError:
            return False
        return stat.rsplit(")", 1)[-1].split()[0] not in ("Z", "X")


def missing() -> list[str]:
    return [
        tool
        for tool in ("orca", "Xvfb", "xdotool", "speech-dispatcher", "dbus-daemon")
        if not shutil.which(tool)
    ]


def _free_display() -> int:
    for n in range(90, 400):
        if not Path(f"/tmp/.X{n}-lock").exists() and not Path(f"/tmp/.X11-unix/X{n}").exists():
            return n
    raise RuntimeError("no free X display number")


def _wait(condition: Callable[[], bool], what: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Orca:
    """A running Orca with its display, buses and captured speech (see the module's docstring)."""

    def __init__(self, folder: Path, rate: int = RATE) -> None:
        self.folder = folder
        self.rate = rate
        self.log = folder / "speech.jsonl"
        self.env: dict[str, str] = {}
        self.groups: list[subprocess.Popen[bytes]] = []
        self.keys: list[tuple[float, str]] = []  # when each key was pressed, its xdotool name

    def _spawn(self, argv: list[str], name: str) -> subprocess.Popen[bytes]:
        out = open(self.folder / f"{name}.out", "wb")  # noqa: SIM115 - closed with the process
        process = subprocess.Popen(
            argv, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        out.close()
        self.groups.append(process)
        return process

    def start(self) -> None:
        for tool in missing():
            raise RuntimeError(f"no {tool}: {MISSING_HINT}")
        self.folder.mkdir(parents=True, exist_ok=True)
        display = _free_display()
        home = self.folder / "home"
        home.mkdir(exist_ok=True)
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local/share"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_RUNTIME_DIR": str(self.folder / "run"),
            "DISPLAY": f":{display}",
            "LANG": "C.UTF-8",
            "NO_AT_BRIDGE": "0",
            "ACCESSIBILITY_ENABLED": "1",
            "GTK_MODULES": "gail:atk-bridge",
            "SPEECHD_ADDRESS": f"unix_socket:{self.folder / 'speechd.sock'}",
        }
        (self.folder / "run").mkdir(mode=0o700, exist_ok=True)
        self._spawn(["Xvfb", f":{display}", "-screen", "0", "1280x900x24", "-nolisten", "tcp"], "xvfb")
        _wait(lambda: Path(f"/tmp/.X11-unix/X{display}").exists(), "the virtual display", 20)
        bus = self._spawn(
            [
                "dbus-daemon",
                "--session",
                "--nofork",
                "--nopidfile",
                f"--address=unix:path={self.folder / 'bus'}",
            ],
            "dbus",
        )
        _wait(lambda: (self.folder / "bus").exists() or bus.poll() is not None, "the session bus", 20)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={self.folder / 'bus'}"
        self._speech_dispatcher()
        prefs = self.folder / "orca"
        prefs.mkdir(exist_ok=True)
        # Orca's own defaults, but the rate: Orca merges the general settings it reads into them.
        settings = {
            "general": {"voices": {"default": {"established": True, "rate": float(self.rate)}}},
            "profiles": {"default": {"profile": ["Default", "default"]}},
            "pronunciations": {},
            "keybindings": {},
        }
        (prefs / "user-settings.conf").write_text(json.dumps(settings), encoding="utf-8")
        self._spawn(["orca", "-u", str(prefs)], "orca")
        # Orca says so when it is up and speaking.
        _wait(lambda: any("Screen reader on" in u.text for u in self.heard()), "Orca to speak", 120)

    def _speech_dispatcher(self) -> None:
        conf = self.folder / "speechd"
        (conf / "modules").mkdir(parents=True, exist_ok=True)
        (conf / "speechd.conf").write_text(
            f'LogLevel 2\nLogDir "{self.folder}"\nAudioOutputMethod "alsa"\nAudioALSADevice "null"\n'
            'AddModule "capture" "sd_generic" "capture.conf"\nDefaultModule capture\n',
            encoding="utf-8",
        )
        # One utterance, one command: no splitting at punctuation ("^" is never in a line).
        (conf / "modules" / "capture.conf").write_text(
            f"GenericExecuteSynth \"exec {sys.executable} {SPEAK} {self.log} $RATE \\'$DATA\\'\"\n"
            "GenericRateAdd 0\nGenericRateMultiply 1\nGenericMaxChunkLength 100000\n"
            'GenericDelimiters "^"\nAddVoice "en" "MALE1" "capture"\nGenericLanguage "en" "en" "utf-8"\n',
            encoding="utf-8",
        )
        self._spawn(
            [
                "speech-dispatcher",
                "-s",
                "-t",
                "0",
                "-C",
                str(conf),
                "-S",
                str(self.folder / "speechd.sock"),
                "-P",
                str(self.folder / "speechd.pid"),
                "-L",
                str(self.folder),
            ],
            "speechd",
        )
        _wait(lambda: (self.folder / "speechd.sock").exists(), "speech-dispatcher", 20)

    def stop(self) -> None:
        for process in reversed(self.groups):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in reversed(self.groups):
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)
        # The groups' children (the AT-SPI bus, the module, an utterance) go with their group.
        for process in self.groups:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)

    def heard(self) -> list[Utterance]:
        """Everything Orca sent to speech so far, in order."""
        if not self.log.exists():
            return []
        starts: dict[int, tuple[float, str]] = {}
        ends: dict[int, float] = {}
        order: list[int] = []
        for line in self.log.read_text(encoding="utf-8").splitlines():
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line being written
            if "start" in item:
                starts[item["pid"]] = (item["start"], item["text"])
                order.append(item["pid"])
            else:
                ends[item["pid"]] = item["end"]
        return [Utterance(starts[pid][0], ends.get(pid), starts[pid][1], pid) for pid in order]

    def speaking(self) -> bool:
        """An utterance is being said (one whose process still runs)."""
        return any(u.running() for u in self.heard()[-3:])

    def wait_silent(self, quiet_s: float = 0.6, timeout_s: float = 30) -> None:
        """Until Orca has said nothing for `quiet_s`: a listener who hears a line out first."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            heard = self.heard()[-3:]
            last = max((u.end or u.start for u in heard), default=0.0)
            if not any(u.running() for u in heard) and time.time() - last >= quiet_s:
                return
            time.sleep(0.05)

    def wait_for(self, condition: Callable[[list[Utterance]], bool], timeout_s: float = 30) -> bool:
        """Until what Orca has said meets `condition` (False after `timeout_s`)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if condition(self.heard()):
                return True
            time.sleep(0.05)
        return False

    def xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.env, check=True, timeout=20)

    def key(self, name: str) -> None:
        """A key pressed on the keyboard, as Playwright names it."""
        self.keys.append((time.time(), XKEYS.get(name, name)))
        self.xdotool("key", "--clearmodifiers", XKEYS.get(name, name))

    def lag(self) -> float:
        """How late Orca is on this machine: the median time from a key pressed to Orca echoing
        it (its key echo, on by default). A loaded machine starves Orca, which is no fault of
        the page; the answer windows are checked that much later."""
        heard = self.heard()
        delays = []
        for at, name in self.keys:
            echo = next((u for u in heard if u.start >= at and u.text.strip().lower() == name.lower()), None)
            if echo is not None and echo.start - at < 30:
                delays.append(echo.start - at)
        return statistics.median(delays) if delays else 0.0

    def type(self, text: str) -> None:
        self.xdotool("type", "--delay", "40", text)

    def focus_browser(self) -> None:
        """Give the X focus to Chromium's window (there is no window manager to do it)."""
        found = subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--class", "chromium"],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=20,
        ).stdout.split()
        assert found, "no Chromium window on the display"
        self.xdotool("windowfocus", "--sync", found[-1])


@contextlib.contextmanager
def running(folder: Path, rate: int = RATE) -> Iterator[Orca]:
    orca = Orca(folder, rate)
    try:
        orca.start()
        yield orca
    finally:
        orca.stop()
