"""The window's tabs, in one place: what each is called and where its code lives.

Adding a tab is a module with a ``View`` subclass (explorer/gui/views/ for the attention tabs,
explorer/gui/labs/<lab>/ for a lab's), one ``TabSpec`` line below (a built-in tab also gets a
``Tab`` member; one made elsewhere names itself by a plain string and is added with
``register_tab``), and its state in ExplorerState (a lab: explorer/appstate/labs.py). The
window builds a tab the first time it is shown: a hidden tab costs nothing at start-up, not
even its import. ``--tab NAME`` and sessions name tabs by their name. Importing this module
imports no Qt (the command line reads it before torch and Qt are loaded).
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Callable
from dataclasses import dataclass

from explorer.words import QT_TRANSLATE_NOOP


class Tab(str, enum.Enum):
    PIPELINE = "pipeline"
    HEADS = "heads"
    OVERVIEW = "overview"
    COMPARE = "compare"
    BOARD = "board"
    TRANSLATION = "translation"
    LOCAL = "local"
    WHY_ATTENTION = "why_attention"
    VISION = "vision"
    LM = "lm"
    VIT = "vit"


@dataclass(frozen=True)
class TabSpec:
    tab: str  # a Tab member, or the name of a tab registered from elsewhere
    title: str  # English source text, shown through QCoreApplication.translate("Tabs", …)
    tooltip: str
    view: str  # "module:Class" of its View, imported when the tab is first shown
    figures: str | None = None  # "module:function" naming what it exports (views.base.FigureSource)
    short: str = ""  # a lab's name on the Labs row when the whole titles need more than one line
    # "module:function(context) -> name | None": the figure of the page on screen, the Export
    # dialog's preset (a tab of several pages); without it, the tab's first figure
    shown: str | None = None

    def build(self, context):
        return _load(self.view)(context)

    def figure_sources(self, context) -> dict:
        return _load(self.figures)(context) if self.figures else {}

    def shown_figure(self, context) -> str | None:
        """The name of what the tab shows now, for the Export dialog to open on (None: none)."""
        if self.shown:
            return _load(self.shown)(context)
        return next(iter(self.figure_sources(context)), None)


def _load(where: str):
    module, name = where.split(":")
    return getattr(importlib.import_module(module), name)


TABS: list[TabSpec] = [
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
        shown="explorer.gui.views.pipeline:shown_figure",
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
        "explorer.gui.labs.translation.view:TranslationView",
        "explorer.gui.labs.translation.export:figures",
        shown="explorer.gui.labs.translation.export:shown_figure",
    ),
    TabSpec(
        Tab.WHY_ATTENTION,
        QT_TRANSLATE_NOOP("Tabs", "Why attention"),
        QT_TRANSLATE_NOOP(
            "Tabs",
            "Sentences translated by an encoder–decoder without attention (one fixed context C) and "
            "one with attention, and their accuracy against sentence length",
        ),
        "explorer.gui.labs.translation.why_attention:WhyAttentionView",
        "explorer.gui.labs.translation.why_export:figures",
        shown="explorer.gui.labs.translation.why_export:shown_figure",
    ),
    TabSpec(
        Tab.LOCAL,
        QT_TRANSLATE_NOOP("Tabs", "Global vs local"),
        QT_TRANSLATE_NOOP(
            "Tabs",
            "Global attention beside Luong's local attention: the window [p_t − D, p_t + D] on every "
            "output step, p_t, the Gaussian, D changed on a trained model, both trained while you watch",
        ),
        "explorer.gui.labs.translation.window_view:LocalWindowView",
        "explorer.gui.labs.translation.window_export:figures",
        shown="explorer.gui.labs.translation.window_export:shown_figure",
        short=QT_TRANSLATE_NOOP("Tabs", "Local"),
    ),
    TabSpec(
        Tab.VISION,
        QT_TRANSLATE_NOOP("Tabs", "Vision"),
        QT_TRANSLATE_NOOP(
            "Tabs",
            "Attention on pictures: channel weights (SE), spatial maps (CBAM), residual attention; "
            "train a model while you watch",
        ),
        "explorer.gui.labs.vision.view:VisionView",
        "explorer.gui.labs.vision.export:figures",
        shown="explorer.gui.labs.vision.export:shown_figure",
    ),
    TabSpec(
        Tab.LM,
        QT_TRANSLATE_NOOP("Tabs", "Language model"),
        QT_TRANSLATE_NOOP(
            "Tabs",
            "A tiny GPT learns to predict the next token: watch a previous-token head and an "
            "induction head form, and switch heads off",
        ),
        "explorer.gui.labs.lm.view:LMView",
        "explorer.gui.labs.lm.export:figures",
        shown="explorer.gui.labs.lm.export:shown_figure",
        short=QT_TRANSLATE_NOOP("Tabs", "GPT"),
    ),
    TabSpec(
        Tab.VIT,
        QT_TRANSLATE_NOOP("Tabs", "Vision Transformer"),
        QT_TRANSLATE_NOOP(
            "Tabs",
            "Self-attention between a picture's patches, beside the CNN: each head's map, the CLS "
            "token, rollout, local and global heads, and how much data each model needs",
        ),
        "explorer.gui.labs.vision.vit_view:ViTView",
        "explorer.gui.labs.vision.vit_export:figures",
        shown="explorer.gui.labs.vision.vit_export:shown_figure",
        short=QT_TRANSLATE_NOOP("Tabs", "ViT"),
    ),
]


def tab_id(tab: str) -> str:
    """A tab's name as sessions and ``--tab`` write it."""
    return tab.value if isinstance(tab, Tab) else str(tab)


def spec(tab: str) -> TabSpec:
    """The registered tab of that name (StopIteration: none)."""
    name = tab_id(tab)
    return next(s for s in TABS if tab_id(s.tab) == name)


def tab_named(name: str | None) -> str:
    """The tab of that name, or the first one (an old session, a removed tab)."""
    found = [s.tab for s in TABS if name is not None and tab_id(s.tab) == tab_id(name)]
    return found[0] if found else TABS[0].tab


def register_tab(tab: TabSpec) -> Callable[[], None]:
    """Add a tab after the others (windows made from now on show it); returns what takes it out."""
    if any(tab_id(s.tab) == tab_id(tab.tab) for s in TABS):
        raise ValueError(f"a tab named {tab_id(tab.tab)!r} is registered already")
    TABS.append(tab)
    return lambda: TABS.remove(tab) if tab in TABS else None
