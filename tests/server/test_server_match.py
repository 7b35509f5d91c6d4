"""The match's parts on their own: its state machine, the clock's fairness rules, the one bot
interface; and its stored state (托管, 准备, the pending start, the dissolve vote, the rematch
offer) resumed by a new server on the same database, as the deal is."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from majiang.engine import Action, Game  # noqa: E402
from majiang.games.rules import rules_for  # noqa: E402
from majiang.server.clock import (  # noqa: E402
    FROZEN_DELAY,
    SeatFacts,
    TableSettings,
    away_deadline,
    earliest,
    missed_timer_counts,
    seat_due,
    windows_have_no_pause,
)
from majiang.server.match import IllegalTransition, Ledger, MatchState, initial_state  # noqa: E402
from majiang.server.room import RoomState, advance  # noqa: E402
from majiang.server.table_bots import AgentBot, PooledBot, PositionBot, as_table_bot  # noqa: E402
from test_server import _OPEN, _close_clients, client, make_room, play_to_end, player, started_room  # noqa: E402, F401

# -- the state machine ----------------------------------------------------------------------------


def test_the_match_goes_only_where_its_transitions_allow_and_keeps_the_stored_status():
    seats = [{"player": "host", "name": "host", "bot": None}] + [{"player": None, "name": None, "bot": "greedy"}] * 2
    room = {"code": "123456", "status": "lobby", "host": "host", "hands": 2, "seats": seats, "settings": {}}
    s = RoomState.of_room(room)
    assert s.match is MatchState.WAITING
    for state, status in ((MatchState.READY_CHECK, "lobby"), (MatchState.PLAYING, "playing"),
                          (MatchState.BETWEEN_HANDS, "playing"), (MatchState.PLAYING, "playing"),
                          (MatchState.FINISHED, "finished")):
        s = advance(s, state)
        assert s.match is state and s.seating.status == status
    with pytest.raises(IllegalTransition):
        advance(s, MatchState.PLAYING)  # a finished match never plays again
    with pytest.raises(IllegalTransition):
        advance(RoomState.of_room(room), MatchState.DISSOLVED)  # only a match in play is dissolved
    s = advance(RoomState.of_room({**room, "status": "playing"}, hand=0), MatchState.DISSOLVED)
    assert s.seating.status == "finished" and s.match.over


def test_a_stored_room_resumes_in_the_state_its_stored_facts_say():
    assert initial_state("lobby") is MatchState.WAITING
    assert initial_state("lobby", start_asked=True) is MatchState.READY_CHECK
    assert initial_state("playing", hand_over=True) is MatchState.BETWEEN_HANDS
    assert initial_state("finished", dissolved=True) is MatchState.DISSOLVED
    with pytest.raises(IllegalTransition):
        initial_state("paused")


def test_one_ledger_keeps_each_persons_and_each_bots_points():
    """People move (a four-person room's sit-out) and arrive (a friend takes a bot's seat): each
    one's points are theirs, and a bot keeps its own."""
    ledger = Ledger()
    ledger.add(["a", "b", "c"], [4, -2, -2])
    ledger.add(["d", "b", "c"], [3, -3, 0])
    assert ledger.by_person == {"a": 4, "b": -5, "c": -2, "d": 3}
    assert ledger.seat_totals(["d", "b", "c"], [1, 0, -1]) == [4, -5, -3]
    ledger.add(["a", "bot:1", "bot:2"], [2, -1, -1])
    ledger.add(["a", "e", "bot:2"], [0, 5, -5])  # e took bot 1's seat: bot 1 keeps its -1
    assert ledger.of("bot:1") == -1 and ledger.of("e") == 5 and ledger.of("bot:2") == -6


# -- the clock's fairness rules ---------------------------------------------------------------------


def facts(**kw) -> SeatFacts:
    base = dict(seat=0, phase="turn", bot_plays=False, auto=False, present=True, declared=False,
                decision_at=100.0, time_limit=15.0, bot_wait=0.4, auto_delay=1.5, absent_since=0.0,
                absent_after=5.0)
    return SeatFacts(**(base | kw))


def test_a_bot_answers_a_claim_window_without_a_pause_that_would_say_somebody_could_claim():
    assert windows_have_no_pause("claim") and windows_have_no_pause("rob") and not windows_have_no_pause("turn")
    assert seat_due(facts(bot_plays=True, phase="claim"), now=100.0) == (100.0, 0, "bot")
    assert seat_due(facts(bot_plays=True, phase="turn"), now=100.0) == (100.4, 0, "bot")
    assert seat_due(facts(bot_plays=True, auto=True, phase="turn"), now=100.0) == (101.5, 0, "auto")


def test_an_absent_claimer_passes_at_once_and_a_missed_claim_is_not_counted():
    assert seat_due(facts(phase="claim", present=False), now=101.0) == (101.0, 0, "pass")
    assert seat_due(facts(phase="claim", time_limit=8.0), now=101.0) == (108.0, 0, "pass")
    assert not missed_timer_counts("claim") and missed_timer_counts("turn")
    assert seat_due(facts(), now=101.0) == (115.0, 0, "timeout")


def test_a_frozen_hand_waits_the_same_whether_or_not_it_could_kong():
    assert seat_due(facts(declared=True), now=100.0) == (100.0 + FROZEN_DELAY, 0, "frozen")


def test_the_grace_before_tuoguan_runs_from_the_later_of_the_disconnect_and_the_decision():
    assert away_deadline(facts(absent_since=90.0)) == 105.0  # gone before the decision began
    assert away_deadline(facts(absent_since=104.0)) == 109.0  # gone during it
    assert seat_due(facts(present=False, absent_since=104.0), now=100.0) == (109.0, 0, "away")
    assert seat_due(facts(present=False, absent_since=104.0, time_limit=5.0), now=100.0).why == "timeout"


def test_ties_go_to_the_lower_seat():
    dues = [seat_due(facts(seat=s, phase="claim", present=False), now=100.0) for s in (2, 1)]
    assert earliest(dues).seat == 1 and earliest([]) is None


# -- the one bot interface ------------------------------------------------------------------------


def test_every_kind_of_bot_is_one_table_bot_and_only_a_bounded_one_decides_on_the_event_loop():
    """An agent object's choice, and the greedy policy's Python fallback, run in a thread; a native
    greedy choice (one library call) is made on the loop."""
    import threading

    from majiang.bots import make_agent
    from majiang.bots.native_greedy import NativeGreedyAgent
    from majiang.server.bots import BotRunner

    loop_thread = []

    class Watched:
        def act(self, observation, legal):
            loop_thread.append(threading.current_thread() is main)
            return legal[-1]

    main = threading.current_thread()
    g = Game(rules_for("sichuan"), seed="bots")
    seat = g.pending_seats()[0]
    legal = g.legal_actions(seat)
    runner = BotRunner(0)
    kinds = [as_table_bot(Watched()), as_table_bot(make_agent("random", seed=1)),
             as_table_bot(NativeGreedyAgent(1)), as_table_bot(("greedy", 1), runner)]
    assert [type(b) for b in kinds] == [AgentBot, AgentBot, PositionBot, PooledBot]
    assert as_table_bot(kinds[0]) is kinds[0]  # already one

    async def decide_all():
        return [await b.decide(g, seat, legal, 10.0) for b in kinds]

    chosen = asyncio.run(decide_all())
    assert all(isinstance(a, Action) and a in legal for a in chosen)
    assert loop_thread == [False]
    runner.close()

    class Planned:  # the native greedy policy's shape: a decision, and whether it is bounded
        def __init__(self, bounded):
            self.bounded = bounded

        def plan(self, game, seat, legal):
            return (lambda: loop_thread.append(threading.current_thread() is main) or legal[0]), self.bounded

    loop_thread.clear()
    for bounded in (True, False):
        assert asyncio.run(as_table_bot(Planned(bounded)).decide(g, seat, legal, 10.0)) == legal[0]
    assert loop_thread == [True, False]


# -- stored state: a restart resumes it ------------------------------------------------------------


def restart(c, tmp_path):
    """A new server on the same database (the first one stopped)."""
    _OPEN.remove(c)
    c.__exit__(None, None, None)
    return client(tmp_path)


def wait_for(check, seconds=5.0):
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_a_pending_start_resumes_and_deals_once_the_last_player_is_ready(tmp_path):
    c = client(tmp_path)
    a, b = player(c, "a"), player(c, "b")
    code = make_room(c, a["token"], variant="kawuxing")
    c.post(f"/api/rooms/{code}/join", headers={"X-Token": b["token"]})
    r = c.post(f"/api/rooms/{code}/start", headers={"X-Token": a["token"]})
    assert r.status_code == 202
    asked = c.app.state.tables.get(code).state.start_asked
    c = restart(c, tmp_path)
    table = c.app.state.tables.get(code)
    assert table.state.match is MatchState.READY_CHECK and table.state.start_asked == asked
    assert table.view(0)["room"]["starting"] is True
    assert c.post(f"/api/rooms/{code}/ready", headers={"X-Token": b["token"]}).json()["ready"] is True
    wait_for(lambda: c.get(f"/api/rooms/{code}").json()["status"] == "playing")
    assert table.state.match is MatchState.PLAYING and table.state.start_asked is None


def test_tuoguan_and_ready_resume(tmp_path):
    c = client(tmp_path)
    code, (a, b) = started_room(c, "ab", variant="kawuxing", hands=2)
    table = c.app.state.tables.get(code)
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": b["token"]}) as ws:
        ws.send_json({"type": "auto", "on": True})
        wait_for(lambda: table.state.auto[1])
        assert c.app.state.store.room(code)["match_state"]  # stored before anyone was told
    c = restart(c, tmp_path)
    again = c.app.state.tables.get(code)
    assert again.state.auto[1] is True and not again.state.auto[0]


def test_a_dissolve_vote_in_progress_resumes_and_carries(tmp_path):
    c = client(tmp_path)
    code, (a, b) = started_room(c, "ab", variant="kawuxing", hands=4)
    table = c.app.state.tables.get(code)
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": a["token"]}) as ws:
        ws.send_json({"type": "dissolve", "agree": True})
        wait_for(lambda: table.dissolve_view() is not None)
    vote = table.dissolve_view()
    c = restart(c, tmp_path)
    again = c.app.state.tables.get(code)
    assert again.dissolve_view() == vote and vote["by"] == 0 and vote["votes"][:2] == [True, None]
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": b["token"]}) as ws:
        ws.send_json({"type": "dissolve", "agree": True})
        wait_for(lambda: again.dissolved)
    assert c.get(f"/api/rooms/{code}").json()["status"] == "finished"
    c = restart(c, tmp_path)
    last = c.app.state.tables.get(code)
    assert last.dissolved and last.state.match is MatchState.DISSOLVED and last.view(0)["room"]["dissolved"]


def test_a_rematch_offer_resumes(tmp_path):
    c = client(tmp_path)
    me = player(c)
    code = make_room(c, me["token"], variant="sichuan", hands=1)
    c.post(f"/api/rooms/{code}/start", headers={"X-Token": me["token"]})
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": me["token"]}) as ws:
        play_to_end(ws, 0)
    offer = c.post(f"/api/rooms/{code}/rematch", headers={"X-Token": me["token"]}).json()
    table = c.app.state.tables.get(code)
    wait_for(lambda: '"rematch": {' in (c.app.state.store.room(code)["match_state"] or ""))
    c = restart(c, tmp_path)
    again = c.app.state.tables.get(code)
    assert again.rematch == table.rematch == {"code": offer["code"], "by": 0}
    assert again.state.match is MatchState.FINISHED


def test_a_dissolved_match_totals_only_its_finished_hands_as_its_summary_does(tmp_path, monkeypatch):
    """解散 mid-hand: money already paid in the hand cut short (a kong's) is not in the match row,
    so the row and the summary of finished hands (/games) say one total."""
    c = client(tmp_path)
    code, (a, b) = started_room(c, "ab", variant="kawuxing", hands=4)
    table = c.app.state.tables.get(code)
    game = table.game
    paid = [-2, -2, 4]  # as if a kong had been paid for in the hand in play
    monkeypatch.setattr(game, "totals", lambda: list(paid))
    assert table.view(0)["room"]["match_totals"] == paid  # in play: the running score shows it
    with c.websocket_connect(f"/ws/{code}", headers={"X-Token": a["token"]}) as wa, \
            c.websocket_connect(f"/ws/{code}", headers={"X-Token": b["token"]}) as wb:
        wa.send_json({"type": "dissolve", "agree": True})
        wait_for(lambda: table.dissolve_view() is not None)
        wb.send_json({"type": "dissolve", "agree": True})
        wait_for(lambda: table.dissolved)
    assert not game.over
    summary = [0, 0, 0]
    for g in c.get(f"/api/rooms/{code}/games").json():
        summary = [x + y for x, y in zip(summary, g["totals"])]
    assert table.view(0)["room"]["match_totals"] == summary == [0, 0, 0]


def test_the_driver_looks_at_a_bot_table_about_twice_a_move_on_uvloop(tmp_path):
    """uvloop's timers count whole milliseconds of a clock read once a turn, so a wait can end a little
    before its time: the driver then waits the rest, it does not look again every few microseconds
    until the wall clock catches up (it did about fifteen times a bot move)."""
    uvloop = pytest.importorskip("uvloop")
    from majiang.server.live_table import LiveTable
    from test_server_fairness import make_table

    looks, moves = [0], [0]

    def counted_table(k: int) -> LiveTable:
        proto = make_table(tmp_path / str(k), "kawuxing", "standard", {}, hands=1)
        table = LiveTable(proto.store, proto.room, bot_delay=0.01, absent_after=0.0, settings=TableSettings())
        table.bots = proto._bots
        tick, act = table._tick, table._bot_act

        async def counted_tick():
            looks[0] += 1
            return await tick()

        async def counted_act(*args, **kwargs):
            moves[0] += 1
            return await act(*args, **kwargs)

        table._tick, table._bot_act = counted_tick, counted_act
        return table

    async def play(table: LiveTable) -> None:
        table.start(table.room)
        table.poke()
        deadline = time.monotonic() + 60
        while table.room["status"] == "playing" and not (table.game is not None and table.game.over):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.02)
        table.close()

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        for k in range(5):  # a hand may end in a few moves (an early win): deal another until enough
            (tmp_path / str(k)).mkdir()
            runner.run(play(counted_table(k)))
            if moves[0] > 10:
                break
    assert moves[0] > 10 and looks[0] <= 2.5 * moves[0], (looks, moves)
