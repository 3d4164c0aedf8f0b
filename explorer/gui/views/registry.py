"""The window's tabs, in one place: what each is called and where its code lives.

Adding a tab (a Translation or a Vision tab) is a module under explorer/gui/views/ with a
``View`` subclass, one ``Tab`` member and one ``TabSpec`` line below, and its state fields
in ExplorerState (or a small Qt-free state object hung off it). The window builds a tab the
first time it is shown: a hidden tab costs nothing at start-up, not even its import.
``--tab NAME`` and sessions name tabs by ``Tab`` value. Importing this module imports no
Qt (the command line reads it before torch and Qt are loaded).
"""

from __future__ import annotations

import enum
import importlib
from dataclasses import dataclass


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name lupdate looks for
    return text


class Tab(str, enum.Enum):
    PIPELINE = "pipeline"
    HEADS = "heads"
    OVERVIEW = "overview"
    COMPARE = "compare"
    BOARD = "board"
    TRANSLATION = "translation"
    VISION = "vision"


@dataclass(frozen=True)
class TabSpec:
    tab: Tab
    title: str  # English source text, shown through QCoreApplication.translate("Tabs", …)
    tooltip: str
    view: str  # "module:Class" of its View, imported when the tab is first shown
    figures: str | None = None  # "module:function" naming what it exports (views.base.FigureSource)

    def build(self, context):
        return _load(self.view)(context)

    def figure_sources(self, context) -> dict:
        return _load(self.figures)(context) if self.figures else {}


def _load(where: str):
    module, name = where.split(":")
    return getattr(importlib.import_module(module), name)


TABS: tuple[TabSpec, ...] = (
    TabSpec(
        Tab.PIPELINE,
        QT_TRANSLATE_NOOP("Tabs", "Pipeline"),
        QT_TRANSLATE_NOOP(
            "Tabs",
            "Every stage of the selected head, in order: X, Q, K, V, scores, scaled, mask, weights, "
            "head output, concat, output",
        ),
        "explorer.gui.views.pipeline:PipelineView",
        "explorer.gui.views.pipeline:figures",
    ),
    TabSpec(
        Tab.HEADS,
        QT_TRANSLATE_NOOP("Tabs", "All heads"),
        QT_TRANSLATE_NOOP("Tabs", "One stage for every head; click a head to select it"),
        "explorer.gui.views.heads:HeadGridView",
        "explorer.gui.views.heads:figures",
    ),
    TabSpec(
        Tab.OVERVIEW,
        QT_TRANSLATE_NOOP("Tabs", "Overview"),
        QT_TRANSLATE_NOOP("Tabs", "Attention weights of every layer and head; click one to open it"),
        "explorer.gui.views.overview:OverviewView",
        "explorer.gui.views.overview:figures",
    ),
    TabSpec(
        Tab.COMPARE,
        QT_TRANSLATE_NOOP("Tabs", "Compare"),
        QT_TRANSLATE_NOOP(
            "Tabs", "The selected head's weights for the current settings (A) and for B, and B − A"
        ),
        "explorer.gui.views.compare:CompareView",
        "explorer.gui.views.compare:figures",
    ),
    TabSpec(
        Tab.BOARD,
        QT_TRANSLATE_NOOP("Tabs", "Board"),
        QT_TRANSLATE_NOOP(
            "Tabs", "Type a few tiny vectors and see every stage with every number, to check by hand"
        ),
        "explorer.gui.views.board:BoardView",
        "explorer.gui.views.board:figures",
    ),
    TabSpec(
        Tab.TRANSLATION,
        QT_TRANSLATE_NOOP("Tabs", "Translation"),
        QT_TRANSLATE_NOOP(
            "Tabs",
            "A trained encoder–decoder turns a date into YYYY-MM-DD: where each output character "
            "looks, step by step, and how that alignment forms while it learns",
        ),
        "explorer.gui.views.translation:TranslationView",
        "explorer.gui.views.translation:figures",
    ),
    TabSpec(
        Tab.VISION,
        QT_TRANSLATE_NOOP("Tabs", "Vision"),
        QT_TRANSLATE_NOOP(
            "Tabs",
            "Attention on pictures: channel weights (SE), spatial maps (CBAM), residual attention; "
            "train a model while you watch",
        ),
        "explorer.gui.views.vision:VisionView",
        "explorer.gui.views.vision_export:figures",
    ),
)


def spec(tab: Tab | str) -> TabSpec:
    return next(s for s in TABS if s.tab == tab)


def tab_named(name: str | None) -> Tab:
    """The tab of that name, or the first one (an old session, a removed tab)."""
    try:
        return Tab(name)
    except ValueError:
        return TABS[0].tab
