import os
import secrets

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# helper programs run by the tests, not test modules
collect_ignore_glob = ["bots/*"]


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
