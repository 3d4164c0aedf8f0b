"""The two themes (a high-contrast light one and a dark one) and the text sizes, as Qt sees them.

A theme is a palette for the widgets, a background and foreground for the figures and an
accent colour (the lesson's highlight, the selected head). Which theme, which text zoom and
whether presentation mode is on are the ExplorerState's; ``look(state)`` turns them into
what the widgets and the heatmaps need, so every view draws from the same source.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6 import QtGui, QtWidgets

from explorer.appstate.state import MIN_PRESENTATION_PX, PRESENTATION_FONT_PX, ExplorerState
from explorer.appstate.state import THEMES as THEME_NAMES
from explorer.gui.heatmap import Style

PRESENTATION_DESIGN = (1024, 768)  # the projector the layout is designed for
ZOOM_STEP_PX = 2
FIGURE_FONT_PX = 11  # labels and titles of the figures in the ordinary window
SELECTED = "#d55e00"  # the selected head, the selected thumbnail


@dataclass(frozen=True)
class Theme:
    name: str
    window: str
    text: str
    base: str
    alt_base: str
    button: str
    highlight: str
    highlight_text: str
    plot_bg: str
    plot_fg: str
    accent: str  # the lesson's current stage
    muted: str  # frames of panels, disabled text

    def palette(self) -> QtGui.QPalette:
        c = QtGui.QColor
        pal = QtGui.QPalette()
        R = QtGui.QPalette.ColorRole
        for role, colour in (
            (R.Window, self.window),
            (R.WindowText, self.text),
            (R.Base, self.base),
            (R.AlternateBase, self.alt_base),
            (R.Text, self.text),
            (R.Button, self.button),
            (R.ButtonText, self.text),
            (R.ToolTipBase, self.base),
            (R.ToolTipText, self.text),
            (R.Highlight, self.highlight),
            (R.HighlightedText, self.highlight_text),
            (R.PlaceholderText, self.muted),
            (R.BrightText, "#ff4040"),
            (R.Link, self.accent),
        ):
            pal.setColor(role, c(colour))
        disabled = QtGui.QPalette.ColorGroup.Disabled
        for role in (R.WindowText, R.Text, R.ButtonText):
            pal.setColor(disabled, role, c(self.muted))
        return pal


PALETTES: dict[str, Theme] = {
    # Pure black on white, a deep blue highlight: survives a washed-out projector.
    "light": Theme(
        "light",
        window="#ffffff",
        text="#000000",
        base="#ffffff",
        alt_base="#f0f0f0",
        button="#e8e8e8",
        highlight="#0040a0",
        highlight_text="#ffffff",
        plot_bg="#ffffff",
        plot_fg="#000000",
        accent="#d55e00",
        muted="#606060",
    ),
    "dark": Theme(
        "dark",
        window="#121212",
        text="#f2f2f2",
        base="#1e1e1e",
        alt_base="#2a2a2a",
        button="#2d2d2d",
        highlight="#4da3ff",
        highlight_text="#000000",
        plot_bg="#121212",
        plot_fg="#f2f2f2",
        accent="#ffb000",
        muted="#9a9a9a",
    ),
}
assert tuple(PALETTES) == THEME_NAMES, "one palette per theme of explorer.appstate.state.THEMES"


def theme(name: str | None) -> Theme:
    return PALETTES.get(name or THEME_NAMES[0], PALETTES[THEME_NAMES[0]])


def platform_font_px() -> int:
    return max(QtGui.QFontInfo(QtWidgets.QApplication.font()).pixelSize(), 11)


@dataclass(frozen=True)
class Look:
    """What the state's theme, text zoom and presentation mode mean in pixels and colours."""

    theme: Theme
    widget_px: int  # 0: the platform's own sizes (the ordinary window, not zoomed)
    figure_px: int  # labels and titles of the heatmaps

    def style(self) -> Style:
        t = self.theme
        return Style.make(self.figure_px, fg=t.plot_fg, bg=t.plot_bg, accent=t.accent, frame=t.muted)


def presentation_px_for(width: int, height: int) -> int:
    """Presentation mode's text size for a window of this size: 22 px at 1024×768, in
    proportion elsewhere (a projected picture is as large whatever its pixels), never under
    20 px: 21 px at 1280×720, 31 px at 1920×1080."""
    w, h = PRESENTATION_DESIGN
    scale = min(width / w, height / h)
    return max(MIN_PRESENTATION_PX, round(PRESENTATION_FONT_PX * scale))


def look(state: ExplorerState) -> Look:
    t = theme(state.theme)
    zoom = state.text_zoom * ZOOM_STEP_PX
    if state.presentation:
        px = state.presentation_px + zoom
        return Look(t, px, px)
    if state.text_zoom == 0:
        return Look(t, 0, FIGURE_FONT_PX)
    return Look(t, max(8, platform_font_px() + zoom), max(7, FIGURE_FONT_PX + zoom))


def apply_palette(t: Theme) -> None:
    app = QtWidgets.QApplication.instance()
    if app is not None:
        app.setPalette(t.palette())


def font_style_sheet(font_px: int) -> str:
    """One font size for every widget of a window (0: leave the platform's sizes)."""
    if font_px <= 0:
        return ""
    return (
        f"* {{ font-size: {font_px}px; }}\n"
        f"QToolTip {{ font-size: {font_px}px; }}\n"
        f"QTabBar::tab {{ padding: 4px 7px; }}\n"
    )
