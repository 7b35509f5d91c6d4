"""A toy third game, defined only in the test suite: two suits, three players, every complete
hand worth 1, a self-draw paid ``self_draw_pays`` × base by each other player, no kong money.
It is plugged in through the registry (``spec()`` is what a ``majiang.games`` entry point names)
to show that a game needs no file outside its own."""

from __future__ import annotations

from dataclasses import dataclass

from majiang.core.analysis import is_winning
from majiang.core.hand import Hand
from majiang.core.tiles import Tile
from majiang.core.variants import Variant
from majiang.games.base import GamePlay, Payment, Settlement
from majiang.games.declare import Preset, check_options, option, presets
from majiang.games.registry import GameSpec
from majiang.games.scoring import Fan, Score, WinContext

TOY = Variant("toy", "玩具", "mp", False, 3)  # no void, no 亮倒, no blood battle: the default capabilities
FAN_NAMES = {"胡": ("a win", 1), "自摸": ("self-drawn", 1)}


@dataclass(frozen=True)
class ToyRules:
    variant = "toy"
    preset: str = "plain"
    base: int = option(1, "底分", "Base", "每次付钱的单位", "the unit every payment is counted in", minimum=1,
                       form=False)
    self_draw_pays: int = option(1, "自摸付分", "Self-draw pays", "自摸时每家付几倍底",
                                 "what each other player pays a self-draw", allowed=(1, 2))
    loud: bool = option(False, "报听", "Loud", "听牌要说出来", "a ready hand is announced", needs="kind")
    kind: bool = option(True, "友好", "Kind", "友好局", "a friendly table")
    rounds: int = option(4, "局数", "Hands", "一场打几局", "hands in a match", minimum=1, form=False)

    def __post_init__(self) -> None:
        check_options(self)


def score_win(hand: Hand, win: Tile, ctx: WinContext, rules) -> Score:
    if not is_winning(hand.add(win), TOY):
        return Score(False, "toy")
    fans = (Fan("胡", "a win", 1),) + ((Fan("自摸", "self-drawn", 1),) if ctx.self_draw else ())
    return Score(True, "toy", fans, multiplier=1, uncapped=1)


class ToyPlay(GamePlay):
    name = "toy"
    players = 3

    @property
    def variant(self) -> Variant:
        return TOY

    def score(self, hand: Hand, tile: Tile, ctx: WinContext) -> Score:
        return score_win(hand, tile, ctx, self.rules)

    def kong_payments(self, game, seat, kind, discarder, chain, at_once=True) -> list[Payment]:
        return []

    def win_payments(self, game, win) -> Settlement:
        base = self.rules.base
        if win.self_draw:
            each = self.rules.self_draw_pays * base
            return Settlement([Payment(s, win.seat, each, "自摸") for s in range(game.n) if s != win.seat])
        return Settlement([Payment(win.discarder, win.seat, base, "点炮")])


PRESETS = presets(Preset("plain", "普通", "plain", {}),
                  Preset("generous", "大方", "generous", {"self_draw_pays": 2}))


def spec() -> GameSpec:
    return GameSpec("toy", "玩具", TOY, ToyRules, PRESETS, "plain", ToyPlay, score_win, FAN_NAMES, False,
                    name_en="Toy", payments=("自摸", "点炮"))
