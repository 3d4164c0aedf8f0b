"""The process-wide settings configure_app makes (explorer/gui/app_setup.py)."""

from __future__ import annotations

import sys

from explorer.gui import app_setup


def test_a_waiting_window_gets_the_interpreter_lock_back_within_a_millisecond(qapp):
    """A paint takes the lock back dozens of times while a worker runs Python; each time it
    waits up to one switch interval (Python's default 5 ms froze the window ~100 ms)."""
    assert app_setup.SWITCH_INTERVAL_S <= 0.001
    assert sys.getswitchinterval() == app_setup.SWITCH_INTERVAL_S
