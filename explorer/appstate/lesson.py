"""The step-through lesson: each stage of attention with its formula and a short explanation.

Qt-free. Texts are English source strings marked with ``QT_TRANSLATE_NOOP`` so that
``pyside6-lupdate`` extracts them into resources/translations/*.ts; the window passes
them through ``QCoreApplication.translate(LESSON_CONTEXT, text)`` to show the interface
language.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from explorer.appstate.lesson_decoder import DECODER_TRACK
from explorer.appstate.lesson_lm import LM_TRACK
from explorer.appstate.lesson_local import LOCAL_TRACK
from explorer.appstate.lesson_step import Question, Step, Track
from explorer.appstate.lesson_translation import TRANSLATION_TRACK
from explorer.appstate.lesson_vision import VISION_TRACK
from explorer.appstate.lesson_vit import VIT_TRACK
from explorer.words import QT_TRANSLATE_NOOP

YES_NO = (QT_TRANSLATE_NOOP("Lesson", "Yes"), QT_TRANSLATE_NOOP("Lesson", "No"))


# Self-attention stage by stage on the pipeline; the labs' tracks follow (TRACKS below).
ATTENTION_STEPS: tuple[Step, ...] = (
    Step(
        "tokens",
        QT_TRANSLATE_NOOP("Lesson", "Tokens"),
        QT_TRANSLATE_NOOP("Lesson", "text → [t₁, t₂, …, tₙ]"),
        QT_TRANSLATE_NOOP(
            "Lesson",
            "The text is cut into tokens. This model adds its own {start} at the "
            "start and {end} at the end; characters it does not know become {unknown}.",
        ),
        id="attention.tokens",
    ),
    Step(
        "X",
        QT_TRANSLATE_NOOP("Lesson", "Input vectors X"),
        "X ∈ ℝⁿˣᵈ",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "Each token becomes one row of numbers. With pretrained weights "
            "these are the real hidden states entering the chosen layer, so earlier "
            "layers have already mixed in context.",
        ),
        id="attention.X",
    ),
    Step(
        "Q",
        QT_TRANSLATE_NOOP("Lesson", "Project to queries, keys and values"),
        "Q = X·W_Q,  K = X·W_K,  V = X·W_V",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "Three learned matrices give every token three roles: a query "
            "(what am I looking for?), a key (what do I offer to be found by?) and a "
            "value (what do I hand over if chosen?). Like a shop search: the query is "
            "what you type, keys are product names, values are the products.",
        ),
        id="attention.Q",
    ),
    Step(
        "heads",
        QT_TRANSLATE_NOOP("Lesson", "Split into heads"),
        "Q → [Q₀ | Q₁ | … | Qₕ₋₁],  d_k = d / h",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "The columns of Q, K and V are cut into h equal groups, one per "
            "head. Each head attends on its own, so different heads can follow "
            "different relations between words.",
        ),
        id="attention.heads",
    ),
    Step(
        "scores",
        QT_TRANSLATE_NOOP("Lesson", "Score every pair"),
        "sᵢⱼ = score(qᵢ, kⱼ)",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "Each query is compared with each key. The dot product rewards "
            "vectors that point the same way and are long; cosine keeps only the angle; "
            "additive scoring uses a small tanh network; general scoring puts a matrix "
            "between q and k.",
        ),
        id="attention.scores",
    ),
    Step(
        "scaled",
        QT_TRANSLATE_NOOP("Lesson", "Scale"),
        QT_TRANSLATE_NOOP("Lesson", "sᵢⱼ / √d_k   or   sᵢⱼ / τ"),
        QT_TRANSLATE_NOOP(
            "Lesson",
            "Dot products grow with the dimension, and large scores push "
            "softmax towards a single winner. Dividing by √d_k keeps them moderate; "
            "a temperature τ below 1 sharpens the choice, above 1 softens it.",
        ),
        question=Question(
            "choice",
            QT_TRANSLATE_NOOP(
                "Lesson", "Will dividing the scores change which key '{query}' scores highest?"
            ),
            "scale_keeps_winner",
            YES_NO,
        ),
        id="attention.scaled",
    ),
    Step(
        "mask",
        QT_TRANSLATE_NOOP("Lesson", "Mask"),
        QT_TRANSLATE_NOOP("Lesson", "sᵢⱼ = −∞  where key j is hidden from query i"),
        QT_TRANSLATE_NOOP(
            "Lesson",
            "A mask decides which keys a query may see: a causal mask hides "
            "the future, a window keeps only nearby tokens (local attention), a valid "
            "length hides padding. Hidden keys receive exactly zero weight.",
        ),
        id="attention.mask",
    ),
    Step(
        "weights",
        QT_TRANSLATE_NOOP("Lesson", "Normalise: softmax or a hard choice"),
        "αᵢⱼ = exp(sᵢⱼ) / Σₖ exp(sᵢₖ)",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "Softmax turns each row of scores into weights between 0 and 1 "
            "that add up to 1, and lets the largest scores stand out. Hard attention "
            "keeps only the best key (weight 1, all others 0); sampling draws one key "
            "with the softmax probabilities.",
        ),
        question=Question(
            "key",
            QT_TRANSLATE_NOOP(
                "Lesson", "Which word will '{query}' look at most? Click its column in the weights."
            ),
            "heaviest_key",
        ),
        id="attention.weights",
    ),
    Step(
        "head_outputs",
        QT_TRANSLATE_NOOP("Lesson", "Weighted sum of the values"),
        "zᵢ = Σⱼ αᵢⱼ vⱼ",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "Each query's output is a blend of the value rows, mixed in the "
            "proportions of its weights. Important tokens contribute much, ignored "
            "tokens almost nothing.",
        ),
        question=Question(
            "choice",
            QT_TRANSLATE_NOOP("Lesson", "Would hard attention change the output row of '{query}'?"),
            "hard_changes_output",
            YES_NO,
        ),
        id="attention.head_outputs",
    ),
    Step(
        "concat",
        QT_TRANSLATE_NOOP("Lesson", "Concatenate the heads"),
        "Z = [z⁽⁰⁾ | z⁽¹⁾ | … | z⁽ʰ⁻¹⁾]",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "The outputs of all heads are placed side by side, giving back "
            "one row of the full width for every query.",
        ),
        id="attention.concat",
    ),
    Step(
        "output",
        QT_TRANSLATE_NOOP("Lesson", "Project with W_O"),
        "output = Z·W_O",
        QT_TRANSLATE_NOOP(
            "Lesson",
            "A last learned matrix mixes the heads' results together. In a "
            "Transformer this output is then added to the input (residual) and passes "
            "on to the next layer.",
        ),
        id="attention.output",
    ),
)

ATTENTION_TRACK = Track(
    "attention", QT_TRANSLATE_NOOP("Lesson", "Attention, stage by stage"), ATTENTION_STEPS
)

# The lesson's tracks in teaching order; a teacher walks one, or all of them in this order.
# A new track is a Track in its lab's own module and one line here (or, for one made
# elsewhere, ``register_track``).
TRACKS: list[Track] = [
    ATTENTION_TRACK,
    TRANSLATION_TRACK,
    VISION_TRACK,
    LM_TRACK,
    LOCAL_TRACK,
    VIT_TRACK,
    DECODER_TRACK,
]
ALL_TRACKS = "all"  # walk every track's steps, one after the other

STEPS: list[Step] = [step for track in TRACKS for step in track.steps]
STAGE_ORDER = tuple(step.stage for step in STEPS)
_INDEX = {step.id: index for index, step in enumerate(STEPS)}
if len(_INDEX) != len(STEPS) or len({t.id for t in TRACKS}) != len(TRACKS) or ALL_TRACKS in _INDEX:
    raise ValueError("every lesson step and track needs an id of its own")


def track_ids() -> tuple[str, ...]:
    """Every track a teacher can pick (registered ones included), ALL_TRACKS first."""
    return (ALL_TRACKS, *(track.id for track in TRACKS))


def step_index(step_id: str) -> int:
    """Where the step of this id is in STEPS (KeyError: no such step)."""
    return _INDEX[step_id]


def track_of(index: int) -> str:
    """The id of the track that step ``index`` of STEPS belongs to."""
    return STEPS[index].id.split(".", 1)[0]


def track_range(track_id: str) -> range:
    """The indices in STEPS of a track's steps (ALL_TRACKS: every step)."""
    if track_id == ALL_TRACKS:
        return range(len(STEPS))
    start = 0
    for track in TRACKS:
        if track.id == track_id:
            return range(start, start + len(track.steps))
        start += len(track.steps)
    raise KeyError(f"no lesson track {track_id!r}; choose one of {', '.join(track_ids())}")


def find_step(text: str, track_id: str = ALL_TRACKS) -> int:
    """The index in STEPS of the step a teacher names: its number in the track (1 = the
    track's first, as the lesson column counts) or its id, which must be one of the track's.
    ValueError says in one line what the track has instead."""
    steps = track_range(track_id)
    text = text.strip()
    where = "the lesson" if track_id == ALL_TRACKS else f"the {track_id} track"
    if text.isdigit():
        number = int(text)
        if not 1 <= number <= len(steps):
            raise ValueError(f"{text!r}: {where} has steps 1 to {len(steps)}")
        return steps[number - 1]
    index = _INDEX.get(text)
    if index is None:
        examples = ", ".join(STEPS[i].id for i in steps[:3])
        raise ValueError(f"{text!r}: give a step number or id of {where}, e.g. {examples}, …")
    if index not in steps:
        raise ValueError(f"{text!r} is a step of the {track_of(index)} track, not of {where}")
    return index


# The tokens step without a model's tokenizer (seeded or identity weights).
TOKENS_WITHOUT_MARKERS = QT_TRANSLATE_NOOP(
    "Lesson",
    "The text is cut into tokens: words, punctuation and single characters. Seeded weights "
    "have no vocabulary, so nothing is added and nothing is unknown; a pretrained model adds "
    "its own markers at the start and the end.",
)
# The tokens step of a language model (its tokenizer never makes an unknown token: a character
# it has no token for is split into byte tokens), with a start marker, and without one (GPT-2).
TOKENS_OF_A_DECODER = QT_TRANSLATE_NOOP(
    "Lesson",
    "The text is cut into tokens. This language model adds its own {start} at the start and "
    "nothing at the end: it writes on from the last token. A character it has no token for is "
    "split into byte tokens (我 1/3), never made unknown.",
)
TOKENS_OF_A_DECODER_WITHOUT_START = QT_TRANSLATE_NOOP(
    "Lesson",
    "The text is cut into tokens. This language model adds no marker at the start or the end: "
    "it writes on from the last token. A character it has no token for is split into byte "
    "tokens (我 1/3), never made unknown.",
)
MARKERS = {"[CLS]": ("[SEP]", "[UNK]"), "<s>": ("</s>", "<unk>")}  # start: end, unknown
# How language models spell the token they start a text with (Llama 2, Mistral; Llama 3; GPT-2, Qwen2).
_DECODER_START = re.compile(r"<s>|<bos>|<\|[a-z_]+\|>")


def model_markers(tokens: list[str]) -> tuple[str, str, str] | None:
    """The markers the model that made ``tokens`` adds: (start, end, unknown), or None."""
    if len(tokens) < 2 or tokens[0] not in MARKERS:
        return None
    end, unknown = MARKERS[tokens[0]]
    return (tokens[0], end, unknown) if tokens[-1] == end else None


def step_explanation(step: Step, tokens: list[str], decoder: bool = False) -> tuple[str, dict[str, str]]:
    """A step's explanation (the English source text, to translate) and the words that fill
    it in: the tokens step names the markers the current model really adds (``decoder``: a
    language model's, which adds at most a start token)."""
    if step.stage != "tokens":
        return step.explanation, {}
    if decoder:
        if tokens and _DECODER_START.fullmatch(tokens[0]):
            return TOKENS_OF_A_DECODER, {"start": tokens[0]}
        return TOKENS_OF_A_DECODER_WITHOUT_START, {}
    markers = model_markers(tokens)
    if markers is None:
        return TOKENS_WITHOUT_MARKERS, {}
    return step.explanation, dict(zip(("start", "end", "unknown"), markers, strict=True))


def register_track(track: Track) -> Callable[[], None]:
    """Add a track after the others (its steps are walked with every track's); returns what
    takes it out again. A teacher can pick it alone like the listed ones."""
    if track.id in {t.id for t in TRACKS} or any(step.id in _INDEX for step in track.steps):
        raise ValueError(f"a lesson track {track.id!r} or one of its steps is registered already")
    TRACKS.append(track)
    for step in track.steps:
        _INDEX[step.id] = len(STEPS)
        STEPS.append(step)

    def take_out() -> None:
        if track in TRACKS:
            TRACKS.remove(track)
            STEPS[:] = [step for t in TRACKS for step in t.steps]
            _INDEX.clear()
            _INDEX.update({step.id: index for index, step in enumerate(STEPS)})

    return take_out
