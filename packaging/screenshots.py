"""Regenerate docs/screenshots/: ``PYTHONPATH=$PWD python packaging/screenshots.py [--out DIR]``.

Offscreen, on the opening example ("it" → "animal", layer 5, head 11, 15 tokens):

- presentation mode at 1024×768 (the projector the layout is designed for), light theme:
  every lesson step in English and in Chinese (``step-NN-<stage>-<lang>.png``);
- every tab of the registry in presentation mode, light and dark, both languages
  (``tab-<tab>-<theme>-<lang>.png``; the pipeline's is ``presentation-<theme>-<lang>.png``);
- a teaching note (the causal mask on a model that reads both ways) in both languages;
- the weights slide at 1280×720 and 1920×1080 (``presentation-<W>x<H>.png``), and the
  README's pictures (``presentation-<theme>-<lang>.png``, ``window-*.png``, ``*-1920x1080.png``).

Each picture is also checked as tests/gui/test_projector.py checks it (text of 20 px or more,
nothing clipped, no figure texts overlapping); problems are printed and make the exit
status 1. Takes about a minute.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault(
    "EXPLORER_LOG_DIR", str(Path(os.environ.get("TMPDIR", "/tmp")) / "explorer-screenshot-logs")
)

import torch  # noqa: E402,F401  (before Qt, as main.py)
from PySide6 import QtCore  # noqa: E402

LANG_TAG = {"en": "en", "zh_CN": "zh"}


def settle(app, window, ms: int = 150) -> None:
    """Let the worker finish and every paint happen."""
    timer = QtCore.QElapsedTimer()
    timer.start()
    while timer.elapsed() < 60_000:
        app.processEvents()
        if not window.worker.busy():
            break
        QtCore.QThread.msleep(10)
    end = timer.elapsed() + ms
    while timer.elapsed() < end:
        app.processEvents()
        QtCore.QThread.msleep(5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from explorer.appstate.lesson import STEPS
    from explorer.appstate.presets import DEFAULT_PRESET
    from explorer.core.engine import Engine
    from explorer.gui import i18n
    from explorer.gui.app_setup import configure_app
    from explorer.gui.docks.registry import Dock
    from explorer.gui.main_window import MainWindow
    from explorer.gui.preferences import MemorySettings
    from explorer.gui.views.registry import TABS
    from tests.gui.projector_check import all_problems

    app = configure_app([sys.argv[0]])
    engine = Engine()
    problems: list[str] = []

    def window_at(size, presentation: bool) -> MainWindow:
        i18n.set_language("en")  # the language is the application's: each window starts in English
        w = MainWindow(engine, DEFAULT_PRESET.config(), settings=MemorySettings())
        w.resize(*size)
        w.show()
        settle(app, w)
        w.state.select_head(DEFAULT_PRESET.head)
        w.state.select_cell(DEFAULT_PRESET.cell)
        if presentation:
            w.classroom.set_presentation(True, fullscreen=False)
            w.resize(*size)
        settle(app, w)
        return w

    def shoot(w: MainWindow, name: str, check: bool = True) -> None:
        settle(app, w)
        w.repaint()
        image = w.grab().toImage()
        image.save(str(out / name), "PNG", 0)  # 0: the smallest file
        if check:
            for p in all_problems(w):
                problems.append(f"{name}: {p}")
        print(name, flush=True)

    # the projector: every step, both languages; every tab, both themes and languages
    w = window_at((1024, 768), presentation=True)
    for lang in ("en", "zh_CN"):
        w.state.set_language(lang)
        for i, step in enumerate(STEPS):
            w.state.set_lesson_step(i)
            shoot(w, f"step-{i + 1:02d}-{step.stage}-{LANG_TAG[lang]}.png")
        w.state.set_lesson_step(STEPS.index(next(s for s in STEPS if s.stage == "weights")))
        for theme in ("light", "dark"):
            w.state.set_theme(theme)
            for spec in TABS:
                w.state.set_tab(spec.tab.value)
                tab = spec.tab.value
                # the pipeline on the weights step: the README's presentation-<theme>-<lang>.png
                shoot(
                    w,
                    f"presentation-{theme}-{LANG_TAG[lang]}.png"
                    if tab == "pipeline"
                    else f"tab-{tab}-{theme}-{LANG_TAG[lang]}.png",
                )
        w.state.set_theme("light")
        # a teaching note: the causal mask on layer 5 of a model that reads both ways
        w.state.set_tab("pipeline")
        w.state.set_lesson_step(STEPS.index(next(s for s in STEPS if s.stage == "mask")))
        w.state.update_config(mask="causal")
        shoot(w, f"note-causal-mask-{LANG_TAG[lang]}.png")
        w.state.update_config(mask="none")
    w.close()

    # other screens: a wide projector, a full-HD one, and the ordinary window
    for size in ((1280, 720), (1920, 1080)):
        w = window_at(size, presentation=True)
        w.state.set_lesson_step(STEPS.index(next(s for s in STEPS if s.stage == "weights")))
        shoot(w, f"presentation-{size[0]}x{size[1]}.png")
        w.close()
    for size in ((1024, 768), (1920, 1080)):
        w = window_at(size, presentation=False)
        shoot(w, f"window-{size[0]}x{size[1]}.png", check=False)
        w.close()
    w = window_at((1920, 1080), presentation=False)
    w.docks.set_visible(Dock.WORKED, True)
    shoot(w, "worked-1920x1080.png", check=False)
    w.docks.set_visible(Dock.WORKED, False)
    for tab in ("heads", "overview", "compare"):
        w.state.set_tab(tab)
        shoot(w, f"{tab}-1920x1080.png", check=False)
    w.close()

    for p in problems:
        print("problem:", p)
    print(f"{len(list(out.glob('*.png')))} pictures in {out}; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
