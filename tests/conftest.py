import os
import secrets
import sys

import pytest
from hypothesis import HealthCheck, settings

from deadlines import give_test_websockets_a_deadline

# where CI is set, a skip not on tests/allowed_skips.toml fails (tests/skips_in_ci.py)
from skips_in_ci import (  # noqa: F401 (hooks: pytest finds them here)
    pytest_addoption,
    pytest_configure,
    pytest_make_collect_report,
    pytest_runtest_makereport,
    pytest_sessionfinish,
    pytest_terminal_summary,
)

settings.register_profile(
    "default", deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# helper programs run by the tests, not test modules
collect_ignore_glob = ["bot_programs/*"]


_SECRETS = {name: value for name, value in vars(secrets).items() if not name.startswith("_")}


@pytest.fixture(autouse=True)
def _the_secrets_module_is_left_as_found():
    """A test that fixes deals replaces a module's ``secrets`` (monkeypatch), never the real module's
    functions: one that did leaked into every later test (tokens ran out and requests hung)."""
    yield
    changed = [name for name, value in _SECRETS.items() if getattr(secrets, name, None) is not value]
    for name in changed:
        setattr(secrets, name, _SECRETS[name])
    assert not changed, f"the test replaced secrets.{', secrets.'.join(changed)}"


@pytest.fixture(autouse=True)
def _test_websockets_wait_with_a_deadline():
    """A Starlette test websocket's receive fails after 150 s of silence instead of waiting for ever
    (tests/deadlines.py). Given once a test module has imported Starlette's test client, so that
    no other test imports it."""
    if "starlette.testclient" in sys.modules:
        give_test_websockets_a_deadline()
