"""What the commands share: usage errors, meld and rules options, a progress bar."""

from __future__ import annotations

import argparse
import sys

from majiang.core.errors import RulesError
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
                   help="rules preset: " + "; ".join(f"{v}: {', '.join(ps)}" for v, ps in ((name, game.presets) for name, game in GAMES.items())))
    p.add_argument("--rules", metavar="FILE", help="a TOML or JSON file of option = value overrides")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="override one rules option (see docs/RULES.md); repeatable")


def rules_from_args(args):
    """The rules named by --variant, --preset, --rules and -o; ``preset`` and ``variant`` may also
    come from the file or an -o (a variant that contradicts --variant is refused)."""
    overrides = {}
    preset = args.preset
    if getattr(args, "rules", None):
        data = load_rules_file(args.rules)
        _same_variant(args.variant, data.pop("variant", None), args.rules)
        file_preset = data.pop("preset", None)
        if file_preset is not None and not isinstance(file_preset, str):
            raise RulesError(f"{args.rules}: preset must be a name, got {file_preset!r}")
        preset = preset or file_preset
        overrides.update(data)
    for item in args.option:
        if "=" not in item:
            raise RulesError(f"--option needs NAME=VALUE, got {item!r}")
        k, v = item.split("=", 1)
        k, v = k.strip().replace("-", "_"), v.strip()
        if k == "variant":
            _same_variant(args.variant, v, "-o variant")
        elif k == "preset":
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
