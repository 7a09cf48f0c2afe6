"""``airships serve``: the web app (play against the bots, replays, tournament results).

It binds to 127.0.0.1 unless told otherwise; games are the JSON-lines logs of a folder
(``--games``, default ``games/``), the same logs ``airships play`` writes and resumes.
"""

from __future__ import annotations

import argparse
import errno
import socket
from pathlib import Path
from typing import Any

from agents.cli.common import CLIError, UsageError, non_negative_int

DESCRIPTION = """\
Play Airships in the browser against bots or trained policies, step through game logs, and
look at tournament results.

Games are saved as JSON-lines logs in --games after every move, like 'airships play': a game
started in the browser resumes in the terminal ('airships play --resume games/ID.jsonl') and
the other way round, and a restart of the server loses nothing.
"""

EPILOG = """\
examples:
  airships serve                          # http://127.0.0.1:8000
  airships serve --port 8080 --games my-games --results results
  airships serve --port 0                 # a free port: the banner says which
  open http://127.0.0.1:8000/play?players=2&opponents=heuristic&seat=0&seed=7

errors (one line):
  airships serve needs the web extra (starlette is missing): pip install -e '.[web]'
  DIR: cannot create the games folder: ...
  port 8000 is in use on 127.0.0.1: stop the other server or choose another --port
"""


def add_parser(subparsers: Any) -> None:
    """Register ``airships serve``."""
    parser = subparsers.add_parser(
        "serve",
        help="the web app: play against bots in a browser, replays, tournament results",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine)"
    )
    parser.add_argument("--port", type=non_negative_int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--games",
        type=Path,
        default=Path("games"),
        metavar="DIR",
        help="folder of the game logs (default games/)",
    )
    parser.add_argument(
        "--results",
        type=Path,
        default=Path("results"),
        metavar="DIR",
        help="folder of tournament results, one subfolder per tournament (default results/)",
    )
    parser.add_argument(
        "--pace",
        type=non_negative_int,
        default=700,
        metavar="MS",
        help="milliseconds between the bots' moves on the page (default 700)",
    )
    parser.add_argument(
        "--max-upload",
        type=non_negative_int,
        default=5 * 1024 * 1024,
        metavar="BYTES",
        help="largest log that may be uploaded (default 5 MiB)",
    )
    parser.set_defaults(func=run)


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening, before anything is printed; a busy port
    is one line, "port P is in use"."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise UsageError(f"--host {host}: not an address of this machine ({exc.strerror})") from exc
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise CLIError(
                f"port {port} is in use on {host}: stop the other server or choose another --port"
            ) from exc
        raise CLIError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from exc
    return sock


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C."""
    try:
        import uvicorn

        from agents.web import create_app
    except ImportError as exc:
        raise CLIError(
            f"airships serve needs the web extra ({exc.name} is missing): pip install -e '.[web]'"
        ) from exc
    if args.port > 65535:
        raise UsageError(f"--port must be 0 to 65535, got {args.port}")
    try:
        args.games.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CLIError(f"{args.games}: cannot create the games folder: {exc.strerror}") from exc
    sock = listen(args.host, args.port)  # fails before the banner when the port is busy
    port = sock.getsockname()[1]
    app = create_app(args.games, args.results, args.pace, args.max_upload)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Airships: http://{shown}:{port}/ (games in {args.games}; Ctrl-C stops)", flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0
