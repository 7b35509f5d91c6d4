"""The bots' tuned parameters for 血战到底, per bot family (``majiang.bots`` reads them from the
game's declaration; measured as ``docs/BOTS-LAB.md`` tells)."""

from typing import Any

BOTS: dict[str, dict[str, Any]] = {
    # outlook: the model of the other seats, measured in `strong` self-play (200 hands).
    "outlook": {"liangdao": False, "declare_rate": 0.0, "live_future": 4.5, "value_declared": 1.8, "value_hidden": 1.8,
                "win_hidden": 0.04, "deal_in_hidden": 0.03, "feed_open": 1.0, "feed_hidden": 0.5,
                "feed_shown": 0.03, "ron_third": 0.0, "end_ready_share": 0.3, "end_unready_share": 0.7},
    # expert: what "auto" means, the best setting measured against strong: the outlook gains nothing
    # measurable (blood battle's later wins and 查大叫 are what its model reads worst) and the
    # discard search is the best measured.
    "expert": {"value": "strong", "search": "discard", "claims": "strong"},
    # strong: blood battle is a race (three of four players win most hands and each win takes from
    # everyone still playing), so the effective-tile count and safety weigh most and the value terms
    # only break ties; measured in the arena over duplicate deals, the Kawuxing weights lost to
    # greedy here. "kong": the cost of breaking a concealed triplet whose fourth is still live (a
    # kong is paid at once and adds a 根: +0.2 points/hand for the triplets over the same 600 deals,
    # +0.38 with the pongs). typical_value: the mean winning value in the arena.
    "strong": {"weights": {"effective": 2.0, "value": 0.3, "danger": 2.0, "kong": 60.0}, "typical_value": 1.7},
}
