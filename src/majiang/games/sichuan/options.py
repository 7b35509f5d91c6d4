"""血战到底 options: every point where the regional rule texts disagree, and the
named presets (``docs/RULES.md`` says what each one means)."""

from __future__ import annotations

from dataclasses import dataclass

from majiang.core.errors import RulesError
from majiang.games.rules import check_choice


@dataclass(frozen=True)
class SichuanRules:
    """四川 血战到底 options (defaults = the ``chengdu`` preset)."""

    variant = "sichuan"
    preset: str = "chengdu"
    base: int = 1
    exchange_three: bool = False  # 换三张 before 定缺
    blood_battle: bool = True  # 血战: play on after a win until three have won (False: 标准, one win ends)
    blood_river: bool = False  # 血流成河: winners keep playing and may win again
    kong_money: bool = True  # 下雨/刮风: kongs are paid at once
    late_added_kong: str = "none"  # 加杠 made after the turn its fourth was drawn: "none" (allowed, unpaid:
    # 成都 "未即时加杠的不收取分数") | "collect" (paid as any 加杠) | "forbid" (only at once, as in 卡五星)
    direct_kong_pay: int = 2  # 点杠: discarder pays (one source: 1)
    cap_fan: int | None = None  # 封顶 in 番 (3 common, 4), None: no cap
    gangshanghua_fan: int = 2  # 杠上花: +2 (成都 source) or +1 (modern)
    gangshang_chain: bool = True  # 杠上花/杠上炮 count per kong of the chain (成都 platform table: "杠上花（每杠＋2翻）",
    # "杠上炮（每杠＋1翻）"); off: the same bonus after one kong or several (the apps)
    robbed_kong_fan: int = 0  # 抢杠: 0 (the 成都 texts allow it but give it no 番) or +1 (the apps)
    call_transfer: bool = False  # 呼叫转移: 杠上炮 hands that kong's money to the winner (else refunded)
    heavenly_earthly: bool = True  # 天胡/地胡 count 5 番 (seed 004 describes both; off: no such fan)
    earthly: str = "first_round"  # 地胡: "first_round" (成都: also a win on a discard in the first
    # go-around, once the player has drawn) | "first_draw" (only a self-draw on the first draw)
    self_draw_bonus: str = "none"  # "none" | "base" (自摸加底) | "fan" (自摸加番)
    haidi: bool = False  # 海底捞月/海底炮 +1 (not in the 成都 source; on in modern)
    flower_pig_penalty: int = 16  # 查花猪: a pig pays each non-pig this many times the base (or 8)
    pass_win_unless_more: bool = True  # 过水不胡: a passed win may be taken later only if worth more
    last_four_must_win: bool = True  # 最后四张必胡
    sing_dance: bool = False  # 唱歌/跳舞 (成都 platform): declare ready, and dancers' tiles are protected
    rounds: int = 8

    def __post_init__(self) -> None:
        check_choice(self, "self_draw_bonus", ("none", "base", "fan"))
        check_choice(self, "late_added_kong", ("none", "collect", "forbid"))
        check_choice(self, "earthly", ("first_round", "first_draw"))
        if self.direct_kong_pay not in (1, 2):
            raise RulesError(f"option direct_kong_pay: 1 or 2, got {self.direct_kong_pay!r}")
        if self.cap_fan is not None and self.cap_fan < 1:
            raise RulesError(f"option cap_fan: at least 1, got {self.cap_fan!r}")
        if self.gangshanghua_fan not in (1, 2):
            raise RulesError(f"option gangshanghua_fan: 1 or 2, got {self.gangshanghua_fan!r}")
        if self.robbed_kong_fan not in (0, 1):
            raise RulesError(f"option robbed_kong_fan: 0 or 1, got {self.robbed_kong_fan!r}")
        if self.flower_pig_penalty not in (8, 16):
            raise RulesError(f"option flower_pig_penalty: 8 or 16, got {self.flower_pig_penalty!r}")
        if self.blood_river and not self.blood_battle:
            raise RulesError("option blood_river needs blood_battle")
        if self.base < 1 or self.rounds < 1:
            raise RulesError("options base and rounds must be at least 1")


PRESETS: dict[str, dict] = {
    "chengdu": {},
    "modern": {"exchange_three": True, "self_draw_bonus": "base", "cap_fan": 3, "gangshanghua_fan": 1,
               "gangshang_chain": False, "robbed_kong_fan": 1, "call_transfer": True, "earthly": "first_draw",
               "haidi": True},
}
DEFAULT_PRESET = "chengdu"
