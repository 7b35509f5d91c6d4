"""Write ``worked_hands.jsonl``: the worked hands of the engine tests as data (the wall, the actions,
the expected money), replayed by ``tests/engine/test_conformance.py`` on the Python engine and by the Rust
crate's ``cargo test`` (``native/src/conformance.rs``).

    PYTHONPATH=src python tests/engine/conformance/record.py

Each hand is recorded from the scenario test that asserts its money, so a fixture holds what a test
has checked by hand; rerun this after adding a worked hand below.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# the helpers it records from: tests/engine/fan_hands.py and tests/scenario.py
sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parents[2])]

import fan_hands  # noqa: E402
import scenario  # noqa: E402
from majiang.core.tiles import ALL_TILES  # noqa: E402
from majiang.games.rules import rules_to_json  # noqa: E402
from majiang.native import config_of  # noqa: E402

OUT = Path(__file__).with_name("worked_hands.jsonl")


def worked_hands():
    """(test, its arguments): the five departures of issue 32 first (with issue 48's: 杠上炮/杠上花 count
    only the player's own kongs; 随州 counts no kept fourth of a pong), then classic worked hands, the payments not
    shown by those, and one
    hand per fan (``test_conformance_fans``)."""
    import test_conformance_fans as fans
    import test_engine_kawuxing as k
    import test_engine_sichuan as s
    return [
        (s.test_robbing_a_kong_adds_no_fan_in_chengdu, {"preset": "chengdu", "paid": 1}),
        (s.test_robbing_a_kong_adds_no_fan_in_chengdu, {"preset": "modern", "paid": 2}),
        (s.test_gangshanghua_counts_per_kong_of_the_chain, {"options": {}, "bonus": 4, "each": 64}),
        (s.test_gangshanghua_counts_per_kong_of_the_chain,
         {"options": {"gangshang_chain": False}, "bonus": 2, "each": 16}),
        (s.test_gangshangpao_counts_per_kong_of_the_chain, {"options": {}, "paid": 4}),
        (s.test_gangshangpao_counts_per_kong_of_the_chain, {"options": {"gangshang_chain": False}, "paid": 2}),
        (s.test_gangshangpao_counts_only_the_discarders_own_kongs, {}),
        (s.test_gangshanghua_counts_only_the_winners_own_kongs, {}),
        (k.test_a_kept_fourth_of_a_pong_is_no_minsigui_in_suizhou, {"preset": "suizhou", "sigui": None, "each": 4}),
        (k.test_a_kept_fourth_of_a_pong_is_no_minsigui_in_suizhou, {"preset": "suizhou", "sigui": "half", "each": 8}),
        (k.test_suizhou_first_declarer_pays_both_at_a_drawn_hand,
         {"preset": "suizhou", "expected": [(1, 0, 1, "亮倒荒庄"), (1, 2, 1, "亮倒荒庄")], "dealer_next": 0}),
        (k.test_suizhou_first_declarer_pays_both_at_a_drawn_hand,
         {"preset": "xiangyang", "expected": [(1, 0, 1, "亮倒荒庄"), (1, 2, 1, "亮倒荒庄")], "dealer_next": 1}),
        (k.test_baohu_under_the_cap_pays_both_capped_shares, {"preset": "suizhou", "paid": 16}),
        (k.test_baohu_under_the_cap_pays_both_capped_shares, {"preset": "standard", "paid": 32}),
        (k.test_ron_discarder_pays_and_winner_deals, {}),
        (k.test_self_draw_both_others_pay, {}),
        (k.test_double_ron_each_paid_and_discarder_deals, {}),
        (k.test_liangdao_doubles_and_baohu, {}),
        (k.test_robbed_kong_pays_nothing, {}),
        (k.test_gang_shang_pao_after_a_kong_chain, {"preset": "suizhou", "paid": 4}),
        (k.test_man_caps_chained_kong_money, {"preset": "suizhou", "opts": {}, "fourth": 8}),
        (s.test_multiple_ron_then_blood_battle_goes_on, {}),
        (s.test_gang_shang_pao_refund_or_transfer,
         {"transfer": False, "expected": [(0, 1, 2, "退杠"), (0, 2, 2, "退杠"), (0, 3, 2, "退杠")]}),
        (s.test_gang_shang_pao_refund_or_transfer, {"transfer": True, "expected": [(0, 1, 6, "呼叫转移")]}),
        (s.test_gang_shang_pao_won_by_two_moves_the_kong_money_once,
         {"transfer": False, "kong_money": [(0, 1, 2, "退杠"), (0, 2, 2, "退杠"), (0, 3, 2, "退杠")]}),
        (s.test_gang_shang_pao_won_by_two_moves_the_kong_money_once,
         {"transfer": True, "kong_money": [(0, 1, 6, "呼叫转移")]}),
        (k.test_a_kong_on_the_discard_after_anothers_kong_continues_the_chain, {}),
        (s.test_draw_settlement_pig_and_ready_hands, {"fine": 16}),
        (s.test_not_ready_kong_maker_refunds_at_the_draw, {}),
        (k.test_added_kong_only_when_the_fourth_is_drawn, {}),
        (k.test_direct_kong_pays_two_or_one, {}),
        (k.test_piao_adds_both_floats, {}),
        (k.test_maima_adds_the_horse, {}),
        (k.test_shukan_counts_concealed_triplets_only, {}),
        (s.test_direct_kong_paid_by_the_discarder, {"pay": 2}),
        (s.test_added_kong_made_at_once_collects_one_from_each, {"late": "none"}),
        (s.test_heavenly_hand_in_the_engine, {}),
        (s.test_earthly_hand_on_a_discard_in_the_first_go_around, {"options": {}, "paid": 32}),
        (s.test_no_haidi_in_chengdu, {"options": {"haidi": True}, "each": 2}),
    ] + [(fans.test_a_fan_settles_as_worked, dict(zip(("fan", "how", "args", "options", "paid"), case)))
         for case in fans.CASES]


def fixture(name: str, g) -> dict:
    return {
        "name": name,
        "rules": rules_to_json(g.rules),
        "config": [int(x) for x in config_of(g.rules)],  # the native encoding (checked against config_of)
        "dealer": g.dealer, "dice": list(g.dice), "front": getattr(g, "scripted_front", 0),
        "wall": [str(ALL_TILES[t]) for t in g.wall],
        "actions": [[seat, a.to_json()] for seat, a in g.actions],
        "expected": {
            "result": g.result, "totals": g.totals(),
            "payments": [[p.payer, p.payee, p.amount, p.reason] for p in g.payments],
            "wins": [[w.seat, w.score.multiplier] for w in g.wins],
            "fans": [[f.name for f in w.score.fans] for w in g.wins],
            "next_dealer": g.next_dealer() if g.over else None,
        },
    }


def record() -> list[dict]:
    out = []
    for test, kwargs in worked_hands():
        built = []
        modules = [sys.modules[test.__module__], fan_hands]  # wherever the test's games are dealt

        def recording(*args, **options):
            g = scenario.game_with(*args, **options)
            built.append(g)
            return g

        for module in modules:
            module.game_with = recording
        try:
            test(**kwargs)
        finally:
            for module in modules:
                module.game_with = scenario.game_with
        if "how" in kwargs:
            label = f"{kwargs['args'][0]}:{kwargs['fan']}"
        else:
            label = ",".join(f"{k}={v}" for k, v in kwargs.items()
                             if k in ("preset", "options", "transfer", "fine", "pay", "late", "sigui"))
        for i, g in enumerate(built):
            out.append(fixture(f"{test.__name__}[{label}]" + (f"#{i}" if len(built) > 1 else ""), g))
    return out


if __name__ == "__main__":
    lines = [json.dumps(f, ensure_ascii=False) for f in record()]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(lines)} hands)")
