"""A fatal crash (here a null-pointer read through ctypes) leaves the Python stacks in crash.log."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CRASH = """
import ctypes
from explorer.logsetup import install_excepthook
install_excepthook()
def deep_in_the_window():
    ctypes.string_at(0)
deep_in_the_window()
"""


def test_a_segfault_leaves_its_stack_in_crash_log(tmp_path):
    env = {"EXPLORER_LOG_DIR": str(tmp_path), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", CRASH], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    text = (tmp_path / "crash.log").read_text(encoding="utf-8")
    assert "Fatal Python error" in text and "deep_in_the_window" in text
