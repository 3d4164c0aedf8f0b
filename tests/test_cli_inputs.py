"""Inputs and outputs a trial got past the commands: each is refused with exit 2, one line,
no file written and no input touched."""

from __future__ import annotations

import pytest

from tests.commands import refused

WRITERS = {
    "trace": ["trace", "--sentence", "a b", "--weights", "random"],
    "translate": ["translate", "--source", "9.5.18"],
    "vision": ["vision", "--generate", "7"],
    "length-curve": ["length-curve", "--shipped"],
    "data-curve": ["data-curve"],
}


ONLY_EXTENSIONS = [
    (command, name)
    for command in WRITERS
    for name in (
        (".json", ".png", "sub/.json") if command.endswith("curve") else (".json", ".npz", "sub/.npz")
    )
]


@pytest.mark.parametrize(("command", "name"), ONLY_EXTENSIONS)
def test_an_out_that_is_only_an_extension_is_refused(run, tmp_path, command, name):
    """``--out .json`` wrote a hidden file named ``.json``."""
    (tmp_path / "sub").mkdir()
    out = tmp_path / name
    line = refused(run(*WRITERS[command], "--out", str(out)), "has no file name before its extension")
    assert line.startswith("error: --out ")
    assert not out.exists()


def test_an_html_that_is_only_an_extension_is_refused(run, tmp_path):
    out = tmp_path / ".html"
    refused(run(*WRITERS["trace"], "--html", str(out)), "--html", "has no file name before its extension")
    assert not out.exists()


def test_a_hidden_name_with_a_stem_is_still_a_name(run, tmp_path):
    """``.run.json`` has a name before its extension: written as before."""
    out = tmp_path / ".run.json"
    result = run(*WRITERS["vision"], "--out", str(out))
    assert result.returncode in (0, None), result.stderr
    assert out.exists()
