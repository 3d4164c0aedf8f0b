"""Absurd numbers in a decoder's config.json, refused in one line (engineer trial 9)."""

from __future__ import annotations

import json
import shutil

import pytest

import explorer
from tests.commands import refused


@pytest.fixture
def huge_window(decoder_folders, tmp_path):
    folder = tmp_path / "mistral"
    shutil.copytree(decoder_folders("mistral", sliding_window=3), folder)
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    config["sliding_window"] = 10**30
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder


def test_a_sliding_window_too_large_for_torch_is_refused_in_one_line(run, huge_window, tmp_path):
    out = tmp_path / "t.json"
    line = refused(run("trace", "--model-dir", str(huge_window), "--sentence", "the cat", "--out", str(out)))
    assert "sliding_window" in line and str(10**30) in line and not out.exists()


def test_the_api_refuses_it_as_an_explorer_error(huge_window):
    with pytest.raises(explorer.ExplorerError, match="sliding_window"):
        explorer.trace("the cat", model_dir=str(huge_window))
