"""Schema changes by Alembic: a new database, databases made by the old numbered migrations, and the
``majiang db`` command."""

import json
import sqlite3

import pytest

pytest.importorskip("alembic")
pytest.importorskip("fastapi")

from sqlalchemy import create_engine, inspect  # noqa: E402

from majiang.cli.main import main  # noqa: E402
from majiang.server import migrate  # noqa: E402
from majiang.server.store import SchemaError, Store, metadata  # noqa: E402

OLD_V1 = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE players (id VARCHAR(32) NOT NULL PRIMARY KEY, name VARCHAR(40) NOT NULL, token_hash VARCHAR(64) NOT NULL,
                      created FLOAT NOT NULL, UNIQUE (token_hash));
CREATE TABLE rooms (code VARCHAR(16) NOT NULL PRIMARY KEY, variant VARCHAR(16) NOT NULL, rules TEXT NOT NULL,
                    stake INTEGER NOT NULL, hands INTEGER NOT NULL, host VARCHAR(32) NOT NULL,
                    status VARCHAR(16) NOT NULL, seats TEXT NOT NULL, seed VARCHAR(64) NOT NULL,
                    created FLOAT NOT NULL);
CREATE TABLE games (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, room VARCHAR(16) NOT NULL,
                    hand_index INTEGER NOT NULL, log TEXT NOT NULL, finished BOOLEAN NOT NULL, totals TEXT,
                    updated FLOAT NOT NULL);
CREATE INDEX ix_games_room ON games (room);
INSERT INTO schema_version VALUES (1);
"""


def seats(*players):
    return json.dumps([{"player": p, "name": p, "bot": None if p else "greedy"} for p in players])


def old_v1(path):
    """A database as the first release made it (numbered migration 1), with a finished match."""
    db = sqlite3.connect(path)
    db.executescript(OLD_V1)
    db.execute("INSERT INTO players VALUES ('p1', 'ana', 'h1', 1.0), ('p2', 'bo', 'h2', 1.0)")
    db.execute("INSERT INTO rooms VALUES ('ROOMA', 'kawuxing', '{}', 1, 1, 'p1', 'finished', ?, '-', 5.0)",
               (seats("p1", "p2", None),))
    db.execute("INSERT INTO games (room, hand_index, log, finished, totals, updated) "
               "VALUES ('ROOMA', 0, '{}', 1, '[4, -2, -2]', 6.0)")
    db.commit()
    db.close()


def old_v2(path):
    """A database the last release made from scratch: every table of its metadata, version 2."""
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        metadata.create_all(conn, tables=[t for t in metadata.sorted_tables
                                          if t.name not in ("table_leases", "game_lines", "hand_reviews")])
        conn.exec_driver_sql("DROP INDEX ix_rooms_host_create_key")  # revision 0005's, after that release
        conn.exec_driver_sql("ALTER TABLE rooms DROP COLUMN create_key")
        conn.exec_driver_sql("ALTER TABLE rooms DROP COLUMN match_state")  # revision 0006's
        conn.exec_driver_sql("ALTER TABLE games DROP COLUMN lineup")  # revision 0007's
        conn.exec_driver_sql("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        conn.exec_driver_sql("INSERT INTO schema_version VALUES (2)")
        conn.exec_driver_sql("INSERT INTO players VALUES ('p1', 'ana', 'h1', 1.0)")
    engine.dispose()


def schema_differences(url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    engine = create_engine(url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    engine.dispose()
    return diff


def test_a_new_database_is_at_the_newest_revision_and_matches_the_code(tmp_path):
    url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    store = Store(url)
    ok, found = migrate.is_current(store.engine)
    assert ok and found == migrate.head() == "0008"
    assert schema_differences(url) == []
    assert Store(url).migrate() == ("0008", "0008")  # opening it again changes nothing


def test_a_first_release_database_is_stamped_and_upgraded_in_place(tmp_path):
    path = tmp_path / "v1.sqlite3"
    old_v1(path)
    store = Store(f"sqlite:///{path}")
    names = set(inspect(store.engine).get_table_names())
    assert "schema_version" not in names and {"alembic_version", "room_players", "table_leases"} <= names
    assert store.room("ROOMA")["settings"] == {}
    hist = store.history("p2")  # the history index was filled from the rooms' seats
    assert [(h["room"], h["seat"], h["totals"]) for h in hist] == [("ROOMA", 1, [4, -2, -2])]
    assert store.games_of("ROOMA")[0]["records"] == [{}]  # its log, moved line by line (revision 0004)
    assert schema_differences(f"sqlite:///{path}") == []


def test_hand_logs_move_into_lines_and_back(tmp_path):
    """Revision 0004 moves each hand's log into game_lines (appended to, never rewritten); its
    downgrade puts them back."""
    from alembic import command

    url = f"sqlite:///{tmp_path / 'r3.sqlite3'}"
    engine = create_engine(url)
    records = [{"type": "start", "n": 0}, {"type": "draw", "n": 1}, {"type": "discard", "n": 2}]
    with engine.begin() as conn:
        command.upgrade(migrate._config(conn), "0003")
        conn.exec_driver_sql("INSERT INTO games (room, hand_index, log, finished, totals, updated) VALUES "
                             "('R', 0, ?, 0, NULL, 1.0)", ("\n".join(json.dumps(r) for r in records),))
    engine.dispose()
    store = Store(url)
    assert store.games_of("R")[0]["records"] == records
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT log FROM games").scalar_one() == ""
        assert conn.exec_driver_sql("SELECT count(*) FROM game_lines").scalar_one() == 3
    with store.engine.begin() as conn:
        command.downgrade(migrate._config(conn), "0003")
        assert [json.loads(x) for x in conn.exec_driver_sql("SELECT log FROM games").scalar_one().splitlines()] \
            == records


def test_a_last_release_database_keeps_its_data(tmp_path):
    path = tmp_path / "v2.sqlite3"
    old_v2(path)
    store = Store(f"sqlite:///{path}")
    assert migrate.is_current(store.engine) == (True, "0008")
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT name FROM players").all() == [("ana",)]
    assert schema_differences(f"sqlite:///{path}") == []


def test_a_shared_database_is_upgraded_by_the_deploy_step_not_by_the_server(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    with pytest.raises(SchemaError, match="majiang db upgrade"):
        Store(url, upgrade=False)  # what a PostgreSQL worker does: check, never change
    assert main(["db", "current", "--db", url]) == 1
    assert main(["db", "upgrade", "--db", url]) == 0
    assert "upgraded from empty to 0008" in capsys.readouterr().out
    assert main(["db", "upgrade", "--db", url, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["after"] == "0008"
    assert main(["db", "current", "--db", url]) == 0
    Store(url, upgrade=False)


def test_the_migrations_ship_with_the_package():
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["majiang"]
    shipped = set()
    for pattern in data:
        package = root / "src" / "majiang"
        shipped |= {p.relative_to(package).as_posix() for p in package.glob(pattern)}
    needed = {p.relative_to(root / "src" / "majiang").as_posix()
              for p in Path(migrate.SCRIPTS).rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert needed and needed <= shipped
