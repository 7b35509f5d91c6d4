"""血战到底 options: every point where the regional rule texts disagree, declared once (type, values,
labels, help, source), and the named presets (``docs/RULES.md`` says what each one means)."""

from __future__ import annotations

from dataclasses import dataclass

from majiang.games.declare import Preset, check_options, option, presets

APPS = "the apps"


@dataclass(frozen=True)
class SichuanRules:
    """四川 血战到底 options (defaults = the ``chengdu`` preset)."""

    variant = "sichuan"
    preset: str = "chengdu"
    base: int = option(1, "底分", "Base", "每次付钱的单位", "the unit every payment is counted in", minimum=1,
                       form=False)
    exchange_three: bool = option(False, "换三张", "Pass three", "开局每人换出三张同花色的牌",
                                  "everyone passes three tiles of one suit first", source=APPS)
    blood_battle: bool = option(True, "血战到底", "Blood battle", "有人胡后继续打到三家胡",
                                "play on after a win until three have won (off: standard, one win ends)",
                                source="the 成都 platform rules")
    blood_river: bool = option(False, "血流成河", "Blood river", "胡了的人继续打, 可以再胡",
                               "winners play on and may win again", needs="blood_battle", source=APPS)
    kong_money: bool = option(True, "刮风下雨", "Kong money", "杠牌立即收钱", "kongs are paid at once",
                              source="下雨/刮风")
    late_added_kong: str = option(
        "none", "补杠收分", "Late added kong", "过后加杠: 不收分 / 照常收分 / 不许",
        "an added kong made after its fourth was drawn: unpaid, paid, or forbidden",
        choices=(("none", "不收分", "unpaid"), ("collect", "收分", "paid"), ("forbid", "不许", "forbidden")),
        source="none: the 成都 platform rules' 未即时加杠的不收取分数")
    direct_kong_pay: int = option(2, "直杠赔付", "Direct kong pays", "点杠者付几倍底",
                                  "what the discarder of a kong pays", allowed=(2, 1),
                                  source="2: the 成都 platform rules' 收取点杠者两底; 1: the 四川 rules text's 1倍点数")
    cap_fan: int | None = option(None, "封顶番数", "Fan cap", "最多算几番", "a hand counts at most this many fan",
                                 minimum=1, offered=(None, 3, 4, 5, 6), source="3: " + APPS)
    gangshanghua_fan: int = option(2, "杠上花", "Win after a kong", "杠上开花加几番",
                                   "extra fan for a win on a kong replacement",
                                   allowed=(2, 1), source="2: the 成都 platform rules; 1: " + APPS)
    gangshang_chain: bool = option(True, "每杠加番", "Per kong", "杠上花/杠上炮按连杠数每杠加番",
                                   "wins on a kong replacement or on the discard after a kong count once per kong "
                                   "of the player's own chain (the winner's on a replacement, the discarder's on a "
                                   "discard)",
                                   source="the 成都 platform table's 每杠＋2翻, 每杠＋1翻; off: " + APPS)
    robbed_kong_fan: int = option(0, "抢杠", "Robbing a kong", "抢杠胡加几番", "extra fan for a win on a robbed kong",
                                  allowed=(0, 1), source="0: no 成都 text gives it a 番; 1: " + APPS)
    call_transfer: bool = option(False, "呼叫转移", "Call transfer", "杠上炮把杠钱转给胡家",
                                 "a win on the discard after a kong hands the kong money to the winner (else refunded)",
                                 source=APPS)
    heavenly_earthly: bool = option(True, "天胡地胡", "Heavenly hands", "天胡/地胡算5番",
                                    "the dealer's win on the deal and a first-draw win count 5 fan",
                                    source="the 成都 platform rules")
    earthly: str = option("first_round", "地胡", "Earthly hand", "地胡: 第一轮内点炮也算 / 只算第一次摸牌自摸",
                          "first-draw win: also on a discard in the first go-around, or only a self-draw on the "
                          "first draw",
                          choices=(("first_round", "第一轮", "first go-around"),
                                   ("first_draw", "第一次摸牌", "first draw")),
                          source="first_round: the 成都 platform rules; first_draw: " + APPS)
    self_draw_bonus: str = option("none", "自摸加成", "Self-draw bonus", "不加 / 自摸加底 / 自摸加番",
                                  "none, one base, or one fan",
                                  choices=(("none", "无", "none"), ("base", "自摸加底", "one base"),
                                           ("fan", "自摸加番", "one fan")), source=APPS)
    haidi: bool = option(False, "海底", "Last tile", "海底捞月/海底炮加一番",
                         "a win on the last tile or the last discard adds one fan",
                         source="not in the 成都 texts; " + APPS)
    flower_pig_penalty: int = option(16, "查花猪", "Flower pig", "花猪赔每家几倍底",
                                     "a player with three suits pays each this many base", allowed=(16, 8),
                                     source="the texts say 16 or 8")
    pass_win_unless_more: bool = option(True, "过水不胡", "Passed win", "过胡后只能胡更大的",
                                        "a passed win may be taken later only if worth more",
                                        source="the 成都 platform rules")
    last_four_must_win: bool = option(True, "最后四张必胡", "Last four must win", "最后四张能胡必须胡",
                                      "in the last four tiles a win must be taken", source="the 成都 platform rules")
    sing_dance: bool = option(False, "唱歌跳舞", "Sing and dance", "可以报听 (唱歌/跳舞)", "players may declare ready",
                              source="the 成都 platform rules")
    rounds: int = option(8, "局数", "Hands", "一场打几局", "hands in a match", minimum=1, form=False)

    def __post_init__(self) -> None:
        check_options(self)


PRESETS = presets(
    Preset("chengdu", "成都", "Chengdu", {}, "the 成都 platform rules"),
    Preset("modern", "换三张 (新)", "modern, pass three",
           {"exchange_three": True, "self_draw_bonus": "base", "cap_fan": 3, "gangshanghua_fan": 1,
            "gangshang_chain": False, "robbed_kong_fan": 1, "call_transfer": True, "earthly": "first_draw",
            "haidi": True}, APPS),
)
DEFAULT_PRESET = "chengdu"
