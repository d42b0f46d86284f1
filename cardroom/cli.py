"""The `cardroom` command: play, simulate, scenario, serve, connect.

Bad input on the command line or in a file gets one clear line on standard error and exit
status 2; nothing is half done.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from cardroom.bots import DEFAULT_LEVEL, check_level, make_bot
from cardroom.protocol import CardroomError
from cardroom.protocol.record import Record
from cardroom.protocol.record import start as start_table

EXIT_INVALID = 2


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is between 0 and 65535, not {value}")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _language(text: str) -> str:
    """`--lang`: one of the languages cardroom speaks ("fr", "fr_BE" and "fr-BE" all say French)."""
    from cardroom.i18n import LANGUAGES, normalize

    found = normalize(text)
    if found is None:
        raise argparse.ArgumentTypeError(f"unknown language {text!r}: choose one of {', '.join(LANGUAGES)}")
    return found


def _lang_help() -> str:
    from cardroom.i18n import LANGUAGES

    return (
        f"language: {', '.join(LANGUAGES)} (default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG "
        "when it names one of them, else en)"
    )


def _setting(text: str) -> tuple[str, Any]:
    """`NAME=VALUE` of `--set`: a whole number, or a comma-separated list for `variants`."""
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not {text!r}")
    if name == "variants":
        return name, [v.strip() for v in raw.split(",") if v.strip()]
    try:
        return name, int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name}: not a whole number: {raw!r}") from None


def _verbosity_option(parser: argparse.ArgumentParser) -> None:
    from cardroom.narrate.speech import DEFAULT_VERBOSITY, VERBOSITIES

    parser.add_argument(
        "--verbosity",
        choices=VERBOSITIES,
        default=DEFAULT_VERBOSITY,
        help="which lines of the game are said: brief (only what needs your answer now, concerns you "
        "or changes the game), normal (the same, and a summary of the rest every 30 s of play) or "
        "verbose (everything); R tells what happened since you last asked; the bell (Ctrl+G turns "
        "it off) rings when you must act",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="whole lines and no escape sequences, even on a terminal: no wrapping at the terminal's "
        "width and no status line at the bottom (a pipe or a file always gets this)",
    )


def _play_options(parser: argparse.ArgumentParser, bots: str, level: str, example: str) -> None:
    """The options `play burrito` and `play kittens` share; only their help texts differ."""
    parser.add_argument("--bots", type=_positive, default=3, help=bots)
    parser.add_argument("--level", default="normal", help=level)
    parser.add_argument("--seed", type=_seed, default=None, help="shuffle seed (default: random)")
    parser.add_argument(
        "--deal",
        metavar="FILE",
        default=None,
        help="play the table a scenario file sets up (docs/scenarios.md: its players, options, seed "
        "and deal; its actions are not played): a shared puzzle, or a bug's position. You are seat 1; "
        "the file's players decide how many bots",
    )
    parser.add_argument("--name", default="You", help="your name at the table")
    parser.add_argument("--lang", type=_language, default=None, help=_lang_help())
    _verbosity_option(parser)
    parser.add_argument(
        "--relaxed",
        action="store_true",
        help="relaxed timing: every window to react in is twice as long (docs/rules: Time to react)",
    )
    parser.add_argument(
        "--guide",
        action="store_true",
        help="a guided first game against two bots: a coach says what to do next and waits for you; "
        "then a real game (docs/guide.md)",
    )
    parser.add_argument(
        "--set",
        dest="settings",
        metavar="NAME=VALUE",
        type=_setting,
        action="append",
        default=[],
        help="change a table option, " + example,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardroom",
        description="Fast party card games: Throw Throw Burrito and Exploding Kittens, with friends or bots.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser(
        "play",
        help="play a game against bots in this terminal",
        description="Play against bots in this terminal, in real time. Every event is one plain line "
        "(screen-reader friendly). Press ? in the game for the keys.",
    )
    play_sub = play.add_subparsers(dest="game", required=True, metavar="GAME")
    from cardroom.clients.terminal.burrito import key_help as burrito_keys
    from cardroom.clients.terminal.kittens import key_help as kittens_keys

    burrito = play_sub.add_parser(
        "burrito",
        help="Throw Throw Burrito",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Throw Throw Burrito against bots, in real time. You are seat 0.",
        epilog="keys (also listed in the game with ?):\n  "
        + "\n  ".join(burrito_keys())
        + "\n  ?: help\n  q: quit",
    )
    _play_options(
        burrito,
        bots="how many bots (1-11, default 3)",
        level="bot level: easy, normal or hard (default normal)",
        example="e.g. --set flight_ms=1500 for slower burritos (repeatable; options: docs/rules)",
    )
    burrito.add_argument("--variant", choices=["small_room", "two_decks"], action="append", default=[])
    kittens = play_sub.add_parser(
        "kittens",
        help="Exploding Kittens",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Exploding Kittens against bots, with the keyboard of rules 003. You are seat 0.",
        epilog="keys (also listed in the game with ?):\n  "
        + "\n  ".join(kittens_keys())
        + "\n  ?: help\n  q: quit",
    )
    _play_options(
        kittens,
        bots="how many bots (1-9, default 3)",
        level="bot level (default normal)",
        example="e.g. --set turn_ms=120000 (repeatable)",
    )

    sim = sub.add_parser(
        "simulate",
        help="bots play many games as fast as possible; print statistics",
        description="Bots play whole games in virtual time (no sleeping) and statistics are printed: "
        "wins by seat, actions per game, games per second and the game's own counts.",
    )
    sim.add_argument("game", choices=["burrito", "kittens"])
    sim.add_argument("--players", type=_positive, default=4)
    sim.add_argument("--games", type=_positive, default=100)
    sim.add_argument("--seed", type=_seed, default=1)
    sim.add_argument("--level", default=None, help="one bot level for every seat")
    sim.add_argument("--levels", default=None, help="comma-separated bot level per seat, e.g. normal,random")
    sim.add_argument("--variant", choices=["small_room", "two_decks"], action="append", default=[])
    sim.add_argument("--json", action="store_true", help="end with one JSON object on the last line")

    tour = sub.add_parser(
        "tournament",
        help="bot levels against each other: ratings, win rates, a chart",
        description="Every pair of levels meets in balanced seatings over many games played in "
        "virtual time on every core; prints OpenSkill ratings and win rates (per seat too) with "
        "95 %% intervals and writes a chart. The same seed gives the same tournament.",
    )
    tour.add_argument("game", choices=["burrito", "kittens"])
    tour.add_argument("--levels", required=True, help="comma-separated bot levels, e.g. random,normal,hard")
    tour.add_argument("--players", type=_positive, default=2)
    tour.add_argument("--games", type=_positive, default=200)
    tour.add_argument("--seed", type=_seed, default=1)
    tour.add_argument("--jobs", type=_positive, default=None, help="processes (default: every core)")
    tour.add_argument(
        "--chart",
        default=None,
        metavar="FILE",
        help="the chart's file, .svg or .png (default: tournament-GAME.svg)",
    )
    tour.add_argument("--json", action="store_true", help="end with one JSON object on the last line")

    srv = sub.add_parser(
        "serve",
        help="run the server: lobby, tables and the web page",
        description="Run the cardroom server: the web page at / and the websocket at /ws. "
        "The port defaults to the PORT environment variable, else 8000.",
    )
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    srv.add_argument("--port", type=_port, default=None, help="port (default: $PORT or 8000)")
    srv.add_argument(
        "--db",
        default=None,
        help="database URL: sqlite:///PATH or postgresql://USER:PASSWORD@HOST/NAME, or memory "
        "(nothing kept); default $CARDROOM_DB, else a SQLite file in the data folder "
        "($CARDROOM_DATA, else ./data)",
    )
    srv.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="join a cluster of nodes on this Redis (redis://HOST:PORT/N): one lobby, each table owned "
        "by one node; default $CARDROOM_REDIS, else no cluster (one process). Use it with a "
        "PostgreSQL --db all nodes share",
    )
    srv.add_argument(
        "--workers",
        type=_positive,
        default=None,
        metavar="N",
        help="run N processes behind the one port, each a node of the cluster (needs --redis and a "
        "PostgreSQL --db), so that one machine uses N cores (default 1: this process alone)",
    )
    srv.add_argument(
        "--node-url",
        default=None,
        metavar="URL",
        help="with --redis: the websocket address at which clients reach this node itself "
        "(ws://HOST:PORT/ws, wss://..., or a path of the page's own address that the proxy routes "
        "to this node; {port} stands for its port): a player at one table of this node who "
        "connected through another is sent here; default $CARDROOM_NODE_URL, else nobody is sent",
    )
    srv.add_argument("--listen-fd", type=int, default=None, help=argparse.SUPPRESS)
    srv.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    srv.add_argument(
        "--origin",
        action="append",
        default=None,
        help="an address the web page is served from, e.g. https://cards.example.org (repeatable; "
        "default $CARDROOM_ORIGINS, comma-separated, else the address each request was made to): "
        "browsers' websockets and changes from any other page are refused",
    )
    srv.add_argument(
        "--grace",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how long a player who went away keeps their seat and a guest their name and token "
        "(default $CARDROOM_GRACE_S, else 120)",
    )
    srv.add_argument(
        "--sqlite-sync",
        choices=("normal", "full"),  # cardroom.store.db.SYNC_MODES (not imported: the CLI starts light)
        default=None,
        help="how a SQLite --db commits: normal (the default, $CARDROOM_SQLITE_SYNC else normal: an "
        "acknowledged action survives the server being killed, a power cut may lose the last ones) "
        "or full (synced to the disk at each commit: it survives a power cut too, at a cost per "
        "commit, docs/deploy.md)",
    )
    srv.add_argument(
        "--session-days",
        type=float,
        default=None,
        metavar="DAYS",
        help="an account's session ends this long after it was opened, however much it is used "
        "(default $CARDROOM_SESSION_DAYS, else 90; one unused for 30 days ends sooner)",
    )
    srv.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="the reverse proxies (comma-separated addresses, or *) whose X-Forwarded-For and "
        "X-Forwarded-Proto headers are believed (default $FORWARDED_ALLOW_IPS, else 127.0.0.1,::1)",
    )

    conn = sub.add_parser(
        "connect",
        help="play on a cardroom server from this terminal",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Join a cardroom server from this terminal: the lobby as typed commands, then the "
        "game with the keys of `cardroom play`. Every message is one plain line (screen-reader friendly).",
        epilog="commands (also listed with help):\n  "
        + "\n  ".join(_connect_help())
        + "\nin a game: the keys of `cardroom play`, ? help, / a command line (say TEXT to chat), "
        "L your lag, q leave and quit",
    )
    conn.add_argument(
        "url",
        nargs="?",
        default="ws://127.0.0.1:8000/ws",
        help="the server: ws://host:port/ws or http://host:port (default ws://127.0.0.1:8000/ws)",
    )
    who = conn.add_mutually_exclusive_group()
    who.add_argument(
        "--name",
        default=None,
        help="enter as a guest with this nickname (asked for when neither it nor an account is given)",
    )
    who.add_argument(
        "--login",
        default=None,
        metavar="NAME",
        help="log in to your account NAME (the password is asked for, never on the command line); "
        "the session is kept in ~/.config/cardroom/session.json, so next time the address alone "
        "enters as NAME",
    )
    who.add_argument(
        "--register",
        default=None,
        metavar="NAME",
        help="create the account NAME (the password is asked for twice) and log in",
    )
    conn.add_argument("--lang", type=_language, default=None, help=_lang_help())
    _verbosity_option(conn)

    rules = sub.add_parser(
        "rules",
        help="print the rules of a game (the help page the web client shows)",
        description="Print the rules help page of a game in a language: the same text as the web "
        "page's Rules dialog. An unknown game or language is one line on standard error, exit status 2.",
    )
    rules.add_argument("game", metavar="GAME", help="burrito or kittens")
    rules.add_argument("--lang", default=None, help=_lang_help())

    scen = sub.add_parser(
        "scenario",
        help="run a scenario file and print its events and final state as JSON lines",
        description="Run a scenario file (docs/scenarios.md). FILE may be - for standard input. "
        "Exit status 2 with a one-line error when the file is invalid.",
    )
    scen.add_argument("file", metavar="FILE")

    _replay_parser(sub)
    return parser


def _replay_parser(sub: Any) -> None:
    """`cardroom replay`: a stored game, line by line, or as a scenario file."""
    from cardroom.i18n import _
    from cardroom.replay.terminal import speed

    rep = sub.add_parser(
        "replay",
        help=_("play a stored game again, line by line, or export it as a scenario file"),
        description=_(
            "Print a finished game from the database, one plain line per sentence (screen-reader "
            "friendly), each after its play time. Only games that are over can be replayed. An "
            "unknown game, seat or database is one line on standard error, exit status 2."
        ),
    )
    rep.add_argument("id", metavar="ID", help=_("the game's id"))
    rep.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help=_(
            "the database, sqlite:///PATH or postgresql://USER:PASSWORD@HOST/NAME (default: the "
            "server's, cardroom.sqlite3 in $CARDROOM_DATA, else in ./data)"
        ),
    )
    eyes = rep.add_mutually_exclusive_group()
    eyes.add_argument(
        "--seat",
        type=int,
        default=None,
        metavar="N",
        help=_("see the game as seat N saw it, only their own cards (0 is the first seat)"),
    )
    eyes.add_argument(
        "--all", action="store_true", help=_("see everything, every hand included (the default)")
    )
    rep.add_argument(
        "--speed",
        type=speed,
        default=0.0,
        metavar="X",
        help=_("0 prints at once (the default), 1 waits in real time, 4 plays four times faster"),
    )
    rep.add_argument("--lang", type=_language, default=None, help=_lang_help())
    rep.add_argument(
        "--export",
        default=None,
        metavar="FILE",
        help=_("write the game as a scenario file (- for standard output) instead of printing it"),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "scenario":
            return _scenario(args.file)
        if args.command == "simulate":
            return _simulate(args)
        if args.command == "tournament":
            return _tournament(args)
        if args.command == "play":
            return _play(args)
        if args.command == "serve":
            return _serve(args)
        if args.command == "connect":
            return _connect(args)
        if args.command == "rules":
            return _rules(args)
        if args.command == "replay":
            return _replay(args)
    except CardroomError as exc:
        print(f"cardroom: {exc}", file=sys.stderr)
        return EXIT_INVALID
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`cardroom play ... | head`): no traceback
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    parser.error("unknown command")
    return EXIT_INVALID


def _connect_help() -> list[str]:
    from cardroom.clients.terminal.lobby import command_help

    return command_help()


def _choose_language(lang: str | None) -> str:
    """The terminal's language: `--lang`, else the environment's when it is one of ours, else en."""
    from cardroom.i18n import language_from_environment, set_default_language

    return set_default_language(lang or language_from_environment())


def _rules(args: argparse.Namespace) -> int:
    from cardroom.help import GAMES, as_text, render
    from cardroom.i18n import LANGUAGES, normalize

    if args.game not in GAMES:
        print(f"cardroom: no rules for {args.game!r}: choose one of {', '.join(GAMES)}", file=sys.stderr)
        return EXIT_INVALID
    if args.lang is not None and normalize(args.lang) is None:
        print(
            f"cardroom: unknown language {args.lang!r}: choose one of {', '.join(LANGUAGES)}", file=sys.stderr
        )
        return EXIT_INVALID
    sys.stdout.write(as_text(render(args.game, _choose_language(args.lang))))
    return 0


def _replay(args: argparse.Namespace) -> int:
    from cardroom.replay.terminal import run_replay
    from cardroom.store.db import default_url

    lang = _choose_language(args.lang)
    return run_replay(args.id, args.db or default_url(), args.seat, args.speed, lang, args.export)


def _connect(args: argparse.Namespace) -> int:
    from cardroom.clients.terminal.connect import run_connect

    _choose_language(args.lang)
    return run_connect(
        args.url,
        args.name,
        login=args.login,
        register=args.register,
        lang_given=args.lang is not None,
        verbosity=args.verbosity,
        plain=args.plain,
    )


def _serve(args: argparse.Namespace) -> int:
    import os

    from cardroom.server.security import parse_origins
    from cardroom.server.serve import check_database, serve
    from cardroom.store.accounts import LIFETIME_DAYS
    from cardroom.store.db import default_url

    port = args.port
    if port is None:
        env = os.environ.get("PORT", "8000")
        try:
            port = _port(env)
        except argparse.ArgumentTypeError as exc:
            raise CardroomError(f"PORT environment variable: {exc}") from None
    db = args.db or os.environ.get("CARDROOM_DB") or default_url()
    if args.sqlite_sync is not None:
        os.environ["CARDROOM_SQLITE_SYNC"] = args.sqlite_sync  # where the store's connections read it
    check_database(db)
    origins = parse_origins(args.origin or os.environ.get("CARDROOM_ORIGINS"))
    grace = args.grace
    if grace is None:
        try:
            grace = float(os.environ.get("CARDROOM_GRACE_S", "120"))
        except ValueError:
            raise CardroomError("CARDROOM_GRACE_S: a number of seconds") from None
    session_days = args.session_days
    if session_days is None:
        try:
            session_days = float(os.environ.get("CARDROOM_SESSION_DAYS", str(LIFETIME_DAYS)))
        except ValueError:
            raise CardroomError("CARDROOM_SESSION_DAYS: a number of days") from None
    if not session_days > 0:
        raise CardroomError("--session-days: a number of days above 0")
    redis = args.redis or os.environ.get("CARDROOM_REDIS") or None
    node_url = args.node_url or os.environ.get("CARDROOM_NODE_URL") or None
    if node_url is not None and not node_url.startswith(("ws://", "wss://", "/")):
        raise CardroomError(
            f"--node-url: a ws:// or wss:// address, or a path starting with /, not {node_url!r}"
        )
    if args.workers is not None and args.workers > 1:
        if node_url is not None:  # the workers share one port: none can be reached alone
            raise CardroomError("--node-url names one node: not with --workers")
        from cardroom.server.workers import check_workers, run_workers

        check_workers(args.workers, db, redis)
        assert redis is not None
        passed = ["--db", db, "--redis", redis, "--log-level", args.log_level, "--grace", str(grace)]
        passed += ["--session-days", str(session_days)]
        passed += ["--host", args.host, "--port", str(port)]
        for origin in sorted(origins):
            passed += ["--origin", origin]
        if args.forwarded_allow_ips is not None:
            passed += ["--forwarded-allow-ips", args.forwarded_allow_ips]
        return run_workers(args.workers, args.host, port, passed)
    serve(
        args.host,
        port,
        db,
        args.log_level,
        origins,
        args.forwarded_allow_ips,
        grace,
        redis,
        args.listen_fd,
        session_days,
        node_url,
    )
    return 0


def _read(path: str) -> str:
    """A scenario file's text; one that cannot be read is refused with the reason."""
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise CardroomError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def _dealt(path: str, game: str) -> Record:
    """The table a scenario file sets up, for `cardroom play GAME --deal FILE`; a file that
    cannot be read, is no scenario, or sets up another game is refused with the reason."""
    from cardroom.drive.scenario import InvalidScenario, load_scenario, scenario_record

    try:
        record = scenario_record(load_scenario(_read(path)))
    except InvalidScenario as exc:
        raise CardroomError(f"invalid scenario {path}: {exc}") from None
    if record.game != game:
        raise CardroomError(
            f"{path} sets up a {record.game} table: play it with `cardroom play {record.game}`"
        )
    return record


def _scenario(path: str) -> int:
    from cardroom.drive.scenario import InvalidScenario, load_scenario, run_scenario

    text = sys.stdin.read() if path == "-" else _read(path)
    try:
        result = run_scenario(load_scenario(text))
    except InvalidScenario as exc:
        print(f"cardroom: invalid scenario {path}: {exc}", file=sys.stderr)
        return EXIT_INVALID
    for line in result.lines():
        print(line)
    return 0


def _progress_bar(done: int, total: int) -> None:
    """A progress bar on standard error (shown only on a terminal)."""
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _tournament(args: argparse.Namespace) -> int:
    from pathlib import Path

    from cardroom.drive.chart import write_chart
    from cardroom.drive.tournament import default_jobs, summary_lines, tournament

    levels = [s.strip() for s in args.levels.split(",") if s.strip()]
    chart = Path(args.chart or f"tournament-{args.game}.svg")
    if chart.suffix.lower() not in (".svg", ".png"):
        print(f"cardroom: the chart is written as .svg or .png, not {chart.name!r}", file=sys.stderr)
        return EXIT_INVALID
    jobs = args.jobs or default_jobs()
    show = sys.stderr.isatty()
    result = tournament(
        args.game, levels, args.players, args.games, args.seed, jobs, _progress_bar if show else None
    )
    data = result.to_json()
    print(
        f"{data['games']} games of {result.game}, {result.players} players, levels {', '.join(result.levels)}, "
        f"seed {result.seed}, {len(data['seatings'])} seatings, {jobs} processes, {data['seconds']} s"
    )
    if data["unfinished"]:
        print(f"  unfinished games (not rated): {data['unfinished']}")
    for line in summary_lines(result):
        print(line)
    print(f"chart: {write_chart(result, chart)}")
    if args.json:
        print(json.dumps(data))
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from cardroom.drive.simulate import simulate
    from cardroom.games import find_game

    game = find_game(args.game)
    levels = [s.strip() for s in args.levels.split(",")] if args.levels else [args.level or DEFAULT_LEVEL]
    options: dict[str, Any] = {"variants": args.variant} if args.variant else {}
    show = sys.stderr.isatty()
    totals = simulate(
        game, args.players, args.games, args.seed, levels, options, _progress_bar if show else None
    )
    data = totals.to_json()
    print(f"{data['games']} games of {game.name}, {args.players} players, bots: {', '.join(totals.levels)}")
    for seat, wins in enumerate(totals.wins):
        share = 100 * wins / totals.games
        print(f"  seat {seat} ({totals.levels[seat]}): {wins} wins ({share:.1f} %)")
    if totals.unfinished:
        print(f"  unfinished games: {totals.unfinished}")
    print(f"  actions per game: {data['actions_per_game']}; mean play time {data['mean_play_seconds']} s")
    for key, value in totals.extra.items():
        print(f"  {key.replace('_', ' ')}: {json.dumps(value)}")
    print(f"  {data['games_per_s']} games/s, {data['actions_per_s']} actions/s ({data['seconds']} s)")
    if args.json:
        print(json.dumps(data))
    return 0


def _play(args: argparse.Namespace) -> int:
    from cardroom.bots.names import bot_names
    from cardroom.clients.terminal.session import Session, run_session
    from cardroom.games import find_game
    from cardroom.guide.coach import Guide
    from cardroom.i18n import _
    from cardroom.protocol import Table

    _choose_language(getattr(args, "lang", None))
    game = find_game(args.game)
    dealt = _dealt(args.deal, game.name) if args.deal is not None else None
    players = args.bots + 1 if dealt is None else dealt.players
    if not game.min_players <= players <= game.max_players:
        raise CardroomError(
            f"{game.name} is played by {game.min_players} to {game.max_players} players: "
            f"choose between {game.min_players - 1} and {game.max_players - 1} bots"
        )
    check_level(game.name, args.level)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    if dealt is not None and args.seed is None:
        seed = dealt.seed
    options: dict[str, Any] = {} if dealt is None else dict(dealt.options)
    if getattr(args, "variant", None):
        options["variants"] = sorted(set(args.variant))
    if args.relaxed:
        options["timing"] = "relaxed"
    for name, value in getattr(args, "settings", []):
        if name == "variants":
            options["variants"] = sorted(set(options.get("variants", [])) | set(value))
        else:
            options[name] = value
    guide = Guide(game.name) if args.guide else None
    if guide is not None:
        table: Table[Any] = guide.table
        names = [args.name, *bot_names(table.players - 1, skip=seed % 12)]
        bots = guide.bots()
    else:
        if dealt is None:
            table = game.new_table(players, options, seed)
        else:
            table = start_table(game, Record(game.name, players, options, seed, dealt.deal))
        names = [args.name, *bot_names(players - 1, skip=seed % 12)]
        bots = {
            s: make_bot(game.name, s, args.level, seed * 1_000 + s, True, options) for s in range(1, players)
        }
    if args.game == "burrito":
        from cardroom.clients.terminal.burrito import make_ui
    else:
        from cardroom.clients.terminal.kittens import make_ui  # type: ignore[assignment]
    ui = make_ui(0, names, table)
    start = time.monotonic()

    def clock() -> int:
        return int((time.monotonic() - start) * 1000)

    from cardroom.narrate.narrator import Narrator

    session = Session(
        table,
        0,
        ui,
        bots,
        sys.stdout,
        clock,
        narrator=Narrator(game.name),
        names=names,
        verbosity=args.verbosity,
        plain=args.plain,
        guide=guide,
    )
    session.say(ui.welcome())
    if guide is None and dealt is None:
        session.say(_("Seed {seed} (play this deal again with --seed {seed}).").format(seed=seed))
    run_session(session)
    if session.real_game:  # the guide's end: a real game with the bots asked for
        return _play(argparse.Namespace(**{**vars(args), "guide": False}))
    return 0
