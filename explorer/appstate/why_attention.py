"""The Why-attention page's state, without Qt: the sentence shown, its language, the weights in
use and the length experiment trained side by side.

``WhyAttentionState`` hangs off ``ExplorerState.labs["why_attention"]``. Its settings (the
language, the sentence, the run's steps and seed) are one frozen ``WhyAttentionSettings`` a
session saves; the run and the weights are held the way every lab holds them
(explorer.appstate.lab.LabState). Subscribers hear the ``EVENTS``:

    request     the sentence or its language changed
    measure     what the length curve plots (per-word accuracy or exact match)
    weights     the shipped checkpoints or a snapshot of the run (LabState)
    training    the run started, moved on, or ended; its plan changed (LabState)

``request()`` is the worker's job: a frozen ``WhyRequest`` whose ``compute()`` translates the
sentence with both models, the one that reads one fixed C and the one with attention. The
shipped weights are the length experiment's (compound-fr) for French and the single-sentence
models for Chinese; a run trains compound-fr, so its weights show the French sentences.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

from explorer.appstate.lab import LabState
from explorer.lab import LabRun, TrainOptions
from explorer.seq2seq.sequence_lab import (
    DEFAULTS,
    GOAL,
    SIDE_BY_SIDE,
    RunModels,
    side_by_side_specs,
    train_side_by_side,
)
from explorer.seq2seq.sequence_trace import SequenceTrace, trace_sequence, translate_sequence
from explorer.seq2seq.tasks import get_task
from explorer.training import Snapshot

EVENTS = ("request", "measure", "weights", "training")
LANGUAGES = ("fr", "zh")
MEASURES = ("word_accuracy", "exact_match")  # LengthCurve's fields
EXPERIMENT_TASK = "compound-fr"  # the length experiment's task: the shipped curves and the window's runs
SHIPPED_TASK = {"fr": EXPERIMENT_TASK, "zh": "sentences-zh"}
# The lesson's sentences, each with reordering: French adjectives after the noun, Chinese time
# before the verb; the last one is long (three clauses).
EXAMPLES = (
    "Jane visits Africa in September",
    "Jane sees the red car",
    "Tom visits France in April",
    "Jane sees the red car and Tom visits France in April and Jane visits Africa in September",
)
# What a lesson step of the page shows when the class arrives at it (they may change it after).
LESSON_SETTINGS = {
    "fixed_context": {"language": "fr", "sentence": EXAMPLES[0]},
    "reordering": {"language": "zh", "sentence": EXAMPLES[0]},  # 简九月访问非洲: the month moves
    # the length experiment is French: reached with ← from "reordering" the combo said Chinese
    # while Train from scratch trained French (trial 9)
    "length_curve": {"language": "fr"},
}
STEPS_RANGE = (10, 5000)
SEED_RANGE = (0, 999_999)
MAX_TEXT = 1000
RUN_MODELS = RunModels()  # the run's two models, built once, each snapshot's weights loaded in turn


@dataclass(frozen=True)
class WhyAttentionSettings:
    language: str = "fr"
    sentence: str = EXAMPLES[0]
    measure: str = "word_accuracy"  # what the length curve plots: one of MEASURES
    train_steps: int = DEFAULTS.steps
    train_seed: int = 0

    def __post_init__(self) -> None:
        if self.measure not in MEASURES:
            raise ValueError(f"why_attention.measure: one of {', '.join(MEASURES)}, not {self.measure!r}")
        if self.language not in LANGUAGES:
            raise ValueError(f"why_attention.language: one of {', '.join(LANGUAGES)}, not {self.language!r}")
        if not isinstance(self.sentence, str) or len(self.sentence) > MAX_TEXT:
            raise ValueError(f"why_attention.sentence: a text of at most {MAX_TEXT} characters")
        for name, value, (lo, hi) in (
            ("train_steps", self.train_steps, STEPS_RANGE),
            ("train_seed", self.train_seed, SEED_RANGE),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                raise ValueError(f"why_attention.{name}: a whole number from {lo} to {hi}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> WhyAttentionSettings:
        if not isinstance(data, dict):
            raise ValueError("why_attention: an object of language, sentence, train_steps, train_seed")
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"why_attention: unknown field {sorted(unknown)[0]!r}")
        return cls(**data)


@dataclass(frozen=True)
class Translations:
    """The sentence as both models translate it (the same weights' moment)."""

    fixed: SequenceTrace  # the model without attention: one column C for every step
    attention: SequenceTrace
    task: str
    step: int | None  # the run's snapshot step, None for the shipped checkpoints


@dataclass(frozen=True, eq=False)
class WhyRequest:
    language: str
    sentence: str
    snapshot: Snapshot | None  # the run's weights, or None for the shipped ones
    specs: Any = None  # the run's model specs (with a snapshot)

    def key(self) -> tuple[str, str, int | None]:
        return (self.language, self.sentence, None if self.snapshot is None else id(self.snapshot))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WhyRequest) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def compute(self) -> Translations:
        if self.snapshot is None:
            task = SHIPPED_TASK[self.language]
            fixed, attention = (translate_sequence(self.sentence, task, m) for m in SIDE_BY_SIDE)
            return Translations(fixed, attention, task, None)
        experiment = get_task(EXPERIMENT_TASK)
        label = f"step {self.snapshot.step}"
        with RUN_MODELS.at(self.specs, self.snapshot) as models:
            fixed, attention = (
                trace_sequence(models[m], experiment, self.sentence, label) for m in SIDE_BY_SIDE
            )
        return Translations(fixed, attention, experiment.name, self.snapshot.step)


class WhyAttentionState(LabState):
    TITLE = "appstate.lab_why_attention"
    EVENTS = EVENTS
    GOAL = GOAL
    OPTIONS = DEFAULTS

    def __init__(self) -> None:
        super().__init__()
        self.settings = WhyAttentionSettings()
        # The trained weights a language the run did not train set aside, as (snapshot,):
        # back in French they are in use again (trial 9: a class that looked at step 14's
        # Chinese mid-run came back to step 13 and its curves were the shipped ones for good).
        self._set_aside: tuple[int | None] | None = None

    def apply(self, settings: WhyAttentionSettings) -> None:
        self.set_sentence(settings.sentence)
        self.set_language(settings.language)
        self.set_measure(settings.measure)
        self.set_training_plan(settings.train_steps, settings.train_seed)

    def _change(self, event: str, **fields: Any) -> bool:
        new = WhyAttentionSettings(**{**self.settings.to_dict(), **fields})
        if new == self.settings:
            return False
        self.settings = new
        self._emit(event)
        return True

    def set_language(self, language: str) -> bool:
        trained = (self.snapshot,) if self.weights == "trained" else None
        changed = self._change("request", language=language)
        self._keep_weights_fitting()
        if trained is not None and self.weights == "shipped":
            self._set_aside = trained
        elif self._set_aside is not None and self.run is not None and self.run_fits(self.run.spec):
            (snapshot,), self._set_aside = self._set_aside, None
            self._set_weights("trained", snapshot)
        return changed

    def use_shipped(self) -> bool:
        self._set_aside = None  # chosen: they stay
        return super().use_shipped()

    def use_trained(self, snapshot: int | None = None) -> bool:
        self._set_aside = None
        return super().use_trained(snapshot)

    def start_training(self, options: TrainOptions | None = None) -> LabRun:
        """The run trains the French length experiment: the language says so before it starts
        (the combo read 英语 → 中文 over the run's French translations)."""
        self._set_aside = None
        self.show_run_model(None)
        return super().start_training(options)

    def set_measure(self, measure: str) -> bool:
        return self._change("measure", measure=measure)

    def set_sentence(self, sentence: str) -> bool:
        """A typed or pasted sentence, cut to what a session holds (as the Translation and Global
        vs local tabs cut theirs): the model's own limit, far shorter, then refuses it in words."""
        if not isinstance(sentence, str):
            raise ValueError("why_attention.sentence: text")
        return self._change("request", sentence=sentence[:MAX_TEXT])

    def show_lesson_step(self, stage: str) -> None:
        """Arriving at one of the page's lesson steps: the sentence and language it is about."""
        wanted = LESSON_SETTINGS.get(stage, {})
        if "sentence" in wanted:
            self.set_sentence(wanted["sentence"])
        if "language" in wanted:
            self.set_language(wanted["language"])

    def plan(self) -> tuple[int, int]:
        return self.settings.train_steps, self.settings.train_seed

    def _store_plan(self, steps: int, seed: int) -> bool:
        return self._change("training", train_steps=steps, train_seed=seed)

    def new_run(self, options: TrainOptions) -> LabRun:
        specs = side_by_side_specs(EXPERIMENT_TASK)
        return LabRun(partial(train_side_by_side, EXPERIMENT_TASK), options, goal=GOAL, spec=specs)

    def run_fits(self, spec: Any) -> bool:
        return self.settings.language == "fr"  # a run trains the French length experiment

    def show_run_model(self, spec: Any) -> None:
        self._change("request", language="fr")

    def request(self) -> WhyRequest:
        shown = self.shown_snapshot()
        specs = self.run.spec if shown is not None and self.run is not None else None
        return WhyRequest(self.settings.language, self.settings.sentence, shown, specs)
