#!/usr/bin/env python3
"""Screenshots of board mode, predict-then-reveal and the lines view, in both languages.

    python packaging/classroom_screenshots.py [--out docs/screenshots]

Renders offscreen, at 1024×768 in presentation mode (one board at 1920×1080 in the ordinary
window): the board (Thinking Machines; two heads with a causal mask, zoomed into the
weights), the lesson's weights question revealed with the lines view, a yes/no question
answered, and three heads overlaid as lines. English on MiniLM (layer 5, head 11: "it" and
"animal"); Chinese on seeded random weights (MiniLM reads few Chinese characters).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import torch  # noqa: E402,F401  (before Qt)

ANIMAL = "The animal didn't cross the street because it was too tired"
CHINESE = "这只动物没有过马路，因为它太累了。"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)

    from PySide6 import QtCore

    from explorer.appstate.board import BOARD_PRESETS
    from explorer.appstate.lesson import STEPS
    from explorer.core.config import AttentionConfig
    from explorer.core.engine import Engine
    from explorer.gui import i18n
    from explorer.gui.app_setup import configure_app
    from explorer.gui.main_window import MainWindow
    from explorer.gui.preferences import MemorySettings

    app = configure_app(["screenshots"])
    engine = Engine()
    step = {s.stage: i for i, s in enumerate(STEPS)}

    def wait(ms: int) -> None:
        deadline = QtCore.QDeadlineTimer(ms)
        while not deadline.hasExpired():
            app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 50)

    def window(config, size=(1024, 768), language="en", presentation=True) -> MainWindow:
        w = MainWindow(engine, config, settings=MemorySettings())
        w.resize(*size)
        w.show()
        w.state.set_language(language)
        if presentation:
            w.classroom.set_presentation(True, fullscreen=False)
        w.resize(*size)
        for _ in range(400):
            wait(50)
            if w.trace is not None and not w.worker.busy():
                break
        return w

    def shot(w: MainWindow, name: str) -> None:
        wait(700)
        path = out / f"{name}.png"
        if not w.grab().save(str(path)):
            raise SystemExit(f"error: cannot write {path}")
        print(path)

    for lang, short in (("en", "en"), ("zh_CN", "zh")):
        w = window(AttentionConfig(sentence="Thinking Machines"), language=lang)
        w.state.show_lesson(False)
        w.state.set_stage_zoom(None)
        w.state.set_tab("board")
        shot(w, f"board-{short}-1024x768")
        w.state.board.set_board(BOARD_PRESETS[2].board)
        w.state.update_config(mask="causal")
        w.state.select_head(1)
        w.state.select_cell((2, 1))
        w.state.set_stage_zoom(("weights",))
        shot(w, f"board-heads-causal-weights-{short}-1024x768")
        w.close()

        english = lang == "en"
        config = (
            AttentionConfig(sentence=ANIMAL, layer=5)
            if english
            else AttentionConfig(sentence=CHINESE, weights="random", d_model=32, heads=4)
        )
        w = window(config, language=lang)
        w.state.select_head(11 if english else 0)
        w.state.set_lesson_step(step["weights"])
        w.state.predict.set_enabled(True)
        shot(w, f"predict-veiled-{short}-1024x768")
        w.state.select_cell((w.state.predict.row, 8 if english else 1))  # the class's guess
        w.state.predict.reveal()
        w.state.lines.set_pipeline(True)
        shot(w, f"predict-revealed-lines-{short}-1024x768")
        w.state.lines.set_pipeline(False)
        w.state.set_lesson_step(step["head_outputs"])
        w.state.predict.guess_choice(1)
        w.state.predict.reveal()
        shot(w, f"predict-choice-{short}-1024x768")
        w.state.show_lesson(False)
        w.state.set_tab("heads")
        w.state.lines.set_heads(True)
        w.state.lines.set_head_subset((1, 3, 11) if english else (0, 1, 2, 3))
        shot(w, f"heads-lines-{short}-1024x768")
        w.close()
        i18n.set_language("en")

    w = window(AttentionConfig(sentence="Thinking Machines"), size=(1920, 1080), presentation=False)
    w.state.set_tab("board")
    shot(w, "board-1920x1080")
    w.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
