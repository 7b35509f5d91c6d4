"""四川 fans (番), one worked hand per fan and per option setting."""

import json

import pytest

from majiang.cli.main import main
from majiang.core.hand import Hand, Meld
from majiang.core.tiles import format_tiles, parse_tiles
from majiang.games.rules import rules_for
from majiang.games.scoring import WinContext, score


def fans(full14, win, melds=(), preset=None, opts=None, **ctx):
    """Score the 3n+2 tiles ``full14`` won on ``win`` (one copy of it is taken out as the winner)."""
    tiles = parse_tiles(full14)
    w = parse_tiles(win)[0]
    tiles.remove(w)
    rules = rules_for("sichuan", preset, **(opts or {}))
    s = score(Hand.parse(format_tiles(tiles), list(melds)), w, WinContext(**ctx), rules)
    if not s.win:
        return None
    return {f.name: f.value for f in s.fans}, s.fan


P, K, CK = Meld.pong, Meld.kong, Meld.concealed_kong

NOTES_TABLE = [  # the rules notes' own examples
    ("23445677m345789p", "7m", {"平胡": 0}, 0),
    ("111333444m66677p", "7p", {"对对胡": 1}, 1),
    ("11223345678999m", "5m", {"清一色": 2}, 2),
    ("11334466m557799p", "9p", {"七对": 2}, 2),
    ("111222333m78999p", "8p", {"幺九": 2}, 2),
    ("22244455577799m", "9m", {"清对": 3}, 3),
    ("222555888m55588p", "8p", {"将对": 3}, 3),
    ("11222244m557788p", "8p", {"龙七对": 4}, 4),
    ("11334466778899m", "9m", {"清七对": 4}, 4),
    ("11123777888999m", "2m", {"清幺九": 4}, 4),
    ("11224444557799m", "9m", {"清龙七对": 5}, 5),
]


@pytest.mark.parametrize("full, win, expected, fan", NOTES_TABLE)
def test_notes_fan_table(full, win, expected, fan):
    assert fans(full, win) == (expected, fan)


def test_roots():
    # a kong in a plain hand: 平胡 + 根 → only 根 listed (平胡 only when nothing else applies)
    assert fans("234m567m345p99p", "9p", (K("1m"),)) == ({"根": 1}, 1)
    # four concealed used as a triplet and in a sequence: 根
    assert fans("11112345678999m", "5m")[0]["根"] == 1
    # a pong and its fourth in hand is a 根
    assert fans("234m567m345p99p", "9p", (P("2m"),)) == ({"根": 1}, 1)
    # 龙七对's four is part of the fan; a second four is +1 根
    assert fans("11222244m557777p", "1m") == ({"龙七对": 4, "根": 1}, 5)


def test_golden_hook():
    assert fans("99p", "9p", (P("1m"), P("2m"), P("3p"), P("4p"))) == ({"金钩钓": 2}, 2)
    assert fans("99m", "9m", (P("1m"), P("2m"), P("3m"), P("4m"))) == ({"清金钩钓": 4}, 4)


def test_not_a_win():
    assert fans("123m456p789s11m456m", "1m") is None  # three suits
    assert fans("23445677m345789p", "7m", void="p") is None  # holds the void suit
    assert fans("23445677m345789p", "7m", void="s") == ({"平胡": 0}, 0)


def test_situational_fans_and_presets():
    full, win = "23445677m345789p", "7m"
    assert fans(full, win, self_draw=True, kong_chain=1)[0] == {"杠上花": 2}
    assert fans(full, win, preset="modern", self_draw=True, kong_chain=1)[0] == {"杠上花": 1}
    assert fans(full, win, kong_chain=1)[0] == {"杠上炮": 1}
    assert fans(full, win, robbed_kong=True)[0] == {"平胡": 0}  # chengdu: the 成都 texts give 抢杠 no 番
    assert fans(full, win, preset="modern", robbed_kong=True)[0] == {"抢杠": 1}  # the apps' +1
    assert fans(full, win, self_draw=True, kong_chain=3)[0] == {"杠上花": 6}  # "每杠＋2翻"
    assert fans(full, win, kong_chain=2)[0] == {"杠上炮": 2}  # "每杠＋1翻"
    assert fans(full, win, preset="modern", self_draw=True, kong_chain=3)[0] == {"杠上花": 1}  # flat
    assert fans(full, win, preset="modern", kong_chain=2)[0] == {"杠上炮": 1}
    assert fans(full, win, preset="modern", self_draw=True, last_tile=True)[0] == {"海底捞月": 1}
    assert fans(full, win, opts={"haidi": True}, last_tile=True)[0] == {"海底炮": 1}
    assert fans(full, win, last_tile=True)[0] == {"平胡": 0}  # chengdu: the source has no 海底
    assert fans(full, win, opts={"self_draw_bonus": "fan"}, self_draw=True)[0] == {"自摸加番": 1}
    assert fans(full, win, preset="modern", self_draw=True)[0] == {"平胡": 0}  # 自摸加底 is money, not fan


def test_heavenly_earthly_and_cap():
    full, win = "23445677m345789p", "7m"
    assert fans(full, win, self_draw=True, heavenly=True) == ({"天胡": 5}, 5)  # chengdu: no cap
    assert fans(full, win, opts={"heavenly_earthly": False}, self_draw=True, heavenly=True) == ({"平胡": 0}, 0)
    assert fans(full, win, preset="modern", self_draw=True, heavenly=True) == ({"天胡": 5}, 3)  # cap 3
    assert fans(full, win, preset="modern", opts={"cap_fan": None}, self_draw=True, earthly=True) == ({"地胡": 5}, 5)
    assert fans("11224444557799m", "9m", opts={"cap_fan": 4})[1] == 4
    assert fans("11224444557799m", "9m", opts={"cap_fan": 3})[1] == 3


def test_score_cli_contract(capsys):
    code = main(["score", "1234567m999m", "--win", "7m", "--variant", "sichuan", "--kong", "8m", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["fan"] == 3 and out["multiplier"] == 8
    code = main(["score", "1123345678999m", "--win", "2m", "--variant", "sichuan", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out == {"win": True, "fans": [{"name": "清一色", "fan": 2, "english": "one suit"}], "fan": 2,
                   "multiplier": 4}
    code = main(["score", "1123345678999m", "--win", "2m", "--variant", "sichuan", "--void", "m", "--json"])
    assert json.loads(capsys.readouterr().out) == {"win": False}
    code = main(["score", "1123345678999m", "--win", "2m", "--variant", "sichuan", "--liangdao"])
    assert code == 2
