"""test_native.py plays the engine folder's worked hands (tests/engine) on the native engine too."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
