"""The journal: hands' log lines stored off the event loop, many tables in one transaction, each
table told only once its own lines are committed."""

import asyncio

import pytest

pytest.importorskip("sqlalchemy")

from majiang.server.journal import Journal, outcome  # noqa: E402
from majiang.server.store import Append, Store, StoreError  # noqa: E402


def test_many_tables_share_a_transaction_and_a_bad_item_fails_alone(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'j.sqlite3'}")
    games = [store.start_hand(f"R{i}", 0, ['{"type":"start"}']) for i in range(20)]
    journal = Journal(store)

    async def go():
        items = [Append(f"R{i}", g, 1, ('{"n":1}', '{"n":2}')) for i, g in enumerate(games)]
        items.append(Append("R3", games[3], 0, ('{"again":0}',)))  # line 0 of R3 is stored already
        futures = [journal.submit(item) for item in items]
        return [await outcome(f) for f in futures]

    results = asyncio.run(go())
    journal.close()
    errors = [error for error, cancelled in results]
    assert all(e is None for e in errors[:-1]) and isinstance(errors[-1], StoreError)
    assert journal.batches < len(results)  # written together, not one transaction each
    for i in range(20):
        assert store.games_of(f"R{i}")[0]["records"] == [{"type": "start"}, {"n": 1}, {"n": 2}]


def test_a_cancelled_waiter_still_learns_the_outcome(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'j.sqlite3'}")
    game = store.start_hand("R", 0, ["{}"])
    journal = Journal(store)
    seen = {}

    async def waiter():
        seen["result"] = await outcome(journal.submit(Append("R", game, 1, ('{"x":1}',))))

    async def go():
        task = asyncio.ensure_future(waiter())
        await asyncio.sleep(0)
        task.cancel()  # e.g. the socket went away mid-action
        await asyncio.wait({task})

    asyncio.run(go())
    journal.close()
    assert seen["result"] == (None, True)  # stored, and told it was cancelled meanwhile
    assert store.games_of("R")[0]["records"] == [{}, {"x": 1}]


@pytest.mark.parametrize("alone", [True, False], ids=["sqlite-alone", "general"])
def test_a_batch_is_stored_whole_or_not_at_all_on_either_path(tmp_path, alone):
    """A server alone on SQLite writes through the DBAPI connection, any other through SQLAlchemy:
    both store the same, and a failing item takes the whole transaction back (the other items' lines
    already written in it; no hand's end and no room change is stored)."""
    store = Store(f"sqlite:///{tmp_path / 'j.sqlite3'}")
    if not alone:
        store.worker = "w1"  # the general path (an item that names no lease checks none)
    pid, _ = store.create_player("host")
    code = store.create_room("kawuxing", {}, 1, 1, {"id": pid}, [{"player": pid, "name": "host"}])
    game = store.start_hand(code, 0, ['{"type":"start"}'])
    end = Append(code, game, 1, ('{"n":1}', '{"n":2}'), finished=True, totals=(4, -2, -2),
                 room_status="finished", match_state='{"hand": 0}')
    with pytest.raises(StoreError):
        store.append([end, Append(code, game, 0, ('{"again":0}',))])  # line 0 is stored already
    hand, room = store.games_of(code)[0], store.room(code)
    assert hand["records"] == [{"type": "start"}] and not hand["finished"] and hand["totals"] is None
    assert room["status"] == "lobby" and room["match_state"] is None
    assert store.append([end]) == [None]
    hand, room = store.games_of(code)[0], store.room(code)
    assert hand["records"] == [{"type": "start"}, {"n": 1}, {"n": 2}] and hand["finished"]
    assert hand["totals"] == [4, -2, -2] and (room["status"], room["match_state"]) == ("finished", '{"hand": 0}')
