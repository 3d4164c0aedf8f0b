"""How large the labs' lesson steps draw their figures at a projector: one command, one table.

    python bench/lab_figures.py [--size 1024x768] [--language zh_CN] [--tracks translation vision]

The real window offscreen, in presentation mode with the lesson column open, walks every step
of the lab tracks and prints, per step, the tab's height and each figure shown there: its
plot's height (a heatmap panel's cells, a training curve's widget), its share of the tab, its
rows and how many carry a label (a shared axis labels every panel of its grid row). A figure
under 40 % of the tab, a matrix of at most 16 rows with a row unlabelled, or a tab with a
horizontal scroll bar (a page wider than its column, cut at the right) is marked ✗: what
a class at the back cannot read; a Vision map's rows are positions, not tokens: only a map
that draws its axes counts them, and up to 8 rows. Sizes, not times: the load does not change
them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

MIN_SHARE = 0.4
ALL_LABELLED = 16
ALL_POSITIONS = 8  # a Vision map's rows labelled up to this many


def figures(view):
    from explorer.gui.heatmap import MatrixCanvas
    from explorer.gui.lab.curves import CurvePlot
    from explorer.gui.labs.vision.bars import BarChart

    positions = view.TAB == "vision"
    out = []
    for canvas in view.findChildren(MatrixCanvas):
        if canvas.isVisible():
            figure = canvas.figure
            for box in canvas.current_layout().boxes:
                panel = canvas.panels[box.index]
                labelled = len(box.rows) if box.draw_rows or figure.shared_axes else 0
                rows = panel.shape[0]
                if positions and (not figure.axes or rows > ALL_POSITIONS):
                    rows = 0
                out.append((panel.name or panel.title, box.plot.height(), rows, labelled))
    for plot in view.findChildren(CurvePlot):
        if plot.isVisible():
            out.append(("curve", plot.height(), 0, 0))
    for chart in view.findChildren(BarChart):
        if chart.isVisible():
            out.append(("bars", chart.height(), 0, 0))
    return out


def sideways(view) -> bool:
    """A horizontal scroll bar shown on the tab: something in it wider than its column."""
    from PySide6 import QtCore, QtWidgets

    return any(
        bar.isVisible() and bar.orientation() == QtCore.Qt.Orientation.Horizontal
        for bar in view.findChildren(QtWidgets.QScrollBar)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1024x768")
    parser.add_argument("--language", default="zh_CN")
    parser.add_argument("--tracks", nargs="+", default=["translation", "vision"])
    parser.add_argument("--settle", type=float, default=4.0, help="seconds each step is given")
    parser.add_argument("--zoom", type=int, default=0, help="text size steps (1: A+)")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))

    from PySide6 import QtWidgets

    from explorer.appstate.lesson import STEPS
    from explorer.core.engine import Engine
    from explorer.gui.app_setup import configure_app

    app = configure_app(["bench"])
    from explorer.gui.main_window import MainWindow

    window = MainWindow(Engine(), None)
    window.resize(width, height)
    window.show()
    window.state.set_language(args.language)
    window.state.set_text_zoom(args.zoom)
    window.classroom.set_presentation(True, fullscreen=False)
    window.resize(width, height)
    window.state.show_lesson(True)

    def spin(seconds: float) -> None:
        end = time.time() + seconds
        while time.time() < end:
            app.processEvents()
            time.sleep(0.02)

    print(f"{args.size}, {args.language}, text zoom {args.zoom}, presentation mode, lesson column open")
    print(f"{'step':28} {'tab px':>6}  {'figure':18} {'plot px':>7} {'share':>6} {'rows':>5} {'labelled':>8}")
    bad = 0
    for k, step in enumerate(STEPS):
        if step.tab not in args.tracks:
            continue
        window.state.set_lesson_step(k)
        spin(args.settle)
        QtWidgets.QApplication.processEvents()
        view = window.view(step.tab)
        if sideways(view):  # the page wider than its column: cut at the right, a scroll bar
            bad += 1
            print(
                f"{step.id:28} {view.height():6d}  {'sideways scroll':18} {'':>7} {'':>6} {'':>5} {'':>8} ✗"
            )
        for name, h, rows, labelled in figures(view):
            share = h / view.height()
            ok = share >= MIN_SHARE and not (rows and rows <= ALL_LABELLED and labelled < rows)
            bad += not ok
            print(
                f"{step.id:28} {view.height():6d}  {str(name)[:18]:18} {h:7.0f} {share:6.0%} "
                f"{rows or '':>5} {labelled if rows else '':>8} {'' if ok else '✗'}"
            )
    print(f"{bad} figure(s) too small or with an unlabelled row")
    window.close()


if __name__ == "__main__":
    main()
