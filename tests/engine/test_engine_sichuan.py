"""四川 血战到底 engine: worked hands that settle real money, one per payment rule and option."""

import pytest

from majiang.core.errors import IllegalActionError
from scenario import act, discard, game_with, pass_all, payments

T0 = "1133557799m2458p"  # dealer, two suits (void s), not ready
T1 = "123m456m789m11p55p"  # ready: 1p, 5p (void s)
T2 = "234s567s678s999s5p"  # ready: 5p tanki (void m)
T3 = "111s222s333s444s6p"  # ready: 6p tanki (void m)


def auto_until(g, done):
    """Let every seat take its last legal action (a pass or a discard) until ``done()``."""
    while not done():
        seat = g.pending_seats()[0]
        g.apply(seat, g.legal_actions(seat)[-1])


def legal_types(game, seat):
    return sorted({a.type for a in game.legal_actions(seat)})


def test_voids_are_automatic_for_two_suit_hands():
    g = game_with("sichuan", [T0, T1, T2, T3])
    assert [s.void for s in g.seats] == ["s", "s", "m", "m"] and g.phase == "turn"


def test_multiple_ron_then_blood_battle_goes_on():
    g = game_with("sichuan", [T0, T1, T2, T3], draws="6p")
    discard(g, 0, "5p")
    act(g, 1, "win", "5p")
    act(g, 2, "win", "5p")
    assert payments(g) == [(0, 1, 1, "点炮"), (0, 2, 1, "点炮")]
    assert not g.over and [s.out for s in g.seats] == [False, True, True, False]
    # seat 3 draws next and self-draws 6p: only the players still in pay
    act(g, 3, "win", "6p")
    assert payments(g)[2:] == [(0, 3, 2, "自摸")]  # 111 222 333 444s 66p: 对对胡, 1 番
    assert g.over and g.next_dealer() == 0  # the first win was a multiple ron: the discarder deals
    assert sum(g.totals()) == 0 and g.tile_count() == 108


def test_standard_mode_one_win_ends_the_hand():
    g = game_with("sichuan", [T0, T1, T2, T3], blood_battle=False)
    discard(g, 0, "5p")
    act(g, 1, "win", "5p")
    act(g, 2, "pass")
    assert g.over and payments(g) == [(0, 1, 1, "点炮")] and g.next_dealer() == 1


def test_self_draw_bonus_base():
    g = game_with("sichuan", [T0, T1, T2, T3], draws="1p", self_draw_bonus="base", heavenly_earthly=False)
    discard(g, 0, "2p")
    act(g, 1, "win", "1p")
    assert payments(g) == [(0, 1, 2, "自摸"), (2, 1, 2, "自摸"), (3, 1, 2, "自摸")]
    # with 天胡/地胡 on (the default) the same win is 地胡: a non-dealer's first draw
    g = game_with("sichuan", [T0, T1, T2, T3], draws="1p")
    discard(g, 0, "2p")
    act(g, 1, "win", "1p")
    assert [f.name for f in g.wins[0].score.fans] == ["地胡"] and payments(g)[0] == (0, 1, 32, "自摸")


DEALER_KONG = "9999m113355m2458p"
T1K = "123m456m678m11p55p"


def test_kong_money_paid_by_players_still_in_and_not_when_off():
    g = game_with("sichuan", [DEALER_KONG, T1K, T2, T3], replacements="7m")
    act(g, 0, "concealed_kong", "9m")
    assert payments(g) == [(1, 0, 2, "暗杠"), (2, 0, 2, "暗杠"), (3, 0, 2, "暗杠")]
    g = game_with("sichuan", [DEALER_KONG, T1K, T2, T3], replacements="7m", kong_money=False)
    act(g, 0, "concealed_kong", "9m")
    assert payments(g) == []


def test_winner_takes_no_part_in_later_kong_money():
    g = game_with("sichuan", ["9999m113355m2458p", T1K, T2, T3], draws="1p7m", replacements="8m")
    discard(g, 0, "2p")
    act(g, 1, "win", "1p") if g.pending_seats() == [1] and "win" in legal_types(g, 1) else None
    assert g.seats[1].out
    discard(g, 2, "7m")
    pass_all(g)
    # seat 3 ... the dealer kongs on its next turn
    auto_until(g, lambda: g.current == 0 and g.phase == "turn")
    act(g, 0, "concealed_kong", "9m")
    kong = [p for p in payments(g) if p[3] == "暗杠"]
    assert {p[0] for p in kong} == {2, 3}


@pytest.mark.parametrize("transfer, expected", [
    (False, [(0, 1, 2, "退杠"), (0, 2, 2, "退杠"), (0, 3, 2, "退杠")]),
    (True, [(0, 1, 6, "呼叫转移")]),
])
def test_gang_shang_pao_refund_or_transfer(transfer, expected):
    g = game_with("sichuan", [DEALER_KONG, T1K, T2, T3], replacements="1p", call_transfer=transfer)
    act(g, 0, "concealed_kong", "9m")
    discard(g, 0, "5p")
    act(g, 1, "win", "5p")
    if g.phase == "claim":
        act(g, 2, "pass")
    pays = payments(g)
    assert pays[3] == (0, 1, 2, "点炮")  # 平胡 0 + 杠上炮 1 = 1 番 = 2
    assert pays[4:] == expected


@pytest.mark.parametrize("transfer, kong_money", [
    (False, [(0, 1, 2, "退杠"), (0, 2, 2, "退杠"), (0, 3, 2, "退杠")]),
    (True, [(0, 1, 6, "呼叫转移")]),
])
def test_gang_shang_pao_won_by_two_moves_the_kong_money_once(transfer, kong_money):
    """一炮多响 on the discard after a kong: each winner is paid its 杠上炮 (1 番 = 2), and the kong money
    moves once, settled with the first winner in turn from the discarder: refunded to its payers, or
    with 呼叫转移 ("将这个杠的收入转给杠上炮的和牌者") all 6 to seat 1, none to seat 2."""
    g = game_with("sichuan", [DEALER_KONG, T1K, T2, T3], replacements="1p", call_transfer=transfer)
    act(g, 0, "concealed_kong", "9m")
    discard(g, 0, "5p")
    act(g, 1, "win", "5p")
    act(g, 2, "win", "5p")
    assert payments(g)[3:] == [(0, 1, 2, "点炮")] + kong_money + [(0, 2, 2, "点炮")]
    assert sum(g.totals()) == 0


@pytest.mark.parametrize("fine", [16, 8])
def test_draw_settlement_pig_and_ready_hands(fine):
    pig = "111s222s333s4s12m6p"
    g = game_with("sichuan", [T0, T1, T2, pig], draws="9s", near_end=True, flower_pig_penalty=fine)
    assert g.phase == "void"
    act(g, 3, "void", suit="m")
    discard(g, 0, "2p")
    assert [str(a) for a in g.legal_actions(1)] == ["discard 9s"]  # holding its void suit
    discard(g, 1, "9s")
    assert g.over and g.result == "draw"
    assert payments(g) == [(3, 0, fine, "花猪"), (3, 1, fine, "花猪"), (3, 2, fine, "花猪"),
                           (0, 1, 1, "大叫"), (0, 2, 1, "大叫")]


def test_not_ready_kong_maker_refunds_at_the_draw():
    g = game_with("sichuan", [DEALER_KONG, T1K, T2, T3], draws="9s", replacements="7m", near_end=True)
    act(g, 0, "concealed_kong", "9m")
    discard(g, 0, "7m")
    discard(g, 1, "9s")
    pays = payments(g)
    assert pays[:3] == [(1, 0, 2, "暗杠"), (2, 0, 2, "暗杠"), (3, 0, 2, "暗杠")]
    assert (0, 1, 2, "退杠") in pays and (0, 2, 2, "退杠") in pays and (0, 3, 2, "退杠") in pays
    # 查大叫: each ready hand's best value; seat 3's 6p makes 对对胡 (1 番 = 2)
    assert sorted(p for p in pays if p[3] == "大叫") == [(0, 1, 1, "大叫"), (0, 2, 1, "大叫"), (0, 3, 2, "大叫")]


def test_last_four_tiles_must_win():
    """成都 platform rules:
    "当牌墙只剩下最后4张的时候…叫牌正好是这4张中的任意一张，那么当这张牌出现时，叫的玩家只能胡牌":
    only a win on one of those four tiles (drawn, or discarded as drawn) is forced."""
    g = game_with("sichuan", [T0, T1, "234s567s678s999s7p", T3], draws="8m7p1p9m", near_end=True,
                  heavenly_earthly=False)
    assert g.tiles_left == 4
    discard(g, 0, "5p")  # a tile dealt long before: the wins on it may still be passed
    assert legal_types(g, 1) == ["pass", "pong", "win"]
    pass_all(g)
    discard(g, 1, "8m")
    assert g.current == 2 and legal_types(g, 2) == ["win"]  # drew 7p, one of the last four
    act(g, 2, "win", "7p")
    discard(g, 3, "1p")  # the 1p it just drew: seat 1 (drew since its pass) must win it
    assert legal_types(g, 1) == ["win"]
    act(g, 1, "win", "1p")
    assert payments(g)[:4] == [(0, 2, 1, "自摸"), (1, 2, 1, "自摸"), (3, 2, 1, "自摸"), (3, 1, 1, "点炮")]
    g = game_with("sichuan", [T0, T1, "234s567s678s999s7p", T3], draws="8m7p1p9m", near_end=True,
                  heavenly_earthly=False, last_four_must_win=False)
    discard(g, 0, "5p")
    pass_all(g)
    discard(g, 1, "8m")
    assert legal_types(g, 2) == ["discard", "win"]


def test_pass_win_blocks_same_value_until_own_draw():
    t3 = "111s222s333s444s5p"  # also waits 5p
    g = game_with("sichuan", [T0, "123m456m789m11p66p", T2, t3], draws="5p1m")
    discard(g, 0, "5p")
    act(g, 2, "pass")
    act(g, 3, "win", "5p")
    # seat 0 (next after the winner) draws 5p and discards it: seat 2 passed a 平胡 on 5p and
    # has not drawn since, so it may not win it now
    discard(g, 0, "5p")
    assert g.phase == "turn" and g.current == 1


def test_void_suit_rules():
    g = game_with("sichuan", [T0, T1, T2, "111s222s333s4s12m6p"], draws="4s")
    act(g, 3, "void", suit="m")
    discard(g, 0, "2p")
    discard(g, 1, "4s")
    # seat 2 drew 4s... seat 3 may not pong its void suit and must discard void tiles first
    auto_until(g, lambda: g.current == 3 and g.phase == "turn")
    assert {str(a.tile) for a in g.legal_actions(3) if a.type == "discard"} <= {"1m", "2m"}
    with pytest.raises(IllegalActionError):
        act(g, 3, "discard", "6p")


def test_exchange_three_moves_tiles_by_dice():
    g = game_with("sichuan", ["11122233344456m", "123m456p789s77p99p", "111p222p333p444s5s", "555s666s777s888p9p"],
                  preset="modern")
    assert g.phase == "exchange"
    before = [list(s.counts) for s in g.seats]
    picks = {0: "111m", 1: "123m", 2: "111p", 3: "555s"}
    from majiang.core.tiles import parse_tiles
    from majiang.engine import Action
    for s, t in picks.items():
        g.apply(s, Action("exchange", tiles=tuple(parse_tiles(t))))
    step = 2 if sum(g.dice) in (6, 12) else (1 if sum(g.dice) % 2 else 3)
    for s, t in picks.items():
        to = (s + step) % 4
        for tile in parse_tiles(t):
            before[s][tile] -= 1
            before[to][tile] += 1
    assert [list(s.counts) for s in g.seats] == before
    assert g.phase in ("void", "turn")


def test_blood_river_winners_play_on_and_win_again():
    g = game_with("sichuan", [T0, T1, T2, T3], draws="6p9s", blood_river=True)
    discard(g, 0, "5p")
    act(g, 1, "win", "5p")
    act(g, 2, "win", "5p")
    assert [s.out for s in g.seats] == [False] * 4 and not g.over
    assert [str(t) for t in g.seats[1].won_tiles] == ["5p"] and g.tile_count() == 108
    act(g, 3, "win", "6p")  # seat 3 self-draws; everyone else pays, winners included
    assert payments(g)[2:] == [(0, 3, 2, "自摸"), (1, 3, 2, "自摸"), (2, 3, 2, "自摸")]
    assert g.tile_count() == 108 and sum(g.totals()) == 0
    # seat 0 draws 9s... and play goes on; seat 1 still waits on 1p/5p and may win again
    assert g.current == 0 and not g.over


def test_sing_and_dance():
    g = game_with("sichuan", [T0, T1, T2, T3], draws="9s6s1p", sing_dance=True)
    discard(g, 0, "2p")
    # seat 1 drew 9s (its void suit): discarding it leaves the hand ready, so it may sing or dance
    assert {a.type for a in g.legal_actions(1)} >= {"sing", "declare"}
    act(g, 1, "declare", "9s")  # 跳舞: waits 1p, 5p revealed
    assert g.observation(0)["players"][1]["revealed"] == {"waits": ["1p", "5p"]}
    auto_until(g, lambda: g.current == 0 and g.phase == "turn")
    # seat 0 holds 5p, a dancer's winning tile: it may not discard it while it has other tiles
    assert "discard 5p" not in [str(a) for a in g.legal_actions(0)]
    with pytest.raises(IllegalActionError):
        act(g, 0, "discard", "5p")


def test_singer_waits_stay_hidden():
    g = game_with("sichuan", [T0, T1, T2, T3], draws="9s", sing_dance=True)
    discard(g, 0, "2p")
    act(g, 1, "sing", "9s")
    assert g.observation(0)["players"][1]["revealed"] == {"ready": True}
    assert g.seats[1].declared


def test_heavenly_hand_in_the_engine():
    dealer = "11122233344455m"
    g = game_with("sichuan", [dealer, "123p456p789p22p55s", "234s567s678s999s5p", "111s222s333s444p6p"],
                  heavenly_earthly=True)
    assert "win" in legal_types(g, 0)
    act(g, 0, "win", "5m")
    assert [f.name for f in g.wins[0].score.fans] == ["天胡"]
    assert payments(g) == [(1, 0, 32, "自摸"), (2, 0, 32, "自摸"), (3, 0, 32, "自摸")]


@pytest.mark.parametrize("pay", [2, 1])
def test_direct_kong_paid_by_the_discarder(pay):
    g = game_with("sichuan", [T0, T1, T2, "111s222s333s4s888p"], replacements="9s", direct_kong_pay=pay)
    discard(g, 0, "8p")
    assert legal_types(g, 3) == ["kong", "pass", "pong"]
    act(g, 3, "kong", "8p")
    assert payments(g) == [(0, 3, pay, "点杠")]


def test_base_scales_every_payment():
    g = game_with("sichuan", [T0, T1, T2, T3], base=5, blood_battle=False)
    discard(g, 0, "5p")
    act(g, 1, "win", "5p")
    act(g, 2, "pass")
    assert payments(g) == [(0, 1, 5, "点炮")]


@pytest.mark.parametrize("unless_more, can_win", [(True, True), (False, False)])
def test_pass_win_allows_a_bigger_win_only_with_the_option(unless_more, can_win):
    dealer = "2m456p789p123p5566p"
    s1 = "234s567s678s999s5p"
    s2 = "1112345678999m"  # 2m: 清一色 (2 番); 1m: 清一色 + 根 (3 番)
    s3 = "111s222s333s444s6p"
    g = game_with("sichuan", [dealer, s1, s2, s3], draws="1m", pass_win_unless_more=unless_more)
    discard(g, 0, "2m")
    act(g, 2, "pass")
    discard(g, 1, "1m")  # seat 1 holds its void suit: the 1m must go
    assert ("win" in legal_types(g, 2)) == can_win


def test_pass_win_also_after_a_pong_of_a_winnable_discard():
    """过水不胡 (成都 platform rules): a pong of a discard one could win passes that win."""
    dealer = "123456789s2468p5p"  # void m
    s1 = "123m456m789m11p55p"  # wins 1p or 5p; pongs 5p and discards 9m: waits 6m/9m
    s2 = "13579s13579m246s"
    s3 = "2468m2468s13579s"
    g = game_with("sichuan", [dealer, s1, s2, s3], draws="9m9p2p6m")
    discard(g, 0, "5p")
    assert legal_types(g, 1) == ["pass", "pong", "win"]
    act(g, 1, "pong", "5p")
    discard(g, 1, "9m")
    discard(g, 2, "9m")  # a 平胡 again, not worth more: seat 1 may not win it before its draw
    assert g.phase == "turn" and g.current == 3
    discard(g, 3, "9p")
    discard(g, 0, "2p")
    act(g, 1, "win", "6m")
    assert payments(g) == [(0, 1, 1, "自摸"), (2, 1, 1, "自摸"), (3, 1, 1, "自摸")]


@pytest.mark.parametrize("cap_fan, unless_more, paid", [(3, True, 8), (None, True, 16), (3, False, None)])
def test_pass_win_compares_values_before_the_cap(cap_fan, unless_more, paid):
    """过水: "番数增加" compares 番 before the cap: a passed 3 番 then a 4 番 win under a 3 番 cap."""
    dealer = "123456789s135s2s8p"  # void m
    s1 = "123456789s246s7p"  # void m
    s2 = "778899m1179999p"  # 8p: 幺九 + 根 = 3 番; 7p: 龙七对 = 4 番
    s3 = "13579m2468m1356p"
    g = game_with("sichuan", [dealer, s1, s2, s3], draws="5s", cap_fan=cap_fan, pass_win_unless_more=unless_more)
    discard(g, 0, "8p")
    assert g.pending_seats() == [2]
    act(g, 2, "pass")
    discard(g, 1, "7p")
    if paid is None:
        assert g.phase == "turn" and g.current == 2
        return
    act(g, 2, "win", "7p")
    assert payments(g) == [(1, 2, paid, "点炮")]


PONG_DEALER = "123456789s2468p5p"  # void m
PONG_S1 = "123m456m789m55p23p"  # pongs 5p, discards 2p
PONG_S2 = "13579s13579m246s"  # void p
PONG_S3 = "2468m2468s13579s"  # void p


def _pong_then_draw_the_fourth(late: str, draws: str):
    g = game_with("sichuan", [PONG_DEALER, PONG_S1, PONG_S2, PONG_S3], draws=draws, replacements="7p",
                  late_added_kong=late)
    discard(g, 0, "5p")
    act(g, 1, "pong", "5p")
    discard(g, 1, "2p")
    for seat in (2, 3, 0):
        discard(g, seat, str(g.last_draw))
    assert str(g.last_draw) == "5p" and g.current == 1
    return g


@pytest.mark.parametrize("late", ["none", "collect", "forbid"])
def test_added_kong_made_at_once_collects_one_from_each(late):
    g = _pong_then_draw_the_fourth(late, "9s8m6p5p")
    act(g, 1, "added_kong", "5p")
    assert payments(g) == [(0, 1, 1, "加杠"), (2, 1, 1, "加杠"), (3, 1, 1, "加杠")]


@pytest.mark.parametrize("late, paid", [("none", []),
                                        ("collect", [(0, 1, 1, "加杠"), (2, 1, 1, "加杠"), (3, 1, 1, "加杠")]),
                                        ("forbid", None)])
def test_added_kong_made_later_by_the_option(late, paid):
    """成都 platform rules: "摸牌加杠…收取…每家一底，未即时加杠的不收取分数"."""
    g = _pong_then_draw_the_fourth(late, "9s8m6p5p7m2m8p4p")
    discard(g, 1, "3p")  # keeps the fourth 5p
    for seat in (2, 3, 0):
        discard(g, seat, str(g.last_draw))
    assert str(g.last_draw) == "4p" and g.current == 1
    if paid is None:
        assert "added_kong" not in legal_types(g, 1)
        return
    act(g, 1, "added_kong", "5p")
    assert payments(g) == paid and g.kongs[-1].kind == "added_kong" and str(g.last_draw) == "7p"


@pytest.mark.parametrize("options, paid", [({}, 32), ({"earthly": "first_draw"}, 1), ({"heavenly_earthly": False}, 1)])
def test_earthly_hand_on_a_discard_in_the_first_go_around(options, paid):
    """成都 platform rules' 地胡: "闲家在第一次摸完牌后，就下叫，并在第一轮摸牌后胡牌" — seat 1 drew once and is
    ready; seat 2's discard in the same go-around is 地胡 (5 番) with ``earthly = first_round``."""
    g = game_with("sichuan", [T0, T1, T2, T3], draws="8m1p", **options)
    discard(g, 0, "2p")
    discard(g, 1, "8m")
    discard(g, 2, "1p")
    act(g, 1, "win", "1p")
    assert payments(g) == [(2, 1, paid, "点炮")]


def test_no_earthly_hand_once_the_dealer_draws_again():
    g = game_with("sichuan", [T0, T1, "234s567s678s999s6p", T3], draws="8m7p9p1p")
    discard(g, 0, "2p")
    discard(g, 1, "8m")
    for seat in (2, 3, 0):  # the first go-around ends when the dealer draws (1p) again
        discard(g, seat, str(g.last_draw))
    act(g, 1, "win", "1p")
    assert payments(g) == [(0, 1, 1, "点炮")]


@pytest.mark.parametrize("options, each", [({}, 1), ({"haidi": True}, 2)])
def test_no_haidi_in_chengdu(options, each):
    """The 成都 platform rules list no 海底: a self-draw on the last tile is a plain win in ``chengdu``."""
    g = game_with("sichuan", [T0, T1, T2, T3], draws="1p", near_end=True, heavenly_earthly=False, **options)
    discard(g, 0, "2p")
    assert g.tiles_left == 0 and legal_types(g, 1) == ["win"]
    act(g, 1, "win", "1p")
    assert payments(g)[:3] == [(0, 1, each, "自摸"), (2, 1, each, "自摸"), (3, 1, each, "自摸")]


def test_new_options_refuse_bad_values():
    from majiang.core.errors import RulesError
    from majiang.games.rules import rules_for
    with pytest.raises(RulesError, match="late_added_kong"):
        rules_for("sichuan", late_added_kong="later")
    with pytest.raises(RulesError, match="earthly"):
        rules_for("sichuan", earthly="first")
    with pytest.raises(RulesError, match="gangshangpao_chain"):
        rules_for("kawuxing", gangshangpao_chain="maybe")
    assert rules_for("kawuxing", "suizhou").cap == 8 and rules_for("kawuxing", "suizhou", cap=16).cap == 16


ROBBER = "123m456m789m46p99p"  # waits 5p only: 456p + 99p (void s)


@pytest.mark.parametrize("preset, paid", [("chengdu", 1), ("modern", 2)])
def test_robbing_a_kong_adds_no_fan_in_chengdu(preset, paid):
    """The 成都 texts allow robbing a 加杠 ("玩家面下杠时，他家可以抢杠而胡，刮风下雨无效") and list no 番 for it:
    in ``chengdu`` a 平胡 on the robbed 5p is 0 番 (1 base); ``modern`` adds the apps' +1 番 (2). The kong is
    void and pays nothing."""
    g = game_with("sichuan", [PONG_DEALER, PONG_S1, ROBBER, PONG_S3], draws="9s8m6p5p", replacements="7p",
                  preset=preset, exchange_three=False)
    discard(g, 0, "5p")
    act(g, 2, "pass")  # seat 2 could win on it; it waits for the fourth
    act(g, 1, "pong", "5p")
    discard(g, 1, "2p")
    for seat in (2, 3, 0):
        discard(g, seat, str(g.last_draw))
    act(g, 1, "added_kong", "5p")
    assert g.phase == "rob"
    act(g, 2, "win", "5p")
    assert payments(g) == [(1, 2, paid, "抢杠")]
    assert [f.name for f in g.wins[0].score.fans] == (["平胡"] if preset == "chengdu" else ["抢杠"])


KONG_CHAIN_DEALER = "9999m8888m123p456p"  # two concealed kongs, then 123p 456p + the two replacements
KONG_CHAIN_S1 = "123m456m567m11p55p"  # waits 1p and 5p
KONG_CHAIN_S2 = "234s567s678s999s6p"
KONG_CHAIN_S3 = "111s222s333s444s6p"


@pytest.mark.parametrize("options, bonus, each", [({}, 4, 64), ({"gangshang_chain": False}, 2, 16)])
def test_gangshanghua_counts_per_kong_of_the_chain(options, bonus, each):
    """The 成都 platform table: "杠上花（每杠＋2翻）": the dealer konges 9m, then 8m on the replacement, and wins on
    the second replacement: 根 ×2 + 杠上花 2 × 2 kongs = 6 番 = 64 from each; with the flat bonus 4 番 = 16."""
    g = game_with("sichuan", [KONG_CHAIN_DEALER, KONG_CHAIN_S1, KONG_CHAIN_S2, KONG_CHAIN_S3],
                  replacements="7p7p", **options)
    act(g, 0, "concealed_kong", "9m")
    act(g, 0, "concealed_kong", "8m")
    act(g, 0, "win", "7p")
    assert payments(g)[6:] == [(1, 0, each, "自摸"), (2, 0, each, "自摸"), (3, 0, each, "自摸")]
    assert {f.name: f.value for f in g.wins[0].score.fans} == {"根": 2, "杠上花": bonus}
    assert sum(g.totals()) == 0


@pytest.mark.parametrize("options, paid", [({}, 4), ({"gangshang_chain": False}, 2)])
def test_gangshangpao_counts_per_kong_of_the_chain(options, paid):
    """The 成都 platform table: "杠上炮（每杠＋1翻）": the dealer's discard after two chained kongs is won by seat 1,
    a 平胡: 杠上炮 1 × 2 kongs = 2 番 = 4; with the flat bonus 1 番 = 2. The last kong's money is refunded."""
    g = game_with("sichuan", [KONG_CHAIN_DEALER, KONG_CHAIN_S1, KONG_CHAIN_S2, KONG_CHAIN_S3],
                  replacements="7p5p", **options)
    act(g, 0, "concealed_kong", "9m")
    act(g, 0, "concealed_kong", "8m")
    discard(g, 0, "5p")
    act(g, 1, "win", "5p")
    assert payments(g)[6:] == [(0, 1, paid, "点炮"), (0, 1, 2, "退杠"), (0, 2, 2, "退杠"), (0, 3, 2, "退杠")]
    assert sum(g.totals()) == 0


CROSS_KONG_DEALER = "237889999m15678s"  # 9999m to kong, then 1s thrown (void p)
# seat 3 (KONG_CHAIN_S3) holds 111s: it 直杠s the dealer's 1s; seat 1 (KONG_CHAIN_S1) waits 1p and 5p


def test_gangshangpao_counts_only_the_discarders_own_kongs():
    """The 成都 platform table: "杠上炮（每杠＋1翻）… 玩家在杠牌时，先杠一张牌，再打掉一张牌": the chain is the
    discarder's own kongs. The dealer konges 9m and throws 1s; seat 3 直杠s it and throws its replacement
    5p, which seat 1 wins: seat 3 made one kong, so 平胡 + 杠上炮 1 = 1 番 = 2 (not 4: the dealer's kong
    is not seat 3's). Seat 3's kong money (the dealer's 2) is refunded."""
    g = game_with("sichuan", [CROSS_KONG_DEALER, KONG_CHAIN_S1, KONG_CHAIN_S2, KONG_CHAIN_S3],
                  replacements="4m5p")
    act(g, 0, "concealed_kong", "9m")
    discard(g, 0, "1s")
    act(g, 3, "kong", "1s")
    discard(g, 3, "5p")
    act(g, 1, "win", "5p")
    pass_all(g)
    assert payments(g)[3:] == [(0, 3, 2, "点杠"), (3, 1, 2, "点炮"), (3, 0, 2, "退杠")]
    assert {f.name: f.value for f in g.wins[0].score.fans} == {"杠上炮": 1}
    assert sum(g.totals()) == 0


def test_gangshanghua_counts_only_the_winners_own_kongs():
    """The 成都 platform table: "杠上花（每杠＋2翻）": the chain is the winner's own kongs. The dealer konges 9m
    and throws 1s; seat 3 直杠s it and wins on the replacement 6p: 111s(kong) 222s 333s 444s 66p, 对对胡 1 +
    根 1 + 杠上花 2 for its one kong = 4 番 = 16 from each player still in (not 6 番 = 64)."""
    g = game_with("sichuan", [CROSS_KONG_DEALER, KONG_CHAIN_S1, KONG_CHAIN_S2, KONG_CHAIN_S3],
                  replacements="4m6p")
    act(g, 0, "concealed_kong", "9m")
    discard(g, 0, "1s")
    act(g, 3, "kong", "1s")
    act(g, 3, "win", "6p")
    assert payments(g)[4:] == [(0, 3, 16, "自摸"), (1, 3, 16, "自摸"), (2, 3, 16, "自摸")]
    assert {f.name: f.value for f in g.wins[0].score.fans} == {"对对胡": 1, "根": 1, "杠上花": 2}
    assert sum(g.totals()) == 0
