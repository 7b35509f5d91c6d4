"""Rules options: one frozen object per variant, presets by name, overrides validated up front.

Every point where the source documents disagree is an option here; ``docs/RULES.md`` says what
each one means and which preset sets what.

>>> r = rules_for("kawuxing", "xiangyang")
>>> r.shouzhuayi, r.haidi, r.liangdao_draw_penalty
(2, 'none', 'first')
>>> rules_for("sichuan", "modern", cap_fan=4).cap_fan
4
>>> rules_for("sichuan", "chengdu", cap_fan="x")
Traceback (most recent call last):
...
majiang.RulesError: option cap_fan: expected a whole number or none, got 'x'
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, fields
from typing import Any

from majiang.core.errors import RulesError


@dataclass(frozen=True)
class KawuxingRules:
    """卡五星 options (defaults = the ``standard`` preset)."""

    variant = "kawuxing"
    preset: str = "standard"
    suits: str = "ps"  # any two of m/p/s, plus the three dragons
    base: int = 1  # 底: the unit every payment is counted in
    liangdao_hide_triplets: bool = True  # 三个的不亮: concealed triplets stay hidden after 亮倒
    liangdao_draw_penalty: str = "count"  # "count" | "first": who pays at a drawn hand with 亮倒
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
        _check_choice(self, "liangdao_draw_penalty", ("count", "first"))
        _check_choice(self, "sigui", ("half", "full", "winning"))
        _check_choice(self, "haidi", ("self_draw", "both", "none"))
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
        _check_choice(self, "self_draw_bonus", ("none", "base", "fan"))
        _check_choice(self, "late_added_kong", ("none", "collect", "forbid"))
        _check_choice(self, "earthly", ("first_round", "first_draw"))
        if self.direct_kong_pay not in (1, 2):
            raise RulesError(f"option direct_kong_pay: 1 or 2, got {self.direct_kong_pay!r}")
        if self.cap_fan is not None and self.cap_fan < 1:
            raise RulesError(f"option cap_fan: at least 1, got {self.cap_fan!r}")
        if self.gangshanghua_fan not in (1, 2):
            raise RulesError(f"option gangshanghua_fan: 1 or 2, got {self.gangshanghua_fan!r}")
        if self.flower_pig_penalty not in (8, 16):
            raise RulesError(f"option flower_pig_penalty: 8 or 16, got {self.flower_pig_penalty!r}")
        if self.blood_river and not self.blood_battle:
            raise RulesError("option blood_river needs blood_battle")
        if self.base < 1 or self.rounds < 1:
            raise RulesError("options base and rounds must be at least 1")


Rules = KawuxingRules | SichuanRules

PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "kawuxing": {
        "standard": {},
        "xiangyang": {"shouzhuayi": 2, "haidi": "none", "liangdao_draw_penalty": "first"},
        "suizhou": {"cap": 8, "haidi": "both", "gangshangpao_chain": True},
    },
    "sichuan": {
        "chengdu": {},
        "modern": {"exchange_three": True, "self_draw_bonus": "base", "cap_fan": 3, "gangshanghua_fan": 1,
                   "call_transfer": True, "earthly": "first_draw", "haidi": True},
    },
}
DEFAULT_PRESET = {"kawuxing": "standard", "sichuan": "chengdu"}
_CLASSES = {"kawuxing": KawuxingRules, "sichuan": SichuanRules}


MAX_NUMBER = 1_000_000  # the largest whole-number option value


def _check_choice(obj, name: str, choices: tuple[str, ...]) -> None:
    if getattr(obj, name) not in choices:
        raise RulesError(f"option {name}: one of {', '.join(choices)}, got {getattr(obj, name)!r}")


def _coerce(cls, name: str, value: Any) -> Any:
    """Turn text (from a CLI flag or file) into the option's type."""
    field = {f.name: f for f in fields(cls)}.get(name)
    if field is None or name == "preset":
        known = ", ".join(f.name for f in fields(cls) if f.name != "preset")
        raise RulesError(f"unknown option {name!r} for {cls.variant} (known: {known})")
    typ = str(field.type)
    if "bool" in typ:
        if isinstance(value, bool):
            return value
        if str(value).lower() in ("1", "true", "yes", "on"):
            return True
        if str(value).lower() in ("0", "false", "no", "off"):
            return False
        raise RulesError(f"option {name}: expected true or false, got {value!r}")
    if "int" in typ:
        if value is None or (isinstance(value, str) and value.lower() in ("none", "null", "")) and "None" in typ:
            return None
        suffix = " or none" if "None" in typ else ""
        if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
            raise RulesError(f"option {name}: expected a whole number{suffix}, got {value!r}")
        try:
            number = int(value)
        except (TypeError, ValueError, OverflowError):
            raise RulesError(f"option {name}: expected a whole number{suffix}, got {value!r}") from None
        if not -MAX_NUMBER <= number <= MAX_NUMBER:  # money must stay exact and printable
            raise RulesError(f"option {name}: at most {MAX_NUMBER:,} in size")
        return number
    return str(value)


def rules_for(variant: str, preset: str | None = None, **overrides: Any) -> Rules:
    """The rules of ``preset`` (default: the variant's first preset) with ``overrides`` applied."""
    if variant not in _CLASSES:
        raise RulesError(f"unknown variant {variant!r} (kawuxing or sichuan)")
    preset = preset or DEFAULT_PRESET[variant]
    if preset not in PRESETS[variant]:
        raise RulesError(f"unknown preset {preset!r} for {variant} (known: {', '.join(PRESETS[variant])})")
    cls = _CLASSES[variant]
    values = dict(PRESETS[variant][preset])
    for k, v in overrides.items():
        values[k] = _coerce(cls, k, v)
    return cls(preset=preset, **values)


def load_rules_file(path: str) -> dict[str, Any]:
    """Options from a JSON or TOML file: a flat table of option = value (``preset`` allowed)."""
    with open(path, "rb") as f:
        raw = f.read()
    if path.endswith(".toml"):
        import tomllib

        try:
            return tomllib.loads(raw.decode("utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise RulesError(f"{path}: {exc}") from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise RulesError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise RulesError(f"{path}: expected an object of option: value")
    return data


def rules_to_json(rules: Rules) -> dict[str, Any]:
    return {"variant": rules.variant, **dataclasses.asdict(rules)}


def rules_from_json(d: dict[str, Any]) -> Rules:
    d = dict(d)
    variant = d.pop("variant")
    preset = d.pop("preset", None)
    return rules_for(variant, preset, **d)
