"""The bots' tuned parameters for 卡五星, per bot family (``majiang.bots`` reads them from the
game's declaration; measured as ``docs/BOTS-LAB.md`` tells)."""

from typing import Any

BOTS: dict[str, dict[str, Any]] = {
    # outlook: the model of the other seats. Rates per round, measured in `strong` self-play (400
    # hands): an undeclared player declares within a round about 15% of the time, a declared one
    # wins about as often as its live waits are drawn, and a declared hand's win pays about 2.8 a payer.
    "outlook": {"liangdao": True, "declare_rate": 0.15, "live_future": 4.5, "value_declared": 2.8, "value_hidden": 2.0,
                "win_hidden": 0.01, "deal_in_hidden": 0.004, "feed_open": 1.0, "feed_hidden": 0.6,
                "feed_shown": 0.03, "ron_third": 0.0},
    # expert: what "auto" means, the best setting measured against strong: the outlook of the
    # seat's own draws gains, its pongs add a little and whole-deal search adds nothing on top.
    "expert": {"value": "outlook", "search": "none", "claims": "outlook"},
    # strong: the discard score's weights (one step of shanten = 100; value first) and the mean
    # winning value in the arena.
    "strong": {"weights": {"effective": 0.3, "value": 2.0, "danger": 0.5, "kong": 0.0}, "typical_value": 2.8},
}
