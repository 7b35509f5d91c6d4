"""卡五星 fans, one worked hand per fan and per option setting (multipliers multiply)."""

import json

import pytest

from majiang.cli.main import main
from majiang.core.hand import Hand, Meld
from majiang.games.rules import rules_for
from majiang.games.scoring import WinContext, score


def fans(hand, win, melds=(), preset=None, opts=None, **ctx):
    rules = rules_for("kawuxing", preset, **(opts or {}))
    s = score(Hand.parse(hand, list(melds)), win, WinContext(**ctx), rules)
    return {f.name: f.value for f in s.fans}, s.multiplier if s.win else None


P, K, CK = Meld.pong, Meld.kong, Meld.concealed_kong

CASES = [
    # hand, win, melds, context, expected fans, multiplier
    ("123p456p789s11s55z", "5z", (), {}, {"屁胡": 1}, 1),
    ("111p333s55s777s55z", "5z", (), {}, {"碰碰胡": 2}, 2),
    ("234p789s11s5z5z5z", "2p", (P("2p"),), {}, None, None),  # invalid: too many tiles
    ("13p789s11s", "2p", (P("2p"), P("5z")), {}, {"明四归": 2}, 2),
    ("222p13p789s11s", "2p", (P("5z"),), {}, {"暗四归": 4}, 4),
    ("222p13p789s11s5z5z", "5z", (), {}, None, None),
    ("11223344668899p", None, (), {}, None, None),
    ("1122p3344s6688s5z", "5z", (), {}, {"七对": 4}, 4),
    ("1111p3344s6688s5z", "5z", (), {}, {"龙七对": 8}, 8),
    ("1111p3333s6688s5z", "5z", (), {}, {"双龙七对": 16}, 16),
    ("555z666z77z123p99s", "9s", (), {}, {"小三元": 4}, 4),
    ("555z666z777z12p99s", "3p", (), {}, {"大三元": 8}, 8),
    ("1112345678999p", "1p", (), {}, {"清一色": 4, "暗四归": 4}, 16),
    ("1112345678999p", "2p", (), {}, {"清一色": 4}, 4),
    ("46p123s789s555z77z", "5p", (), {}, {"卡五星": 2}, 2),
    ("46s", "5s", (P("1p"), P("9p"), P("5z"), P("7z")), {}, None, None),
    ("7z", "7z", (P("1p"), P("9p"), P("3s"), P("7s")), {}, {"碰碰胡": 2, "手抓一": 4}, 8),
    ("7z", "7z", (P("1p"), P("9p"), P("5z"), P("6z")), {}, {"碰碰胡": 2, "小三元": 4, "手抓一": 4}, 32),
    ("123p456p789s123s5z", "5z", (), {"self_draw": True, "kong_chain": 1}, {"杠上开花": 2}, 2),
    ("123p456p789s123s5z", "5z", (), {"self_draw": True, "kong_chain": 2}, {"杠上开花": 4}, 4),
    ("123p456p789s123s5z", "5z", (), {"kong_chain": 1}, {"杠上炮": 2}, 2),
    ("123p456p789s123s5z", "5z", (), {"robbed_kong": True}, {"抢杠": 2}, 2),
    ("123p456p789s123s5z", "5z", (), {"self_draw": True, "last_tile": True}, {"海底捞": 2}, 2),
    ("123p456p789s123s5z", "5z", (), {"last_tile": True}, {"屁胡": 1}, 1),
    ("123p456p789s123s5z", "5z", (), {"declared": True}, {"亮倒": 2}, 2),
]


@pytest.mark.parametrize("hand, win, melds, ctx, expected, mult", [c for c in CASES if c[4] is not None])
def test_fan(hand, win, melds, ctx, expected, mult):
    got, m = fans(hand, win, melds, **ctx)
    if mult is None:
        assert m is None
        return
    assert got == expected
    assert m == mult


def test_notes_examples():
    # 七对 never with 卡五星; 龙七对 = 清一色×卡五星×暗四归 = 32
    assert fans("1122334456677p", "5p") == ({"清一色": 4, "七对": 4}, 16)
    assert fans("1122334455566p", "5p")[1] == 32
    # the notes' 卡五星 shapes: 4556, 4688, 2245667, 2245556 win on 5
    for shape, rest in [("4556p", "123s789s555z"), ("4688p", "123s789s555z"), ("2245667p", "789s555z"),
                        ("2245556p", "789s555z")]:
        got, _ = fans(shape + rest, "5p")
        assert "卡五星" in got, shape
    # 龙七对 does not also count 暗四归
    got, m = fans("1111p3344s6688s5z", "5z")
    assert "暗四归" not in got and m == 8


def test_sigui_option():
    # a four kept in hand (not the winning tile) in a 清一色 hand: counts in half and full
    hand, win = "1111234567899p", "9p"
    assert fans(hand, win, opts={"sigui": "half"})[0] == {"清一色": 4, "暗四归": 4}
    assert fans(hand, win, opts={"sigui": "winning"})[0] == {"清一色": 4}
    # in a small hand only 全频道 counts it
    hand, win = "1111p23p789s123s5z", "5z"  # 1111p23p reads 111p + 123p
    assert "暗四归" not in fans(hand, win, opts={"sigui": "half"})[0]
    assert fans(hand, win, opts={"sigui": "full"})[0] == {"暗四归": 4}


def test_suizhou_counts_no_kept_fourth_of_a_pong():
    """The 随州 rules: "明杠必须当时就杠，过后不能杠，否则不算明四规": a pong's fourth kept in hand is no 明四归.
    A 清一色 with 111p ponged and the fourth 1p kept: 半频道 counts it (×8), 随州 does not (×4); a
    four held concealed still counts in 随州."""
    hand, win, melds = "1234567899p", "9p", (P("1p"),)
    assert fans(hand, win, melds, opts={"sigui": "half"}) == ({"清一色": 4, "明四归": 2}, 8)
    assert fans(hand, win, melds, preset="suizhou") == ({"清一色": 4}, 4)
    assert fans(hand, win, melds, opts={"sigui": "half_concealed"}) == ({"清一色": 4}, 4)
    assert fans("1111234567899p", "9p", preset="suizhou") == ({"清一色": 4, "暗四归": 4}, 8)  # 满


def test_cap_and_presets():
    hand, win = "1122334455566p", "5p"  # 清一色 × 龙七对 = 32
    assert fans(hand, win, preset="suizhou")[1] == 8  # 满 = 8
    assert fans(hand, win, preset="suizhou", opts={"cap": 16})[1] == 16  # cap stays overridable
    assert fans(hand, win)[1] == 32
    # 襄阳: 手抓一 ×2, no 海底
    assert fans("7z", "7z", (P("1p"), P("9p"), P("3s"), P("7s")), preset="xiangyang")[0]["手抓一"] == 2
    assert fans("123p456p789s123s5z", "5z", preset="xiangyang", self_draw=True, last_tile=True)[0] == {"屁胡": 1}
    # 随州: 海底炮 too
    assert fans("123p456p789s123s5z", "5z", preset="suizhou", last_tile=True)[0] == {"海底炮": 2}


def test_min_ron_multiplier():
    opts = {"min_ron_multiplier": 2}
    assert fans("123p456p789s123s5z", "5z", opts=opts)[1] is None  # 屁胡只能自摸
    assert fans("123p456p789s123s5z", "5z", opts=opts, self_draw=True)[1] == 1
    assert fans("123p456p789s123s5z", "5z", opts=opts, declared=True)[1] == 2


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_cli_contract(capsys):
    code, out, _ = run(capsys, "score", "1122334456677p", "--win", "5p", "--variant", "kawuxing", "--json")
    assert code == 0
    assert json.loads(out) == {"win": True, "fans": [
        {"name": "清一色", "multiplier": 4, "english": "one suit"},
        {"name": "七对", "multiplier": 4, "english": "seven pairs"}], "multiplier": 16}
    code, out, _ = run(capsys, "score", "123p456p789s123s5z", "--win", "6z", "--variant", "kawuxing", "--json")
    assert (code, json.loads(out)) == (0, {"win": False})
    code, out, err = run(capsys, "score", "123p456p789s123s5z", "--win", "9z", "--variant", "kawuxing", "--json")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "9z" in err
    code, out, _ = run(capsys, "score", "123p456p789s123s5z", "--win", "5z", "--variant", "kawuxing",
                       "--tsumo", "--after-kong", "--json")
    assert json.loads(out)["fans"][0]["name"] == "杠上开花"
    code, out, _ = run(capsys, "score", "13p789s11s", "--win", "2p", "--variant", "kawuxing",
                       "--pong", "2p", "--pong", "5z", "--liangdao", "--json")
    assert json.loads(out)["multiplier"] == 4


def test_three_dragon_seven_pairs():
    # three fours in seven pairs: 三龙七对 ×32 (the notes' natural extension)
    got, m = fans("1111p3333s6666s5z", "5z")
    assert got == {"三龙七对": 32} and m == 32


def test_suizhou_man_is_eight_times_the_base():
    """随州: "青一色：见四就满" — 清一色 (×4) with any further doubling is 满; "龙七对见四满" (×8)."""
    assert fans("1112345678999p", "2p", preset="suizhou") == ({"清一色": 4}, 4)  # not yet 满
    assert fans("4688p123456p999p", "5p", preset="suizhou") == ({"清一色": 4, "卡五星": 2}, 8)
    assert fans("1123456789999p", "1p", preset="suizhou")[1] == 8  # 清一色 × 暗四归 = 16: "一色都算满"
    assert fans("1122445566p77s7s", "7s", preset="suizhou") == ({"龙七对": 8}, 8)
    assert fans("4688p123456p999p", "5p", preset="suizhou", declared=True)[1] == 8  # ×16 capped


@pytest.mark.parametrize("preset, chain, value", [("suizhou", 1, 2), ("suizhou", 2, 4), ("suizhou", 3, 8),
                                                  (None, 2, 2), (None, 3, 2)])
def test_gangshangpao_follows_the_kong_chain_in_suizhou(preset, chain, value):
    """随州: "杠上杠翻倍，放炮也翻"; "扛上开花×2倍，扛上杠开花×4倍以此内推"."""
    assert fans("123p456p789s123s5z", "5z", preset=preset, kong_chain=chain) == ({"杠上炮": value}, value)
