"""Four friends at a 卡五星 table: who sits out the next hand under ``sit_out = winner`` (嬴家休息一轮)."""

from majiang.server import sitout
from scenario import act, discard, game_with

S0 = "11335p2468s6677z5z"  # 14 tiles: throws 5z
S1 = "123p456p789s11s55z"  # ready: waits 1s and 5z
S2_5Z = "234s567s678p999p5z"  # ready: waits 5z


def test_after_a_double_ron_the_first_winner_from_the_discarder_rests_and_the_discarder_deals():
    """"如有四人便是嬴家休息一轮" rests a winner: seat 2 deals and throws 5z, seats 0 and 1 both win on it.
    The first winner in turn from the discarder is seat 0; seat 2 lost and deals the next hand."""
    g = game_with("kawuxing", [S1, S2_5Z, S0], dealer=2)
    discard(g, 2, "5z")
    act(g, 0, "win", "5z")
    act(g, 1, "win", "5z")
    assert g.over and [(p.payer, p.payee, p.amount) for p in g.payments] == [(2, 0, 1), (2, 1, 1)]
    assert g.next_dealer() == 2  # 一炮双响: the discarder deals
    assert sitout.resting_winner(g) == 0
    assert sitout.rester("winner", 0, sitout.resting_winner(g)) == 0
    # the bench person takes the winner's seat; the discarder keeps its seat and deals
    seats = [{"player": p, "name": p.upper(), "bot": None} for p in "abc"]
    new, bench = sitout.swap(seats, {"player": "d", "name": "D"}, sitout.resting_winner(g))
    assert [s["name"] for s in new] == ["D", "B", "C"] and bench["name"] == "A"


def test_a_single_winner_rests_and_without_a_win_the_next_dealer_rests():
    g = game_with("kawuxing", [S0, S1, S2_5Z])
    discard(g, 0, "5z")
    act(g, 1, "pass")
    act(g, 2, "win", "5z")
    assert sitout.resting_winner(g) == 2 == g.next_dealer()
    g = game_with("kawuxing", [S0, S1, S2_5Z], dealer=0)
    assert not g.wins and sitout.resting_winner(g) == g.next_dealer() == 0
