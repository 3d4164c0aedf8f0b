"""The worked arithmetic of one cell: the actual numbers behind a score, a weight and an output.

Every number comes from ``explorer.core.worked.work_cell`` (which reads the trace); the
panel only lays them out: the sum of products, the division by the scale, the row's
exponentials and their sum, the weight, and the weighted sum of the value rows.
"""

from __future__ import annotations

import html

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.core.trace import AttentionTrace
from explorer.core.worked import WorkedCell, work_cell
from explorer.gui.i18n import translate
from explorer.gui.options import option_label
from explorer.gui.views.base import ExplainsItsOwnAttention, ViewContext, WorkedSource

MAX_TERMS = 64  # products shown in full (d_k of MiniLM is 32)
MAX_ROW = 40  # keys listed in the softmax table
MAX_DIMS = 8  # components of a value row / output shown
HIGHLIGHT = "#ffe2b3"


def num(x: float, digits: int = 4) -> str:
    return f"{float(x):.{digits}f}"


def paren(x: float) -> str:
    text = num(x)
    return f"({text})" if text.startswith("-") else text


def vec(v: np.ndarray, limit: int = MAX_DIMS) -> str:
    shown = ", ".join(num(x) for x in v[:limit])
    return f"[{shown}{', …' if v.size > limit else ''}]"


def page(
    trace: AttentionTrace | None, head: int, cell: tuple[int, int] | None
) -> tuple[str, WorkedCell | None]:
    """(HTML, the worked cell) of the selected cell, or a hint when there is none."""
    if trace is None or cell is None:
        hint = translate(
            "WorkedPanel",
            "Click a cell of the scores or weights (query row i, key column j) to see its "
            "arithmetic: the sum of products, the scaling, the softmax and the weighted sum.",
        )
        return f"<p>{html.escape(hint)}</p>", None
    i, j = cell
    if not (0 <= head < trace.heads and 0 <= i < trace.n_query and 0 <= j < trace.n_key):
        outside = translate("WorkedPanel", "The selected cell is outside this result.")
        return f"<p>{html.escape(outside)}</p>", None
    worked = work_cell(trace, head, i, j)
    return page_html(trace, worked), worked


def worked_source(context: ViewContext) -> WorkedSource:
    """(trace, head, cell) the page works out: the shown tab's own attention when it has one
    (``ExplainsItsOwnAttention``), else the window's trace with the state's head and cell."""
    state = context.state
    view = context.view(state.tab)
    if isinstance(view, ExplainsItsOwnAttention):
        return view.worked_source()
    prepared = context.current()
    return (prepared.trace if prepared else None), state.selected_head, state.selected_cell


def document(trace: AttentionTrace | None, head: int, cell, width: int = 470) -> QtGui.QTextDocument:
    """The page laid out off-screen (export draws it whether the dock is open or not)."""
    doc = QtGui.QTextDocument()
    doc.setDefaultFont(page_font())
    doc.setHtml(page(trace, head, cell)[0])
    doc.setTextWidth(width)
    return doc


def page_font() -> QtGui.QFont:
    font = QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont)
    font.setPointSizeF(max(font.pointSizeF(), 10.0))
    return font


def page_html(t: AttentionTrace, c: WorkedCell) -> str:
    """The worked arithmetic of one cell as HTML, in the interface language."""
    e = html.escape
    # the words outside the f-strings, where pyside6-lupdate can read them
    words = {
        text: e(translated)
        for text, translated in (
            ("Head", translate("WorkedPanel", "Head")),
            ("query", translate("WorkedPanel", "query")),
            ("key", translate("WorkedPanel", "key")),
            ("{0} more terms", translate("WorkedPanel", "{0} more terms")),
            ("Score", translate("WorkedPanel", "Score")),
            ("no scaling", translate("WorkedPanel", "no scaling")),
            ("Scale", translate("WorkedPanel", "Scale")),
            ("visible", translate("WorkedPanel", "visible")),
            (
                "masked: this key is hidden from this query",
                translate("WorkedPanel", "masked: this key is hidden from this query"),
            ),
            ("Mask", translate("WorkedPanel", "Mask")),
            ("Softmax over row {0}", translate("WorkedPanel", "Softmax over row {0}")),
            (
                "subtracting the row maximum does not change the weights",
                translate("WorkedPanel", "subtracting the row maximum does not change the weights"),
            ),
            ("scaled", translate("WorkedPanel", "scaled")),
            ("weight", translate("WorkedPanel", "weight")),
            ("{0} more keys", translate("WorkedPanel", "{0} more keys")),
            (
                "Every key of this row is masked: all weights are 0.",
                translate("WorkedPanel", "Every key of this row is masked: all weights are 0."),
            ),
            ("the weight is one-hot", translate("WorkedPanel", "the weight is one-hot")),
            ("Output of query {0}", translate("WorkedPanel", "Output of query {0}")),
            ("{0} smaller terms", translate("WorkedPanel", "{0} smaller terms")),
            ("{0} components", translate("WorkedPanel", "{0} components")),
        )
    }
    parts = [
        f"<h3>{words['Head']} {c.head} · {words['query']} {c.i} “{e(c.query_token)}” · "
        f"{words['key']} {c.j} “{e(c.key_token)}”</h3>"
    ]
    s = c.score
    q, k = t.Q[c.head, c.i], t.K[c.head, c.j]

    def products(left: np.ndarray, right: np.ndarray, fmt_left=paren) -> str:
        n = min(len(s.terms), MAX_TERMS)
        pieces = [f"{fmt_left(a)}×{paren(b)}" for a, b in zip(left[:n], right[:n])]
        lines = [" + ".join(pieces[p : p + 3]) for p in range(0, n, 3)]
        more = f"<br>+ … ({words['{0} more terms'].format(len(s.terms) - n)})" if len(s.terms) > n else ""
        return "<br>+ ".join(lines) + more

    parts.append(f"<p><b>1. {words['Score']}</b> ({e(option_label('scoring', s.kind))})<br>")
    if s.kind in ("dot", "cosine"):
        parts.append(
            f"q = {vec(q)}<br>k = {vec(k)}<br>"
            f"q·k = Σ<sub>d</sub> q<sub>d</sub>·k<sub>d</sub> =<br>{products(q, k)}<br>"
            f"= <b>{num(s.total)}</b>"
        )
        if s.kind == "cosine":
            parts.append(
                f"<br>cos = q·k / (|q| × |k|) = {num(s.total)} / ({num(s.extra['norm_q'])} × "
                f"{num(s.extra['norm_k'])}) = <b>{num(s.score)}</b>"
            )
    elif s.kind == "general":
        qw = np.asarray(s.extra["qW"])
        parts.append(
            f"qW = {vec(qw)}<br>k = {vec(k)}<br>"
            f"qᵀWk = Σ<sub>d</sub> (qW)<sub>d</sub>·k<sub>d</sub> =<br>{products(qw, k)}<br>"
            f"= <b>{num(s.score)}</b>"
        )
    else:  # additive
        pre = np.asarray(s.extra["W1q_plus_W2k"])
        v = np.asarray(s.extra["v"])
        n = min(len(s.terms), MAX_TERMS)
        pieces = [f"{paren(a)}×tanh({num(b)})" for a, b in zip(v[:n], pre[:n])]
        lines = "<br>+ ".join(" + ".join(pieces[p : p + 2]) for p in range(0, n, 2))
        parts.append(
            f"W₁q + W₂k = {vec(pre)}<br>tanh(W₁q + W₂k) = {vec(np.asarray(s.extra['tanh']))}<br>"
            f"vᵀ tanh(W₁q + W₂k) =<br>{lines}<br>= <b>{num(s.score)}</b>"
        )
    parts.append("</p>")

    scale = t.config.scale
    how = {
        "sqrt": f"√d_k = √{t.d_k}",
        "temperature": f"τ = {num(c.divisor)}",
        "none": words["no scaling"],
    }[scale]
    parts.append(
        f"<p><b>2. {words['Scale']}</b> ({how})<br>"
        f"{num(s.score)} / {num(c.divisor)} = <b>{num(c.scaled)}</b></p>"
    )

    visible = words["visible"] if c.visible else words["masked: this key is hidden from this query"]
    parts.append(f"<p><b>3. {words['Mask']}</b> ({e(option_label('mask', t.config.mask))}): {visible}</p>")

    parts.append(
        f"<p><b>4. {words['Softmax over row {0}'].format(c.i)}</b> "
        f"(exp(x − {num(c.row_max)}): "
        f"{words['subtracting the row maximum does not change the weights']})</p>"
    )
    rows = [
        f"<tr><th align=left>{words['key']}</th><th align=right>{words['scaled']}</th>"
        f"<th align=right>exp</th><th align=right>{words['weight']}</th></tr>"
    ]
    for jj in range(min(t.n_key, MAX_ROW)):
        bg = f" bgcolor='{HIGHLIGHT}'" if jj == c.j else ""
        if c.row_visible[jj]:
            cells = (num(c.row_scaled[jj]), num(c.row_exp[jj]), num(c.value_weights[jj]))
        else:
            cells = (num(c.row_scaled[jj]), "—", num(c.value_weights[jj]))
        rows.append(
            f"<tr{bg}><td>{jj} {e(t.tokens_key[jj])}</td>"
            + "".join(f"<td align=right>&nbsp;{x}</td>" for x in cells)
            + "</tr>"
        )
    if t.n_key > MAX_ROW:
        rows.append(f"<tr><td colspan=4>… {words['{0} more keys'].format(t.n_key - MAX_ROW)}</td></tr>")
    parts.append("<table cellspacing=0 cellpadding=1>" + "".join(rows) + "</table>")
    if c.row_visible.any():
        parts.append(
            f"<p>Σ exp = <b>{num(c.row_exp_sum)}</b><br>"
            f"softmax = {num(c.row_exp[c.j])} / {num(c.row_exp_sum)} = <b>{num(c.softmax_weight)}</b>"
        )
    else:
        parts.append(f"<p>{words['Every key of this row is masked: all weights are 0.']}")
    if c.attention != "soft":
        parts.append(
            f"<br>{e(option_label('attention', c.attention))}: {words['the weight is one-hot']}, "
            f"w<sub>{c.i},{c.j}</sub> = <b>{num(c.weight, 0)}</b>"
        )
    parts.append("</p>")

    parts.append(
        f"<p><b>5. {words['Output of query {0}'].format(c.i)}</b> = Σ<sub>j</sub> w<sub>{c.i},j</sub> · v<sub>j</sub><br>"
    )
    shown = [jj for jj in np.argsort(-c.value_weights, kind="stable")[:6] if c.value_weights[jj] != 0]
    for jj in shown:
        parts.append(
            f"&nbsp;&nbsp;{num(c.value_weights[jj])} × v<sub>{jj}</sub> “{e(t.tokens_key[jj])}” "
            f"{vec(c.values[jj], 4)}<br>"
        )
    rest = int((c.value_weights != 0).sum()) - len(shown)
    if rest > 0:
        parts.append(f"&nbsp;&nbsp;+ {words['{0} smaller terms'].format(rest)}<br>")
    parts.append(f"= <b>{vec(c.output)}</b> ({words['{0} components'].format(len(c.output))})</p>")
    return "".join(parts)


class WorkedPanel(QtWidgets.QWidget):
    """The dock's page: ``work_cell`` of the state's head and cell in the window's trace."""

    def __init__(self, context, parent=None):
        super().__init__(parent)
        self.context = context
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.view = QtWidgets.QTextBrowser()
        self.view.setOpenLinks(False)
        self.view.document().setDefaultFont(page_font())
        layout.addWidget(self.view)
        self.cell: WorkedCell | None = None  # the worked cell on screen
        self.setMinimumWidth(220)  # small windows still fit; sizeHint asks for more
        self._heard: set[int] = set()  # views whose workedChanged signal refreshes this page
        unsubscribe = context.state.subscribe(lambda *_: self.refresh(), ("head", "cell", "tab"))
        self.destroyed.connect(lambda *_: unsubscribe())
        # a tab with a trace of its own (the board) hands it over when it arrives
        context.worker.listen("board", lambda _: QtCore.QTimer.singleShot(0, self, self.refresh))
        self.refresh()

    def sizeHint(self) -> QtCore.QSize:
        # two or three products a line; at 1024 px the figures keep a third of the width
        return QtCore.QSize(380, 600)

    def text(self) -> str:
        return self.view.toPlainText()

    def refresh(self) -> None:
        view = self.context.view(self.context.state.tab)
        changed = getattr(view, "workedChanged", None)
        if changed is not None and id(view) not in self._heard:
            self._heard.add(id(view))
            changed.connect(self.refresh)
        html_text, self.cell = page(*worked_source(self.context))
        self.view.setHtml(html_text)

    def changeEvent(self, event):
        if event.type() == QtCore.QEvent.Type.LanguageChange:
            self.refresh()
        super().changeEvent(event)
