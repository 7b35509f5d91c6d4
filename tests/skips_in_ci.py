"""A pytest plugin (tests/conftest.py loads it): where the environment variable ``CI`` is set, a skip
whose reason is not on tests/allowed_skips.toml fails where it happened, naming the skip (a whole
module skipped fails the session at its end).

CI installs everything the tests use (cargo, chromium, PostgreSQL, node, …): a test that skips there
is a check that silently stopped running, not a pass. The allow-list keeps the few skips that are
expected even in CI, each with why. Outside CI (a developer's machine without chromium, say) skips
stay skips.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

DEFAULT_LIST = Path(__file__).with_name("allowed_skips.toml")


@dataclass(frozen=True)
class AllowedSkip:
    reason: str  # text the skip's reason contains
    why: str  # why CI may meet it
    test: str = ""  # a node id prefix it is limited to ("" = anywhere)

    def covers(self, nodeid: str, reason: str) -> bool:
        return self.reason in reason and nodeid.startswith(self.test)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("allowed_skips", "the skips a CI run accepts (a TOML file; default tests/allowed_skips.toml)",
                  default=str(DEFAULT_LIST))


def read_allowed(path: Path) -> list[AllowedSkip]:
    with open(path, "rb") as f:
        entries = tomllib.load(f).get("skip", [])
    allowed = [AllowedSkip(**entry) for entry in entries]
    unexplained = [a.reason for a in allowed if not a.reason.strip() or not a.why.strip()]
    if unexplained:
        raise pytest.UsageError(f"{path}: every allowed skip needs a reason and a why: {unexplained}")
    return allowed


_ALLOWED = pytest.StashKey["list[AllowedSkip] | None"]()  # None: not CI, skips stay skips
_LIST = pytest.StashKey[Path]()
_MODULES = pytest.StashKey[list[str]]()  # the failures of modules skipped at collection


def pytest_configure(config: pytest.Config) -> None:
    path = Path(config.getini("allowed_skips"))
    if not path.is_absolute():
        path = config.rootpath / path
    config.stash[_ALLOWED] = read_allowed(path) if os.environ.get("CI") else None
    config.stash[_LIST] = path


def _unexpected(config: pytest.Config, report: pytest.TestReport | pytest.CollectReport) -> str | None:
    """The failure text for a skip CI does not accept, else None."""
    allowed = config.stash.get(_ALLOWED, None)
    if allowed is None or not report.skipped or hasattr(report, "wasxfail"):
        return None
    if isinstance(report.longrepr, tuple):
        where, line, reason = report.longrepr
        at = f"{where}:{line}"
    else:
        reason, at = str(report.longrepr), report.nodeid
    reason = reason.removeprefix("Skipped: ")
    if any(a.covers(report.nodeid, reason) for a in allowed):
        return None
    return (f"skipped in CI at {at}: {reason}\n(CI is set: a skip fails unless it is on "
            f"{config.stash[_LIST]}, with why CI may meet it)")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    failure = _unexpected(item.config, report)
    if failure:
        report.outcome, report.longrepr = "failed", failure
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    # A whole module skipped (importorskip, allow_module_level) stays a skip here, so that the other
    # modules still run; the session fails at its end, with the list.
    report = yield
    failure = _unexpected(collector.config, report)
    if failure:
        collector.config.stash.setdefault(_MODULES, []).append(failure)
    return report


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    for failure in config.stash.get(_MODULES, []):
        terminalreporter.write_sep("=", "a module skipped in CI", red=True)
        terminalreporter.write_line(failure)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    passed = exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED)
    if passed and session.config.stash.get(_MODULES, []):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
