"""The Language model tab's settings, without Qt: which task, which probe, which head, which
heads are off, which page, and the plan of the next training run.

``LMState`` hangs off the ExplorerState (``state.labs["lm"]``) with its own events
(``EVENTS``): ``task`` (the induction or the text model), ``probe`` (the text the heads are
shown on: typed, or a random sequence repeated once, from its seed), ``head`` (the head whose
stages are open), ``off`` (the heads switched off: the causal test), ``page``, ``writing`` (how
the Generate page writes: its prompt, how many tokens, temperature, top-k, seed) and
``written`` (the text being written moved on, stopped or ended: ``writing``). The run, the
weights in use (the shipped checkpoint or a snapshot of the run) and the scrubber's snapshot
are held as every lab holds them (explorer.appstate.lab.LabState: ``training``, ``weights``).
``LMSettings`` is what a session saves; a trained run lives only in memory.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from functools import partial
from typing import Any

from explorer.appstate.lab import LabState
from explorer.lab import LabRun, TrainOptions
from explorer.lm.train import DEFAULTS, GOAL, TASKS, LMSpec, train_lm
from explorer.messages import Message

Head = tuple[int, int]
PAGES = ("train", "heads", "stages", "generate")
EVENTS = ("task", "probe", "head", "off", "page", "writing", "written", "training", "weights")
LAYERS, HEADS = 2, 4  # every model the lab trains or ships (GPTConfig's defaults)
MAX_SEED = 2**31 - 1
MAX_TRAIN_STEPS = 5000
MAX_PROBE_CHARS = 64  # the text model's context; the induction model reads 48
MAX_WRITTEN = 64  # tokens the Generate page writes at most: rows a projector can still show
MAX_TEMPERATURE = 5.0
# The window's runs: the task's recipe, a snapshot at each evaluation (the scrubber replays
# how the heads formed), CUDA when present (else the CPU, one torch thread).
WINDOW_TRAINING = replace(DEFAULTS["induction"], steps=600, device="auto", threads=1)


def typed_text(typed: str) -> tuple[str, Message | None]:
    """The probe (or prompt) a typed or pasted text gives: at most MAX_PROBE_CHARS characters,
    and the notice that says so when the text was longer (a 50 KB paste is cut, not refused)."""
    if len(typed) > MAX_PROBE_CHARS:
        return typed[:MAX_PROBE_CHARS], Message.of("lm.text_cut", limit=MAX_PROBE_CHARS)
    return typed, None


def _is_index(value: object, below: int | None = None) -> bool:
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    return ok and (below is None or int(value) < below)  # type: ignore[call-overload]


def check_head(head: object) -> Head:
    if not (isinstance(head, (tuple, list)) and len(head) == 2):
        raise ValueError("a head is (layer, head)")
    layer, index = head
    if not (_is_index(layer, LAYERS) and _is_index(index, HEADS)):
        raise ValueError(f"head {layer}.{index} does not exist: {LAYERS} layers of {HEADS} heads")
    return int(layer), int(index)


@dataclass(frozen=True)
class LMSettings:
    """What a session keeps of the Language model tab."""

    task: str = "induction"
    probe: str = ""  # typed; empty: a random sequence repeated once (probe_seed)
    probe_seed: int = 0
    head: Head = (1, 0)
    off: tuple[Head, ...] = ()
    page: str = "train"
    train_steps: int = WINDOW_TRAINING.steps
    train_seed: int = 0
    prompt: str = ""  # typed; empty: the task's own (explorer.appstate.lm_jobs.default_prompt)
    write_tokens: int = 24
    temperature: float = 0.0  # 0: always the most likely token
    top_k: int = 0  # 0: every token
    write_seed: int = 0

    def __post_init__(self) -> None:
        if self.task not in TASKS:
            raise ValueError(f"task {self.task!r} is not one of {', '.join(TASKS)}")
        if not isinstance(self.probe, str) or len(self.probe) > MAX_PROBE_CHARS:
            raise ValueError(f"the probe is text of at most {MAX_PROBE_CHARS} characters")
        if not _is_index(self.probe_seed) or self.probe_seed > MAX_SEED:
            raise ValueError(f"probe seed must be from 0 to {MAX_SEED}")
        object.__setattr__(self, "head", check_head(self.head))
        if not isinstance(self.off, (tuple, list)):
            raise ValueError("off must be a list of heads")
        object.__setattr__(self, "off", tuple(sorted({check_head(h) for h in self.off})))
        if self.page not in PAGES:
            raise ValueError(f"page {self.page!r} is not one of {', '.join(PAGES)}")
        if not (_is_index(self.train_steps) and 1 <= self.train_steps <= MAX_TRAIN_STEPS):
            raise ValueError(f"training steps must be from 1 to {MAX_TRAIN_STEPS}")
        if not (_is_index(self.train_seed) and self.train_seed <= MAX_SEED):
            raise ValueError(f"training seed must be from 0 to {MAX_SEED}")
        if not isinstance(self.prompt, str) or len(self.prompt) > MAX_PROBE_CHARS:
            raise ValueError(f"the prompt is text of at most {MAX_PROBE_CHARS} characters")
        if not (_is_index(self.write_tokens) and 1 <= self.write_tokens <= MAX_WRITTEN):
            raise ValueError(f"tokens to write must be from 1 to {MAX_WRITTEN}")
        t = self.temperature
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 <= t <= MAX_TEMPERATURE:
            raise ValueError(f"temperature must be from 0 to {MAX_TEMPERATURE:g}")  # NaN fails too
        object.__setattr__(self, "temperature", float(t))
        if not _is_index(self.top_k):
            raise ValueError("top-k must be 0 (every token) or more")
        if not (_is_index(self.write_seed) and self.write_seed <= MAX_SEED):
            raise ValueError(f"generation seed must be from 0 to {MAX_SEED}")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["head"] = list(self.head)
        data["off"] = [list(h) for h in self.off]
        return data

    @staticmethod
    def from_dict(data: object) -> LMSettings:
        """Checked; any bad value raises ValueError naming it (the session reports it)."""
        if not isinstance(data, dict):
            raise ValueError("lm must be an object")
        unknown = set(data) - {f.name for f in fields(LMSettings)}
        if unknown:
            raise ValueError(f"unknown lm settings: {', '.join(sorted(unknown))}")
        values = dict(data)
        if "head" in values:
            values["head"] = check_head(values["head"])
        if "off" in values:
            if not isinstance(values["off"], list):
                raise ValueError("off must be a list of heads")
            values["off"] = tuple(check_head(h) for h in values["off"])
        return LMSettings(**values)


class LMState(LabState):
    """The tab's settings and training; each setter validates, changes, then notifies its event."""

    TITLE = "appstate.lab_lm"
    EVENTS = EVENTS
    GOAL = GOAL
    OPTIONS = WINDOW_TRAINING

    def __init__(self, settings: LMSettings | None = None):
        super().__init__()
        self._settings = settings or LMSettings()
        self.writing: Any = None  # the text being written (explorer.appstate.lm_jobs.Writing)
        self.writing_status = "idle"  # "writing", "done", "stopped" or "failed"

    @property
    def settings(self) -> LMSettings:
        return self._settings

    @settings.setter
    def settings(self, settings: LMSettings) -> None:
        self.apply(settings)

    # the settings, read one by one
    task = property(lambda self: self._settings.task)
    probe = property(lambda self: self._settings.probe)
    probe_seed = property(lambda self: self._settings.probe_seed)
    head = property(lambda self: self._settings.head)
    off = property(lambda self: self._settings.off)
    page = property(lambda self: self._settings.page)
    train_steps = property(lambda self: self._settings.train_steps)
    train_seed = property(lambda self: self._settings.train_seed)
    prompt = property(lambda self: self._settings.prompt)
    write_tokens = property(lambda self: self._settings.write_tokens)
    temperature = property(lambda self: self._settings.temperature)
    top_k = property(lambda self: self._settings.top_k)
    write_seed = property(lambda self: self._settings.write_seed)

    def _change(self, event: str, **changes: Any) -> bool:
        new = replace(self._settings, **changes)
        if new == self._settings:
            return False
        self._settings = new
        self._emit(event)
        return True

    # -- what is shown -------------------------------------------------------------------------------
    def set_task(self, task: str) -> bool:
        changed = self._change("task", task=task)
        if changed:
            self._keep_weights_fitting()  # a run of the other task: its shipped checkpoint
        return changed

    def arrive_at_step(self, step_id: str) -> None:
        """The steps explain a random sequence repeated once: a typed probe gives way."""
        if self.probe:
            self.set_probe("")

    def set_probe(self, text: str) -> bool:
        return self._change("probe", probe=str(text))

    def new_probe(self, seed: int | None = None) -> bool:
        """A new random sequence repeated once (the typed text gives way)."""
        seed = (self.probe_seed + 1) % (MAX_SEED + 1) if seed is None else int(seed)
        return self._change("probe", probe="", probe_seed=seed)

    def select_head(self, head: Head) -> bool:
        return self._change("head", head=check_head(head))

    def set_off(self, heads: tuple[Head, ...] | list[Head]) -> bool:
        return self._change("off", off=tuple(heads))

    def toggle_off(self, head: Head) -> bool:
        head = check_head(head)
        off = set(self.off)
        off.symmetric_difference_update({head})
        return self.set_off(tuple(off))

    def set_page(self, page: str) -> bool:
        return self._change("page", page=page)

    # -- writing (the Generate page) -------------------------------------------------------------------
    def set_writing(self, **changes: Any) -> bool:
        """Any of prompt, write_tokens, temperature, top_k, write_seed."""
        unknown = set(changes) - {"prompt", "write_tokens", "temperature", "top_k", "write_seed"}
        if unknown:
            raise ValueError(f"not a writing setting: {', '.join(sorted(unknown))}")
        return self._change("writing", **changes)

    @property
    def is_writing(self) -> bool:
        return self.writing_status == "writing"

    def start_writing(self, writing: Any) -> None:
        """A new text (the one before is dropped); the window's worker writes it token by token."""
        self.writing, self.writing_status = writing, "writing"
        self._emit("written")

    def add_written(self, writing: Any, token: Any) -> bool:
        """One more token of ``writing`` (False: that text was stopped or replaced meanwhile)."""
        if writing is not self.writing or not self.is_writing:
            return False
        writing.steps.append(token)
        if len(writing.steps) >= writing.request.spec.tokens:
            self.writing_status = "done"
        self._emit("written")
        return True

    def stop_writing(self, failed: bool = False) -> None:
        if self.is_writing:
            self.writing_status = "failed" if failed else "stopped"
            self._emit("written")

    # -- training (explorer.appstate.lab) ------------------------------------------------------------
    def plan(self) -> tuple[int, int]:
        return self.train_steps, self.train_seed

    def _store_plan(self, steps: int, seed: int) -> bool:
        return self._change("training", train_steps=steps, train_seed=seed)

    def new_run(self, options: TrainOptions) -> LabRun:
        spec = LMSpec(self.task)
        options = replace(options, learning_rate=DEFAULTS[self.task].learning_rate)
        return LabRun(partial(train_lm, spec), options, goal=GOAL, spec=spec)

    def run_fits(self, spec: LMSpec) -> bool:
        return spec.task == self.task

    def show_run_model(self, spec: LMSpec) -> None:
        self.set_task(spec.task)

    # -- sessions ------------------------------------------------------------------------------------
    def prepared(self) -> LMSettings:
        return replace(self._settings, page="train")

    def apply(self, settings: LMSettings) -> None:
        """Every saved setting, each change notified as usual (the training run is not saved)."""
        self.set_task(settings.task)
        if (settings.probe, settings.probe_seed) != (self.probe, self.probe_seed):
            self._change("probe", probe=settings.probe, probe_seed=settings.probe_seed)
        self.select_head(settings.head)
        self.set_off(settings.off)
        self.set_training_plan(settings.train_steps, settings.train_seed)
        self.set_writing(
            prompt=settings.prompt,
            write_tokens=settings.write_tokens,
            temperature=settings.temperature,
            top_k=settings.top_k,
            write_seed=settings.write_seed,
        )
        self.set_page(settings.page)
