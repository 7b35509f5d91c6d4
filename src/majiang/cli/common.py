"""What the commands share: usage errors, meld and rules options, a progress bar."""

from __future__ import annotations

import argparse
import sys

from majiang.core.errors import MajiangError, RulesError
from majiang.core.hand import Meld
from majiang.games import GAMES
from majiang.games.rules import load_rules_file, rules_for


class UsageError(Exception):
    """Bad command-line input: reported as one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, no usage dump
        raise UsageError(f"{self.prog}: {message}")


def add_meld_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pong", action="append", default=[], metavar="T", help="a pong (碰) of tile T; repeatable")
    p.add_argument("--kong", action="append", default=[], metavar="T",
                   help="an exposed kong (明杠: 直杠 or 蓄杠) of T; repeatable")
    p.add_argument("--concealed-kong", action="append", default=[], metavar="T",
                   help="a concealed kong (暗杠) of T; repeatable")


def melds_from_args(args) -> list[Meld]:
    return ([Meld.pong(t) for t in args.pong] + [Meld.kong(t) for t in args.kong]
            + [Meld.concealed_kong(t) for t in args.concealed_kong])


def add_rules_options(p, variant_required: bool = True) -> None:
    p.add_argument("--variant", required=variant_required, choices=list(GAMES))
    p.add_argument("--preset", metavar="NAME",
                   help="rules preset: " + "; ".join(f"{name}: {', '.join(game.presets)}"
                                                     for name, game in GAMES.items()))
    p.add_argument("--rules", metavar="FILE", help="a TOML or JSON file of option = value overrides")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="override one rules option (see docs/RULES.md); repeatable")


def rules_from_args(args):
    """The rules named by --variant, --preset, --rules and -o; ``preset`` and ``variant`` may also
    come from the file or an -o (a variant that contradicts --variant is refused)."""
    overrides = {}
    preset = args.preset
    if getattr(args, "rules", None):
        check_file(args.rules, MAX_RULES_BYTES, "--rules")
        data = load_rules_file(args.rules)
        _same_variant(args.variant, data.pop("variant", None), args.rules)
        file_preset = data.pop("preset", None)
        if file_preset is not None and not isinstance(file_preset, str):
            raise RulesError(f"{args.rules}: preset must be a name", got=file_preset)
        if file_preset is not None and preset is not None and file_preset != preset:
            raise RulesError(f"{args.rules} says preset {file_preset!r} but --preset is {preset!r}: "
                             "give the preset once")
        preset = preset or file_preset
        overrides.update(data)
    for item in args.option:
        if "=" not in item:
            raise RulesError("--option needs NAME=VALUE", got=item)
        k, v = item.split("=", 1)
        k, v = k.strip().replace("-", "_"), v.strip()
        if k == "variant":
            _same_variant(args.variant, v, "-o variant")
        elif k == "preset":
            if preset is not None and v != preset:  # two presets named: say so rather than pick one silently
                raise RulesError(f"-o preset={v} contradicts preset {preset!r} given before: give the preset once")
            preset = v
        else:
            overrides[k] = v
    return rules_for(args.variant, preset, **overrides)


def _same_variant(variant: str | None, given, where: str) -> None:
    if given is not None and given != variant:
        raise RulesError(f"{where} says variant {given!r} but --variant is {variant!r}: give the variant once")


class Progress:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    def __init__(self, total: int, label: str) -> None:
        self.total, self.label, self.n = total, label, 0
        self.on = sys.stderr.isatty()

    def step(self) -> None:
        self.n += 1
        if self.on and (self.n == self.total or self.n % max(1, self.total // 100) == 0):
            width = 30
            done = int(width * self.n / self.total)
            sys.stderr.write(f"\r{self.label} [{'#' * done}{'.' * (width - done)}] {self.n}/{self.total}")
            if self.n == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


# Input read from files and pipes is bounded: a line longer than a hand or log record can be, or a
# file larger than any log, is refused with a line instead of being read into memory (/dev/zero).
MAX_HAND_LINE = 4096  # bytes: a hand line of ``analyze --batch`` (14 tiles in any spelling fit in 200)
MAX_BATCH_BYTES = 256 << 20  # bytes: all of ``analyze --batch``'s input (about 16 million hands; a few minutes)
MAX_LOG_LINE = 1 << 20  # bytes: one record of a game log (a hand's deal or end record is a few KB)
MAX_LOG_BYTES = 64 << 20  # bytes: a whole game log for ``replay`` (a hand's log is about 20 KB)


MAX_RULES_BYTES = 16 << 10  # bytes: a --rules file (a few dozen options, under 2 KB; TOML's dotted keys read in
# time that grows as the square of their length: 16 KB of them take about a second)
MAX_RESULTS_BYTES = 1 << 30  # bytes: an arena result file (deals.jsonl: about 1 KB a deal)


def check_file(path: str, max_bytes: int, what: str) -> None:
    """Refuse, before it is read whole, a ``what`` file that is no regular file (a device such as
    /dev/zero, a pipe) or holds more than ``max_bytes``; a missing one is left to ``open``'s error."""
    import os
    import stat

    try:
        st = os.stat(path)
    except OSError:
        return
    if stat.S_ISDIR(st.st_mode):
        raise UsageError(f"{what} {path}: a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise UsageError(f"{what} {path}: not a regular file (a device or a pipe): give a file")
    if st.st_size > max_bytes:
        raise UsageError(f"{what} {path}: {st.st_size:,} bytes, more than the {max_bytes:,} read for one")


def open_input(path: str, max_bytes: int | None = None):
    """``path`` opened for reading bytes (``-``: stdin); a regular file over ``max_bytes`` is
    refused before it is read, and a directory is named as one."""
    import os

    if path == "-":
        return sys.stdin.buffer
    if os.path.isdir(path):
        raise UsageError(f"{path}: a folder, not a file")
    f = open(path, "rb")
    try:
        size = os.fstat(f.fileno()).st_size
    except OSError:
        size = 0
    if max_bytes is not None and size > max_bytes:
        f.close()
        raise UsageError(f"{path}: {size:,} bytes, more than the {max_bytes:,} this command reads")
    return f


def bounded_lines(stream, where: str, max_line: int, max_bytes: int | None = None):
    """The lines of a byte stream as ``(number, bytes)``, read a line at a time: a line over
    ``max_line`` bytes, or more than ``max_bytes`` in all, stops the reading with a UsageError
    (a stream that never ends, or never breaks its lines, costs no more than one line of memory)."""
    total = 0
    n = 0
    while True:
        raw = stream.readline(max_line + 1)
        if not raw:
            return
        n += 1
        total += len(raw)
        if len(raw) > max_line:
            raise UsageError(f"{where}: line {n} is longer than {max_line:,} bytes (not this command's input?)")
        if max_bytes is not None and total > max_bytes:
            raise UsageError(f"{where}: more than {max_bytes:,} bytes (not this command's input?)")
        yield n, raw


def can_encode(stream, text: str) -> bool:
    """Whether ``stream`` (a text stream) can write ``text`` in its encoding."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def check_bots(bots: list[str], players: int | None = None) -> list[str]:
    """``bots`` (from ``split_bots``) checked as the command line gives them: every name known,
    a ``cmd:`` with a program that splits as a shell line would, each option once and of its
    default's kind, counts never negative. A UsageError names the first entry at fault."""
    import inspect
    import math
    import shlex

    from majiang.bots import AGENTS, parse_spec

    if not bots:
        raise UsageError("--bots names no agent (e.g. --bots greedy or --bots strong,greedy,greedy,greedy)")
    if players is not None and len(bots) not in (1, players):
        raise UsageError(f"--bots names {len(bots)} agents; this game seats {players} (or give one for every seat)")
    for spec in bots:
        if spec.startswith("cmd:"):
            try:
                words = shlex.split(spec[4:])
            except ValueError as exc:
                raise UsageError(f"--bots entry {spec!r}: {exc} (quote the program as a shell would)") from None
            if not words:
                raise UsageError(f"--bots entry {spec!r} names no program (cmd:PROGRAM ARGS)")
            continue
        try:
            name, options = parse_spec(spec)
        except MajiangError as exc:
            raise UsageError(f"--bots: {exc}") from None
        if name not in AGENTS:
            raise UsageError(f"--bots: unknown agent {name!r} (known: {', '.join(AGENTS)}, or cmd:PROGRAM)")
        keys = [item.partition("=")[0].strip() for item in spec.partition(":")[2].split(",") if item.strip()]
        twice = next((k for i, k in enumerate(keys) if k in keys[:i]), None)
        if twice is not None:
            raise UsageError(f"--bots entry {spec!r} gives option {twice!r} twice: give it once")
        params = inspect.signature(AGENTS[name]).parameters
        for key, value in options.items():
            default = params[key].default if key in params else inspect.Parameter.empty
            if isinstance(default, bool) or default is inspect.Parameter.empty or isinstance(default, str):
                continue  # the agent checks its own words (and refuses unknown options)
            if isinstance(default, int) and not (isinstance(value, int) and value >= 0):
                raise UsageError(f"--bots entry {spec!r}: {key} must be a whole number 0 or more, got {value!r}")
            if isinstance(default, float) and not (isinstance(value, (int, float)) and math.isfinite(value)
                                                   and value >= 0):
                raise UsageError(f"--bots entry {spec!r}: {key} must be a number 0 or more, got {value!r}")
    return bots


def bot_help() -> str:
    """The agents ``--bots`` takes, from the registry (``majiang.bots.AGENTS``)."""
    from majiang.bots import AGENTS

    return (f"{', '.join(AGENTS)}, or cmd:PROGRAM (an external bot, docs/BOTS.md); options after a colon, "
            "e.g. expert:orders=200")
