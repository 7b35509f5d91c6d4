"""test_page_js.py feeds the page's modules frames from a match the server folder's helpers play
(tests/server)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
