"""The observation a bot sees: its JSON Schema (src/majiang/data/observation.schema.json), checked
against real observations of both games in every phase, and its account of the visible tiles."""

import json
import os
import sys
from importlib import resources

import pytest

from majiang.bots import GreedyAgent, RandomAgent
from majiang.core.hand import MeldKind
from majiang.core.tiles import Tile, parse_tiles
from majiang.engine import Game
from majiang.games import GAMES
from majiang.games.rules import rules_for
from majiang.play.runner import play_hand
from scenario import Eager, act, discard, game_with

jsonschema = pytest.importorskip("jsonschema")

HERE = os.path.dirname(__file__)
ROOT = os.path.join(HERE, "..", "..")
PROGRAMS = os.path.join(HERE, "..", "bot_programs")  # the external bots the tests run
SCHEMA = json.loads(resources.files("majiang").joinpath("data/observation.schema.json").read_text("utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
TOTAL = {"kawuxing": 84, "sichuan": 108}

CONFIGS = [(v, p, {}) for v in GAMES for p in GAMES[v].presets] + [
    ("sichuan", None, {"blood_river": True}), ("sichuan", None, {"sing_dance": True}),
    ("sichuan", None, {"exchange_three": True}), ("sichuan", None, {"blood_battle": False}),
    ("kawuxing", None, {"liangdao_hide_triplets": False})]


_MESSAGE_VALIDATORS: dict = {}


def _message(name: str, msg: dict) -> None:
    if name not in _MESSAGE_VALIDATORS:
        _MESSAGE_VALIDATORS[name] = jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}",
                                                                     "$defs": SCHEMA["$defs"]})
    _MESSAGE_VALIDATORS[name].validate(msg)


def check_visible(g: Game, seat: int, obs: dict) -> None:
    """Visible + wall + every player's hidden tiles make the whole set, kind by kind and in all."""
    vis = obs["visible"]
    assert set(vis) == {str(k) for k in g.variant.kinds}
    assert all(0 <= c <= 4 for c in vis.values())
    hidden_total = sum(p["hidden"] for p in obs["players"])
    assert sum(vis.values()) + obs["tiles_left"] + hidden_total == TOTAL[g.play.name]
    # the same from the engine's side: where every tile the seat cannot see really is
    unseen = [0] * 30
    for t in g.wall[g.front:g.back]:
        unseen[t] += 1
    for s in range(g.n):
        if s == seat or g.over:
            assert obs["players"][s]["hidden"] == 0
            continue
        hand = list(g.seats[s].counts)
        revealed = obs["players"][s].get("revealed", {}).get("tiles")
        for t in parse_tiles(revealed or ""):
            hand[t] -= 1
        if g.seats[s].out and sum(g.seats[s].counts) % 3 == 2:  # holds its (public) winning tile
            hand[[w for w in g.wins if w.seat == s][-1].tile] -= 1
        for m in g.seats[s].melds:
            if m.kind is MeldKind.CONCEALED_KONG:
                unseen[m.tile] += 4
        for k, c in enumerate(hand):
            assert c >= 0
            unseen[k] += c
        assert obs["players"][s]["hidden"] == sum(hand) + 4 * sum(
            m.kind is MeldKind.CONCEALED_KONG for m in g.seats[s].melds)
    for k in g.variant.kinds:
        assert vis[str(k)] + unseen[k] == 4, (str(k), vis[str(k)], unseen[k])


def _observe_all(g: Game, phases: set, last_seen: dict) -> None:
    # the tile account of every seat after every action; the schema for the seats about to act
    # (and for everyone in a phase not yet seen, and at the end)
    for seat in range(g.n):
        obs = g.observation(seat)
        if seat in g.pending or obs["phase"] not in phases or g.over:
            VALIDATOR.validate(obs)
        check_visible(g, seat, obs)
        total = sum(obs["visible"].values())
        assert total >= last_seen.get(seat, 0)  # nothing seen is ever unseen again
        last_seen[seat] = total
        phases.add(obs["phase"])
    if g.over:
        VALIDATOR.validate(g.observation(None))


@pytest.mark.parametrize("variant,preset,options", CONFIGS)
def test_observations_match_the_schema_and_account_for_every_tile(variant, preset, options):
    phases: set = set()
    for i in range(2):
        g = Game(rules_for(variant, preset, **options), seed="schema", hand_index=i)
        agents = [GreedyAgent(s) if (i + s) % 2 else RandomAgent(s) for s in range(g.n)]
        last_seen: dict = {}
        play_hand(g, agents, check=lambda game: _observe_all(game, phases, last_seen))
    expected = {"turn", "claim", "over"}
    if variant == "sichuan":
        expected.add("void")
        if options.get("exchange_three") or rules_for(variant, preset).exchange_three:
            expected.add("exchange")
    assert expected <= phases


def test_the_first_observations_and_the_rob_phase_match_the_schema():
    g = Game(rules_for("sichuan", exchange_three=True), seed=5)
    assert g.phase == "exchange"
    for seat in range(4):
        VALIDATOR.validate(g.observation(seat))
        check_visible(g, seat, g.observation(seat))
    # robbing a kong (tests/engine/test_engine_kawuxing.py::test_robbed_kong_pays_nothing)
    g = game_with("kawuxing", ["11335p2468s666z9p5z", "123p456p78p111s55z", "234s567s678s99p77z"],
                  draws="3s4p9p", replacements="4s")
    discard(g, 0, "9p")
    act(g, 1, "pass")
    act(g, 2, "pong", "9p")
    discard(g, 2, "7z")
    discard(g, 0, "3s")
    discard(g, 1, "4p")
    act(g, 2, "added_kong", "9p")
    assert g.phase == "rob"
    for seat in range(3):
        VALIDATOR.validate(g.observation(seat))
        check_visible(g, seat, g.observation(seat))
    act(g, 1, "win", "9p")
    for seat in range(3):
        VALIDATOR.validate(g.observation(seat))
        check_visible(g, seat, g.observation(seat))


def test_a_tile_won_on_a_discard_stays_visible():
    # issue 19.4: 0 discards 5p, 1 and 2 both win on it (血战); the one tile went into seat 1's
    # hidden hand, the discard is marked claimed: seat 3 still counts it, once
    g = game_with("sichuan", ["1133557799m2458p", "123m456m789m11p55p", "234s567s678s999s5p", "111s222s333s444s6p"],
                  draws="6p")
    before = g.observation(3)["visible"]["5p"]
    discard(g, 0, "5p")
    assert g.observation(3)["visible"]["5p"] == before + 1
    act(g, 1, "win", "5p")
    act(g, 2, "win", "5p")
    obs = g.observation(3)
    assert obs["players"][0]["claimed"][-1] and obs["wins"][0]["tile"] == "5p"
    assert obs["visible"]["5p"] == before + 1
    assert [p["hidden"] for p in obs["players"]] == [13, 13, 13, 0]  # 14 - the won tile; 13; 13; me
    check_visible(g, 3, obs)


def test_declared_hand_tiles_are_visible():
    # a 亮倒 hand shows its tiles: they count as visible to the other seats
    g = game_with("kawuxing", ["123p456p789p11s23s5z", "147p258p369p147s5z", "1234p5p6p7p8p9p1s2s3s6z"])
    act(g, 0, "declare", "5z")
    obs = g.observation(1)
    shown = obs["players"][0]["revealed"]["tiles"]
    assert shown and obs["players"][0]["hidden"] == 13 - len(parse_tiles(shown))
    check_visible(g, 1, obs)
    assert obs["visible"]["1s"] >= 2 and obs["visible"][str(Tile.parse("5z"))] >= 1


def test_protocol_messages_match_the_schema(tmp_path):
    # issue 19.3 and 19.6: what a bot really reads, in both games
    from majiang.play.arena import run_arena

    VALIDATOR.check_schema(SCHEMA)
    for variant, bots in (("kawuxing", 3), ("sichuan", 4)):
        log = tmp_path / f"{variant}.jsonl"
        bot = f"cmd:{sys.executable} {os.path.join(PROGRAMS, 'record_bot.py')} {log}"
        rules = rules_for(variant, exchange_three=True) if variant == "sichuan" else rules_for(variant)
        res = run_arena(rules, [bot] + ["random"] * (bots - 1), 2, seed=1, timeout=5).summary()
        assert res["agents"][0]["timeouts"] == res["agents"][0]["illegal_replies"] == 0
        msgs = [json.loads(line) for line in log.read_text().splitlines()]
        assert msgs[0] == {"type": "hello", "protocol": 2}
        hands = 0
        for msg in msgs[1:]:
            _message(msg["type"], msg)
            if msg["type"] == "hand":
                hands += 1
                assert msg["rules"]["variant"] == variant
            else:
                assert "rules" not in msg["observation"] and "legal" not in msg["observation"]
        assert hands == 2 * bots  # once per hand, not in every prompt
        assert [m["type"] for m in msgs[1:]].count("hello") == 0


def test_docs_state_the_protocol_and_every_field():
    from majiang.bots.external import PROTOCOL

    with open(os.path.join(ROOT, "docs", "BOTS.md"), encoding="utf-8") as f:
        doc = f.read()
    assert f"protocol {PROTOCOL}" in doc.lower() and "observation.schema.json" in doc
    defs = SCHEMA["$defs"]
    for name in ("observation", "player"):
        for field in defs[name]["properties"]:
            assert f"`{field}`" in doc, f"BOTS.md does not mention the {name} field {field!r}"


CACHE_CONFIGS = [("kawuxing", "standard", {}), ("kawuxing", "suizhou", {}), ("sichuan", "chengdu", {}),
                 ("sichuan", "chengdu", {"sing_dance": True}), ("sichuan", "chengdu", {"blood_river": True}),
                 ("sichuan", "chengdu", {"exchange_three": True})]


@pytest.mark.parametrize("variant, preset, options", CACHE_CONFIGS)
def test_the_shared_part_of_observations_is_never_stale(variant, preset, options):
    """Observations share what every seat sees alike, per state of the deal: at every step (claim
    windows included) each seat's and a spectator's observation equals the one worked out from
    scratch, and changing one observation changes no other."""
    from majiang.engine.views import _observation_uncached

    checked = 0
    for seed in range(12):
        game = Game(rules_for(variant, preset, **options), seed=seed)
        agents = [Eager(seed=s) if s % 2 == 0 else RandomAgent(seed=s) for s in range(game.n)]

        def check(*_):
            nonlocal checked
            for seat in list(range(game.n)) + [None]:
                cached = game.observation(seat)
                assert cached == _observation_uncached(game, seat), (seed, seat, len(game.events))
                cached["players"][0]["discards"].append("x")  # a fresh copy: the next one is whole
                cached["visible" if seat is not None else "players"].clear()
                assert game.observation(seat) == _observation_uncached(game, seat)
            checked += 1

        game.on_window = check
        while not game.over:
            check()
            seat = game.pending_seats()[0]
            game.apply(seat, agents[seat].act(game.observation(seat), game.legal_actions(seat)))
    assert checked > 400
