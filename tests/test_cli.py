"""The command-line contracts that scripts and outside checks rely on."""

import json
import subprocess
import sys

import pytest

from majiang.cli.main import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_analyze_json_3n1(capsys):
    code, out, _ = run(capsys, "analyze", "1112345678999m", "--variant", "sichuan", "--json")
    assert code == 0
    assert json.loads(out) == {"shanten": 0, "waits": [f"{i}m" for i in range(1, 10)]}
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
    assert json.loads(out) == {"shanten": 0, "waits": ["1m", "4m"]}
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
    (["analyze", "123m4m", "--variant", "kawuxing", "--void", "m"], "Sichuan"),
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
    code, out, _ = run(capsys, "analyze", "--batch", str(f), "--variant", "sichuan")
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and len(lines) == 4
    assert lines[0]["shanten"] == 0 and "error" in lines[1] and lines[2]["shanten"] == 1 and "error" in lines[3]


def test_batch_stdin_subprocess():
    proc = subprocess.run([sys.executable, "-m", "majiang", "analyze", "--batch", "-", "--variant", "kawuxing"],
                          input="1112345678999p\n123\n", capture_output=True, text=True)
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert proc.returncode == 0 and out[0]["waits"][0] == "1p" and "error" in out[1]


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
