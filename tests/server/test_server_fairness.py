"""A fair table: what each seat is sent, over whole matches of both games and every preset.

Each test pins one finding of the security review (issue #13): fresh seeds per hand, 亮倒 hands
shown exactly as the rules reveal them, claim windows that tell nobody else anything, refusals
that name no seat. Tables are driven directly (no sockets) so whole matches run quickly; the
socket layer has its own tests in test_server_guards.py.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest

pytest.importorskip("sqlalchemy")

from majiang.bots import GreedyAgent  # noqa: E402
from majiang.core.errors import MajiangError  # noqa: E402
from majiang.core.tiles import Tile, parse_tiles  # noqa: E402
from majiang.core.variants import get_variant  # noqa: E402
from majiang.engine import Game, shuffled_wall  # noqa: E402
from majiang.games.rules import rules_for, rules_to_json  # noqa: E402
from majiang.play.runner import play_hand  # noqa: E402
from majiang.server import live_table as live  # noqa: E402  (the table that draws the seeds)
from majiang.server.clock import TableSettings  # noqa: E402
from majiang.server.live_table import LiveTable  # noqa: E402
from majiang.server.presence import Connection  # noqa: E402
from majiang.server.store import Store  # noqa: E402
from scenario import Eager  # noqa: E402

CONFIGS = [("kawuxing", "standard", {}), ("kawuxing", "xiangyang", {}), ("kawuxing", "suizhou", {}),
           ("sichuan", "chengdu", {}), ("sichuan", "modern", {}), ("sichuan", "chengdu", {"sing_dance": True}),
           ("sichuan", "chengdu", {"blood_river": True})]


def make_table(tmp_path, variant, preset, options, hands=2, name="t") -> LiveTable:
    store = Store(f"sqlite:///{tmp_path / name}.sqlite3")
    rules = rules_for(variant, preset, **options)
    n = get_variant(variant).players
    host = {"id": "h", "name": "host"}
    seats = [{"player": None, "name": None, "bot": "greedy"} for _ in range(n)]
    code = store.create_room(variant, rules_to_json(rules), 1, hands, host, seats)
    room = store.room(code)
    room["status"] = "playing"
    store.update_room(code, status="playing")
    table = LiveTable(store, room, bot_delay=0.0, absent_after=0.0, settings=TableSettings())
    table.bots = [Eager(seed=s) for s in range(n)]
    return table


def attach_everyone(table) -> dict:
    """A recording connection for every seat and one spectator."""
    received: dict = {}
    for seat in list(range(table.n)) + [None]:
        box: list = []
        received[seat] = box

        async def send(msg, box=box):
            box.append(json.loads(msg) if isinstance(msg, str) else msg)  # a snapshot comes as its text

        table.presence.connections.append(Connection(send, seat, None))
    return received


async def play_match(table) -> None:
    table.start(table.room)
    await table.broadcast()
    while table.room["status"] == "playing":
        g = table.game
        if g.over:
            await table.next_hand()
            continue
        await table._bot_act(g.pending_seats()[0])


@pytest.mark.parametrize("variant, preset, options", CONFIGS)
def test_every_hand_has_its_own_secret_seed(tmp_path, variant, preset, options):
    table = make_table(tmp_path, variant, preset, options, hands=3)
    received = attach_everyone(table)
    asyncio.run(play_match(table))
    hands = table.store.games_of(table.code)
    seeds = [h["records"][0]["seed"] for h in hands]
    assert len(hands) == 3 and len(set(seeds)) == 3 and all(len(s) == 32 for s in seeds)
    kinds = get_variant(variant).kinds
    for k in range(1, 3):  # an earlier hand's seed says nothing about a later hand's wall
        wall = [int(Tile.parse(t)) for t in hands[k]["records"][0]["wall"]]
        for earlier in seeds[:k]:
            assert shuffled_wall(kinds, earlier, k)[0] != wall
    sent = json.dumps(received)
    for s in seeds:  # no seat and no spectator was ever sent a seed, nor the room's old one
        assert s not in sent
    for frames in received.values():
        for f in frames:
            assert "wall" not in f["view"] and all("wall" not in str(k) for k in f["room"])
            assert not ({"seed", "wall"} & set(f))


def declared_views(variant, preset, seed):
    """Play a hand with eager declarers; yield (game, seat, what others see of it) at every step."""
    game = Game(rules_for(variant, preset), seed=seed)
    agents = [Eager(seed=s) for s in range(game.n)]
    while not game.over:
        seat = game.pending_seats()[0]
        game.apply(seat, agents[seat].act(game.observation(seat), game.legal_actions(seat)))
        for s in range(game.n):
            if game.seats[s].declared and not game.over:
                views = [game.observation(o)["players"][s] for o in range(game.n) if o != s]
                views.append(game.observation(None)["players"][s])
                for v in views:
                    v.pop("hidden", None)  # a count for bots, given to seated players only
                yield game, s, views


@pytest.mark.parametrize("preset", ["standard", "xiangyang", "suizhou"])
def test_a_liangdao_hand_shows_what_the_rules_reveal_and_not_the_drawn_tile(preset):
    checked = turns = 0
    for seed in range(40):
        shown_at_declaration: dict = {}
        melds_then: dict = {}
        for game, s, views in declared_views("kawuxing", preset, seed):
            assert all(v == views[0] for v in views)  # every other seat and spectators alike
            v = views[0]
            assert "hand" not in v
            rv = v["revealed"]
            if s not in shown_at_declaration or len(game.seats[s].melds) != melds_then[s]:
                shown_at_declaration[s], melds_then[s] = rv, len(game.seats[s].melds)  # (a kong may change it)
                continue
            # what was revealed stays exactly that, whether or not it is the declarer's turn
            assert rv == shown_at_declaration[s]
            concealed = sum(game.seats[s].counts)
            shown = len(parse_tiles(rv["tiles"])) if rv["tiles"] else 0
            assert shown + 3 * rv["hidden_triplets"] == concealed - (concealed % 3 == 2)
            checked += 1
            if concealed % 3 == 2:
                turns += 1
                assert game.current == s
    assert checked > 100 and turns > 10  # the declarer's own turns were among them


class FixedSeeds:
    """Stands in for the ``secrets`` module in ``majiang.server.live_table``: the same seeds every run."""

    def __init__(self, name: str) -> None:
        self.rng = random.Random(name)

    def token_hex(self, n: int = 32) -> str:
        return self.rng.randbytes(n).hex()

    def randbits(self, k: int) -> int:
        return self.rng.getrandbits(k)

    def __getattr__(self, name: str):  # choice, …
        return getattr(self.rng, name)


class Passer(GreedyAgent):
    """Greedy that passes every pong and kong it could claim (it still wins)."""

    def _claim_decision(self, view, legal):
        return next((a for a in legal if a.type == "pass"), legal[0])


@pytest.mark.parametrize("variant, preset, options", CONFIGS)
def test_claim_windows_look_the_same_to_everyone_without_a_decision(tmp_path, monkeypatch, variant, preset, options):
    """A discard somebody could claim (the bots passed) reaches every seat exactly as one nobody
    could: the first frame showing it is already the next seat's turn, and no frame ever shows a
    window the bots closed at once."""
    # The deals' seeds are fixed here (the server draws them from the OS): three random hands held
    # no claimable discard now and then, which left nothing to check.
    monkeypatch.setattr(live, "secrets", FixedSeeds(f"{variant}/{preset}/{sorted(options.items())}"))
    table = make_table(tmp_path, variant, preset, options, hands=3)
    table.bots = [Passer(seed=s) for s in range(table.n)]
    received = attach_everyone(table)
    asyncio.run(play_match(table))
    claimable = plain = 0
    for hand in table.store.games_of(table.code):
        records = hand["records"]
        discards = []  # (seat, the seat that drew next or None, whether anyone could have claimed it)
        for i, r in enumerate(records):
            if r["type"] != "discard":
                continue
            answers = set()
            j = i + 1
            while j < len(records) and records[j]["type"] == "action":
                answers.add(records[j]["seat"])
                j += 1
            after = records[j] if j < len(records) else {}
            discards.append((r["seat"], after.get("seat") if after.get("type") == "draw" else None, bool(answers)))
        index = {}  # (discarder, its discard count) -> which discard of the hand
        counts: dict = {}
        for k, (d, _, _) in enumerate(discards):
            counts[d] = counts.get(d, 0) + 1
            index[(d, counts[d])] = k
        for seat, frames in received.items():
            mine = [f for f in frames if f["room"]["hand_index"] == hand["hand_index"] and f["view"]]
            first: dict = {}
            for f in mine:
                assert f["view"]["phase"] not in ("claim", "rob")  # bots close their windows unseen
                ld = f["view"]["last_discard"]
                if ld is not None:
                    first.setdefault(index[(ld["seat"], len(f["view"]["players"][ld["seat"]]["discards"]))], f)
            for k, (d, drew, answered) in enumerate(discards):
                if drew is None:
                    continue  # claimed, or the hand ended on it
                f = first[k]  # every discard is seen, in a frame where the next seat has drawn
                assert f["view"]["phase"] == "turn" and f["view"]["current"] == drew, (seat, k)
                if seat is not None and seat != d:
                    claimable += answered
                    plain += not answered
    assert claimable >= 1 and plain >= 10  # claims were possible and passed, and nobody else could tell


def assert_shows_nothing_hidden(frame, seat):
    view = frame["view"]
    if view is None:
        return
    over = view["phase"] == "over"
    for p in view["players"]:
        if p["seat"] == seat or over:
            continue
        assert "hand" not in p
        assert all(m["tile"] is None for m in p["melds"] if m["kind"] == "concealed_kong")
        if view["phase"] in ("exchange", "void"):
            assert p["void"] is None  # 定缺 stays hidden until everyone has chosen
    if seat is None or view["current"] != seat or view["phase"] != "turn":
        assert "drawn" not in view
    if seat is None:
        assert "legal" not in view and frame["hints"] is None and frame["you"] is None


@pytest.mark.parametrize("variant, preset, options", CONFIGS)
def test_no_frame_shows_another_seats_hidden_tiles(tmp_path, variant, preset, options):
    table = make_table(tmp_path, variant, preset, options | ({"exchange_three": True} if variant == "sichuan" else {}),
                       hands=2)
    received = attach_everyone(table)
    asyncio.run(play_match(table))
    phases = set()
    for seat, frames in received.items():
        for f in frames:
            assert_shows_nothing_hidden(f, seat)
            if f["view"]:
                phases.add(f["view"]["phase"])
    assert {"turn", "over"} <= phases  # (bots close claim windows unseen; a person's window: test_server)
    if variant == "sichuan":
        assert {"exchange", "void"} <= phases


def test_no_http_endpoint_tells_anything_of_the_hand_in_play(tmp_path):
    from fastapi.testclient import TestClient

    from majiang.server.app import create_app
    from test_server import make_room, player

    with TestClient(create_app(f"sqlite:///{tmp_path / 'h'}.sqlite3", bot_delay=0.0)) as c:
        me = player(c)
        code = make_room(c, me["token"], variant="sichuan", hands=2)
        c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
        table = c.app.state.tables.get(code)
        g = table.game
        secrets_of_hand = [str(g.seed)] + ["".join(str(Tile(t)) for t in g.wall[:20])]
        hands = [g.observation(s)["players"][s]["hand"] for s in range(4)]
        h = {"X-Token": me["token"]}
        answers = [c.get(f"/api/rooms/{code}"), c.get(f"/api/rooms/{code}/games"),
                   c.get(f"/api/rooms/{code}/games/0/frames"), c.get("/api/history", headers=h),
                   c.get("/api/me", headers=h), c.get("/api/server")]
        for r in answers:
            text = r.text
            assert all(x not in text for x in secrets_of_hand + hands), r.url
        assert c.get(f"/api/rooms/{code}/games").json() == []  # nothing until the hand is over
        assert c.get(f"/api/rooms/{code}/games/0/frames").status_code == 404


def test_sequence_numbers_move_only_with_the_seats_own_decisions(tmp_path):
    table = make_table(tmp_path, "sichuan", "chengdu", {}, hands=1)
    received = attach_everyone(table)
    asyncio.run(play_match(table))
    for seat in range(table.n):
        seqs = [f["seq"] for f in received[seat]]
        decisions = sum(1 for r in table.store.games_of(table.code)[0]["records"]
                        if r["type"] == "action" and r["seat"] == seat)
        assert seqs == sorted(seqs) and seqs[-1] <= decisions + 1
        texts = [json.dumps(f, sort_keys=True) for f in received[seat]]
        assert all(a != b for a, b in zip(texts, texts[1:]))  # never the same frame twice in a row


def test_an_out_of_turn_action_is_refused_without_naming_anyone(tmp_path):
    table = make_table(tmp_path, "kawuxing", "standard", {}, hands=1)

    async def run():
        table.start(table.room)
        g = table.game
        idle = next(s for s in range(table.n) if s not in g.pending_seats())
        with pytest.raises(MajiangError) as err:
            await table.act(idle, {"type": "discard", "tile": "1p"}, None)
        return str(err.value)

    message = asyncio.run(run())
    assert message == "you have no decision to make now"


def test_hints_suggest_only_legal_discards_under_dingque(tmp_path):
    from majiang.server.views import _compute_hints
    rng = random.Random(3)
    checked = 0
    for seed in range(30):
        game = Game(rules_for("sichuan", "chengdu"), seed=seed)
        agents = [GreedyAgent(seed=s) for s in range(4)]
        while not game.over:
            seat = game.pending_seats()[0]
            legal = game.legal_actions(seat)
            if game.phase == "turn":
                hint = _compute_hints(game, seat)
                allowed = {str(a.tile) for a in legal if a.type == "discard"}
                for d in (hint or {}).get("discards", []):
                    assert d["tile"] in allowed
                    checked += 1
            game.apply(seat, agents[seat].act(game.observation(seat), legal) if rng.random() < 0.9 else legal[0])
    assert checked > 500


def test_fingerprint_hook_changes_no_play():
    """``Game.on_window`` only observes: the same seed plays the same hand with or without it."""
    def run(hook):
        g = Game(rules_for("sichuan", "chengdu"), seed=11)
        seen = []
        if hook:
            g.on_window = seen.append
        play_hand(g, [GreedyAgent(seed=s) for s in range(4)])
        return g.events, seen

    plain, _ = run(False)
    hooked, seen = run(True)
    assert plain == hooked and seen and set(seen) <= {"claim", "rob"}


@pytest.mark.parametrize("variant, preset, options", [CONFIGS[0], CONFIGS[3]])
def test_each_change_is_one_frame(tmp_path, variant, preset, options, monkeypatch):
    """However many windows a change passes through (a discard, the bots' passes, the next draw),
    each seat gets at most one frame for it: no count or gap of frames says a window was there."""
    monkeypatch.setattr(live, "secrets", FixedSeeds(f"frames/{variant}/{preset}"))  # deals long enough to count frames
    table = make_table(tmp_path, variant, preset, options, hands=2)
    received = attach_everyone(table)
    real = table._broadcast
    per_broadcast: list = []

    async def counted():
        before = {seat: len(box) for seat, box in received.items()}
        await real()
        per_broadcast.append({seat: len(box) - before[seat] for seat, box in received.items()})

    table._broadcast = counted
    asyncio.run(play_match(table))
    assert len(per_broadcast) > 20
    assert all(n <= 1 for sent in per_broadcast for n in sent.values())


@pytest.mark.parametrize("variant, preset, options", CONFIGS[::3])
def test_patches_rebuild_every_snapshot_exactly(tmp_path, variant, preset, options, monkeypatch):
    """A browser client (``?patches=1``) gets the first snapshot whole and then only what changed:
    applied in order, the patches give exactly the snapshots a whole-frame client gets, frame for
    frame (so they also say nothing more, nor anything sooner)."""
    monkeypatch.setattr(live, "secrets", FixedSeeds(f"patches/{variant}/{preset}"))  # deals long enough to count frames
    from majiang.server.views import patch

    table = make_table(tmp_path, variant, preset, options, hands=2)
    boxes: dict = {}
    for seat in (0, 1, None):
        for patches in (False, True):
            box: list = []
            boxes[seat, patches] = box

            async def send(msg, box=box):
                box.append(json.loads(msg) if isinstance(msg, str) else msg)

            table.presence.connections.append(Connection(send, seat, None, patches=patches))
    asyncio.run(play_match(table))
    for seat in (0, 1, None):
        whole = [{k: v for k, v in m.items() if k != "now"} for m in boxes[seat, False]]
        state, rebuilt = None, []
        for m in boxes[seat, True]:
            if m["type"] == "snapshot":
                state = {k: v for k, v in m.items() if k != "now"}
            else:
                assert m["type"] == "patch" and state is not None
                state = patch(state, m["patch"])
            rebuilt.append(state)
        assert len(whole) > 20 and rebuilt == whole
        assert sum(len(json.dumps(m)) for m in boxes[seat, True]) < sum(len(json.dumps(m)) for m in whole) / 3


async def play_match_probing_held_windows(table, received) -> int:
    """``play_match`` with two probes at every window the bots close at once (issue #29): a client
    connecting then (its first snapshot), and a broadcast that already waited on the table's lock
    when the change opening the window was made. Returns how many windows were probed."""
    table.start(table.room)
    await table.broadcast()
    probed = 0
    while table.room["status"] == "playing":
        g = table.game
        if g.over:
            await table.next_hand()
            continue
        seat = g.pending_seats()[0]
        legal = g.legal_actions(seat)
        action = await table._bot_choice(seat, g, legal)
        await table.lock.acquire()
        late = asyncio.ensure_future(table.broadcast())  # a hints toggle, say: waits on the lock
        await asyncio.sleep(0)
        try:
            await table._apply(seat, action)
        finally:
            table.lock.release()
        await late
        if table.fanout.holding:
            probed += 1
            box: list = []
            received[("late", probed)] = box

            async def send(msg, box=box):
                box.append(json.loads(msg) if isinstance(msg, str) else msg)

            conn = Connection(send, None, None)
            table.presence.connections.append(conn)
            await table.send_current(conn)
        await table.broadcast()
    return probed


@pytest.mark.parametrize("variant, preset, options", CONFIGS[:1] + CONFIGS[3:4])
def test_a_window_only_bots_answer_is_never_sent(tmp_path, monkeypatch, variant, preset, options):
    """Neither a connection's first snapshot nor a broadcast that waited on the lock shows a held
    window: every client (the late spectators too) first sees the table after the bots passed."""
    monkeypatch.setattr(live, "secrets", FixedSeeds(f"held/{variant}/{preset}"))
    table = make_table(tmp_path, variant, preset, options, hands=2)
    table.bots = [Passer(seed=s) for s in range(table.n)]
    received = attach_everyone(table)
    probed = asyncio.run(play_match_probing_held_windows(table, received))
    assert probed >= 3
    for who, frames in received.items():
        for f in frames:
            if f.get("type") == "snapshot" and f["view"]:
                assert f["view"]["phase"] not in ("claim", "rob"), who
    assert all(received[("late", k)] for k in range(1, probed + 1))  # each got its snapshot after all


async def _snapshots_through_a_hand(table):
    """Every seat's and a spectator's snapshot after each step of one hand."""
    from majiang.server.views import snapshot

    table.start(table.room)
    out = []
    while not table.game.over:
        out.append((table.game.phase, [snapshot(table, s) for s in range(table.n)], snapshot(table, None),
                    [list(table.game.seats[s].exchange_choice or ()) for s in range(table.n)]))
        await table._bot_act(table.game.pending_seats()[0])
    return out


@pytest.mark.parametrize("seed", range(3))
def test_a_seat_is_told_only_the_three_tiles_it_was_passed_and_where_from(tmp_path, seed, monkeypatch):
    """换三张: after the exchange each seat is sent the three tiles it received, the seat they came from
    and the direction, until its first discard; no seat is told another's, nor is a spectator."""
    # a fixed deal per seed; the module's ``secrets`` is replaced, never the real module's functions
    # (patching ``secrets.token_hex`` itself leaked into every later test of the run: tokens ran out)
    monkeypatch.setattr(live, "secrets", FixedSeeds(f"received/{seed}"))
    table = make_table(tmp_path, "sichuan", "modern", {}, name=f"x{seed}")
    frames = asyncio.run(_snapshots_through_a_hand(table))
    shown = 0
    for phase, views, spectator, passed in frames:
        assert spectator["received"] is None
        for s, snap in enumerate(views):
            got = snap["received"]
            if phase == "exchange" or snap["view"]["players"][s]["discards"]:
                assert got is None
                continue
            total = sum(table.game.dice)
            step = 2 if total in (6, 12) else (1 if total % 2 else 3)
            assert got["from_seat"] == (s - step) % 4 and got["tiles"] == [str(t) for t in passed[got["from_seat"]]]
            assert got["direction"] == {1: "counterclockwise", 2: "across", 3: "clockwise"}[step]
            hand = [str(t) for t in parse_tiles(snap["view"]["players"][s]["hand"])]
            assert phase != "void" or all(hand.count(t) >= got["tiles"].count(t) for t in got["tiles"])
            for other, osnap in enumerate(views):  # nobody else's snapshot names these tiles as received
                if other != s and osnap["received"]:
                    assert osnap["received"]["from_seat"] != got["from_seat"]
            shown += 1
    assert shown > 8


def test_every_void_is_shown_at_once_when_all_have_chosen(tmp_path, monkeypatch):
    """定缺: while it is being chosen a seat sees only its own choice; the frame that ends it shows all."""
    monkeypatch.setattr(live, "secrets", FixedSeeds("void"))  # a deal where the choices come one by one
    table = make_table(tmp_path, "sichuan", "modern", {}, name="void")
    frames = asyncio.run(_snapshots_through_a_hand(table))
    void_frames = [views for phase, views, _, _ in frames if phase == "void"]
    assert len(void_frames) >= 2  # the choices came one at a time
    for views in void_frames:
        for s, snap in enumerate(views):
            assert all(p["void"] is None for o, p in enumerate(snap["view"]["players"]) if o != s)
    after = next(views for phase, views, _, _ in frames if phase not in ("exchange", "void"))
    for snap in after:
        assert all(p["void"] in ("m", "p", "s") for p in snap["view"]["players"])
