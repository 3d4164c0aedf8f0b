"""Running ``python -m explorer`` commands in the tests, and what a refusal must look like."""

from __future__ import annotations

import subprocess


def refused(result: subprocess.CompletedProcess, *words: str) -> str:
    """Exit status 2 and one ``error:`` line on stderr holding ``words``, never a traceback."""
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.stderr, lines
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]
