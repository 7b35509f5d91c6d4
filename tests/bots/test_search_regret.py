"""scripts/search_regret.py: every searched decision's regret against the yardstick of the real
hands; entries paired against the first; bad entries refused with a message."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("search_regret", ROOT / "scripts" / "search_regret.py")
regret = importlib.util.module_from_spec(spec)
spec.loader.exec_module(regret)

CHEAP = "samples=6,first=3,batch=3,work=24"


def test_regrets_are_measured_against_the_real_hands():
    _, base = regret.parse_spec("expert:" + CHEAP)
    tries = [regret.parse_try(t, base) for t in ("fair=", "peek=peek=hands")]
    assert tries[1][1] == "hands" and "peek" not in tries[1][2]
    out = regret.run("sichuan", 1, 3, tries, base, rollouts=8, rate=1.0, progress=False)
    assert out["decisions"] > 0
    fair, peek = out["entries"]
    assert fair["minus_first"] == 0.0 and fair["regret"] >= 0 and peek["regret"] >= 0
    assert 0.0 <= peek["best_rate"] <= 1.0
    if peek["deal_in_auc"] is not None:  # the real hands tell every discard that deals in
        assert peek["deal_in_auc"] == 1.0 and 0.0 <= fair["deal_in_auc"] <= 1.0
    # the same seed, the same decisions and the same numbers
    again = regret.run("sichuan", 1, 3, tries, base, rollouts=8, rate=1.0, progress=False)
    assert again == out


def test_bad_entries_are_refused():
    with pytest.raises(ValueError, match="LABEL=OPTIONS"):
        regret.parse_try("fair", {})
    with pytest.raises(ValueError, match="peek must be"):
        regret.parse_try("x=peek=everything", {})
    with pytest.raises(ValueError, match="search nothing"):
        regret.run("kawuxing", 1, 0, [regret.parse_try("x=", {})], {}, rollouts=4, progress=False)


def test_command_prints_json():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "search_regret.py"), "--variant", "kawuxing",
                          "--options", "value=strong,search=discard," + CHEAP, "--hands", "1", "--rollouts", "4",
                          "--rate", "1", "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert [e["label"] for e in result["entries"]] == ["fair", "peek"]
    bad = subprocess.run([sys.executable, str(ROOT / "scripts" / "search_regret.py"), "--variant", "kawuxing",
                          "--try", "nolabel"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "LABEL=OPTIONS" in bad.stderr


def test_auc_counts_pairs_and_ties():
    assert regret.auc([(0.9, True), (0.1, False), (0.2, False)]) == 1.0
    assert regret.auc([(0.1, True), (0.9, False)]) == 0.0
    assert regret.auc([(0.5, True), (0.5, False)]) == 0.5
    assert regret.auc([(0.5, False)]) is None  # nothing dealt in: no pairs to rank
