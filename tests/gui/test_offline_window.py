"""No network at run time: the window and the trace command work with every socket refused.

Each runs in a fresh interpreter whose socket module refuses connect and name lookups,
with a bare environment (no proxies, no tokens), so a hidden download would fail loudly.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BLOCK_NETWORK = """
import socket, sys
def _refuse(*args, **kwargs):
    raise OSError("network access is blocked in this test")
socket.socket.connect = _refuse
socket.socket.connect_ex = _refuse
socket.socket.sendto = _refuse
socket.create_connection = _refuse
socket.getaddrinfo = _refuse
socket.gethostbyname = _refuse
"""


def run_offline(code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_RUNTIME_DIR": str(tmp_path),
        "HF_HUB_OFFLINE": "0",
        "TRANSFORMERS_OFFLINE": "0",
    }
    return subprocess.run(
        [sys.executable, "-c", BLOCK_NETWORK + code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=240,
        env=env,
    )


def test_window_screenshot_with_the_network_blocked(tmp_path):
    shot = tmp_path / "offline.png"
    code = (
        f"import runpy; sys.argv = ['main.py', '--sentence', 'offline attention', '--screenshot', {str(shot)!r}, "
        "'--size', '1200x800']; runpy.run_path('main.py', run_name='__main__')"
    )
    result = run_offline(code, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert shot.exists() and shot.stat().st_size > 10_000
    assert "blocked" not in result.stderr


def test_window_first_paint_with_the_network_blocked(tmp_path):
    code = "import runpy; sys.argv = ['main.py', '--first-paint-exit']; runpy.run_path('main.py', run_name='__main__')"
    result = run_offline(code, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_trace_end_to_end_with_the_network_blocked(tmp_path):
    out = tmp_path / "t.json"
    code = (
        f"import runpy; sys.argv = ['explorer', 'trace', '--sentence', 'no network needed', '--out', {str(out)!r}]; "
        "runpy.run_module('explorer', run_name='__main__')"
    )
    result = run_offline(code, tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["weights_source"] == "pretrained" and "network" in data["tokens_key"]
