"""The tokens stage: the text as the model reads it, a row of chips, each token with its id.

The lesson's first step shows this rather than X: a class sees what "cut into tokens" means
([CLS], word pieces, [UNK]) before it sees the numbers. The chips wrap like words; each is
the token in large type with its id in the model's vocabulary under it (with random weights
every word is its own token and the chip shows its position).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.gui.heatmap import Style
from explorer.gui.i18n import translate

PAD_PX = 8  # inside a chip, around its two lines
GAP_PX = 10  # between chips, and between the lines of chips
RADIUS_PX = 6


@dataclass(frozen=True)
class Chip:
    rect: QtCore.QRectF
    token: str
    id_text: str
    position: int


@dataclass(frozen=True)
class ChipGroup:
    title: str
    tokens: list[str]
    ids: list[int]  # empty: no vocabulary (random weights): the chips show positions


def groups_of(trace) -> list[ChipGroup]:
    """The sentence's tokens, and the query's when it is another text (cross-attention)."""
    sentence = ChipGroup(
        translate("TokenChips", "Sentence: {n} tokens").format(n=trace.n_key),
        list(trace.tokens_key),
        list(trace.token_ids_key),
    )
    if trace.config.is_self_attention:
        return [sentence]
    query = ChipGroup(
        translate("TokenChips", "Query: {n} tokens").format(n=trace.n_query),
        list(trace.tokens_query),
        list(trace.token_ids_query),
    )
    return [query, sentence]


def id_text(group: ChipGroup, position: int) -> str:
    if group.ids and position < len(group.ids):
        return translate("TokenChips", "id {0}").format(group.ids[position])
    return f"#{position}"


def layout_chips(
    groups: list[ChipGroup], width: float, font: QtGui.QFont
) -> tuple[list[tuple[QtCore.QRectF, str]], list[Chip], float]:
    """(group titles with their rectangles, chips, height used) for ``width`` pixels: chips
    flow left to right and wrap like words; a chip is as wide as its longer line."""
    metrics = QtGui.QFontMetricsF(font)
    line = metrics.height()
    chip_h = 2 * line + 2 * PAD_PX
    titles, chips = [], []
    y = 0.0
    for group in groups:
        titles.append((QtCore.QRectF(0, y, metrics.horizontalAdvance(group.title), line), group.title))
        y += line + GAP_PX / 2
        x = 0.0
        for position, token in enumerate(group.tokens):
            ids = id_text(group, position)
            limit = max(40.0, width - 2 * PAD_PX)
            shown = metrics.elidedText(token, QtCore.Qt.TextElideMode.ElideRight, limit)
            w = max(metrics.horizontalAdvance(shown), metrics.horizontalAdvance(ids)) + 2 * PAD_PX
            if x > 0 and x + w > width:
                x, y = 0.0, y + chip_h + GAP_PX
            chips.append(Chip(QtCore.QRectF(x, y, w, chip_h), shown, ids, position))
            x += w + GAP_PX
        y += chip_h + 1.5 * GAP_PX
    return titles, chips, y


class TokenChips(QtWidgets.QWidget):
    """The chips, painted with the figures' font and colours (the theme, the text size)."""

    def __init__(self, style: Style, parent=None):
        super().__init__(parent)
        self.style_ = style
        self.groups: list[ChipGroup] = []
        self.caption = ""
        self._stale = False  # laid out while hidden: lay out again when shown
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Ignored, QtWidgets.QSizePolicy.Policy.Preferred)

    def set_trace(self, trace) -> None:
        self.groups = groups_of(trace)
        if trace.token_ids_key:
            self.caption = translate(
                "TokenChips", "Each token with its id in {model}'s vocabulary of word pieces."
            ).format(model=trace.model_name or "")
        else:
            self.caption = translate(
                "TokenChips", "Random weights: every word is a token, numbered by its position."
            )
        self._fit()

    def set_style(self, style: Style) -> None:
        self.style_ = style
        self._fit()

    def layout(self):  # the chips' layout, not a QLayout
        margin = GAP_PX
        titles, chips, height = layout_chips(self.groups, self.width() - 2 * margin, self.style_.font)
        top = margin + self._caption_height()  # once: it measures the caption's wrapped text
        move = lambda r: r.translated(margin, top)  # noqa: E731
        titles = [(move(r), t) for r, t in titles]
        chips = [Chip(move(c.rect), c.token, c.id_text, c.position) for c in chips]
        return titles, chips, height + 2 * margin + self._caption_height()

    def chips(self) -> list[Chip]:
        return self.layout()[1]

    def caption_rect(self) -> QtCore.QRectF:
        """Where the caption goes: wrapped to the width."""
        if not self.caption:
            return QtCore.QRectF(GAP_PX, GAP_PX, 0, 0)
        width = max(40, self.width() - 2 * GAP_PX)
        bound = QtGui.QFontMetricsF(self.style_.font).boundingRect(
            QtCore.QRectF(0, 0, width, 10_000), int(QtCore.Qt.TextFlag.TextWordWrap), self.caption
        )
        return QtCore.QRectF(GAP_PX, GAP_PX, width, bound.height())

    def _caption_height(self) -> float:
        return self.caption_rect().height() + GAP_PX if self.caption else 0.0

    def _fit(self) -> None:
        # laid out only when on screen: a 4,096-token paste spent 110 ms of the GUI thread on
        # the chips of a page nobody was looking at
        if not self.isVisible():
            self._stale = True
            return
        self._stale = False
        self.setMinimumHeight(int(self.layout()[2]) + 1)
        self.update()

    def showEvent(self, event):
        super().showEvent(event)
        if self._stale:
            self._fit()

    def resizeEvent(self, event):
        super().resizeEvent(event)
        if not self.isVisible():
            self._stale = True
            return
        height = int(self.layout()[2]) + 1
        if height != self.minimumHeight():
            self.setMinimumHeight(height)

    def paintEvent(self, event):
        painter = QtGui.QPainter(self)
        style = self.style_
        painter.fillRect(self.rect(), style.bg)
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        painter.setFont(style.font)
        metrics = QtGui.QFontMetricsF(style.font)
        line, ascent = metrics.height(), metrics.ascent()
        muted = QtGui.QColor(style.frame)
        if self.caption:
            painter.setPen(style.fg)
            painter.drawText(self.caption_rect(), int(QtCore.Qt.TextFlag.TextWordWrap), self.caption)
        titles, chips, _ = self.layout()
        painter.setPen(style.fg)
        for rect, text in titles:
            painter.drawText(QtCore.QPointF(rect.left(), rect.top() + ascent), text)
        fill = QtGui.QColor(style.accent)
        fill.setAlpha(40)
        for chip in chips:
            painter.setPen(QtGui.QPen(style.accent, 2))
            painter.setBrush(fill)
            painter.drawRoundedRect(chip.rect, RADIUS_PX, RADIUS_PX)
            painter.setPen(style.fg)
            x = chip.rect.left() + PAD_PX
            top = chip.rect.top() + PAD_PX
            w_token, w_id = metrics.horizontalAdvance(chip.token), metrics.horizontalAdvance(chip.id_text)
            inner = chip.rect.width() - 2 * PAD_PX
            painter.drawText(QtCore.QPointF(x + (inner - w_token) / 2, top + ascent), chip.token)
            painter.setPen(muted if muted.lightness() != style.bg.lightness() else style.fg)
            painter.drawText(QtCore.QPointF(x + (inner - w_id) / 2, top + line + ascent), chip.id_text)
        painter.end()
