"""卡五星 options: every point where the regional rule texts disagree, and the
named presets (``docs/RULES.md`` says what each one means)."""

from __future__ import annotations

from dataclasses import dataclass

from majiang.core.errors import RulesError
from majiang.games.rules import check_choice


@dataclass(frozen=True)
class KawuxingRules:
    """卡五星 options (defaults = the ``standard`` preset)."""

    variant = "kawuxing"
    preset: str = "standard"
    suits: str = "ps"  # any two of m/p/s, plus the three dragons
    base: int = 1  # 底: the unit every payment is counted in
    liangdao_hide_triplets: bool = True  # 三个的不亮: concealed triplets stay hidden after 亮倒
    liangdao_draw_penalty: str = "count"  # who pays at a drawn hand with 亮倒: "count" (each declared pays
    # each undeclared one base) | "first" (the first to declare pays each other one base and deals next:
    # 襄阳) | "first_pays" (the first to declare pays each other one base; the dealer stays: 随州)
    first_dealer: str = "dice"  # the match's first dealer: "dice" (第一局随机确定庄家) | "east" (襄阳:
    # "第一局东风位坐庄", the room's first seat)
    direct_kong_pay: int = 2  # 直杠: what the discarder pays (one source: 1)
    sigui: str = "half"  # 四归 kept in hand: "half" (big hands only, 半频道) | "full" (全频道) | "winning"
    cap: int | None = None  # 封顶/满: at most this many times the base per payer, wins and kong money alike
    gangshangpao_chain: bool = False  # 杠上炮 doubles per kong in the chain like 杠上开花 (随州), else ×2 flat
    min_ron_multiplier: int = 1  # a win on a discard must be worth at least this (2 = 屁胡只能自摸)
    shouzhuayi: int = 4  # 手抓一 multiplier (襄阳: 2)
    haidi: str = "self_draw"  # "self_draw" (海底捞) | "both" (also 海底炮) | "none" (襄阳)
    louhu_unless_more: bool = False  # 漏胡: may a passed player still win a bigger discard?
    piao: int = 0  # 漂 (固定漂): every player floats this many base; a win adds both floats per payer
    maima: bool = False  # 自摸买马: a self-draw turns over the next wall tile; its rank (dragons 10) is added
    shukan: bool = False  # 数坎: each concealed triplet (坎) of the winner adds one base per payer
    rounds: int = 8  # hands in a match

    def __post_init__(self) -> None:
        check_choice(self, "liangdao_draw_penalty", ("count", "first", "first_pays"))
        check_choice(self, "first_dealer", ("dice", "east"))
        check_choice(self, "sigui", ("half", "full", "winning"))
        check_choice(self, "haidi", ("self_draw", "both", "none"))
        if len(set(self.suits)) != 2 or any(s not in "mps" for s in self.suits):
            raise RulesError(f"option suits: two of m, p, s, got {self.suits!r}")
        if self.direct_kong_pay not in (1, 2):
            raise RulesError(f"option direct_kong_pay: 1 or 2, got {self.direct_kong_pay!r}")
        if self.cap is not None and self.cap < 1:
            raise RulesError(f"option cap: at least 1, got {self.cap!r}")
        if self.min_ron_multiplier < 1 or self.base < 1 or self.rounds < 1:
            raise RulesError("options min_ron_multiplier, base and rounds must be at least 1")
        if self.piao < 0:
            raise RulesError(f"option piao: 0 or more, got {self.piao!r}")
        if self.shouzhuayi not in (2, 4):
            raise RulesError(f"option shouzhuayi: 2 or 4, got {self.shouzhuayi!r}")


PRESETS: dict[str, dict] = {
    "standard": {},
    "xiangyang": {"shouzhuayi": 2, "haidi": "none", "liangdao_draw_penalty": "first", "first_dealer": "east"},
    "suizhou": {"cap": 8, "haidi": "both", "gangshangpao_chain": True, "liangdao_draw_penalty": "first_pays"},
}
DEFAULT_PRESET = "standard"
