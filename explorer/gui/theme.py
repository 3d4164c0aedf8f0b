"""Two themes for the classroom: a high-contrast light one and a dark one.

A theme is a palette for the widgets, a background and foreground for the plots and an
accent colour (the lesson's highlight). ``apply_theme`` sets them on the application;
``font_style_sheet`` gives the style sheet that sets one font size on a whole window
(presentation mode), so that every label, button, tab and menu grows together.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyqtgraph as pg
from PySide6 import QtGui, QtWidgets

# A CJK-capable family last in the fallback list, so Chinese never renders as boxes
# when the default family lacks the glyphs (offscreen and in screenshots too).
CJK_FAMILIES = (
    "Noto Sans CJK SC",
    "WenQuanYi Micro Hei",
    "Microsoft YaHei",
    "PingFang SC",
    "Source Han Sans SC",
    "SimHei",
)

PRESENTATION_FONT_PX = 22  # at 1024×768 nothing is under 20 px
NORMAL_FONT_PX = 0  # 0: the platform's own size


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
    muted: str  # borders of panels that are not current

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


THEMES: dict[str, Theme] = {
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
DEFAULT_THEME = "light"


def theme(name: str | None) -> Theme:
    return THEMES.get(name or DEFAULT_THEME, THEMES[DEFAULT_THEME])


def ensure_cjk_fallback() -> None:
    """Let every family fall back to an installed CJK font for Chinese characters."""
    installed = set(QtGui.QFontDatabase.families())
    cjk = [f for f in CJK_FAMILIES if f in installed]
    if not cjk:
        return
    app_font = QtWidgets.QApplication.font()
    for family in {app_font.family(), "Sans Serif", "DejaVu Sans", "Helvetica", "Arial"}:
        subs = QtGui.QFont.substitutes(family)
        missing = [f for f in cjk if f not in subs]
        if missing:
            QtGui.QFont.insertSubstitutions(family, missing)
    families = app_font.families() or [app_font.family()]
    if not any(f in families for f in cjk):
        app_font.setFamilies(families + cjk)
        QtWidgets.QApplication.setFont(app_font)


def apply_theme(name: str) -> Theme:
    """Set the palette of the whole application and the plot colours for new plot items."""
    t = theme(name)
    app = QtWidgets.QApplication.instance()
    if app is not None:
        app.setPalette(t.palette())
    pg.setConfigOptions(background=t.plot_bg, foreground=t.plot_fg)
    return t


def font_style_sheet(font_px: int) -> str:
    """One font size for every widget of a window (0: leave the platform's sizes)."""
    if font_px <= 0:
        return ""
    return (
        f"* {{ font-size: {font_px}px; }}\n"
        f"QToolTip {{ font-size: {font_px}px; }}\n"
        f"QTabBar::tab {{ padding: 4px 12px; }}\n"
    )


def font_px_for(font_px: int) -> int:
    """The pixel size plots use: presentation size, or about the platform's default."""
    if font_px > 0:
        return font_px
    return max(QtGui.QFontInfo(QtWidgets.QApplication.font()).pixelSize(), 11)
