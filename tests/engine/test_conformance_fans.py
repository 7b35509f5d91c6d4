"""One worked hand per fan of each game, settling real money (recorded into the conformance
corpus by ``tests/engine/conformance/record.py``, so both engines replay them)."""

import pytest

import fan_hands as f
from scenario import payments

K, S = "kawuxing", "sichuan"
NO_HEAVEN = {"heavenly_earthly": False}  # a win on the first go-around would be 地胡 otherwise


def ron_paid(amount):
    return [(0, 1, amount, "点炮")]


CASES = [  # (fan, how, arguments, options, payments)
    ("碰碰胡", f.ron, (K, "111p222p333s444s5z", "5z"), {}, ron_paid(2)),
    ("七对", f.ron, (K, "1122p3344s5566s7z", "7z"), {}, ron_paid(4)),
    ("龙七对", f.ron, (K, "1111p22p3344s55s7z", "7z"), {}, ron_paid(8)),
    ("双龙七对", f.ron, (K, "1111p2222p33s44s7z", "7z"), {}, ron_paid(16)),
    ("三龙七对", f.ron, (K, "1111p2222p3333s7z", "7z"), {}, ron_paid(32)),
    ("小三元", f.ron, (K, "555z666z77z123p45p", "6p"), {}, ron_paid(4)),
    ("大三元", f.ron, (K, "555z666z777z123p4p", "4p"), {}, ron_paid(8)),
    ("暗四归", f.ron, (K, "2222p34p567s888s9s", "9s"), {"sigui": "full"}, ron_paid(4)),
    ("明四归", f.pongs, (K, "222p34p567s888s9s7z", "2p", "9s", "7z"), {"sigui": "full"}, [(2, 1, 2, "点炮")]),
    ("手抓一", f.pongs, (K, "11p33p66s88s9s2p4p5z6z", "1p", "3p6s8s9s", "2p4p5z6z"), {}, [(2, 1, 8, "点炮")]),
    ("杠上开花", f.kong_bloom, (K, "1111p234p567s888s9s", "1p", "9s"), {},
     [(1, 0, 2, "暗杠"), (2, 0, 2, "暗杠"), (1, 0, 2, "自摸"), (2, 0, 2, "自摸")]),
    ("海底捞", f.last_tile, (K, "7z", "123p456p789s11s55z", "234s567s678p999p6z", "1s", 1), {},
     [(0, 1, 2, "自摸"), (2, 1, 2, "自摸")]),
    ("海底炮", f.last_tile, (K, "7z", "123p456p789s11s55z", "234s567s678p999p6z", "6z", 2), {"haidi": "both"},
     [(1, 2, 2, "点炮")]),
    ("清一色", f.ron, (S, "1112345678999p", "5p"), NO_HEAVEN, ron_paid(4)),
    ("七对", f.ron, (S, "1122p3344s5566s7s", "7s"), NO_HEAVEN, ron_paid(4)),
    ("幺九", f.ron, (S, "123p789p123s789s1s", "1s"), NO_HEAVEN, ron_paid(4)),
    ("清对", f.ron, (S, "111p222p444p666p9p", "9p"), NO_HEAVEN, ron_paid(8)),
    ("将对", f.ron, (S, "222p555p888s222s5s", "5s"), NO_HEAVEN, ron_paid(8)),
    ("龙七对", f.ron, (S, "1111p22p3344s55s6s", "6s"), NO_HEAVEN, ron_paid(16)),
    ("清七对", f.ron, (S, "1122334455667p", "7p"), NO_HEAVEN, ron_paid(16)),
    ("清幺九", f.ron, (S, "123p123p789p789p1p", "1p"), NO_HEAVEN, ron_paid(32)),  # and a 根: the fourth 1p
    ("清龙七对", f.ron, (S, "1111223344556p", "6p"), NO_HEAVEN, ron_paid(32)),
    ("金钩钓", f.pongs, (S, "11p33p44s66s9s2p5p7s8s", "1p", "3p4s6s9s", "2p5p7s8s"), NO_HEAVEN, [(2, 1, 4, "点炮")]),
    ("清金钩钓", f.pongs, (S, "11p33p44p66p9p2s5s7s8s", "1p", "3p4p6p9p", "2s5s7s8s"), NO_HEAVEN,
     [(2, 1, 16, "点炮")]),
    ("将金钩钓", f.pongs, (S, "22p55p88s22s5s1p3p7s9s", "2p", "5p8s2s5s", "1p3p7s9s"), NO_HEAVEN,
     [(2, 1, 16, "点炮")]),
    ("自摸加番", f.tsumo, (S, "1122p3344s5566s7s", "7s", "9m"), {**NO_HEAVEN, "self_draw_bonus": "fan"},
     [(0, 1, 8, "自摸"), (2, 1, 8, "自摸"), (3, 1, 8, "自摸")]),
    ("海底炮", f.last_tile, (S, "9m", "123p456p789p22p55s", "234s567s678s999s5p", "5p", 2),
     {**NO_HEAVEN, "haidi": True}, [(1, 2, 2, "点炮")]),
]


@pytest.mark.parametrize(("fan", "how", "args", "options", "paid"), CASES,
                         ids=[f"{c[2][0]}-{c[0]}" for c in CASES])
def test_a_fan_settles_as_worked(fan, how, args, options, paid):
    g = how(*args, **options)
    assert fan in f.fans(g)
    assert payments(g) == paid and sum(g.totals()) == 0
