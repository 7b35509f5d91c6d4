"""卡五星 options: every point where the regional rule texts disagree, declared once (type, values,
labels, help, source), and the named presets (``docs/RULES.md`` says what each one means)."""

from __future__ import annotations

from dataclasses import dataclass

from majiang.games.declare import Preset, check_options, option, presets

HOUSE = "the commercial apps"


@dataclass(frozen=True)
class KawuxingRules:
    """卡五星 options (defaults = the ``standard`` preset)."""

    variant = "kawuxing"
    preset: str = "standard"
    suits: str = option("ps", "花色", "Suits", "用哪两门数牌 (加中发白)",
                        "which two numbered suits are played (with the dragons)", kind="suits", count=2,
                        offered=("ps", "mp", "ms"), source="the 卡五星 texts play 筒 and 条; some tables use 万",
                        choices=(("ps", "筒条", "dots + bamboo"), ("mp", "万筒", "characters + dots"),
                                 ("ms", "万条", "characters + bamboo")))
    base: int = option(1, "底分", "Base", "每次付钱的单位", "the unit every payment is counted in", minimum=1,
                       form=False)
    liangdao_hide_triplets: bool = option(True, "亮倒不亮坎", "Hide triplets", "亮倒时暗刻可以不亮",
                                          "concealed triplets stay hidden after declaring ready", source="三个的不亮")
    liangdao_draw_penalty: str = option(
        "count", "亮倒荒庄", "Declared at a draw", "荒庄时谁赔亮倒: 按人数 / 先亮者 (下局坐庄) / 先亮者 (不换庄)",
        "who pays when a declared hand draws: by count, the first to declare (who then deals), or the first "
        "to declare (the dealer stays)",
        choices=(("count", "按人数", "by count"), ("first", "先亮者坐庄", "first to declare, then deals"),
                 ("first_pays", "先亮者赔", "first to declare, dealer stays")),
        source="count: the 卡五星 rule text; first: the 襄阳麻将卡五星玩法 text; first_pays: the 随州 rules")
    first_dealer: str = option("dice", "首局庄家", "First dealer", "第一局庄家: 掷骰子 / 东风位坐庄",
                               "the first hand's dealer: by the dice, or the first seat (East)",
                               choices=(("dice", "掷骰子", "by the dice"), ("east", "东风位", "East (first seat)")),
                               source="dice: the 卡五星 rule text's 第一局随机确定庄家; "
                                      "east: the 襄阳 online-game rules' 第一局东风位坐庄")
    direct_kong_pay: int = option(2, "直杠赔付", "Direct kong pays", "点杠者付几倍底",
                                  "what the discarder of a kong pays", allowed=(2, 1),
                                  source="2: the 卡五星 rule text's 点杠者出双份 and the 襄阳 texts; "
                                         "1: the same rule text's 直杠：×１")
    sigui: str = option("half", "四归", "Four of a kind",
                        "四归算法: 半频道 / 全频道 / 只算胡牌 / 半频道但碰后留张不算",
                        "how a fourth tile beside a triplet counts: half, full, only the winning tile, or half "
                        "without a pong's kept fourth",
                        choices=(("half", "半频道", "half"), ("full", "全频道", "full"),
                                 ("winning", "只算胡牌", "winning tile"),
                                 ("half_concealed", "半频道 (碰后留张不算)", "half, concealed fours only")),
                        source="half: the 卡五星（卡五心）rules' 大胡…手上的四归也算; "
                               "full: the commercial apps' 全频道; "
                               "winning: the 卡五星规则汇总 list's 最后又赢这张牌; "
                               "half_concealed: the 随州 rules' 过后不能杠，否则不算明四规")
    cap: int | None = option(None, "封顶", "Cap", "每家最多赔几倍底 (包胡赔两份; 漂/买马/数坎不封顶)",
                             "a win or a kong payment is at most this many times the base per payer (who discards "
                             "a declared hand's winning tile pays two capped shares; the float, horse and triplet "
                             "extras are not capped)",
                             minimum=1, offered=(None, 8, 16, 32, 64), source="满: the 随州 rules; 封顶: " + HOUSE)
    gangshangpao_chain: bool = option(False, "杠上炮连翻", "Chained kong discard",
                                      "杠上炮按连杠数翻倍",
                                      "a win on the discard after a kong doubles per kong of the chain, as a win on "
                                      "a replacement does",
                                      source="the 随州 rules' 放炮也翻")
    min_ron_multiplier: int = option(1, "点炮起胡", "Minimum on a discard", "点炮至少几倍 (2 = 屁胡只能自摸)",
                                     "2: a plain hand wins only by self-draw", minimum=1, offered=(1, 2),
                                     source=HOUSE)
    shouzhuayi: int = option(4, "手抓一", "Single wait in hand", "手抓一的倍数",
                             "multiplier of a single-tile wait after four melds",
                             allowed=(4, 2), source="4: the 卡五星规则汇总 list; 2: the 襄阳 online-game rules")
    haidi: str = option("self_draw", "海底", "Last tile", "海底捞月 / 也算海底炮 / 不算",
                        "a self-draw on the last tile only, also a win on the last discard, or neither",
                        choices=(("self_draw", "海底捞", "self-draw only"), ("both", "捞和炮", "both"),
                                 ("none", "无", "none")),
                        source="self_draw: the 卡五星规则汇总 list's 抓…最后一张牌的人; "
                               "both: the 随州 rules' 海底捞，海底炮; "
                               "none: the 襄阳 online-game rules' 无海捞")
    louhu_unless_more: bool = option(False, "漏胡可胡大", "Passed win", "过胡后更大的牌还能胡",
                                     "after passing a win, a bigger one may still be taken",
                                     source="the 卡五星（卡五心）rules' 除非…牌大")
    piao: int = option(0, "漂", "Float", "每家固定漂几底", "each player floats this many base", minimum=0,
                       offered=(0, 1, 2, 3, 5), source=HOUSE)
    maima: bool = option(False, "买马", "Buy a horse", "自摸翻一张马牌加分",
                         "a self-draw turns the next wall tile for extra points", source=HOUSE)
    shukan: bool = option(False, "数坎", "Count triplets", "赢家每个暗刻加一底",
                          "each concealed triplet of the winner adds one base", source=HOUSE)
    rounds: int = option(8, "局数", "Hands", "一场打几局", "hands in a match", minimum=1, form=False)

    def __post_init__(self) -> None:
        check_options(self)


PRESETS = presets(
    Preset("standard", "标准", "standard", {}, "the 卡五星规则汇总 list and the 卡五星 rule text"),
    Preset("xiangyang", "襄阳", "Xiangyang",
           {"shouzhuayi": 2, "haidi": "none", "liangdao_draw_penalty": "first", "first_dealer": "east"},
           "the 襄阳 online-game rules and the 襄阳麻将卡五星玩法 text"),
    Preset("suizhou", "随州", "Suizhou",
           {"cap": 8, "haidi": "both", "gangshangpao_chain": True, "liangdao_draw_penalty": "first_pays",
            "sigui": "half_concealed"},
           "the 随州 rules"),
)
DEFAULT_PRESET = "standard"
