"""The Translation tab's pieces: its words, its panels (built from a TranslationTrace, no
widget) and the output strip, where the answer appears one character at a time.

The stage panels are the Pipeline's own (``stages.pipeline_panel`` on
``trace.attention_trace(kind, layer)``): the same builders, the same titles, the same masks
drawn hatched; only the GRU's query, key and output panels get titles that name what they
hold there (decoder states, encoder annotations, the context).
"""

from __future__ import annotations

from datetime import date

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.appstate.display import DisplayArrays
from explorer.core.trace import AttentionTrace
from explorer.gui.heatmap import MatrixPanel
from explorer.gui.i18n import translate
from explorer.gui.views import stages
from explorer.seq2seq import EXAMPLE_DATE, DateExample, TranslationTrace, examples_of, render
from explorer.seq2seq.alignment import digit_report, shifted_steps, whole_percent
from explorer.seq2seq.dates import readings
from explorer.seq2seq.spec import MAX_SOURCE_CHARS
from explorer.seq2seq.vocab import readable_token

SPACE = "␣"  # a space as a label: visible on an axis and on a line
GRU_STAGES = ("Q", "K", "scores", "scaled", "weights", "head_output")
TRANSFORMER_STAGES = stages.PIPELINE_STAGES
MAX_MISSES = 3  # misses explained in words; an untrained model has many
NO_DISPLAY = DisplayArrays()  # the lab's matrices are small: drawn cell for cell
QT_TRANSLATE_NOOP = QtCore.QT_TRANSLATE_NOOP

FORMAT_NAMES = {
    "weekday_long": QT_TRANSLATE_NOOP("Translation", "weekday, day, month, year"),
    "us_long": QT_TRANSLATE_NOOP("Translation", "US: month day, year"),
    "day_month_year": QT_TRANSLATE_NOOP("Translation", "day month year"),
    "french": QT_TRANSLATE_NOOP("Translation", "French"),
    "zh_digits": QT_TRANSLATE_NOOP("Translation", "Chinese with digits"),
    "zh_numerals": QT_TRANSLATE_NOOP("Translation", "Chinese numerals"),
    "us_numeric": QT_TRANSLATE_NOOP("Translation", "US numeric: month/day/year"),
    "dotted_short": QT_TRANSLATE_NOOP("Translation", "day.month.year, two-digit year"),
}
FIELD_NAMES = {
    "year": QT_TRANSLATE_NOOP("Translation", "year"),
    "month": QT_TRANSLATE_NOOP("Translation", "month"),
    "day": QT_TRANSLATE_NOOP("Translation", "day"),
}
KIND_NAMES = {
    "cross": QT_TRANSLATE_NOOP("Translation", "cross-attention"),
    "decoder_self": QT_TRANSLATE_NOOP("Translation", "decoder self-attention (causal)"),
    "encoder_self": QT_TRANSLATE_NOOP("Translation", "encoder self-attention"),
}
MODEL_NAMES = {
    "bahdanau": QT_TRANSLATE_NOOP("Translation", "Bahdanau (GRU)"),
    "luong": QT_TRANSLATE_NOOP("Translation", "Luong (GRU)"),
    "transformer": QT_TRANSLATE_NOOP("Translation", "Transformer"),
}
SCORING_NAMES = {
    "additive": QT_TRANSLATE_NOOP("Translation", "additive"),
    "general": QT_TRANSLATE_NOOP("Translation", "general"),
    "dot": QT_TRANSLATE_NOOP("Translation", "dot"),
    "scaled-dot": QT_TRANSLATE_NOOP("Translation", "scaled dot"),
}
SCORING_FORMULAS = {
    "additive": "vᵀ tanh(W₁q + W₂k)  (Bahdanau)",
    "general": "qᵀ W k  (Luong)",
    "dot": "q · k",
    "scaled-dot": "q · k / √d",
}
ATTENTION_NAMES = {
    "soft": QT_TRANSLATE_NOOP("Translation", "soft"),
    "hard": QT_TRANSLATE_NOOP("Translation", "hard"),
    "sample": QT_TRANSLATE_NOOP("Translation", "sample"),
}
ATTENTION_HINTS = {
    "soft": QT_TRANSLATE_NOOP("Translation", "the weighted average of the encoder states, as trained"),
    "hard": QT_TRANSLATE_NOOP("Translation", "only the encoder state with the largest weight"),
    "sample": QT_TRANSLATE_NOOP("Translation", "one encoder state drawn with the weights as probabilities"),
}
REASONS = {
    "transformer_scaled_dot_only": QT_TRANSLATE_NOOP(
        "Translation", "The Transformer was trained with scaled dot-product attention only."
    ),
    "not_shipped": QT_TRANSLATE_NOOP("Translation", "No trained checkpoint of this pair is installed."),
    "transformer_no_sample": QT_TRANSLATE_NOOP(
        "Translation",
        "The Transformer decodes with soft or hard cross-attention: a sampled key would be drawn "
        "again in every later layer.",
    ),
}
# Besides one date in every format: the first of a month in French, the last day of the
# century rule's years, a two-character month and day in Chinese numerals.
MORE_EXAMPLES = (
    (date(2000, 1, 1), "french"),
    (date(1999, 12, 31), "dotted_short"),
    (date(2049, 12, 25), "zh_numerals"),
)


def examples() -> list[DateExample]:
    return examples_of(EXAMPLE_DATE) + [render(d, fmt) for d, fmt in MORE_EXAMPLES]


def input_problem(text: str) -> str | None:
    """Why the models cannot read this text (in the interface language), or None."""
    cleaned = text.strip()
    if not cleaned:
        return translate("Translation", "Type a date, for example 9 May 2018, or pick one of the examples.")
    if len(cleaned) > MAX_SOURCE_CHARS:
        return translate(
            "Translation", "The models read at most {limit} characters; this text has {n}."
        ).format(limit=MAX_SOURCE_CHARS, n=len(cleaned))
    return None


def shown(tokens) -> list[str]:
    """Tokens as labels: a space is drawn as ␣, an emoji (which the figures' font lacks: an empty
    box) as its code point, U+1F389."""
    return [SPACE if t == " " else readable_token(t) for t in tokens]


# -- panels ---------------------------------------------------------------------------------------
def alignment_panel(trace: TranslationTrace) -> MatrixPanel:
    """Output steps × source characters: the weights each step used (the Transformer: its last
    layer's cross-attention averaged over heads)."""
    title = (
        translate("Translation", "alignment: output step × source")
        if trace.is_gru
        else translate("Translation", "alignment: last layer, mean of the heads")
    )
    return MatrixPanel(
        trace.alignment,
        shown(trace.output_tokens),
        shown(trace.source_tokens),
        title=title,
        kind="weights",
        role="qk",
        name="alignment",
    )


def stage_names(trace: TranslationTrace) -> tuple[str, ...]:
    return GRU_STAGES if trace.is_gru else TRANSFORMER_STAGES


def step_panels(trace: TranslationTrace, attention: AttentionTrace, head: int) -> list[MatrixPanel]:
    """Every stage of one attention of the trace, as the Pipeline draws it."""
    panels = stages.pipeline_panels(attention, NO_DISPLAY, head, stage_names(trace))
    for panel in panels:
        if panel.rows is not None:
            panel.rows = shown(panel.rows)
        if panel.cols is not None:
            panel.cols = shown(panel.cols)
    if trace.is_gru:
        query = "sᵢ₋₁" if trace.model == "bahdanau" else "hₜ"
        titles = {
            "Q": translate("Translation", "Q = {q} (decoder)").format(q=query),
            "K": translate("Translation", "K = V = hⱼ (encoder)"),
            "head_output": translate("Translation", "context cᵢ = Σⱼ αᵢⱼ hⱼ"),
        }
        for panel in panels:
            if panel.name in titles:
                panel.title = f"{titles[panel.name]}  [{stages.shape_text(panel.data)}]"
    return panels


# -- words about one trace ------------------------------------------------------------------------
def score_report(trace: TranslationTrace) -> tuple[str, list[str]]:
    """(the alignment score in a sentence a class reads, each miss explained)."""
    if trace.alignment_score is None or trace.example is None:
        return translate(
            "Translation",
            "No alignment score: not one of the generated formats, so which characters are the "
            "year, month and day is unknown.",
        ), []
    report = digit_report(trace.alignment, trace.example)
    hits = sum(d.hit for d in report)
    # one line beside the answer at a projector, saying what the per cent counts
    head = translate("Translation", "{hits} of {n} digits look at their field: {pct} %.").format(
        pct=whole_percent(trace.alignment_score), hits=hits, n=len(report)
    )
    misses = []
    source = shown(trace.source_tokens)
    for d in report:
        if d.hit:
            continue
        digit, field = trace.output_tokens[d.step], translate("Translation", FIELD_NAMES[d.field])
        looked = source[d.top] if d.top < len(source) else "?"
        if d.padded:
            text = translate(
                "Translation",
                "“{digit}” (step {step}, {field}) is padded: no source character spells it; "
                "the model read it from “{looked}”.",
            )
        elif d.next_to_field:
            text = translate(
                "Translation",
                "“{digit}” (step {step}, {field}) looked right beside its field, at “{looked}”.",
            )
        else:
            text = translate(
                "Translation", "“{digit}” (step {step}, {field}) looked at “{looked}”, outside its field."
            )
        misses.append(text.format(digit=digit, step=d.step, field=field, looked=looked))
    return head, misses


def legend() -> str:
    """What the marks under the answer and its red characters mean."""
    return translate(
        "Translation",
        "✓ looks at its own field   ✗ elsewhere   ∘ no source digit   red: wrong",
    )


def misses_text(misses: list[str]) -> str:
    """The first MAX_MISSES misses, and how many more."""
    shown_misses = misses[:MAX_MISSES]
    if len(misses) > MAX_MISSES:
        shown_misses.append(translate("Translation", "… and {n} more.").format(n=len(misses) - MAX_MISSES))
    return translate("Translation", "Misses:") + " " + " ".join(shown_misses)


def notices(trace: TranslationTrace, typed: str) -> list[str]:
    """What the user should know about this translation, in the interface language (read
    from the trace's fields and the lab's date grammar, not from its English notices)."""
    out = []
    if trace.unknown_characters:
        chars = " ".join(f"{c} U+{ord(c):04X}" for c in dict.fromkeys(trace.unknown_characters))
        out.append(
            translate("Translation", "Never seen in training, read as <unk>: {chars}").format(chars=chars)
        )
    if trace.source != typed:
        out.append(
            translate(
                "Translation",
                "Spaces at the ends removed, control characters made plain spaces.",
            )
        )
    out += reading_notices(trace)
    try:
        date.fromisoformat(trace.output)
    except ValueError:
        out.append(
            translate("Translation", "The output “{out}” is not a real date.").format(out=trace.output)
        )
    expected = trace.expected
    if expected is not None and expected != trace.output:
        out.append(translate("Translation", "The right answer is {date}.").format(date=expected))
    if trace.example is not None:
        out += shift_notices(trace)
    return out


def reading_notices(trace: TranslationTrace) -> list[str]:
    """What the lab's date grammar says of the text: no date in any trained format (the answer
    is a guess), or a date that reads two ways (the models take their format's convention)."""
    found = readings(trace.source)
    if not found:
        unknown = set(trace.unknown_characters)
        rest = " ".join("".join(" " if c in unknown else c for c in trace.source).split())
        within = readings(rest) if unknown else ()
        if within:
            return [
                translate(
                    "Translation",
                    "Not a date in any format the models were trained on; without the unknown "
                    "characters it reads {date}. The answer is a guess.",
                ).format(date=within[0].date.isoformat())
            ]
        return [
            translate(
                "Translation",
                "Not a date in any format the models were trained on: the answer is a guess.",
            )
        ]
    if len(found) == 1 and not found[0].swapped:
        return []
    first_words = {
        True: translate("Translation", "day first"),
        False: translate("Translation", "month first"),
    }
    first = found[0]
    if len(found) == 1:  # the models' order gives no date; the other order does
        return [
            translate(
                "Translation",
                "Read {theirs}, as the models were trained, this is no date; read {other} it is {date}.",
            ).format(
                theirs=first_words[not first.day_first], other=first_words[first.day_first], date=first.date
            )
        ]
    second = found[1]
    return [
        translate(
            "Translation", "Ambiguous: {a} ({a_order}, as the models were trained) or {b} ({b_order})."
        ).format(a=first.date, a_order=first_words[first.day_first], b=second.date, b_order=first_words[second.day_first])
    ]  # fmt: skip


def shift_notices(trace: TranslationTrace) -> list[str]:
    """Digits that look one character to the right of the one they copy, explained."""
    steps = shifted_steps(trace.alignment, trace.example)
    if not steps:
        return []
    digits = " ".join(f"“{trace.output_tokens[i]}”" for i in steps)
    # short: read whole beside the answer at a projector, under the score's line
    if trace.is_gru:
        text = translate(
            "Translation",
            "{digits}: the weight is one character right; the encoder reads both ways, so that state holds it too.",
        )
    else:
        text = translate(
            "Translation",
            "{digits}: the weight is one character right; self-attention mixed the digit into that state too.",
        )
    return [text.format(digits=digits)]


def step_summary(
    trace: TranslationTrace, attention: AttentionTrace, kind: str, layer: int, head: int, cell
) -> str:
    """One sentence about the selected row: what it writes and where it looks most."""
    i, j = cell
    row = attention.weights[head, i]
    top = int(np.argmax(row))
    keys, queries = shown(attention.tokens_key), shown(attention.tokens_query)
    if trace.is_gru:
        query = "sᵢ₋₁" if trace.model == "bahdanau" else "hₜ"
        text = translate(
            "Translation",
            "Step {i} writes “{out}” with the query {q}; its largest weight, {w:.2f}, is on “{src}” (source {top}).",
        )
        text = text.format(i=i, out=queries[i], q=query, w=float(row[top]), src=keys[top], top=top)
    else:
        text = translate(
            "Translation",
            "{kind}, layer {layer}, head {head}: row {i} “{row}” looks most at “{key}” ({top}): {w:.2f}.",
        )
        text = text.format(
            kind=translate("Translation", KIND_NAMES[kind]), layer=layer, head=head, i=i, row=queries[i], key=keys[top], top=top,
            w=float(row[top]),
        )  # fmt: skip
    if j != top:
        text += " " + translate("Translation", "Selected: “{key}” ({j}), weight {w:.3f}.").format(
            key=keys[j], j=j, w=float(row[j])
        )
    return text


# -- the output strip -------------------------------------------------------------------------------------
class OutputStrip(QtWidgets.QWidget):
    """The answer, one large character per output step, revealed one at a time; click a
    character to select its step. Under each digit: ✓ when its largest weight falls on its
    own field, ✗ when not, ∘ for a padded digit no source character spells."""

    stepClicked = QtCore.Signal(int)
    REVEAL_MS = 70  # a character every 70 ms: 0.7 s for a date, slow enough to follow

    def __init__(self, parent=None):
        super().__init__(parent)
        self.tokens: list[str] = []
        self.expected: str | None = None
        self.marks: dict[int, str] = {}  # step -> ✓ / ✗ / ∘
        self.selected: int | None = None
        self.revealed = 0
        self._font_px = 13
        self._fg = QtGui.QColor("#000000")
        self._bg = QtGui.QColor("#ffffff")
        self._accent = QtGui.QColor("#d55e00")
        self._timer = QtCore.QTimer(self, interval=self.REVEAL_MS)
        self._timer.timeout.connect(self._reveal_one)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Fixed)
        self.setMouseTracking(True)

    def set_style(self, font_px: int, fg: str, bg: str, accent: str) -> None:
        self._font_px = font_px
        self._fg, self._bg, self._accent = QtGui.QColor(fg), QtGui.QColor(bg), QtGui.QColor(accent)
        self.setFixedHeight(self._height())
        self.update()

    def _big(self) -> QtGui.QFont:
        font = QtGui.QFont(self.font())
        font.setPixelSize(max(26, round(self._font_px * 2.0)))
        font.setBold(True)
        return font

    def _small(self) -> QtGui.QFont:
        font = QtGui.QFont(self.font())
        font.setPixelSize(max(11, self._font_px))
        return font

    def _height(self) -> int:
        return int(
            QtGui.QFontMetricsF(self._big()).height() + QtGui.QFontMetricsF(self._small()).height() + 14
        )

    def sizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(400, self._height())

    def set_output(self, trace: TranslationTrace, animate: bool) -> None:
        self.tokens = list(trace.output_tokens)
        self.expected = trace.expected
        self.marks = {}
        if trace.example is not None:
            for d in digit_report(trace.alignment, trace.example):
                self.marks[d.step] = "∘" if (d.padded and not d.hit) else ("✓" if d.hit else "✗")
        if animate:
            self.revealed = 0
            self._timer.start()
        else:
            self._timer.stop()
            self.revealed = len(self.tokens)
        self.update()

    def finish(self) -> None:
        self._timer.stop()
        self.revealed = len(self.tokens)
        self.update()

    def set_selected(self, step: int | None) -> None:
        if step != self.selected:
            self.selected = step
            self.update()

    def _reveal_one(self) -> None:
        self.revealed += 1
        if self.revealed >= len(self.tokens):
            self._timer.stop()
        self.update(self._slot_area(self.revealed - 1))  # that character's box alone

    def _slot_area(self, step: int) -> QtCore.QRect:
        """The strip's area of one step's box and mark (a revealed character repaints only it)."""
        left, box = self._slots()
        return QtCore.QRectF(left + step * box, 0, box, self.height()).toAlignedRect()

    def _slots(self) -> tuple[float, float]:
        """(left, width) of the character boxes: as wide as the large font needs, centred."""
        n = max(1, len(self.tokens))
        box = QtGui.QFontMetricsF(self._big()).horizontalAdvance("8") * 1.7
        box = min(box, (self.width() - 8) / n)
        return (self.width() - box * n) / 2, box

    def step_at(self, x: float) -> int | None:
        left, box = self._slots()
        k = int((x - left) // box) if box > 0 else -1
        return k if 0 <= k < len(self.tokens) else None

    def step_centre(self, step: int) -> QtCore.QPoint:
        left, box = self._slots()
        return QtCore.QPoint(int(left + (step + 0.5) * box), self.height() // 3)

    def mousePressEvent(self, event) -> None:
        step = self.step_at(event.position().x())
        if step is not None:
            self.finish()
            self.stepClicked.emit(step)

    def paintEvent(self, event) -> None:
        painter = QtGui.QPainter(self)
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), self._bg)
        left, box = self._slots()
        big, small = self._big(), self._small()
        big_h = QtGui.QFontMetricsF(big).height()
        wrong = QtGui.QColor("#c00000")
        fg = QtGui.QColor(self._fg)
        if not self.isEnabled():  # an answer for an earlier text: greyed out
            fg.setAlpha(90)
            wrong = fg
        area = QtCore.QRectF(event.rect())
        for k, token in enumerate(self.tokens):
            rect = QtCore.QRectF(left + k * box + 2, 4, box - 4, big_h + 4)
            if rect.right() < area.left() or rect.left() > area.right():
                continue  # outside what is repainted (one revealed character's box)
            if k == self.selected:
                painter.setPen(QtGui.QPen(self._accent, 3))
                painter.drawRoundedRect(rect, 4, 4)
            else:
                painter.setPen(
                    QtGui.QPen(fg.lighter(170) if self._bg.lightness() > 128 else fg.darker(170), 1)
                )
                painter.drawRoundedRect(rect, 4, 4)
            if k >= self.revealed:
                continue
            painter.setFont(big)
            right = self.expected is None or k >= len(self.expected) or self.expected[k] == token
            painter.setPen(fg if right else wrong)
            painter.drawText(rect, QtCore.Qt.AlignmentFlag.AlignCenter, token)
            mark = self.marks.get(k)
            if mark:
                painter.setFont(small)
                painter.setPen(wrong if mark == "✗" else fg)
                below = QtCore.QRectF(
                    rect.left(), rect.bottom() + 2, rect.width(), self.height() - rect.bottom() - 2
                )
                painter.drawText(
                    below, QtCore.Qt.AlignmentFlag.AlignHCenter | QtCore.Qt.AlignmentFlag.AlignTop, mark
                )
        painter.end()
