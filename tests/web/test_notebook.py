"""A notebook run by a real Jupyter kernel (nbclient + ipykernel): a trace as a cell's last
expression comes back as the interactive view, which then draws in a real browser."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from explorer.core.config import AttentionConfig

nbformat = pytest.importorskip("nbformat", reason="nbformat is in the test extra")
nbclient = pytest.importorskip("nbclient", reason="nbclient is in the test extra")
pytest.importorskip("ipykernel", reason="ipykernel is in the test extra")

ROOT = Path(__file__).resolve().parents[2]
CELLS = [
    "import explorer\n"
    "t = explorer.trace('the cat sat on the mat', weights='random', d_model=16, seed=3, all_layers=False)\n"
    "t",
    "explorer.translate('9 mai 2018')",
    "explorer.view(t, 'zh_CN', head=2)",
]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    env = {"PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    client = nbclient.NotebookClient(
        notebook, timeout=240, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    )
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)  # the kernel inherits it: the explorer under test, not another one
    try:
        client.execute()
    finally:
        for k, v in old.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    found = []
    for cell in notebook.cells:
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert not errors, errors
        (result,) = [o for o in cell.outputs if o.output_type == "execute_result"]
        found.append(result.data)
    return found


def test_the_last_expression_of_a_cell_is_the_view(outputs):
    trace, translation, chinese = outputs
    for data in outputs:
        assert 'class="ae-view"' in data["text/html"] and "AttentionExplorerView" in data["text/html"]
        assert not re.search(r"https?://", data["text/html"])
    assert trace["text/plain"] == "<AttentionTrace: 8 heads, 6×6 tokens, random weights, on cpu>"
    assert translation["text/plain"].startswith("<TranslationTrace: '9 mai 2018' → '2018-05-09'")
    assert '"language":"zh_CN"' in chinese["text/html"] and '"head":2' in chinese["text/html"]


def test_the_kernels_view_draws_the_kernels_numbers(outputs, browser, tmp_path, engine):
    page = tmp_path / "notebook.html"
    page.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
        + "".join(f"<div class='cell'>{data['text/html']}</div>" for data in outputs)
        + "</body></html>",
        encoding="utf-8",
    )
    tab = browser.open(page.as_uri())
    assert tab.errors() == [] and tab.requests() == [page.as_uri()]
    assert tab.evaluate("document.querySelectorAll('.ae-view[data-draws]').length") == 3
    point = tab.evaluate("document.querySelector('.ae-view').aeView.cell_center(4, 1)")
    tab.move(point["x"], point["y"])
    value = float(tab.evaluate("document.querySelector('.ae-readout').dataset.value"))
    same = engine.trace(
        AttentionConfig(sentence="the cat sat on the mat", weights="random", d_model=16, seed=3)
    )
    assert value == float(same.weights[0, 4, 1])
    third = "document.querySelectorAll('.ae-view')[2]"
    assert tab.evaluate(f"{third}.dataset.head") == "2" and tab.evaluate(f"{third}.lang") == "zh-Hans"
