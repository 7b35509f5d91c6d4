"""The command-line contracts that scripts and outside checks rely on."""

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from majiang.cli.main import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_analyze_json_3n1(capsys):
    code, out, _ = run(capsys, "analyze", "1112345678999m", "--variant", "sichuan", "--json")
    assert code == 0
    # the tiles left of each wait, as the text report shows them (4 less the hand's own copies)
    assert json.loads(out) == {"shanten": 0, "waits": [f"{i}m" for i in range(1, 10)],
                               "waits_left": [1, 3, 3, 3, 3, 3, 3, 3, 1], "tiles_left": 23}
    code, out, _ = run(capsys, "analyze", "1p4p7p1s4s7s5z6z7z1p4p7p2s", "--variant", "kawuxing", "--json")
    res = json.loads(out)
    assert res["shanten"] > 0 and res["waits"] == []


def test_analyze_json_3n2(capsys):
    code, out, _ = run(capsys, "analyze", "1112345678999p5z", "--variant", "kawuxing", "--json")
    res = json.loads(out)
    assert res["shanten"] == 0 and res["win"] is False
    first = res["discards"][0]
    assert first == {"tile": "5z", "shanten": 0, "waits": [f"{i}p" for i in range(1, 10)],
                     "effective": [f"{i}p" for i in range(1, 10)], "effective_count": 23}
    code, out, _ = run(capsys, "analyze", "11223344556677s", "--variant", "kawuxing", "--json")
    assert json.loads(out)["shanten"] == -1 and json.loads(out)["win"] is True


def test_analyze_melds_void_visible(capsys):
    code, out, _ = run(capsys, "analyze", "1234m", "--variant", "sichuan", "--pong", "5p", "--kong", "7p",
                       "--concealed-kong", "9m", "--json")
    assert json.loads(out) == {"shanten": 0, "waits": ["1m", "4m"], "waits_left": [3, 3], "tiles_left": 6}
    code, out, _ = run(capsys, "analyze", "123m456m789m111p2p", "--variant", "sichuan", "--void", "p", "--json")
    assert json.loads(out)["waits"] == []
    code, out, _ = run(capsys, "analyze", "1112345678999p5z", "--variant", "kawuxing", "--visible", "2p2p",
                       "--json")
    assert json.loads(out)["discards"][0]["effective_count"] == 21


@pytest.mark.parametrize("argv, fragment", [
    (["analyze", "12x", "--variant", "kawuxing"], "unknown character 'x'"),
    (["analyze", "1112345678999m", "--variant", "kawuxing"], "not a tile of kawuxing"),
    (["analyze", "111122223333m", "--variant", "sichuan"], "cannot be analysed"),
    (["analyze", "11111m", "--variant", "sichuan"], "fifth copy"),
    (["analyze", "123m", "--variant", "mahjong"], "invalid choice"),
    (["analyze", "123m4m", "--variant", "kawuxing", "--void", "m"], "void suit"),
    (["analyze", "--variant", "sichuan"], "HAND is required"),
    (["analyze", "1234m", "--variant", "sichuan", "--pong", "5x"], "unknown character"),
    (["score", "123m", "--variant", "sichuan"], "--win"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and fragment in err
    assert "Traceback" not in err


def test_batch(tmp_path, capsys):
    f = tmp_path / "hands.txt"
    f.write_text("1112345678999m\nbad hand\n123m456m789m11p2p5p\n\n")
    code, out, err = run(capsys, "analyze", "--batch", str(f), "--variant", "sichuan")
    lines = [json.loads(x) for x in out.splitlines()]
    # every line answered, and the run says that some failed: status 2 and one line
    assert code == 2 and len(lines) == 4
    assert err == "majiang: analyze: 2 of 4 lines failed (the first: line 2); each has an error object\n"
    assert lines[0]["shanten"] == 0 and "error" in lines[1] and lines[2]["shanten"] == 1 and "error" in lines[3]


def test_batch_stdin_subprocess():
    proc = subprocess.run([sys.executable, "-m", "majiang", "analyze", "--batch", "-", "--variant", "kawuxing"],
                          input="1112345678999p\n123\n", capture_output=True, text=True, timeout=120)
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert proc.returncode == 2 and out[0]["waits"][0] == "1p" and "error" in out[1]
    assert proc.stderr.count("\n") == 1 and "1 of 2 lines failed" in proc.stderr


def test_readable_output(capsys):
    code, out, _ = run(capsys, "analyze", "1112345678999p", "--variant", "kawuxing")
    assert "waits" in out and "一筒" in out and "🀙" in out
    code, out, _ = run(capsys, "score", "1122334456677p", "--win", "5p", "--variant", "kawuxing")
    assert "清一色" in out and "×16" in out


def test_play_in_terminal_with_piped_input():
    # always answer the first choice; the hand finishes and the settlement prints
    proc = subprocess.run([sys.executable, "-m", "majiang", "play", "--variant", "kawuxing", "--seed", "3"],
                          input="0\n" * 400, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "hand over" in proc.stdout and "match totals" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "majiang", "play", "--variant", "sichuan", "--seed", "3"],
                          input="0\n" * 400, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "hand over" in proc.stdout


def test_help_lists_commands(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for cmd in ("analyze", "score", "simulate", "replay", "play"):
        assert cmd in out


def test_rules_file_and_options(tmp_path, capsys):
    f = tmp_path / "rules.toml"
    f.write_text('preset = "standard"\ncap = 8\n')
    code, out, _ = run(capsys, "score", "1122334455566p", "--win", "5p", "--variant", "kawuxing", "--rules",
                       str(f), "--json")
    assert json.loads(out)["multiplier"] == 8
    code, out, _ = run(capsys, "score", "1122334455566p", "--win", "5p", "--variant", "kawuxing", "-o", "cap=16",
                       "--json")
    assert json.loads(out)["multiplier"] == 16
    code, out, err = run(capsys, "score", "1122334455566p", "--win", "5p", "--variant", "kawuxing", "-o",
                         "nonsense=1")
    assert code == 2 and "unknown option" in err


# ---------------------------------------------------------------- garbage in: one line, exit 2, nothing written

def refused(capsys, *argv, fragment: str = "") -> str:
    """Run a command that must refuse its input: exit 2, nothing on stdout, one line on stderr."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", (code, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert fragment in err, err
    return err


@pytest.fixture(scope="module")
def game_log(tmp_path_factory):
    """The lines of a real one-hand Sichuan log."""
    folder = tmp_path_factory.mktemp("logs")
    assert main(["simulate", "--variant", "sichuan", "--games", "1", "--log", str(folder)]) == 0
    (path,) = folder.iterdir()
    return path.read_text(encoding="utf-8").splitlines()


def _edited(lines, index, **changes):
    records = [json.loads(x) for x in lines]
    records[index].update(changes)
    return "\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n"


@pytest.mark.parametrize("content, fragment", [
    (b"\x89PNG\r\n\x1a\n\x00\xff\xfe binary", "not UTF-8 text"),
    (b"", "no hands in this log"),
    (b"\n\n", "no hands in this log"),
    (b"[" * 100_000, "nested too deeply"),
    (b'{"type": "start", "dealer": Infinity}', "a number must be finite"),
    (b'{"type": "start", "dealer": 1e999}', "a number must be finite"),
    (b'{"type": "start", "hand_index": NaN}', "a number must be finite"),
    (b'{"type": "start", "seed": ' + b"9" * 5000 + b"}", "not valid JSON"),
    (b'"just a string"', "must be an object with a 'type'"),
    (b'{"type": "action", "seat": 0}', "must begin with a 'start' record"),
])
def test_replay_refuses_files_that_are_not_logs(tmp_path, capsys, content, fragment):
    path = tmp_path / "game.jsonl"
    path.write_bytes(content)
    refused(capsys, "replay", str(path), fragment=fragment)


@pytest.mark.parametrize("index, changes, fragment", [
    (0, {"format": 99}, "log format 99, this version reads format 1"),
    (0, {"dealer": 7}, "'dealer' must be a whole number 0-3, got 7"),
    (0, {"dealer": "0"}, "'dealer' must be a whole number"),
    (0, {"hand_index": -1}, "'hand_index' must be a whole number"),
    (0, {"dice": [0, 7]}, "'dice' must be two dice 1-6"),
    (0, {"rules": None}, "'rules' must be an object"),
    (0, {"wall": "1m2m"}, "'wall' must be a list"),
    (0, {"wall": ["1m"] * 108}, "an injected wall"),
    (0, {"rules": {"variant": "sichuan", "cap_fan": "x"}}, "cap_fan"),
    (3, {"seat": 1e300}, "an action's 'seat' must be a whole number"),
    (3, {"seat": 9}, "no seat 9"),
    (3, {"action": {"type": "fly"}}, "unknown action type"),
])
def test_replay_refuses_a_crafted_record(tmp_path, capsys, game_log, index, changes, fragment):
    index = index if index == 0 else next(i for i, x in enumerate(game_log) if '"type":"action"' in x)
    path = tmp_path / "game.jsonl"
    path.write_text(_edited(game_log, index, **changes), encoding="utf-8")
    refused(capsys, "replay", str(path), fragment=fragment)


def test_replay_names_the_key_that_differs(tmp_path, capsys, game_log):
    end = next(i for i, x in enumerate(game_log) if '"type":"end"' in x)
    result = json.loads(game_log[end])["result"]
    other = "draw" if result == "win" else "win"
    path = tmp_path / "game.jsonl"
    path.write_text(_edited(game_log, end, result=other), encoding="utf-8")
    err = refused(capsys, "replay", str(path), fragment=f'end: result logged "{other}", rebuilt "{result}"')
    assert "<Result" not in err and len(err) < 200


def test_replay_of_the_real_log_passes(tmp_path, capsys, game_log):
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(game_log) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and "ok: 1 hand(s)" in out


_json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                            | st.text(max_size=8), lambda inner: st.lists(inner, max_size=3)
                            | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(record=st.integers(0, 40), key=st.sampled_from(["type", "seat", "action", "dealer", "hand_index", "dice",
                                                           "wall", "rules", "format", "tile", "seed", "dealer_dice"]),
       value=_json_values)
def test_replay_of_any_edited_record_is_a_result_or_one_line(tmp_path, capsys, game_log, record, key, value):
    path = tmp_path / "game.jsonl"
    path.write_text(_edited(game_log, record % len(game_log), **{key: value}), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert code in (0, 2) and "Traceback" not in err
    if code == 2:
        assert out == "" and len(err.strip().splitlines()) == 1


SCORE = ["score", "123m456m789m123p5p", "--win", "5p", "--variant", "sichuan"]


@pytest.mark.parametrize("name, content, fragment", [
    ("rules.json", b"\xff\xfe{}", "not UTF-8 text"),
    ("rules.toml", b"cap = '\xff'", "not UTF-8 text"),
    ("rules.json", b"[" * 10_000, "nested too deeply"),  # within the 16 KB a rules file may hold
    ("rules.toml", b"a = " + b"[" * 10_000, "nested too deeply"),
    ("rules.json", b" " * 100_000, "more than the 16,384 read for one"),
    ("rules.json", b'{"cap_fan": Infinity}', "a number must be finite"),
    ("rules.toml", b"cap_fan = inf", "cap_fan"),
    ("rules.json", b'{"base": 1e999}', "a number must be finite"),
    ("rules.json", b"[1, 2]", "expected an object"),
    ("rules.json", b'{"variant": "kawuxing"}', "give the variant once"),
    ("rules.json", b'{"preset": 3}', "preset must be a name"),
])
def test_score_refuses_a_crafted_rules_file(tmp_path, capsys, name, content, fragment):
    path = tmp_path / name
    path.write_bytes(content)
    refused(capsys, *SCORE, "--rules", str(path), fragment=fragment)


@pytest.mark.parametrize("option, fragment", [
    ("variant=kawuxing", "give the variant once"),
    ("preset=suizhou", "unknown preset 'suizhou' for sichuan"),
    ("cap_fan=1e999", "cap_fan"),
    ("nosuch", "NAME=VALUE"),
])
def test_score_refuses_variant_and_preset_options_it_cannot_hold(capsys, option, fragment):
    refused(capsys, *SCORE, "-o", option, fragment=fragment)


def test_score_takes_preset_and_its_own_variant_as_options(capsys):
    code, out, _ = run(capsys, *SCORE, "-o", "preset=modern", "-o", "variant=sichuan", "--json")
    assert code == 0 and json.loads(out)["win"] is True


@settings(max_examples=60, deadline=None)
@given(options=st.dictionaries(st.sampled_from(["base", "cap_fan", "blood_river", "rounds", "preset", "variant",
                                                "exchange_three", "nosuch"]), _json_values, max_size=3))
def test_score_with_any_rules_file_is_a_result_or_one_line(tmp_path_factory, options):
    path = tmp_path_factory.mktemp("rules") / "rules.json"
    path.write_text(json.dumps(options), encoding="utf-8")
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*SCORE, "--rules", str(path)])
    assert code in (0, 2) and "Traceback" not in err.getvalue()
    if code == 2:
        assert out.getvalue() == "" and len(err.getvalue().strip().splitlines()) == 1


@pytest.mark.parametrize("argv, fragment", [
    (["--db", "notaurl"], "is not a database URL"),
    (["--db", "mysql://x"], "SQLite or PostgreSQL, not mysql"),
    (["--db", "sqlite:////nonexistent/dir/x.sqlite3"], "no folder /nonexistent/dir"),
    (["--port", "99999"], "--port must be 1-65535"),
    (["--port", "0"], "--port must be 1-65535"),
    (["--db", "postgresql://u:secret@127.0.0.1:1/x"], "cannot open the database postgresql://u@127.0.0.1:1/x"),
])
def test_serve_refuses_a_database_or_port_it_cannot_use(capsys, argv, fragment):
    pytest.importorskip("sqlalchemy")
    pytest.importorskip("uvicorn")
    if "postgresql" in argv[-1]:
        pytest.importorskip("psycopg")
    err = refused(capsys, "serve", *argv, fragment=fragment)
    assert "secret" not in err


@pytest.mark.parametrize("url, fragment", [
    ("notaurl", "is not a database URL"),
    ("postgresql://u:secret@127.0.0.1:1/x", "cannot open the database postgresql://u@127.0.0.1:1/x"),
])
@pytest.mark.parametrize("action", ["upgrade", "current"])
def test_db_refuses_a_database_it_cannot_reach(capsys, url, fragment, action):
    pytest.importorskip("sqlalchemy")
    if "postgresql" in url:
        pytest.importorskip("psycopg")
    refused(capsys, "db", action, "--db", url, fragment=fragment)


def test_db_without_the_postgres_driver_says_which_extra(capsys, monkeypatch):
    pytest.importorskip("sqlalchemy")
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "psycopg" else real(name, *a))
    refused(capsys, "db", "upgrade", "--db", "postgresql://u@h/x", fragment="pip install 'majiang[postgres]'")


def test_native_build_outside_a_checkout_is_one_line(tmp_path, monkeypatch, capsys):
    pytest.importorskip("numpy")
    import majiang.native as native

    monkeypatch.setattr(native, "_CRATE", tmp_path / "native")
    assert native.main(["build"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "source checkout" in err


ARENA = ["arena", "--variant", "sichuan", "--bots", "greedy,greedy,greedy,greedy", "--games", "1"]


@pytest.mark.parametrize("extra, fragment", [
    (["--plot", "out.txt"], "give a file ending in one of"),
    (["--plot", "/nonexistent/dir/out.png"], "no folder /nonexistent/dir"),
    (["--timeout", "-1"], "--timeout must be a number of seconds above 0"),
    (["--timeout", "0"], "--timeout must be"),
    (["--timeout", "nan"], "--timeout must be"),
])
def test_arena_checks_its_options_before_it_plays(tmp_path, capsys, extra, fragment):
    if "--plot" in extra:
        pytest.importorskip("matplotlib")
    refused(capsys, *ARENA, "--out", str(tmp_path / "run"), *extra, fragment=fragment)
    assert not (tmp_path / "run").exists()  # nothing written


def test_arena_without_matplotlib_refuses_plot_before_the_run(tmp_path, capsys, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    refused(capsys, *ARENA, "--plot", str(tmp_path / "x.png"), fragment="pip install 'majiang[plot]'")


def test_arena_report_is_out_before_a_plot_fails(tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    import majiang.play.arena as arena

    def broken(result, path):
        raise OSError(28, "No space left on device", path)

    monkeypatch.setattr(arena, "plot", broken)
    code, out, err = run(capsys, *ARENA, "--out", str(tmp_path / "run"), "--plot", str(tmp_path / "p.png"))
    assert code == 2 and "points/hand" in out and "No space left" in err
    assert (tmp_path / "run" / "summary.json").exists()


@pytest.mark.parametrize("bots, fragment", [
    ("expert:nosuch=1,greedy,greedy,greedy", "its options: samples"),
    ("greedy:x=1,greedy,greedy,greedy", "its options: none"),
    ("nobot,greedy,greedy,greedy", "unknown agent 'nobot'"),
])
def test_arena_names_the_agent_options_there_are(capsys, bots, fragment):
    refused(capsys, "arena", "--variant", "sichuan", "--bots", bots, "--games", "1", fragment=fragment)


def test_arena_merge_names_the_rule_that_differs(tmp_path, capsys):
    assert main([*ARENA, "--out", str(tmp_path / "a")]) == 0
    assert main([*ARENA, "--first-deal", "1", "-o", "cap_fan=2", "--out", str(tmp_path / "b")]) == 0
    capsys.readouterr()
    err = refused(capsys, "arena-merge", str(tmp_path / "a"), str(tmp_path / "b"), fragment="other rules")
    assert "cap_fan 2 vs null" in err and len(err) < 200
    (tmp_path / "c.jsonl").write_bytes(b"\xff\xfe")
    refused(capsys, "arena-merge", str(tmp_path / "c.jsonl"), fragment="not UTF-8 text")


@pytest.mark.parametrize("argv, fragment", [
    (["play", "--variant", "sichuan", "--hands", "0"], "--hands must be at least 1"),
    (["play", "--variant", "sichuan", "--bot", "nobot"], "unknown agent"),
    (["analyze", "111p23456m789s55m", "--variant", "sichuan", "--visible", "1p1p"],
     "1p: the hand holds 3 and 2 more are visible"),
    (["analyze", "1112346789p", "--variant", "kawuxing", "--pong", "5p", "--visible", "5p5p"],
     "5p: the hand holds 3 and 2 more"),
])
def test_play_and_analyze_refuse_impossible_counts(capsys, argv, fragment):
    refused(capsys, *argv, fragment=fragment)


def test_a_closed_pipe_is_silent():
    """``majiang ... | head``: the reader leaving is no error, and no "Broken pipe" is printed."""
    proc = subprocess.Popen([sys.executable, "-m", "majiang", "simulate", "--variant", "sichuan", "--games", "20"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0 and err == "", err


def test_the_library_page_runs_as_written(tmp_path):
    """docs/LIBRARY.md's "Library" block, run as a script: its printed values are the ones its comments give."""
    import pathlib
    import re

    page = (pathlib.Path(__file__).parents[2] / "docs" / "LIBRARY.md").read_text(encoding="utf-8")
    section = page.split("\n## Library\n", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    (tmp_path / "library.py").write_text(code, encoding="utf-8")
    proc = subprocess.run([sys.executable, "library.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:3] == ["0", "5z 0 23", "2 ['卡五星']"]
    assert lines[-2:] == ["win [1, -2, 4, -3]", "True"] and "over: win" in proc.stdout


def test_play_takes_words_gives_hints_and_narrates_the_table():
    proc = subprocess.run([sys.executable, "-m", "majiang", "play", "--variant", "kawuxing", "--seed", "3"],
                          input="hint\n过\n碰\n0\n" * 300, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "hint: " in out and "from ready" in out
    assert "since your last move: " in out and "discarded" in out and "pond:" in out
    assert "shows " in out and "waits " in out and "{" not in out  # a revealed hand as tiles, not a dict
    assert "seat 1 · greedy" in out and "hand over" in out


def test_play_help_lists_every_bot_level(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert all(level in out for level in ("random", "greedy", "strong", "expert"))


@pytest.mark.parametrize("argv, fragment", [
    (["simulate", "--variant", "sichuan", "--games", "0"], "--games"),
    (["simulate", "--variant", "sichuan", "--games", "1", "--bots", "nobot"], "unknown agent 'nobot'"),
    (["simulate", "--variant", "sichuan", "--games", "1", "--bots", "greedy:depth=2"], "has no option 'depth'"),
    (["simulate", "--variant", "sichuan", "--games", "1", "-o", "rounds=-5"], "rounds"),
    (["replay", "/nonexistent/game.jsonl"], "No such file or directory"),
    (["arena-merge", "/nonexistent/run"], "No such file or directory"),
])
def test_simulate_and_file_commands_refuse_garbage(capsys, argv, fragment):
    refused(capsys, *argv, fragment=fragment)


def test_batch_answers_a_line_that_is_not_text_with_an_error_line(tmp_path, capsys):
    f = tmp_path / "hands.txt"
    f.write_bytes(b"1112345678999m\n\xff\xfe\x00\n123m456m789m11p2p5p\n")
    code, out, _ = run(capsys, "analyze", "--batch", str(f), "--variant", "sichuan")
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and len(lines) == 3
    assert lines[1] == {"error": "line 2: not UTF-8 text"} and lines[2]["shanten"] == 1


@pytest.mark.parametrize("line, changes, fragment", [
    (0, {"bots": None}, "names no table"),
    (0, {"bots": ["greedy", 2]}, "names no table"),
    (0, {"format": 99}, "result format 99"),
    (1, {"entries": None}, "not a deal of this table"),
    (1, {"entries": [{}, {}, {}]}, "not a deal of this table"),
    (1, {"deal": "x"}, "not a deal of this table"),
])
def test_arena_merge_refuses_a_crafted_result_file(tmp_path, capsys, line, changes, fragment):
    assert main(["arena", "--variant", "kawuxing", "--bots", "greedy,greedy,greedy", "--games", "2",
                 "--out", str(tmp_path / "run")]) == 0
    capsys.readouterr()
    lines = (tmp_path / "run" / "deals.jsonl").read_text().splitlines()
    lines[line] = json.dumps({**json.loads(lines[line]), **changes})
    (tmp_path / "crafted.jsonl").write_text("\n".join(lines) + "\n")
    refused(capsys, "arena-merge", str(tmp_path / "crafted.jsonl"), fragment=fragment)


# --- issue #49: crashes, hangs and silence --------------------------------------------------------


def cli(*argv, stdin=None, env=None, timeout=30):
    """``majiang ARGV`` in a process of its own: (status, stdout, stderr)."""
    import os

    proc = subprocess.run([sys.executable, "-m", "majiang", *argv], input=stdin, capture_output=True,
                          timeout=timeout, env={**os.environ, **(env or {})})
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


def one_line(err: str) -> str:
    assert err.endswith("\n") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("bots, fragment", [
    ("cmd:,greedy,greedy", "names no program"),
    ('cmd:python "unclosed,greedy,greedy', "No closing quotation"),
    ("expert:orders=-5,greedy,greedy", "orders must be a whole number 0 or more, got -5"),
    ("expert:samples=-3,greedy,greedy", "samples must be a whole number 0 or more, got -3"),
    ("expert:orders=5,orders=7,greedy,greedy", "gives option 'orders' twice"),
    ("expert:orders=many,greedy,greedy", "orders must be a whole number"),
    ("expert:margin=nan,greedy,greedy", "margin must be a number 0 or more"),
    (",,,", "names no agent"),
])
def test_bad_bots_are_refused_in_one_line_before_any_play(capsys, bots, fragment):
    refused(capsys, "arena", "--variant", "kawuxing", "--bots", bots, "--games", "1", fragment=fragment)


def test_a_batch_past_its_size_bound_is_refused_in_a_line(tmp_path, monkeypatch, capsys):
    """A huge batch (a file, or a pipe that never ends) is refused past its bound, after the lines
    before it are answered; a file is refused before it is read."""
    import io

    from majiang.cli import analyze, common

    big = tmp_path / "big.txt"
    big.write_bytes(b"123456789m12345p\n" * 4096)  # 69,632 bytes
    monkeypatch.setattr(analyze, "MAX_BATCH_BYTES", 65536)
    monkeypatch.setattr(common, "MAX_BATCH_BYTES", 65536)
    refused(capsys, "analyze", "--batch", str(big), "--variant", "sichuan", fragment="more than the 65,536")
    with pytest.raises(common.UsageError, match="more than the 65,536 bytes"):
        for _ in analyze._blocks(io.BytesIO(big.read_bytes()), "stdin", 4096, size=8192, max_bytes=65536):
            pass


def test_a_ray_cluster_nobody_answers_at_is_refused_within_seconds():
    pytest.importorskip("ray")
    status, _, err = cli("arena", "--variant", "kawuxing", "--games", "1", "--backend", "ray",
                         "--ray-address", "127.0.0.1:1", "--bots", "greedy,greedy,greedy", timeout=30)
    assert status == 2 and "cannot reach the Ray cluster at 127.0.0.1:1" in one_line(err)


@pytest.mark.parametrize("argv", [
    ["simulate", "--variant", "sichuan", "--games", "1", "--bots", "expert:samples=-3"],
    ["simulate", "--variant", "sichuan", "--games", "1", "--bots", "greedy,greedy"],
    ["play", "--variant", "sichuan", "--bot", "expert:orders=-1"],
])
def test_simulate_and_play_check_their_bots(capsys, argv):
    refused(capsys, *argv)


@pytest.mark.parametrize("argv, fragment", [
    (["replay", "/dev/zero"], "line 1 is longer than 1,048,576 bytes"),
    (["analyze", "--batch", "/dev/zero", "--variant", "kawuxing"], "line 1 is longer than 4,096 bytes"),
    (["score", "123p456p789p11s34s", "--win", "5s", "--variant", "kawuxing", "--rules", "/dev/zero"],
     "not a regular file"),
    (["arena-merge", "/dev/zero"], "not a regular file"),
])
def test_endless_input_is_refused_within_seconds(argv, fragment):
    code, out, err = cli(*argv, timeout=20)
    assert code == 2 and fragment in one_line(err)


def test_a_huge_log_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as f:
        f.truncate((64 << 20) + 1)  # sparse: no disk used
    code, _, err = cli("replay", str(big))
    assert code == 2 and "more than the 67,108,864 this command reads" in one_line(err)


def test_a_stream_without_line_breaks_is_refused_on_stdin():
    code, out, err = cli("analyze", "--batch", "-", "--variant", "sichuan", stdin=b"1" * 100_000)
    assert code == 2 and out == "" and "longer than 4,096 bytes" in one_line(err)


@pytest.mark.parametrize("extra, fragment", [
    (["--preset", "xiangyang", "-o", "preset=suizhou"], "give the preset once"),
    (["-o", "preset=xiangyang", "-o", "preset=suizhou"], "give the preset once"),
    (["-o", "variant=sichuan"], "give the variant once"),
])
def test_two_presets_are_refused_not_one_picked(capsys, extra, fragment):
    refused(capsys, "score", "123p456p789p11s34s", "--win", "5s", "--variant", "kawuxing", *extra, fragment=fragment)


def test_the_same_preset_twice_is_fine(capsys):
    code, out, _ = run(capsys, "score", "123p456p789p11s34s", "--win", "5s", "--variant", "kawuxing",
                       "--preset", "xiangyang", "-o", "preset=xiangyang")
    assert code == 0 and "kawuxing/xiangyang" in out


def test_a_preset_in_a_rules_file_that_contradicts_preset_is_refused(capsys, tmp_path):
    f = tmp_path / "r.json"
    f.write_text('{"preset": "suizhou"}')
    refused(capsys, "score", "123p456p789p11s34s", "--win", "5s", "--variant", "kawuxing", "--preset", "xiangyang",
            "--rules", str(f), fragment="give the preset once")


@pytest.mark.parametrize("encoding", ["gbk", "ascii", "latin-1"])
def test_a_stream_that_cannot_show_the_glyphs_gets_plain_text(encoding):
    for argv in (["analyze", "1112345678999p5z", "--variant", "kawuxing"],
                 ["analyze", "1112345678999p", "--variant", "kawuxing"],
                 ["analyze", "1112345678999p", "--variant", "kawuxing", "--json"],
                 ["score", "1122334456677p", "--win", "5p", "--variant", "kawuxing"]):
        proc = subprocess.run([sys.executable, "-m", "majiang", *argv], capture_output=True, timeout=30,
                              env={**__import__("os").environ, "PYTHONIOENCODING": encoding})
        assert proc.returncode == 0 and proc.stderr == b"", (argv, proc.stderr)
        text = proc.stdout.decode(encoding)
        assert "5p" in text or "1p" in text
        assert "🀄" not in text and "🀙" not in text


def test_batch_of_random_bytes_answers_every_line_and_exits_2(tmp_path):
    import random

    f = tmp_path / "junk.bin"
    rnd = random.Random(4)
    f.write_bytes(bytes(rnd.randrange(256) for _ in range(20_000)))
    lines = f.read_bytes().count(b"\n") + (not f.read_bytes().endswith(b"\n"))
    code, out, err = cli("analyze", "--batch", str(f), "--variant", "kawuxing")
    assert code == 2 and len(out.splitlines()) == lines and all("error" in json.loads(x) for x in out.splitlines())
    assert f"{lines} of {lines} lines failed" in one_line(err)


def test_play_says_when_its_input_ends():
    code, out, err = cli("play", "--variant", "kawuxing", stdin=b"")
    assert code == 2 and out.rstrip().endswith("your move:")
    assert "the input ended before the game did" in one_line(err)
    code, out, err = cli("play", "--variant", "kawuxing", stdin=b"hint\nq\n")
    assert code == 0 and err == "" and "hint:" in out


def test_play_reads_a_long_line_as_bad_moves_not_whole(capsys):
    code, out, err = cli("play", "--variant", "kawuxing", stdin=b"x" * 5000 + b"\nq\n")
    assert code == 0 and "is not one of the choices" in out


def test_self_draw_is_the_flag_and_tsumo_a_hidden_alias(capsys):
    """The library's word (``self_draw=``) is the flag's; --tsumo still reads, unlisted."""
    args = ["score", "1112223334445m", "--win", "5m", "--variant", "sichuan", "--heavenly", "--json"]
    refused(capsys, *args, fragment="add --self-draw")
    _, self_draw, _ = run(capsys, *args, "--self-draw")
    _, tsumo, _ = run(capsys, *args, "--tsumo")
    assert self_draw == tsumo and "天胡" in self_draw
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    helptext = capsys.readouterr().out
    assert "--self-draw" in helptext and "--tsumo" not in helptext


def test_simulate_help_lists_every_registered_agent(capsys):
    from majiang.bots import AGENTS

    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    helptext = " ".join(capsys.readouterr().out.split())
    assert all(name in helptext for name in AGENTS) and "cmd:PROGRAM" in helptext


def test_analyze_json_keeps_the_tiles_left(capsys):
    code, out, _ = run(capsys, "analyze", "1112345678999p", "--variant", "kawuxing", "--visible", "1p2p", "--json")
    res = json.loads(out)
    assert res["waits_left"] == [0, 2, 3, 3, 3, 3, 3, 3, 1] and res["tiles_left"] == 21
    code, text, _ = run(capsys, "analyze", "1112345678999p", "--variant", "kawuxing", "--visible", "1p2p")
    assert "(21 tiles left)" in text


def test_arena_result_has_a_short_repr():
    from majiang.games.rules import rules_for
    from majiang.play.arena import run_arena

    result = run_arena(rules_for("kawuxing"), ["greedy"] * 3, 2, 0)
    assert repr(result) == ("ArenaResult(kawuxing/standard, bots=greedy,greedy,greedy, seed=0, 2 deals; "
                            ".summary() for the results)")
    assert result.summary()["deals"] == 2


def test_ctrl_c_in_arena_workers_is_one_line_and_130(tmp_path):
    """SIGINT to the whole group (as a terminal sends it) while workers play: status 130, one line."""
    import os
    import signal
    import time

    proc = subprocess.Popen([sys.executable, "-m", "majiang", "arena", "--variant", "sichuan", "--bots", "greedy",
                             "--games", "100000", "--workers", "2", "--bots", "greedy,greedy,greedy,greedy"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(6)  # the workers started and playing
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.decode() == "majiang: interrupted\n", err.decode()


@pytest.mark.parametrize("delay", [0.8, 1.5, 2.5])
def test_ctrl_c_while_arena_workers_start_is_one_line_too(delay):
    """SIGINT to the group while the spawned workers are still importing (they start with it ignored)."""
    import os
    import signal
    import time

    proc = subprocess.Popen([sys.executable, "-m", "majiang", "arena", "--variant", "kawuxing", "--games", "100000",
                             "--workers", "2", "--bots", "greedy,greedy,greedy"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    if proc.returncode == 130:
        assert err.decode() == "majiang: interrupted\n", err.decode()
    else:  # the signal came before our handler was set (the interpreter still starting): Python's own
        assert proc.returncode in (-signal.SIGINT, 1) and "SpawnPoolWorker" not in err.decode()


def test_simulate_memory_stays_flat_in_the_hands():
    """The summary streams: a match keeps no per-hand record (simulate's own Match)."""
    from majiang.games.rules import rules_for
    from majiang.play.match import Match

    m = Match(rules_for("sichuan"), 0, keep_hands=False)
    from majiang.bots import make_agent
    m.play([make_agent("random", seed=s) for s in range(4)], hands=3)
    assert m.hands == [] and m.played == 3 and len(m.totals) == 4 and m.summary()["hands"] == 3


def _random_hand_lines(seed: int, n: int, kinds: list[int]) -> list[str]:
    import random

    from majiang.core.tiles import ALL_TILES, format_tiles

    rnd = random.Random(seed)
    wall = [k for k in kinds for _ in range(4)]
    lines = []
    for i in range(n):
        size = rnd.choice((13, 14, 14))
        if i % 3 == 0:  # a complete hand (sets and a pair, or seven pairs), then a tile out or swapped
            suited = [k for k in kinds if k < 27]
            while True:
                tiles = []
                if rnd.random() < 0.2:
                    for k in rnd.sample(kinds, 7):
                        tiles += [k, k]
                else:
                    for _ in range(4):
                        k = rnd.choice(suited)
                        tiles += [k] * 3 if rnd.random() < 0.4 or k % 9 > 6 else [k, k + 1, k + 2]
                    tiles += [rnd.choice(kinds)] * 2
                if all(tiles.count(k) <= 4 for k in tiles) and all(k in kinds for k in tiles):
                    break
            how = rnd.randrange(3)
            if how == 0:
                tiles.remove(rnd.choice(tiles))
            elif how == 1:
                tiles.remove(rnd.choice(tiles))
                extra = rnd.choice(kinds)
                tiles += [extra] if tiles.count(extra) < 4 else []
            lines.append(format_tiles([ALL_TILES[k] for k in sorted(tiles)]))
            continue
        lines.append(format_tiles([ALL_TILES[k] for k in sorted(rnd.sample(wall, size))]))
    return lines + ["12x", "", "11111m234m567m99m", "123m456m789m11m2z3", "一二三万456p789p11s22s",
                    "1112345678999m5z5z", "123p456p789p11s34s 5s", "1p", "5z5z5z", "m123"]


@pytest.mark.parametrize("variant, void, visible, shanten_only", [
    ("kawuxing", None, None, False), ("sichuan", None, None, False), ("sichuan", "p", "1m2m3m5s", False),
    ("kawuxing", None, "5p5p1s", False), ("sichuan", None, None, True), ("kawuxing", None, None, True),
])
def test_the_fast_batch_answers_as_the_one_hand_path(tmp_path, capsys, variant, void, visible, shanten_only):
    """Every line of a batch (random hands, near-ready ones, junk) gets exactly the line the one-hand
    path gives it: the block parser and batch analysis are an optimisation, never a difference."""
    from majiang.cli.analyze import _visible_counts
    from majiang.core.analysis import analyze_hand, shanten
    from majiang.core.errors import MajiangError
    from majiang.core.hand import Hand

    kinds = list(range(9, 30)) if variant == "kawuxing" else list(range(27))
    lines = _random_hand_lines(len(variant) + bool(void), 400, kinds)
    f = tmp_path / "hands.txt"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = ["analyze", "--batch", str(f), "--variant", variant] + (["--void", void] if void else []) \
        + (["--visible", visible] if visible else []) + (["--shanten-only"] if shanten_only else [])
    code, out, err = run(capsys, *argv)
    seen = _visible_counts(visible)
    expected = []
    for line in lines:
        try:
            result = {"shanten": shanten(Hand.parse(line), variant, void)} if shanten_only else \
                analyze_hand(line, variant, [], void, seen)
        except MajiangError as exc:
            result = {"error": str(exc)}
        expected.append(json.dumps(result, ensure_ascii=False, separators=(",", ":")))
    assert out.splitlines() == expected
    assert code == 2 and "lines failed" in err


def test_the_batch_reads_lines_across_blocks_and_a_last_line_without_newline(tmp_path, capsys):
    from majiang.cli import analyze

    f = tmp_path / "hands.txt"
    f.write_bytes(b"1112345678999p\n" * 5 + b"123p456p789p11s34s")
    blocks = list(analyze._blocks(open(f, "rb"), "f", 4096, size=7))
    assert b"".join(blocks) == f.read_bytes() + b"\n" and all(b.endswith(b"\n") for b in blocks)
    code, out, _ = run(capsys, "analyze", "--batch", str(f), "--variant", "kawuxing")
    assert code == 0 and len(out.splitlines()) == 6 and json.loads(out.splitlines()[-1])["waits"] == ["2s", "5s"]


@pytest.mark.parametrize("argv, fragment", [
    (["arena", "--variant", "sichuan", "--bots", "greedy,greedy,greedy,greedy", "--games", "1", "--workers", "100000"],
     "--workers must be 1-"),
    (["arena", "--variant", "sichuan", "--bots", "greedy,greedy,greedy,greedy", "--games", "1", "--timeout", "nan"],
     "--timeout"),
    (["arena", "--variant", "sichuan", "--bots", "greedy,greedy,greedy,greedy", "--games", "1", "--out", "/dev/null"],
     "/dev/null"),
    (["analyze", "1p1p", "--variant", "kawuxing", "--visible", "1p1p1p1p1p"], "at most 4"),
    (["analyze", "1112345678999p", "--variant", "kawuxing", "--shanten-only"], "--shanten-only is for --batch"),
    (["score", "1112345678999m", "--variant", "sichuan", "--win", "1m", "-o", "x"], "NAME=VALUE"),
    (["play", "--variant", "sichuan", "--bot", "cmd:"], "names no program"),
])
def test_more_hostile_input_is_one_line(capsys, argv, fragment):
    refused(capsys, *argv, fragment=fragment)


def test_a_rules_file_of_endless_dotted_keys_is_refused_at_once(tmp_path):
    f = tmp_path / "deep.toml"
    f.write_text("a" + ".b" * 100_000 + " = 1\n")
    code, _, err = cli("score", "1112345678999m", "--variant", "sichuan", "--win", "1m", "--rules", str(f), timeout=10)
    assert code == 2 and "more than the 16,384 read for one" in one_line(err)


@pytest.mark.parametrize("content", [b"\xff\xfe\x00\n", b"", b"[" * 100_000 + b"\n",
                                     b'{"type":"start","seed":' + b"9" * 5000 + b"}\n"])
def test_replay_of_junk_is_one_line(tmp_path, content):
    f = tmp_path / "log.jsonl"
    f.write_bytes(content)
    code, out, err = cli("replay", str(f))
    assert code == 2 and out == "" and one_line(err)


def test_play_with_input_that_is_not_text_is_a_bad_move_not_a_traceback():
    code, out, err = cli("play", "--variant", "kawuxing", stdin=b"\xff\xfe\n" * 3 + b"q\n",
                         env={"PYTHONIOENCODING": "utf-8"})
    assert code == 0 and err == "" and "is not one of the choices" in out
