"""Worked arithmetic, presets, compare mode, export and sessions, driven through the window."""

import csv
import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6 import QtCore, QtGui

from explorer.appstate.data_export import read_csv
from explorer.appstate.presets import PRESETS
from explorer.appstate.session import MAX_SESSION_BYTES, SESSION_FORMAT, Session
from explorer.appstate.state import CompareOptions
from explorer.core.config import AttentionConfig
from explorer.core.trace import STAGE_ARRAYS
from explorer.gui.docks.registry import Dock
from explorer.gui.views.registry import Tab

from .helpers import ANIMAL, WAIT_MS, wait_trace


@pytest.fixture
def small(make_window):
    return make_window(AttentionConfig(sentence="the cat sat on the mat"))


def test_worked_arithmetic_equals_the_trace(qtbot, small):
    w = small
    dock = w.docks.widget(Dock.WORKED)
    assert not dock.isVisible() and w.docks.built(Dock.WORKED) is None  # built when first shown
    w.docks.action(Dock.WORKED).trigger()
    assert dock.isVisible() and w.docks.built(Dock.WORKED) is not None
    for scoring in ("dot", "cosine", "additive", "general"):
        w.state.update_config(scoring=scoring, mask="causal" if scoring == "general" else "none")
        wait_trace(qtbot, w, scoring=scoring)
        t = w.trace
        for head, i, j in ((0, 2, 1), (5, 4, 3), (11, 7, 0)):
            w.state.select_head(head)
            w.state.select_cell((i, j))
            c = w.worked.cell
            assert (c.head, c.i, c.j) == (head, i, j)
            assert c.score.score == pytest.approx(t.scores[head, i, j], abs=1e-4)
            assert c.scaled == pytest.approx(t.scaled[head, i, j], abs=1e-4)
            assert c.weight == t.weights[head, i, j]
            if t.mask[i, j]:
                assert c.softmax_weight == pytest.approx(t.weights[head, i, j], abs=1e-5)
            np.testing.assert_allclose(c.output, t.head_outputs[head, i], atol=1e-5)
            text = w.worked.text()
            # the numbers on screen are the trace's, to 4 decimals
            for value in (
                t.scores[head, i, j],
                t.scaled[head, i, j],
                t.weights[head, i, j],
                t.head_outputs[head, i, 0],
            ):
                assert f"{float(value):.4f}" in text
            assert f"{float(c.row_exp_sum):.4f}" in text
            assert f"{t.scale_divisor:.4f}" in text
    w.state.select_cell(None)
    assert w.worked.cell is None and "Click a cell" in w.worked.text()


def test_every_preset_loads_and_computes(qtbot, small):
    w = small
    for index, preset in enumerate(PRESETS):
        w.apply_preset(index)
        wait_trace(qtbot, w, **preset.changes)
        assert not w.banner.isVisible(), (preset.name, w.banner.text())
        assert w.trace is not None and w.trace.weights.size
        assert preset.description and "\n" not in preset.description
        if preset.cell is not None:
            assert w.worked.cell is not None and (w.worked.cell.i, w.worked.cell.j) == preset.cell
    # the "it" preset: the chosen head really sends 'it' to 'animal'
    index = next(i for i, p in enumerate(PRESETS) if "'it'" in p.name)
    w.apply_preset(index)
    wait_trace(qtbot, w, layer=PRESETS[index].changes["layer"])
    t, h = w.trace, w.state.selected_head
    it, animal = t.tokens_query.index("it"), t.tokens_key.index("animal")
    assert t.weights[h, it].argmax() == animal and t.weights[h, it, animal] > 0.5


def test_compare_difference_is_b_minus_a(qtbot, small):
    w = small
    w.state.select_head(4)
    with qtbot.waitSignal(w.compare.rendered, timeout=WAIT_MS):
        w.state.set_tab(Tab.COMPARE)
    for changes in ({"scoring": "cosine"}, {"temperature": 0.1}, {"attention": "hard"}):
        with qtbot.waitSignal(w.compare.rendered, timeout=WAIT_MS):
            w.state.set_compare(CompareOptions.from_changes(**changes))
        a, b = w.compare.pair.a, w.compare.pair.b
        assert a.config == w.state.config
        for key, value in changes.items():
            assert getattr(b.config, key) == value
        expected = b.weights[4] - a.weights[4]
        a_panel, b_panel, diff = w.compare.canvas.panels
        np.testing.assert_array_equal(w.compare.difference, expected)
        np.testing.assert_array_equal(diff.shown, expected.astype(np.float32))
        np.testing.assert_array_equal(a_panel.shown, a.weights[4])
        np.testing.assert_array_equal(b_panel.shown, b.weights[4])
        lo, hi = diff.levels
        assert lo == -hi and hi >= np.abs(expected).max()  # centred at 0
        assert w.compare.tau_box.isChecked() == ("temperature" in changes)  # the options show the state
    w.state.select_head(2)  # a new head redraws from the same pair, nothing recomputed
    np.testing.assert_array_equal(w.compare.difference, b.weights[2] - a.weights[2])
    # B's options edited in the tab go to the state
    w.compare.scoring.setCurrentIndex(w.compare.scoring.findData("general"))
    assert w.state.compare.scoring == "general"


def test_every_export_writes_the_trace(qtbot, small, tmp_path):
    w = small
    t = w.trace
    x = w.exporter
    assert x.export_data("csv", tmp_path / "csv") is None
    rows, cols, values = read_csv(tmp_path / "csv" / "weights_head03.csv")
    assert rows == t.tokens_query and cols == t.tokens_key
    np.testing.assert_array_equal(values, t.weights[3])
    _, cols, values = read_csv(tmp_path / "csv" / "Q_head11.csv")
    np.testing.assert_array_equal(values, t.Q[11])
    assert cols[0] == "d0"
    for stage in ("output", "entropy", "mask", "concat"):
        with open(tmp_path / "csv" / f"{stage}.csv", newline="", encoding="utf-8") as f:
            body = list(csv.reader(f))[1:]
        np.testing.assert_array_equal(
            np.array([[float(x) for x in r[1:]] for r in body]).astype(getattr(t, stage).dtype),
            getattr(t, stage),
        )

    assert x.export_data("npy", tmp_path / "npy") is None
    for stage in STAGE_ARRAYS:
        np.testing.assert_array_equal(
            np.load(tmp_path / "npy" / f"{stage}.npy", allow_pickle=False), getattr(t, stage)
        )
    assert list(np.load(tmp_path / "npy" / "tokens_key.npy", allow_pickle=False)) == t.tokens_key

    assert x.export_data("json", tmp_path / "t.json") is None
    data = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    np.testing.assert_array_equal(np.array(data["weights"], dtype=np.float32), t.weights)
    assert data["tokens_query"] == t.tokens_query

    w.state.select_cell((2, 1))
    assert w.tabs.built(Tab.COMPARE) is None and w.docks.built(Dock.WORKED) is None
    # figures drawn from the data: tabs never opened and stages not on screen export alike
    for name in ("pipeline:weights", "pipeline:head_output", "pipeline", "heads", "worked", "compare:diff"):
        stem = name.replace(":", "_")
        assert x.export_panel(name, tmp_path / f"{stem}.png") is None, x.message
        image = QtGui.QImage(str(tmp_path / f"{stem}.png"))
        assert not image.isNull() and image.width() > 100 and image.height() > 100
        assert x.export_panel(name, tmp_path / f"{stem}.svg") is None, x.message
        root = ET.parse(tmp_path / f"{stem}.svg").getroot()
        assert root.tag.endswith("svg") and len(list(root.iter())) > 5
    assert w.tabs.built(Tab.COMPARE) is None  # exporting built no tab
    worked_svg = (tmp_path / "worked.svg").read_text(encoding="utf-8")
    assert f"{float(t.weights[0, 2, 1]):.4f}" in worked_svg  # the worked numbers, as text
    stage_svg = (tmp_path / "pipeline_weights.svg").read_text(encoding="utf-8")
    assert "animal" not in stage_svg and "sat" in stage_svg  # the trace's own tokens label it
    assert x.export_window(tmp_path / "window.png") is None
    image = QtGui.QImage(str(tmp_path / "window.png"))
    assert (image.width(), image.height()) == (w.width(), w.height())
    assert x.copy_panel("pipeline:weights") is None
    assert not QtGui.QGuiApplication.clipboard().image().isNull()
    assert x.export_panel("pipeline:weights", tmp_path / "x.gif") is not None  # refused
    assert x.export_panel("nothing:here", tmp_path / "y.png") is not None  # refused, no traceback


def test_an_exported_figure_says_what_it_was_computed_from(qtbot, small, tmp_path):
    """A file has no window around it: the sentence tabs' figures carry a caption line (model,
    layer, head, text); a failed export says so in the status bar and returns it for the
    dialog, without the banner that says a computation failed (it stayed after a later success)."""
    w, x = small, small.exporter
    w.state.select_head(3)
    t = w.trace
    caption = x.caption("pipeline:weights")
    assert caption == f"{t.model_name} · layer {t.layer} · head 3 · “{t.config.sentence}”"
    assert x.caption("heads") == f"{t.model_name} · layer {t.layer} · “{t.config.sentence}”"
    assert x.caption("compare:diff") == ""  # two configurations: it names its own
    plain = x.sources()["pipeline:weights"].make()[1]
    assert x.picture("pipeline:weights").size.height() > plain.height()  # the caption's line
    assert x.export_panel("pipeline:weights", tmp_path / "no" / "such" / "w.png") is not None
    assert "cannot write" in w.statusBar().currentMessage() and w._banner_text is None
    assert x.export_panel("pipeline:weights", tmp_path / "w.png") is None
    assert "Exported" in w.statusBar().currentMessage()


def test_session_round_trips_exactly(qtbot, small, tmp_path):
    w = small
    w.state.update_config(
        sentence=ANIMAL,
        scoring="cosine",
        scale="temperature",
        temperature=0.25,
        mask="window:3",
        layer=2,
        attention="sample",
        seed=7,
    )
    wait_trace(qtbot, w, layer=2, scoring="cosine")
    w.state.select_head(7)
    w.state.select_cell((10, 2))
    w.state.set_grid_stage("scores")
    w.state.set_theme("dark")
    w.state.set_tab(Tab.HEADS)
    w.state.set_compare(CompareOptions.from_changes(scoring="general"))
    saved = w.files.current()
    path = tmp_path / "lesson.aexp.json"
    assert w.files.save(path)
    assert path.exists() and not list(tmp_path.glob(".*tmp"))  # written, then renamed
    # change everything
    w.state.update_config(
        sentence="Thinking Machines",
        scoring="dot",
        scale="sqrt",
        mask="none",
        layer=0,
        attention="soft",
        seed=0,
    )
    w.state.select_head(1)
    w.state.select_cell((0, 1))
    w.state.set_grid_stage("weights")
    w.state.set_theme("light")
    w.state.set_tab(Tab.PIPELINE)
    w.state.set_compare(CompareOptions())
    wait_trace(qtbot, w, sentence="Thinking Machines")
    assert w.files.current() != saved
    assert w.files.open(path)
    wait_trace(qtbot, w, sentence=ANIMAL, layer=2)
    assert w.files.current() == saved
    assert w.controls.sentence.text() == ANIMAL
    assert w.tabs.current_tab() == Tab.HEADS and w.heads.stage_combo.currentData() == "scores"
    assert w.worked.cell is not None and (w.worked.cell.head, w.worked.cell.i, w.worked.cell.j) == (7, 10, 2)
    assert w.prefs.recent()[0] == str(path.resolve())
    assert "lesson.aexp.json" in w.windowTitle()
    w.state.set_theme("light")


def bad_files(tmp_path):
    good = json.loads(Session(AttentionConfig(sentence="x")).to_json())
    files = {
        "corrupt": b'{"format": "attention-explorer-session", "version": 1, "config": {',
        "empty": b"",
        "foreign": json.dumps({"name": "some other program", "version": 1}).encode(),
        "newer": json.dumps({**good, "version": 99}).encode(),
        "huge": b" " * (MAX_SESSION_BYTES + 1),
        "invalid": json.dumps({**good, "config": {"sentence": "x", "scoring": "magic"}}).encode(),
        "binary": bytes(range(256)),
    }
    for name, data in files.items():
        (tmp_path / f"{name}.json").write_bytes(data)
    return files


def test_bad_session_files_are_refused_and_change_nothing(qtbot, small, tmp_path):
    w = small
    w.state.select_head(3)
    w.state.select_cell((1, 2))
    before, trace = w.files.current(), w.trace
    expected = {
        "corrupt": "not valid JSON",
        "empty": "is empty",
        "foreign": "not an Attention Explorer",
        "newer": "newer version",
        "huge": "never that large",
        "invalid": "invalid settings",
        "binary": "not a session file",
    }
    for name in bad_files(tmp_path):
        assert not w.files.open(tmp_path / f"{name}.json")
        assert expected[name] in w.files.message, (name, w.files.message)
        assert w.banner.isVisible() and expected[name] in w.banner.text()
        assert w.files.current() == before and w.trace is trace
    assert not w.worker.busy("trace")
    assert not w.files.open(tmp_path / "missing.json")
    assert "missing.json: it does not exist" in w.files.message  # reading.py's line
    assert w.prefs.recent() == []
    assert SESSION_FORMAT not in w.files.message


def test_preferences_persist_in_the_given_settings_only(qtbot, engine, tmp_path):
    from explorer.gui.main_window import MainWindow

    ini = tmp_path / "prefs.ini"
    settings = QtCore.QSettings(str(ini), QtCore.QSettings.Format.IniFormat)
    w = MainWindow(engine, AttentionConfig(sentence="a b"), settings=settings)
    qtbot.addWidget(w)
    w.resize(700, 500)  # the offscreen screen is small: restoring clamps to it
    w.files.save(tmp_path / "one.json")
    w.state.set_theme("dark")
    geometry = w.saveGeometry()
    w.close()
    assert ini.exists()
    w2 = MainWindow(
        engine,
        AttentionConfig(sentence="a b"),
        settings=QtCore.QSettings(str(ini), QtCore.QSettings.Format.IniFormat),
    )
    qtbot.addWidget(w2)
    assert w2.prefs.geometry() == geometry and w2.restore_geometry()
    assert w2.size() == QtCore.QSize(700, 500)
    assert w2.state.theme == "dark" and w2.prefs.recent() == [str((tmp_path / "one.json").resolve())]
    assert [a.text() for a in w2.files.recent_menu.actions()] == ["one.json"]
    w2.state.set_theme("light")
    shortcuts = {a.shortcut().toString() for a in w2.file_menu.actions()}
    assert {"Ctrl+O", "Ctrl+S", "Ctrl+E"} <= shortcuts


def test_every_stage_exports_whatever_is_on_screen(qtbot, small, tmp_path):
    """Ctrl+E on a stage not on screen (it once crashed there): every stage of the
    pipeline and of the grid exports from another tab, with the pipeline zoomed elsewhere."""
    from explorer.appstate.state import GRID_STAGES, PANEL_NAMES

    w = small
    w.state.set_stage_zoom(("weights",))
    w.state.set_tab(Tab.HEADS)
    for name in PANEL_NAMES:
        path = tmp_path / f"{name}.png"
        assert w.exporter.export_panel(f"pipeline:{name}", path) is None, w.exporter.message
        assert QtGui.QImage(str(path)).width() > 100
    w.state.set_tab(Tab.PIPELINE)
    for stage in GRID_STAGES:
        w.state.set_grid_stage(stage)
        assert w.exporter.export_panel("heads", tmp_path / f"heads-{stage}.svg") is None, w.exporter.message
        svg = (tmp_path / f"heads-{stage}.svg").read_text(encoding="utf-8")
        assert "head 11" in svg  # every head, titled, though the grid is not on screen
