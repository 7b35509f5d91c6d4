"""卡五星 engine: worked hands that settle real money, one per payment rule and option."""

import pytest

from majiang.core.errors import IllegalActionError
from scenario import act, discard, game_with, pass_all, payments

S0 = "11335p2468s6677z5z"   # dealer, 14 tiles
S1 = "123p456p789s11s55z"   # ready: waits 1s and 5z
S2 = "234s567s678p999p7z"   # ready: waits 7z
S2_5Z = "234s567s678p999p5z"  # ready: waits 5z


def legal_types(game, seat):
    return sorted({a.type for a in game.legal_actions(seat)})


def test_ron_discarder_pays_and_winner_deals():
    g = game_with("kawuxing", [S0, S1, S2])
    discard(g, 0, "5z")
    assert legal_types(g, 1) == ["pass", "pong", "win"]
    act(g, 1, "win", "5z")
    assert g.over and payments(g) == [(0, 1, 1, "点炮")]
    assert g.next_dealer() == 1
    assert sum(g.totals()) == 0


def test_self_draw_both_others_pay():
    g = game_with("kawuxing", [S0, S1, S2], draws="1s")
    discard(g, 0, "3p")
    act(g, 1, "win", "1s")
    assert payments(g) == [(0, 1, 1, "自摸"), (2, 1, 1, "自摸")]


def test_double_ron_each_paid_and_discarder_deals():
    g = game_with("kawuxing", [S0, S1, S2_5Z])
    discard(g, 0, "5z")
    act(g, 1, "win", "5z")
    act(g, 2, "win", "5z")
    assert payments(g) == [(0, 1, 1, "点炮"), (0, 2, 1, "点炮")]
    assert g.next_dealer() == 0  # 一炮双响: the discarder deals next
    assert g.tile_count() == 84


def test_liangdao_doubles_and_baohu():
    g = game_with("kawuxing", [S0, S1, S2], draws="2s8p9s")
    discard(g, 0, "3p")
    assert "declare" in legal_types(g, 1)
    act(g, 1, "declare", "2s")
    assert g.seats[1].declared
    obs = g.observation(0)
    assert obs["players"][1]["revealed"]["waits"] == ["1s", "5z"]
    assert "hand" not in obs["players"][1]
    discard(g, 2, "8p")
    discard(g, 0, "5z")
    act(g, 1, "win", "5z")
    # 亮倒 ×2; the undeclared discarder pays both shares (包胡)
    assert payments(g) == [(0, 1, 4, "包胡")]


@pytest.mark.parametrize("preset, paid", [("suizhou", 16), ("standard", 32)])
def test_baohu_under_the_cap_pays_both_capped_shares(preset, paid):
    """满 caps a win at 8 × base, but a 包胡 payer pays both shares ("B要按照A的糊牌大小赔2倍"): seat 1's declared
    清一色 × 卡五星 × 亮倒 = 16, 满 = 8 in ``suizhou``, so the undeclared dealer who discards 5p pays 2 × 8 = 16."""
    g = game_with("kawuxing", [S0, "123p456p789p4688p", S2], draws="2s3s4s", preset=preset)
    discard(g, 0, "3p")
    act(g, 1, "declare", "2s")
    discard(g, 2, "3s")
    discard(g, 0, "5p")
    act(g, 1, "win", "5p")
    assert payments(g) == [(0, 1, paid, "包胡")] and g.over


def test_declared_hand_is_frozen():
    g = game_with("kawuxing", [S0, S1, S2], draws="2s8p9s3s")
    discard(g, 0, "3p")
    act(g, 1, "declare", "2s")
    discard(g, 2, "8p")
    discard(g, 0, "9s")
    pass_all(g)
    # seat 1 draws 3s: it cannot win and may only discard what it drew
    assert [str(a) for a in g.legal_actions(1)] == ["discard 3s"]
    with pytest.raises(IllegalActionError):
        act(g, 1, "discard", "1p")


def test_concealed_kong_and_kong_chain_doubling():
    dealer = "8888s6666z123p5z77z"
    s1 = "123p456p789p11s55z"
    s2 = "234s234s567s999s7z"
    g = game_with("kawuxing", [dealer, s1, s2], replacements="9p2p")
    act(g, 0, "concealed_kong", "8s")
    assert payments(g) == [(1, 0, 2, "暗杠"), (2, 0, 2, "暗杠")]
    act(g, 0, "concealed_kong", "6z")  # 杠上杠: the second kong in the chain pays double
    assert payments(g)[2:] == [(1, 0, 4, "暗杠"), (2, 0, 4, "暗杠")]
    assert g.tile_count() == 84
    discard(g, 0, "9p")
    assert g.discard_chain == 2


def test_gang_shang_pao_keeps_kong_money():
    dealer = "8888s6666z123p5z77z"
    s1 = "123p456p789p11s55z"  # waits 1s, 5z
    s2 = "234s234s567s999s7z"
    g = game_with("kawuxing", [dealer, s1, s2], replacements="1s")
    act(g, 0, "concealed_kong", "8s")
    discard(g, 0, "5z")
    act(g, 1, "win", "5z")
    assert [f.name for f in g.wins[0].score.fans] == ["杠上炮"]
    assert payments(g) == [(1, 0, 2, "暗杠"), (2, 0, 2, "暗杠"), (0, 1, 2, "点炮")]


def test_direct_kong_pays_two_or_one():
    dealer = "11335p2468s6z777z5z"
    s2 = "234s567s678p9p666z"
    for pay in (2, 1):
        g = game_with("kawuxing", [dealer, S1, s2], direct_kong_pay=pay, replacements="1s")
        discard(g, 0, "6z")
        assert legal_types(g, 2) == ["kong", "pass", "pong"]
        act(g, 2, "kong", "6z")
        assert payments(g) == [(0, 2, pay, "直杠")]


def test_added_kong_only_when_the_fourth_is_drawn():
    dealer = "11335p2468s666z7z5z"
    s2 = "234s567s678p99p77z"
    for take_it in (True, False):
        g = game_with("kawuxing", [dealer, S1, s2], draws="3s4p7z9s2s", replacements="4s")
        discard(g, 0, "7z")
        act(g, 2, "pong", "7z")
        discard(g, 2, "9p")
        discard(g, 0, "3s")
        discard(g, 1, "4p")
        assert "added_kong" in legal_types(g, 2)
        if take_it:
            act(g, 2, "added_kong", "7z")
            assert payments(g) == [(0, 2, 1, "蓄杠"), (1, 2, 1, "蓄杠")]
        else:
            discard(g, 2, "7z")  # let it go: never again
            discard(g, 0, "9s")
            discard(g, 1, "2s")
            assert "added_kong" not in legal_types(g, 2)


def test_robbed_kong_pays_nothing():
    dealer = "11335p2468s666z9p5z"
    s1 = "123p456p78p111s55z"  # waits 6p, 9p
    s2 = "234s567s678s99p77z"
    g = game_with("kawuxing", [dealer, s1, s2], draws="3s4p9p", replacements="4s")
    discard(g, 0, "9p")
    assert legal_types(g, 1) == ["pass", "win"]
    act(g, 1, "pass")  # 漏胡 until seat 1 draws
    act(g, 2, "pong", "9p")
    discard(g, 2, "7z")
    discard(g, 0, "3s")
    discard(g, 1, "4p")
    act(g, 2, "added_kong", "9p")
    assert g.phase == "rob" and legal_types(g, 1) == ["pass", "win"]
    act(g, 1, "win", "9p")
    assert payments(g) == [(2, 1, 2, "抢杠")]  # 抢杠 ×2; the kong is void and pays nothing
    assert g.wins[0].robbed_kong and g.tile_count() == 84


@pytest.mark.parametrize("unless_more", [False, True])
def test_louhu(unless_more):
    s1 = "123p456p789s11s66z"  # waits 1s, 6z
    g = game_with("kawuxing", [S0, s1, S2_5Z], draws="5z8p", louhu_unless_more=unless_more)
    discard(g, 0, "5z")
    act(g, 2, "pass")  # seat 2 passes its win on 5z
    discard(g, 1, "5z")  # the same tile again before seat 2 draws: blocked (not worth more)
    assert g.phase == "turn" and g.current == 2
    discard(g, 2, "8p")
    assert g.seats[2].passed_win is None


def test_last_tile_must_be_discarded_and_last_discard_only_won():
    s2 = "234s567s678p99p33s"  # ready on 9p and 3s
    g = game_with("kawuxing", [S0, S1, s2], draws="3s", near_end=True)
    discard(g, 0, "3p")
    # seat 1 drew the last tile: it must discard that very tile, and may not kong
    assert [str(a) for a in g.legal_actions(1)] == ["discard 3s"]
    discard(g, 1, "3s")
    assert legal_types(g, 2) == ["pass", "win"]  # no pong on the last discard
    act(g, 2, "pass")
    assert g.over and g.result == "draw" and payments(g) == []


@pytest.mark.parametrize("mode, expected, dealer_next", [
    ("count", [(1, 0, 1, "亮倒荒庄"), (2, 0, 1, "亮倒荒庄")], 0),
    ("first", [(1, 0, 1, "亮倒荒庄"), (1, 2, 1, "亮倒荒庄")], 1),
    ("first_pays", [(1, 0, 1, "亮倒荒庄"), (1, 2, 1, "亮倒荒庄")], 0),
])
def test_draw_penalty_for_declared_hands(mode, expected, dealer_next):
    g = game_with("kawuxing", [S0, S1, S2], draws="2s8p9s", near_end=True, liangdao_draw_penalty=mode)
    discard(g, 0, "3p")
    act(g, 1, "declare", "2s")
    act(g, 2, "declare", "8p")
    discard(g, 0, "9s")
    assert g.over and g.result == "draw"
    assert payments(g) == expected
    assert g.next_dealer() == dealer_next


@pytest.mark.parametrize("preset, expected, dealer_next", [
    ("suizhou", [(1, 0, 1, "亮倒荒庄"), (1, 2, 1, "亮倒荒庄")], 0),
    ("xiangyang", [(1, 0, 1, "亮倒荒庄"), (1, 2, 1, "亮倒荒庄")], 1),
    ("standard", [(1, 0, 1, "亮倒荒庄"), (2, 0, 1, "亮倒荒庄")], 0),
])
def test_suizhou_first_declarer_pays_both_at_a_drawn_hand(preset, expected, dealer_next):
    """The 随州 rules: "如果黄桩，第一个亮倒的赔两家钱": seat 1 declared first, seat 2 after it; at the drawn
    hand seat 1 alone pays each of the two others one base (the amount the other texts give: "第一个亮倒的要赔
    每家1个"), and, the 随州 rules naming no new dealer, the dealer stays (襄阳: the payer deals next)."""
    g = game_with("kawuxing", [S0, S1, S2], draws="2s8p9s", near_end=True, preset=preset)
    discard(g, 0, "3p")
    act(g, 1, "declare", "2s")
    act(g, 2, "declare", "8p")
    discard(g, 0, "9s")
    assert g.over and g.result == "draw" and payments(g) == expected and sum(g.totals()) == 0
    assert g.next_dealer() == dealer_next


def test_one_declared_pays_each_undeclared_at_a_draw():
    g = game_with("kawuxing", [S0, S1, S2], draws="2s8p9s", near_end=True)
    discard(g, 0, "3p")
    act(g, 1, "declare", "2s")
    discard(g, 2, "8p")
    discard(g, 0, "9s")
    assert payments(g) == [(1, 0, 1, "亮倒荒庄"), (1, 2, 1, "亮倒荒庄")]


def test_kong_money_stands_at_a_draw():
    dealer = "8888s6666z123p5z77z"
    s1 = "123p456p789p11s55z"
    s2 = "234s234s567s999s7z"
    g = game_with("kawuxing", [dealer, s1, s2], draws="4p", replacements="9p", near_end=True)
    act(g, 0, "concealed_kong", "8s")
    discard(g, 0, "9p")
    discard(g, 1, "4p")
    assert g.over and g.result == "draw"
    assert payments(g) == [(1, 0, 2, "暗杠"), (2, 0, 2, "暗杠")]


def test_illegal_actions_leave_state_unchanged():
    g = game_with("kawuxing", [S0, S1, S2])
    before = (g.observation(0), list(g.events))
    for seat, action in [(1, {"type": "discard", "tile": "1p"}), (0, {"type": "discard", "tile": "9s"}),
                         (0, {"type": "pong", "tile": "1p"}), (0, {"type": "bogus"}), (7, {"type": "pass"}),
                         (0, {"tile": "1p"}), (0, {"type": "discard", "tile": "1m"}), (0, "junk")]:
        with pytest.raises(IllegalActionError):
            g.apply(seat, action)
        assert (g.observation(0), g.events) == before


@pytest.mark.parametrize("unless_more, can_win", [(False, False), (True, True)])
def test_louhu_unless_the_later_win_is_worth_more(unless_more, can_win):
    dealer = "11335p8p246s6677z5z"
    s2 = "2245667p999p789s"  # waits 8p (屁胡) and 5p (卡五星 ×2)
    g = game_with("kawuxing", [dealer, S1, s2], draws="5p", louhu_unless_more=unless_more)
    discard(g, 0, "8p")
    act(g, 2, "pass")
    discard(g, 1, "5p")
    assert ("win" in legal_types(g, 2)) == can_win


def test_piao_adds_both_floats():
    g = game_with("kawuxing", [S0, S1, S2], piao=2)
    discard(g, 0, "5z")
    act(g, 1, "win", "5z")
    assert payments(g) == [(0, 1, 1, "点炮"), (0, 1, 4, "漂")]


def test_maima_adds_the_horse():
    g = game_with("kawuxing", [S0, S1, S2], draws="1s7p", maima=True)
    discard(g, 0, "3p")
    act(g, 1, "win", "1s")
    assert payments(g) == [(0, 1, 1, "自摸"), (2, 1, 1, "自摸"), (0, 1, 7, "买马"), (2, 1, 7, "买马")]
    g = game_with("kawuxing", [S0, S1, S2], draws="1s7p")
    discard(g, 0, "3p")
    act(g, 1, "win", "1s")
    assert [p[3] for p in payments(g)] == ["自摸", "自摸"]


def test_shukan_counts_concealed_triplets_only():
    s1 = "123p456p999s11s55z"
    g = game_with("kawuxing", [S0, s1, S2], shukan=True)
    discard(g, 0, "5z")
    act(g, 1, "win", "5z")
    # 999s is a 坎; 555z was completed by the discard, so it is not
    assert payments(g) == [(0, 1, 1, "点炮"), (0, 1, 1, "数坎")]


@pytest.mark.parametrize("hide, shown", [(True, "123456p11s55z"), (False, "123456p11999s55z")])
def test_liangdao_hides_concealed_triplets(hide, shown):
    s1 = "123p456p999s11s55z"
    g = game_with("kawuxing", [S0, s1, S2], draws="2s", liangdao_hide_triplets=hide)
    discard(g, 0, "3p")
    act(g, 1, "declare", "2s")
    revealed = g.observation(2)["players"][1]["revealed"]
    assert revealed["tiles"] == shown and revealed["waits"] == ["1s", "5z"]


def test_suits_option_changes_the_tile_set():
    from majiang.bots import make_agent
    from majiang.core.hand import Hand
    from majiang.engine import Game
    from majiang.games.rules import rules_for
    from majiang.games.scoring import WinContext, score
    from majiang.play.runner import play_hand
    rules = rules_for("kawuxing", suits="ms")
    g = Game(rules, seed=1)
    assert {t.suit for t in g.variant.kinds} == {"m", "s", "z"} and g.variant.num_tiles == 84
    play_hand(g, [make_agent("greedy", s) for s in range(3)])
    assert g.tile_count() == 84 and sum(g.totals()) == 0
    s = score(Hand.parse("1112345678999m"), "1m", WinContext(), rules)
    assert {f.name for f in s.fans} == {"清一色", "暗四归"}


def test_declared_discarder_pays_an_ordinary_ron():
    g = game_with("kawuxing", [S0, S1, S2], draws="2s8p9s3s5z")
    discard(g, 0, "3p")
    act(g, 1, "declare", "2s")
    act(g, 2, "declare", "8p")
    discard(g, 0, "9s")
    discard(g, 1, "3s")  # frozen: the drawn tile goes out
    assert [str(a) for a in g.legal_actions(2)] == ["discard 5z"]
    discard(g, 2, "5z")
    act(g, 1, "win", "5z")
    assert payments(g) == [(2, 1, 2, "点炮")]  # 亮倒 ×2, no 包胡: the discarder had declared too


def test_match_dealer_rotation_and_totals():
    from majiang.bots import make_agent
    from majiang.games.rules import rules_for
    from majiang.play.match import Match
    m = Match(rules_for("kawuxing", rounds=6), seed=11)
    m.play([make_agent("greedy", s) for s in range(3)])
    assert len(m.hands) == 6 and sum(m.totals) == 0
    for prev, nxt in zip(m.hands, m.hands[1:]):
        assert nxt.dealer == prev.settlement["next_dealer"]
    assert m.summary()["totals"] == m.totals


def test_declared_hand_may_kong_a_drawn_fourth_that_keeps_the_waits():
    s1 = "123p456p999s11s55z"
    g = game_with("kawuxing", [S0, s1, S2], draws="2s8p3s9s", replacements="4p")
    discard(g, 0, "3p")
    act(g, 1, "declare", "2s")
    discard(g, 2, "8p")
    discard(g, 0, "3s")
    assert sorted(str(a) for a in g.legal_actions(1)) == ["concealed_kong 9s", "discard 9s"]
    act(g, 1, "concealed_kong", "9s")
    assert payments(g) == [(0, 1, 2, "暗杠"), (2, 1, 2, "暗杠")]


def test_base_scales_every_payment():
    g = game_with("kawuxing", [S0, S1, S2], base=3)
    discard(g, 0, "5z")
    act(g, 1, "win", "5z")
    assert payments(g) == [(0, 1, 3, "点炮")]


def test_louhu_after_a_pong_of_a_winnable_discard():
    """漏胡 (卡五星 rule text #44): a player who could win a discard and pongs it instead may not
    win another discard before drawing."""
    dealer = "135p2468s567z7z39s5s"
    s1 = "123p456p789p11s55s"  # wins 1s or 5s; pongs 5s instead and discards 9p: waits 6p/9p
    s2 = "2468p1379s56z246s"
    g = game_with("kawuxing", [dealer, s1, s2], draws="9p8s6p")
    discard(g, 0, "5s")
    assert legal_types(g, 1) == ["pass", "pong", "win"]
    act(g, 1, "pong", "5s")
    discard(g, 1, "9p")
    discard(g, 2, "9p")  # seat 2 drew 9p: seat 1 passed a win and has not drawn since
    assert g.phase == "turn" and g.current == 0 and payments(g) == []
    discard(g, 0, "8s")
    act(g, 1, "win", "6p")  # its own draw ends the 漏胡: 123 456 678p 11s + 555s, 屁胡
    assert payments(g) == [(0, 1, 1, "自摸"), (2, 1, 1, "自摸")]


@pytest.mark.parametrize("preset, paid", [("suizhou", 4), (None, 2)])
def test_gang_shang_pao_after_a_kong_chain(preset, paid):
    """随州: "杠上杠翻倍，放炮也翻": a discard after the second kong of a chain, won, is 杠上炮 ×4."""
    dealer = "8888s6666z123p5z77z"
    s1 = "123p456p789p11s55z"  # waits 1s, 5z
    s2 = "234s234s567s999s7z"
    g = game_with("kawuxing", [dealer, s1, s2], replacements="9p2p", preset=preset)
    act(g, 0, "concealed_kong", "8s")
    act(g, 0, "concealed_kong", "6z")
    discard(g, 0, "5z")
    act(g, 1, "win", "5z")
    assert payments(g) == [(1, 0, 2, "暗杠"), (2, 0, 2, "暗杠"), (1, 0, 4, "暗杠"), (2, 0, 4, "暗杠"),
                           (0, 1, paid, "点炮")]


@pytest.mark.parametrize("preset, opts, fourth", [("suizhou", {}, 8), ("suizhou", {"cap": None}, 16), (None, {}, 16)])
def test_man_caps_chained_kong_money(preset, opts, fourth):
    """随州: "第三杠满": the third 暗杠 of a chain (2 × 2 × 2) is 满 = 8; a fourth stays at 8."""
    dealer = "8888s6666z111p222p"
    s1 = "345p456p789p11s55z"
    s2 = "234s234s567s999s7z"
    g = game_with("kawuxing", [dealer, s1, s2], replacements="1p2p9p3s", preset=preset, **opts)
    for tile in ("8s", "1p", "2p", "6z"):
        act(g, 0, "concealed_kong", tile)
    assert [p[2] for p in payments(g)] == [2, 2, 4, 4, 8, 8, fourth, fourth]
    assert g.tile_count() == 84


def test_first_dealer_of_a_match_is_rolled_from_the_seed():
    """卡五星 rule text #8: "第一局随机确定庄家": two dice from the match seed, kept in the first start record."""
    from majiang.bots import make_agent
    from majiang.engine import first_dealer
    from majiang.engine.log import rebuild
    from majiang.games.rules import rules_for
    from majiang.play.match import Match
    assert first_dealer(0, 3) == (2, (1, 5)) and first_dealer(1, 3) == (0, (4, 6))
    assert {first_dealer(s, 3)[0] for s in range(20)} == {0, 1, 2}
    m = Match(rules_for("kawuxing", rounds=2), seed=0)
    assert (m.dealer, m.dealer_dice) == (2, (1, 5))
    m.play([make_agent("greedy", s) for s in range(3)], keep_records=True)
    start = m.hands[0].records[0]
    assert m.hands[0].dealer == 2 and start["dealer"] == 2 and start["dealer_dice"] == [1, 5]
    assert "dealer_dice" not in m.hands[1].records[0]
    replayed = rebuild(m.hands[0].records)  # the replay deals the same hand and settles the same money
    assert replayed.dealer == 2 and replayed.totals() == m.hands[0].totals and sum(replayed.totals()) == 0
    assert Match(rules_for("kawuxing"), seed=0, dealer=0).dealer == 0  # a caller may still choose


@pytest.mark.parametrize("preset, dealer, dice",
                         [("xiangyang", 0, None), ("suizhou", 2, (1, 5)), ("standard", 2, (1, 5))])
def test_xiangyang_first_dealer_sits_east(preset, dealer, dice):
    """The 襄阳 online-game rules: "第一局东风位坐庄": the first hand's dealer is the room's first seat, not rolled
    (the seed-0
    roll would seat 2); the other presets keep the dice. The dealer takes 14 tiles, and a self-draw by another
    seat has the dealer pay as any other."""
    from majiang.bots import make_agent
    from majiang.engine import first_dealer
    from majiang.games.rules import rules_for
    from majiang.play.match import Match
    rules = rules_for("kawuxing", preset, rounds=1)
    assert first_dealer(0, 3, rules) == (dealer, dice)
    m = Match(rules, seed=0)
    assert (m.dealer, m.dealer_dice) == (dealer, dice)
    m.play([make_agent("greedy", s) for s in range(3)], keep_records=True)
    start = m.hands[0].records[0]
    assert start["dealer"] == dealer and start.get("dealer_dice") == (list(dice) if dice else None)
    assert sum(m.hands[0].totals) == 0


@pytest.mark.parametrize("preset, sigui, each", [("suizhou", None, 4), ("suizhou", "half", 8), ("standard", None, 8)])
def test_a_kept_fourth_of_a_pong_is_no_minsigui_in_suizhou(preset, sigui, each):
    """The 随州 rules: "明杠必须当时就杠，过后不能杠，否则不算明四规". Seat 1 pongs 1p, draws the fourth 1p and
    keeps it instead of konging, then self-draws 9p: 清一色 (123 456 789 99p beside the pong). In 随州
    (``sigui = half_concealed``) that is ×4, 4 from each; with 半频道 (``half``, ``standard``) the kept
    fourth is a 明四归 in a 清一色, ×8: 8 from each (满 in 随州)."""
    opts = {"sigui": sigui} if sigui else {}
    g = game_with("kawuxing", ["1p22446688s3355s6z", "11p2345678p99p5z7z", "1133557799s6z8p2p"],
                  draws="4p4p1p4s4s9p", preset=preset, **opts)
    discard(g, 0, "1p")
    act(g, 1, "pong", "1p")
    discard(g, 1, "5z")
    pass_all(g)
    for seat in (2, 0):
        discard(g, seat, str(g.last_draw))
        pass_all(g)
    assert "added_kong" in legal_types(g, 1)
    discard(g, 1, "7z")  # the fourth 1p is kept, not konged
    pass_all(g)
    for seat in (2, 0):
        discard(g, seat, str(g.last_draw))
        pass_all(g)
    act(g, 1, "win", "9p")
    assert payments(g) == [(0, 1, each, "自摸"), (2, 1, each, "自摸")]
    assert ("明四归" in {f.name for f in g.wins[0].score.fans}) == (each == 8)


def test_a_kong_on_the_discard_after_anothers_kong_continues_the_chain():
    """卡五星's 杠上杠 spans players ("如果A杠后打出的牌被别人杠…第二杠要翻倍"), and so does its 杠上开花 (a choice,
    docs/RULES.md): the dealer's 暗杠 pays 2 each; it throws 1p, seat 1 直杠s it (the chain's second
    kong: 2 × 2 = 4 from the dealer) and wins on the replacement: 杠上杠开花 ×4, 4 from each. (血战
    counts only the winner's own kongs: test_gangshanghua_counts_only_the_winners_own_kongs.)"""
    g = game_with("kawuxing", ["8888s6s9s1p2345p6z77z", "111p456p789p11s55z", "234s234s567s999s7z"],
                  replacements="3s1s")
    act(g, 0, "concealed_kong", "8s")
    discard(g, 0, "1p")
    act(g, 1, "kong", "1p")
    act(g, 1, "win", "1s")
    assert payments(g) == [(1, 0, 2, "暗杠"), (2, 0, 2, "暗杠"), (0, 1, 4, "直杠"), (0, 1, 4, "自摸"),
                           (2, 1, 4, "自摸")]
    assert {f.name: f.value for f in g.wins[0].score.fans} == {"杠上开花": 4}
