"""One channel's squeeze and excite, one position's spatial score, laid out as HTML.

Every number comes from explorer.vision.worked (``work_channel`` / ``work_position``, which
read the trace's own maps and weights); this module only writes them down, to 4 decimals,
in the interface language.
"""

from __future__ import annotations

import html

import numpy as np

from explorer.gui.i18n import translate
from explorer.vision.worked import WorkedChannel, WorkedPosition

MAX_TERMS = 16  # products written out in a sum; the rest are counted


def num(x: float) -> str:
    return f"{float(x):.4f}"


def paren(x: float) -> str:
    text = num(x)
    return f"({text})" if text.startswith("-") else text


def vec(v: np.ndarray, limit: int = MAX_TERMS) -> str:
    shown = ", ".join(num(x) for x in np.asarray(v)[:limit])
    return f"[{shown}{', …' if np.size(v) > limit else ''}]"


def _sum(terms: list[str], total: int) -> str:
    more = total - len(terms)
    text = " + ".join(terms)
    if more > 0:
        text += " + … " + translate("VisionWorked", "({0} more terms)").format(more)
    return text


def headings() -> dict[str, str]:
    """The steps' headings in the interface language (outside the f-strings, where lupdate reads them)."""
    return {
        key: html.escape(text)
        for key, text in (
            ("squeeze", translate("VisionWorked", "Squeeze: the mean over the positions")),
            ("excite", translate("VisionWorked", "Excite: the bottleneck and the sigmoid")),
            ("rescale", translate("VisionWorked", "Rescale")),
            ("pool", translate("VisionWorked", "Pool over the channels at this position")),
            (
                "conv",
                translate("VisionWorked", "Convolution: the window of both pooled maps times the kernel"),
            ),
            ("sigmoid", translate("VisionWorked", "Sigmoid")),
        )
    }


def channel_html(w: WorkedChannel, second_row: np.ndarray) -> str:
    """``second_row``: row ``c`` of the bottleneck's second matrix (SE: W₂, CBAM: W₁), from the trace."""
    e, heading = html.escape, headings()
    c = w.channel
    kind = "SE" if w.attention == "se" else "CBAM"
    parts = [
        "<h3>" + e(translate("VisionWorked", "{0} ({1}), channel {2}").format(w.block, kind, c)) + "</h3>"
    ]
    # 1. squeeze
    avg = next(p for p in w.paths if p.pool == "avg")
    parts.append(
        f"<p><b>1. {heading['squeeze']}</b><br>"
        f"z<sub>{c}</sub> = Σ X<sub>{c}</sub> / {w.positions} = {num(w.feature_sum)} / {w.positions}"
        f" = <b>{num(avg.value)}</b>"
    )
    if w.attention == "cbam":
        parts.append(
            "<br>"
            + e(translate("VisionWorked", "and the maximum over the positions:"))
            + f" max<sub>{c}</sub> = <b>{num(w.feature_max)}</b>"
        )
    parts.append("</p>")
    # 2. excite, one pass of the bottleneck per descriptor
    first, second = ("W₁", "W₂") if w.attention == "se" else ("W₀", "W₁")
    parts.append(f"<p><b>2. {heading['excite']}</b></p>")
    for path in w.paths:
        name = "z" if path.pool == "avg" else "max"
        label = (
            translate("VisionWorked", "the average-pooled descriptor")
            if path.pool == "avg"
            else translate("VisionWorked", "the max-pooled descriptor")
        )
        terms = [f"{paren(a)}×{num(h)}" for a, h in zip(second_row, path.hidden)][:MAX_TERMS]
        parts.append(
            f"<p><i>{e(label)}</i> {name} = {vec(path.descriptor)}<br>"
            f"{first}·{name} = {vec(path.hidden_pre)}<br>"
            f"δ({first}·{name}) = ReLU = {vec(path.hidden)}<br>"
            f"a = Σ<sub>j</sub> {second}[{c}, j]·h<sub>j</sub> = {_sum(terms, len(path.terms))}"
            f" = <b>{num(path.logit)}</b></p>"
        )
    if len(w.paths) > 1:
        parts.append(
            "<p>a<sub>avg</sub> + a<sub>max</sub> = "
            + " + ".join(paren(p.logit) for p in w.paths)
            + f" = <b>{num(w.logit)}</b></p>"
        )
    weight = "s" if w.attention == "se" else "M"
    parts.append(
        f"<p>{weight}<sub>{c}</sub> = σ({num(w.logit)}) = 1 / (1 + e<sup>{paren(-w.logit)}</sup>)"
        f" = <b>{num(w.weight)}</b></p>"
    )
    # 3. rescale
    parts.append(
        f"<p><b>3. {heading['rescale']}</b><br>"
        + e(
            translate("VisionWorked", "every value of channel {0}'s map is multiplied by {1}").format(
                c, num(w.weight)
            )
        )
        + "</p>"
    )
    return "".join(parts)


def _grid(values: np.ndarray, title: str, mark_centre: bool) -> str:
    """A k×k window as preformatted rows (cheap to lay out, unlike a rich-text table); the
    position itself in [brackets]."""
    k = values.shape[0]
    lines = []
    for r in range(k):
        cells = []
        for c in range(k):
            text = f"{values[r, c]:.2f}"  # two decimals: seven columns fit a narrow panel
            centre = mark_centre and r == c == k // 2
            cells.append(f"[{text}]".rjust(7) if centre else f"{text} ".rjust(7))
        lines.append("".join(cells))
    return f"<p><i>{html.escape(title)}</i></p><pre>{html.escape(chr(10).join(lines))}</pre>"


def position_html(w: WorkedPosition) -> str:
    e, heading = html.escape, headings()
    parts = [
        "<h3>"
        + e(
            translate("VisionWorked", "{0}, position (row {1}, column {2}), {3}×{3} window").format(
                w.block, w.row, w.col, w.kernel
            )
        )
        + "</h3>"
    ]
    n = w.centre_values.size
    parts.append(
        f"<p><b>1. {heading['pool']}</b><br>"
        f"avg = Σ<sub>c</sub> F′<sub>c</sub> / {n} = <b>{num(w.centre_avg)}</b>, "
        f"max = max<sub>c</sub> F′<sub>c</sub> = <b>{num(w.centre_max)}</b></p>"
    )
    avg_terms = [f"{paren(a)}×{paren(b)}" for a, b in zip(w.weight_avg.ravel(), w.window_avg.ravel())]
    max_terms = [f"{paren(a)}×{paren(b)}" for a, b in zip(w.weight_max.ravel(), w.window_max.ravel())]
    parts.append(
        f"<p><b>2. {heading['conv']}</b><br>"
        + e(translate("VisionWorked", "(positions outside the map count as 0)"))
        + "</p>"
    )
    parts.append(_grid(w.window_avg, translate("VisionWorked", "avg map: the window"), True))
    parts.append(_grid(w.weight_avg, translate("VisionWorked", "the kernel's weights on it, W_avg"), False))
    parts.append(
        f"<p>Σ W<sub>avg</sub>·avg = {_sum(avg_terms[:MAX_TERMS], len(avg_terms))} = <b>{num(w.sum_avg)}</b></p>"
    )
    parts.append(_grid(w.window_max, translate("VisionWorked", "max map: the window"), True))
    parts.append(_grid(w.weight_max, translate("VisionWorked", "the kernel's weights on it, W_max"), False))
    parts.append(
        f"<p>Σ W<sub>max</sub>·max = {_sum(max_terms[:MAX_TERMS], len(max_terms))} = <b>{num(w.sum_max)}</b></p>"
    )
    parts.append(
        f"<p>logit = {num(w.sum_avg)} + {paren(w.sum_max)} + {paren(w.bias)} (b) = <b>{num(w.logit)}</b></p>"
    )
    parts.append(
        f"<p><b>3. {heading['sigmoid']}</b><br>"
        f"M<sub>s</sub>({w.row}, {w.col}) = σ({num(w.logit)}) = 1 / (1 + e<sup>{paren(-w.logit)}</sup>)"
        f" = <b>{num(w.score)}</b></p>"
    )
    return "".join(parts)
