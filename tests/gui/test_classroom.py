"""The classroom: presentation mode, the step-through lesson, two languages, the keys."""

import xml.etree.ElementTree as ET

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.lesson import STAGE_ORDER, STEPS, step_explanation
from explorer.appstate.presets import DEFAULT_PRESET, PRESETS
from explorer.core.config import AttentionConfig
from explorer.gui import i18n
from explorer.gui.docks.registry import Dock
from explorer.gui.heatmap import MatrixCanvas
from explorer.gui.heatmap.figure import MIN_VALUE_FONT_PX, value_font, values_fit
from explorer.gui.views.registry import Tab
from explorer.gui.views.stages import STAGE_PANELS, framed_panels

from .helpers import ANIMAL, WAIT_MS, double_click_panel

SMALL = AttentionConfig(sentence="Thinking Machines", weights="random", d_model=32, heads=4)


@pytest.fixture
def small_window(make_window):
    return make_window(SMALL, size=(1024, 768))


def smallest_text_px(window) -> tuple[float, str]:
    """The smallest font among visible widgets and the visible figures' labels and titles."""
    smallest = (1e9, "")
    for w in [window] + window.findChildren(QtWidgets.QWidget):
        if not w.isVisible() or QtWidgets.QWidget.width(w) <= 0:
            continue
        if isinstance(w, MatrixCanvas):
            smallest = min(smallest, (w.style_.font.pixelSize(), "figure labels"))
        px = QtGui.QFontInfo(w.font()).pixelSize()
        smallest = min(smallest, (px, f"{type(w).__name__} {w.objectName()}"))
    return smallest


def assert_labels_inside(canvas) -> None:
    """Every label of every laid-out panel lies inside the canvas: none is clipped."""
    font = canvas.style_.labels
    for box in canvas.current_layout().boxes:
        for w in box.rows.widths:
            assert box.plot.left() - 6 - w >= 0
        rows, cols = canvas.panels[box.index].shape
        for index, w in zip(box.cols.indices, box.cols.widths):
            x = box.plot.left() + (index + 0.5) * box.plot.width() / cols
            half = font.line / 2 if box.cols.rotated else w / 2
            assert 0 <= x - half and x + half <= canvas.width()
            assert box.plot.bottom() + 6 + (w if box.cols.rotated else font.line) <= canvas.height() + 1


def test_presentation_text_is_at_least_20px_at_1024x768(qtbot, small_window):
    w = small_window
    assert smallest_text_px(w)[0] < 20  # the ordinary window is denser
    w.classroom.set_presentation(True, fullscreen=False)
    w.resize(1024, 768)
    qtbot.waitUntil(lambda: w.pipeline.values_box.isChecked())
    px, where = smallest_text_px(w)
    assert px >= 20, where
    assert w.pipeline.zoom == STAGE_PANELS[STEPS[0].stage] and w.pipeline.canvas.figure.show_values
    # every stage (two columns, taller rows) keeps the sizes too
    w.classroom.zoom_combo.setCurrentIndex(0)
    w.classroom._on_zoom_combo(0)
    assert w.pipeline.zoom is None
    assert smallest_text_px(w)[0] >= 20
    w.classroom.act_zoom_in.trigger()
    assert w.state.text_zoom == 1 and smallest_text_px(w)[0] >= 22
    w.classroom.set_presentation(False)
    assert not w.classroom.active and w.statusBar().isVisible()


def test_beside_the_lesson_at_1024x768_the_values_are_printed_in_every_cell(qtbot, make_window):
    """With "values in cells" on and the lesson column open, a 15×15 stage's cells (~33 px) are
    too narrow for the projector's label font: the values are printed smaller (never under
    MIN_VALUE_FONT_PX), not left out with nothing said."""
    w = make_window(AttentionConfig(sentence=ANIMAL), size=(1024, 768))
    w.classroom.set_presentation(True, fullscreen=False)
    w.resize(1024, 768)
    w.state.show_lesson(True)
    p = w.pipeline
    for stage in ("scores", "scaled", "weights"):
        w.classroom.lesson.go(STAGE_ORDER.index(stage))
        qtbot.waitUntil(lambda stage=stage: p.zoom == (stage,), timeout=WAIT_MS)
        qtbot.waitUntil(lambda: p.values_box.isChecked() and p.canvas.figure.show_values, timeout=WAIT_MS)
        canvas, panel = p.canvas, p.panel(stage)
        qtbot.waitUntil(lambda stage=stage: p.canvas.box(p.index(stage)) is not None, timeout=WAIT_MS)
        box = canvas.box(p.index(stage))
        assert panel.shape == (15, 15)
        font = value_font(box.plot, panel, canvas.style_.labels)
        assert font is not None, (stage, box.plot.width())
        assert font.font.pixelSize() >= MIN_VALUE_FONT_PX


def test_presentation_at_1024x768_prints_every_weight_and_hides_the_worked_dock(qtbot, make_window):
    w = make_window(AttentionConfig(sentence=ANIMAL), size=(1024, 768))
    worked_dock = w.docks.widget(Dock.WORKED)
    worked_dock.setVisible(True)
    w.classroom.set_presentation(True, fullscreen=False)
    w.resize(1024, 768)
    assert not worked_dock.isVisible()  # the stage gets the whole width
    w.classroom.lesson.go(STAGE_ORDER.index("weights"))
    qtbot.waitUntil(lambda: w.pipeline.zoom == ("weights",))
    p = w.pipeline
    panel = p.panel("weights")
    assert panel.shape == (15, 15) and panel.unit
    canvas = p.canvas
    qtbot.waitUntil(lambda: canvas.box(p.index("weights")) is not None, timeout=WAIT_MS)
    box = canvas.box(p.index("weights"))
    assert values_fit(box.plot, panel, canvas.style_.labels)  # every weight printed in its cell
    assert canvas.style_.font.pixelSize() >= 20 and smallest_text_px(w)[0] >= 20
    # every key labelled; rows as densely as one line a label allows; no label clipped
    assert box.cols.indices == tuple(range(15))
    line, cell_h = canvas.style_.labels.line, box.plot.height() / 15
    assert box.rows.stride * cell_h >= line and (box.rows.stride - 1) * cell_h < line
    assert box.rows.indices == tuple(range(0, 15, box.rows.stride))
    assert_labels_inside(canvas)
    w.classroom.set_presentation(False)
    assert worked_dock.isVisible()


def test_weights_in_the_cells_read_without_the_leading_zero():
    from explorer.gui.heatmap import cell_value_text

    assert [cell_value_text(v, unit=True) for v in (0.0, 0.0712, 0.5, 0.999, 1.0)] == [
        "0",
        ".07",
        ".50",
        "1",
        "1",
    ]
    assert cell_value_text(-0.25) == "-0.25" and cell_value_text(0.07) == "0.07"


def test_f11_toggles_presentation_and_full_screen(qtbot, small_window):
    w = small_window
    w.activateWindow()
    qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: w.classroom.active and w.isFullScreen(), timeout=WAIT_MS)
    assert w.classroom.act_present.isChecked() and w.classroom.lesson.isVisible()
    qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: not w.classroom.active and not w.isFullScreen(), timeout=WAIT_MS)
    # the lesson left at a lab's step: F11 opens its words beside its own picture, not the Pipeline
    w.state.set_lesson_step("translation.length_curve")
    w.state.show_lesson(False)
    w.state.set_tab("pipeline")
    qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: w.classroom.active, timeout=WAIT_MS)
    assert w.state.tab == "why_attention" and w.tabs.current_tab() == "why_attention"
    qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: not w.classroom.active and not w.isFullScreen(), timeout=WAIT_MS)


def highlighted(window) -> set[str]:
    pipeline = window.pipeline
    return {pipeline.names[i] for i in pipeline.canvas.figure.marks}


def test_arrow_keys_walk_every_stage_in_order_and_back(qtbot, small_window):
    w = small_window
    lesson = w.classroom.lesson
    qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_Right)  # first press opens the lesson at step 1
    qtbot.waitUntil(lesson.isVisible)
    visited = [lesson.index]
    assert highlighted(w) == set(framed_panels(STAGE_ORDER[0])) == {"X"}  # the tokens are X's rows
    for _ in range(len(STEPS) + 2):  # pressing past the end stays on the last step
        qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_Right)
        if lesson.index != visited[-1]:
            visited.append(lesson.index)
        stage = w.classroom.current_stage()
        assert stage == STAGE_ORDER[lesson.index]
        assert highlighted(w) == set(framed_panels(stage))  # a lab's step frames its own tab's panels
        assert w.state.tab == STEPS[lesson.index].tab
    assert visited == list(range(len(STEPS)))  # every step, in order, once
    for expected in reversed(range(len(STEPS) - 1)):
        qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_Left)
        assert lesson.index == expected and w.classroom.current_stage() == STAGE_ORDER[expected]
    assert lesson.index == 0 and not lesson.back_button.isEnabled()
    # the formula and explanation on screen are the step's
    assert STEPS[0].formula in lesson.formula_label.text()
    text, words = step_explanation(STEPS[0], w.trace.tokens_key)  # the markers of the model on screen
    assert lesson.explanation_label.text() == text.format(**words)


def test_walking_back_from_the_labs_keeps_one_stage_at_a_time(qtbot, small_window):
    """In presentation, steps on the Translation and Vision tabs and back: the pipeline's
    steps show their own stage again (they showed every stage)."""
    w = small_window
    w.classroom.set_presentation(True, fullscreen=False)
    weights = next(i for i, s in enumerate(STEPS) if s.stage == "weights")
    lab = next(i for i, s in enumerate(STEPS) if s.tab != Tab.PIPELINE)
    w.state.set_lesson_step(weights)
    assert w.state.stage_zoom == STAGE_PANELS["weights"]
    for step in range(weights + 1, len(STEPS)):  # forward to the end, through both labs
        qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_Right)
        assert w.state.lesson_step == step
    assert STEPS[-1].tab != Tab.PIPELINE
    for _ in range(len(STEPS) - 1 - weights):
        qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_Left)
    assert lab > weights and w.state.lesson_step == weights and w.state.tab == Tab.PIPELINE
    assert w.state.stage_zoom == STAGE_PANELS["weights"] and w.pipeline.zoom == STAGE_PANELS["weights"]
    assert w.pipeline.canvas.figure.show_values


def test_a_step_that_opens_a_lab_keeps_the_keys_for_the_lesson(qtbot, small_window):
    """→ into the Translation tab's first step gave the keyboard to its Date field: the next →
    moved the cursor there and the lesson stopped until a click."""
    w = small_window
    w.show()
    w.activateWindow()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.activeWindow() is w)
    w.classroom.set_presentation(True, fullscreen=False)
    first_lab = next(i for i, s in enumerate(STEPS) if s.tab != Tab.PIPELINE)
    w.state.set_lesson_step(first_lab - 1)
    w.pipeline.canvas.setFocus()  # a click on the stage
    assert QtWidgets.QApplication.focusWidget() is w.pipeline.canvas
    for step in (first_lab, first_lab + 1):
        focused = QtWidgets.QApplication.focusWidget()
        qtbot.keyClick(focused, QtCore.Qt.Key.Key_Right)
        assert w.state.lesson_step == step and w.state.tab == STEPS[step].tab
        assert not isinstance(
            QtWidgets.QApplication.focusWidget(), (QtWidgets.QLineEdit, QtWidgets.QAbstractSpinBox)
        )


def test_play_advances_by_itself(qtbot, small_window):
    small_window.state.show_lesson(True)
    lesson = small_window.classroom.lesson
    lesson.timer.setInterval(10)
    lesson.play_button.setChecked(True)
    lesson.timer.setInterval(10)
    qtbot.waitUntil(lambda: lesson.index >= 2, timeout=WAIT_MS)
    lesson.play_button.setChecked(False)
    assert not lesson.timer.isActive()


def test_switching_language_changes_visible_texts(qtbot, small_window):
    w = small_window
    label = w.controls.labels["example"]
    assert label.text() == "Example" and w.tabs.tabText(0) == "Pipeline"
    w.classroom.act_languages["zh_CN"].trigger()
    assert i18n.current_language() == "zh_CN"
    assert label.text() == "示例"
    assert w.tabs.tabText(0) == "流程（单个头）"
    assert w.classroom.view_menu.title() == "视图(&V)"
    assert w.pipeline.values_box.text() == "单元格显示数值"
    w.state.show_lesson(True)
    assert w.classroom.lesson.title_label.text().endswith("词元</b>")
    assert "头" in w.pipeline.panel("Q").title
    # the File menu, the presets, the Compare tab and the worked arithmetic follow too
    preset_row = w.controls.preset.findData(PRESETS.index(DEFAULT_PRESET))
    assert w.file_menu.title() == "文件(&F)"
    assert w.files.open_action.text() == "打开课程(&O)…"
    assert w.controls.preset.itemText(preset_row) == "“it”指谁？（累了的动物）"
    assert "注意力权重" in w.controls.preset.itemData(preset_row, QtCore.Qt.ItemDataRole.ToolTipRole)
    assert w.tabs.title("compare") == "对比" and w.tabs.title("translation") == "翻译"
    assert w.compare.b_label.text() == "B = A 但"
    assert w.docks.widget(Dock.WORKED).windowTitle() == "逐步计算"
    assert w.docks.action(Dock.WORKED).text() == "逐步计算"
    w.classroom.act_languages["en"].trigger()
    assert label.text() == "Example" and w.tabs.tabText(0) == "Pipeline"
    assert "head" in w.pipeline.panel("Q").title
    assert w.file_menu.title() == "&File" and w.files.open_action.text() == "&Open session…"
    assert w.controls.preset.itemText(preset_row) == DEFAULT_PRESET.name
    assert w.tabs.title("compare") == "Compare" and w.tabs.title("translation") == "Translation"
    assert w.compare.b_label.text() == "B = A with"
    assert w.docks.widget(Dock.WORKED).windowTitle() == "Worked arithmetic"


def test_the_worked_arithmetic_follows_the_language(qtbot, small_window):
    w = small_window
    w.state.select_cell((1, 0))
    assert "Softmax over row 1" in w.worked.text()
    w.state.set_language("zh_CN")
    assert "对第 1 行做 softmax" in w.worked.text() and "Softmax" not in w.worked.text()
    w.state.set_language("en")
    assert "Softmax over row 1" in w.worked.text()


def test_every_translation_is_finished_and_compiled():
    ts = i18n.translations_dir() / "explorer_zh_CN.ts"
    text = ts.read_text(encoding="utf-8")
    assert 'type="unfinished"' not in text
    root = ET.fromstring(text)
    contexts = {c.findtext("name") for c in root.iter("context")}
    assert {"SessionFiles", "Exporter", "Presets", "WorkedPanel", "CompareView", "Tabs", "Stages"} <= contexts
    for context in root.iter("context"):
        for message in context.iter("message"):
            translation = message.find("translation")
            if translation.get("type") in ("obsolete", "vanished"):
                continue  # kept by lupdate for texts that are gone from the code
            where = (context.findtext("name"), message.findtext("source"))
            assert translation.get("type") is None and (translation.text or "").strip(), where
    assert (i18n.translations_dir() / "explorer_zh_CN.qm").stat().st_size > 1000
    assert "查询" in text and "注意力权重" in text and "拼接" in text


# One Chinese word for each name the window uses for a part of itself: two words for one
# thing (流程 and 流水线 for the Pipeline) read to a student as two things.
ONE_WORD = {"Pipeline": ("流程", ("流水线", "管线", "管道"))}


def test_each_name_of_the_window_has_one_chinese_word():
    root = ET.fromstring((i18n.translations_dir() / "explorer_zh_CN.ts").read_text(encoding="utf-8"))
    for english, (word, others) in ONE_WORD.items():
        found = 0
        for message in root.iter("message"):
            source, translation = message.findtext("source") or "", message.findtext("translation") or ""
            assert not any(other in translation for other in others), (source, translation)
            if english in source:
                found += 1
                assert word in translation, (source, translation)
        assert found >= 3, english


def test_a_cjk_font_renders_chinese(qtbot, small_window):
    font = small_window.controls.font()
    assert QtGui.QFontMetrics(font).inFontUcs4(ord("注")), "no CJK font: Chinese would be boxes"


def test_shortcut_sheet_lists_the_keys(qtbot, small_window):
    w = small_window
    w.classroom.act_shortcuts.trigger()
    sheet = w.classroom.sheet
    qtbot.waitUntil(sheet.isVisible)
    keys = " | ".join(sheet.keys())
    for key in ("F11", "Ctrl+=", "Ctrl+-", "←", "→", "0 … 9", "F1"):  # arrows as on their keys
        assert key in keys, key
    sheet.close()


def test_theme_and_zoom_into_a_stage(qtbot, small_window):
    w = small_window
    w.classroom.act_themes["dark"].trigger()
    assert w.state.theme == "dark" and w.pipeline.canvas.style_.bg.name() == "#121212"
    assert QtWidgets.QApplication.palette().color(QtGui.QPalette.ColorRole.Window).name() == "#121212"
    w.state.set_theme("light")
    assert QtWidgets.QApplication.palette().color(QtGui.QPalette.ColorRole.Window).name() == "#ffffff"
    # double-click a panel: only that stage, large; double-click again: every stage
    p = w.pipeline
    w.state.set_stage_zoom(None)
    qtbot.waitUntil(lambda: p.canvas.plot_rect(p.index("weights")) is not None)
    double_click_panel(qtbot, p.canvas, p.index("weights"))
    qtbot.waitUntil(lambda: p.zoom == ("weights",))
    assert p.canvas.box(p.index("X")) is None and w.classroom.zoom_combo.currentData() == "weights"
    double_click_panel(qtbot, p.canvas, p.index("weights"))
    assert p.zoom is None and p.canvas.box(p.index("X")) is not None


def test_in_a_lesson_a_double_click_zooms_the_panel_clicked(qtbot, small_window):
    """A step shows Q, K and V: the first double-click on K shows K alone (it left the step's
    zoom for every stage); on K again, every stage; on a panel then, that panel."""
    from explorer.appstate.lesson import step_index

    w = small_window
    p = w.pipeline
    w.classroom.set_presentation(True, fullscreen=False)  # the zoom follows the lesson's steps
    w.state.set_lesson_step(step_index("attention.Q"))
    qtbot.waitUntil(lambda: p.canvas.plot_rect(p.index("K")) is not None)
    assert p.zoom == ("Q", "K", "V"), p.zoom
    double_click_panel(qtbot, p.canvas, p.index("K"))
    assert p.zoom == ("K",)
    qtbot.waitUntil(lambda: p.canvas.box(p.index("Q")) is None and p.canvas.box(p.index("K")) is not None)
    double_click_panel(qtbot, p.canvas, p.index("K"))
    assert p.zoom is None
    qtbot.waitUntil(lambda: p.canvas.plot_rect(p.index("scores")) is not None)
    double_click_panel(qtbot, p.canvas, p.index("scores"))
    assert p.zoom == ("scores",)


def test_the_window_opens_with_the_keys_on_the_stage(qtbot, make_window):
    """Not in the sentence field (Qt's first pick): a teacher who only presses keys steps the
    lesson with → from the first key; Ctrl+L then types the sentence."""
    w = make_window(SMALL, size=(1024, 768))
    w.activateWindow()
    QtWidgets.QApplication.processEvents()
    focus = w.focusWidget()
    assert focus in (w.tabs, w.tabs.tabBar()), type(focus).__name__
    w.state.show_lesson(True)
    before = (w.state.lesson_step, w.state.config.sentence)
    qtbot.keyClick(QtWidgets.QApplication.focusWidget() or w.tabs, QtCore.Qt.Key.Key_Right)
    assert w.state.lesson_step == before[0] + 1 and w.state.config.sentence == before[1]
    qtbot.keyClick(w.tabs, QtCore.Qt.Key.Key_L, QtCore.Qt.KeyboardModifier.ControlModifier)
    assert w.focusWidget() is w.text_field("sentence")
    rows = dict((text, keys) for keys, text in w.classroom.shortcut_rows())
    assert any(keys == "Ctrl+L" and "opens with the keys on the stage" in text for text, keys in rows.items())


def test_the_shortcut_sheet_in_chinese_one_row_per_key_arrows_as_on_the_keys_esc_closes(qtbot, make_window):
    """Trial 6: Ctrl+Q twice (退出(Q) and 退出), ← and → written as Qt's words 左方向 / 右方向, and
    Esc did not close the sheet (the window's Esc took it)."""
    w = make_window(SMALL, size=(1024, 768))
    w.state.set_language("zh_CN")
    sheet = w.classroom.show_shortcuts()
    qtbot.waitExposed(sheet)
    keys = sheet.keys()
    assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)
    assert not [k for k in keys if "左方向" in k or "右方向" in k], keys
    assert any("→" in k for k in keys) and any("←" in k for k in keys), keys
    texts = [sheet.table.item(r, 1).text() for r in range(sheet.table.rowCount())]
    assert not [t for t in texts if "(Q)" in t or "&" in t], texts
    column = sheet.table.columnWidth(0)  # every key whole in its column
    metrics = sheet.table.fontMetrics()
    assert all(metrics.horizontalAdvance(k) <= column for k in keys), (column, keys)
    qtbot.keyClick(sheet.table, QtCore.Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not sheet.isVisible(), timeout=2000)
