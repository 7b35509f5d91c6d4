"""The conformance corpus (``tests/engine/conformance/*.jsonl``): worked hands as data — the rules, the
wall, the actions, the expected money — replayed on the Python engine here and on the Rust engine
by the crate's ``cargo test`` (``native/src/conformance.rs``, run by ``tests/native/test_native_crate.py``),
from the same files."""

import json
from pathlib import Path

import pytest

from majiang.core.tiles import Tile
from majiang.engine import Action, Game
from majiang.games import GAMES
from majiang.games.rules import rules_from_json

CORPUS = sorted((Path(__file__).parent / "conformance").glob("*.jsonl"))
HANDS = [json.loads(line) for path in CORPUS for line in path.read_text(encoding="utf-8").splitlines() if line]


def test_the_corpus_is_there():
    assert len(HANDS) >= 20 and len({h["name"] for h in HANDS}) == len(HANDS)


@pytest.mark.parametrize("hand", HANDS, ids=[h["name"] for h in HANDS])
def test_a_worked_hand_settles_as_recorded(hand):
    rules = rules_from_json(hand["rules"])
    g = Game(rules, seed="conformance", dealer=hand["dealer"], wall=[int(Tile.parse(t)) for t in hand["wall"]],
             dice=tuple(hand["dice"]))
    if hand["front"]:
        g.front = hand["front"]
    for seat, action in hand["actions"]:
        g.apply(seat, Action.from_json(action))
    expected = hand["expected"]
    assert [[p.payer, p.payee, p.amount, p.reason] for p in g.payments] == expected["payments"]
    assert g.totals() == expected["totals"] and g.result == expected["result"]
    assert [[w.seat, w.score.multiplier] for w in g.wins] == expected["wins"]
    assert [[f.name for f in w.score.fans] for w in g.wins] == expected["fans"]
    assert (g.next_dealer() if g.over else None) == expected["next_dealer"]


@pytest.mark.parametrize("hand", HANDS, ids=[h["name"] for h in HANDS])
def test_the_native_encoding_of_its_rules_is_current(hand):
    """The Rust side reads ``config`` (it has no presets): it must be what ``config_of`` makes now."""
    native = pytest.importorskip("majiang.native")
    assert [int(x) for x in native.config_of(rules_from_json(hand["rules"]))] == hand["config"]


@pytest.mark.parametrize("variant", ["kawuxing", "sichuan"])
def test_every_fan_and_every_payment_of_the_game_has_a_worked_hand(variant):
    """Each fan of the game's declared fan table and each payment its settlement can write is
    settled by at least one hand of the corpus (so both engines are held to it)."""
    hands = [h for h in HANDS if h["rules"]["variant"] == variant]
    fans = {name for h in hands for win in h["expected"]["fans"] for name in win}
    reasons = {p[3] for h in hands for p in h["expected"]["payments"]}
    game = GAMES[variant]
    assert sorted(set(game.fan_names) - fans) == [], "fans with no worked hand"
    assert sorted(set(game.payments) - reasons) == [], "payments with no worked hand"
    assert reasons <= set(game.payments), "payments the game does not declare"
