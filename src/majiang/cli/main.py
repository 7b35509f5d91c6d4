"""The ``majiang`` command line.

Every subcommand takes ``--json`` for scripts; bad input exits with status 2 and one line on
stderr naming the problem.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from majiang import __version__
from majiang.cli import analyze, arena, db, play, replay, review, score, serve, simulate
from majiang.cli.common import Parser, UsageError
from majiang.core.errors import MajiangError
from majiang.server.errors import InfrastructureError  # the database's errors, met by serve and db

# each adds its subcommands, in --help's order
COMMANDS = (analyze, score, serve, db, arena, simulate, replay, review, play)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="majiang",
        description="Kawuxing (卡五星) and Sichuan blood-battle (血战到底) mahjong: analysis, scoring, play.",
        epilog="Tiles are written 123m456p789s and 5z 白, 6z 发, 7z 中 (Chinese names and 🀄 also read).",
    )
    parser.add_argument("--version", action="version", version=f"majiang {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    for command in COMMANDS:
        command.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    import warnings

    # a library warning (a slow engine taken, say) as one line of ours, not a file name and a source line
    before = warnings.formatwarning
    warnings.formatwarning = lambda message, *_args, **_kw: f"majiang: {message}\n"
    try:
        return _run(argv)
    finally:
        warnings.formatwarning = before


def _plain_streams() -> None:
    """A stream that cannot write every character we print (GBK has no 🀄, ASCII no 五) replaces
    what it cannot write instead of failing mid-report; the commands also print plain tile codes there."""
    from majiang.cli.common import can_encode

    for stream in (sys.stdout, sys.stderr):
        if not can_encode(stream, "🀄🀙五胡×→") and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="replace")
            except (ValueError, OSError):  # a stream already written in another way: leave it
                pass


def _run(argv: Sequence[str] | None) -> int:
    try:
        _plain_streams()
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        status = args.func(args)
        sys.stdout.flush()  # a closed pipe is met here, inside the handler, not at the interpreter's exit
        return status
    except (UsageError, MajiangError, InfrastructureError) as exc:
        msg = " ".join(str(exc).splitlines())  # one line, whatever breaks a quoted input holds
        print(msg if msg.startswith("majiang") else f"majiang: {msg}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader left (``majiang ... | head``): nothing more to say
        _silence_stdout()
        return 0
    except OSError as exc:
        print(f"majiang: {exc.strerror or exc}: {getattr(exc, 'filename', '') or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback (pool workers leave it to us)
        print("majiang: interrupted", file=sys.stderr)
        return 130


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush at exit finds no closed pipe."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real stdout (embedded, tests): nothing to silence
        pass


if __name__ == "__main__":
    sys.exit(main())
