"""No network at run time: the trace command works with every socket connection refused."""

import json
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
socket.create_connection = _refuse
socket.getaddrinfo = _refuse
"""


def run_offline(module_args: list[str]) -> subprocess.CompletedProcess:
    code = BLOCK_NETWORK + (
        "import runpy; sys.argv = ['explorer'] + %r; runpy.run_module('explorer', run_name='__main__')"
        % module_args)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=180, env={"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "0", "HOME": "/tmp"})


def test_trace_runs_with_the_network_blocked(tmp_path):
    out = tmp_path / "t.json"
    result = run_offline(["trace", "--sentence", "offline attention", "--out", str(out)])
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["weights_source"] == "pretrained" and "attention" in data["tokens_key"]
