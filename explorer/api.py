"""The explorer as a Python library: what the commands compute, as objects, in a notebook or a script.

    import explorer
    t = explorer.trace("The animal didn't cross the street because it was too tired", layer=5)
    t.weights[11]                 # head 11: [n_query, n_key], numpy
    t.tokens_query, t.notices     # what the trace command writes, as attributes
    t                             # the last expression of a Jupyter cell: the interactive view
    t.to_html("animal.html")      # the same view, one file anyone can open offline

Each function returns the object its command writes (``trace``: an AttentionTrace, ``translate``:
a TranslationTrace, ``vision``: a VisionTrace; ``.save(path)`` writes the command's JSON or
NPZ; it and the objects' other methods refuse as the functions do) and refuses bad input with
``ExplorerError``, whose text is the line the command prints after ``error:``. Importing this
module imports neither torch nor Qt: the first call does.

What is promised, and tested (tests/api/test_promises.py), is ``API_VERSION``: the functions'
parameters and defaults, what they return and raise. A change that breaks a promise raises the
major number and is written in CHANGELOG.md.

Adding a function (a decoder, a lab): write it here as the others are (keyword-only options,
its errors turned into ExplorerError by ``_refusing``), add it to ``__all__`` and to
``explorer/__init__.py``'s list, give it a section in docs/api.md and a line in the promises test.
"""

from __future__ import annotations

import copyreg
import functools
import inspect
import os
import re
import threading
import typing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal, TypedDict, TypeVar

from explorer.messages import QT_TRANSLATE_NOOP, Message, MessageError, message_of, register, section

if TYPE_CHECKING:
    import numpy as np
    from typing_extensions import Unpack

    from explorer.core.config import AttentionConfig
    from explorer.core.decoding import HeadSet
    from explorer.core.engine import Engine
    from explorer.core.trace import AttentionTrace
    from explorer.seq2seq.trace import TranslationTrace
    from explorer.vision.trace import VisionTrace
    from explorer.vision.vit_trace import ViTTrace

API_VERSION = "1.2"  # major.minor: the major changes when a promise breaks (see CHANGELOG.md)

API = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{problem}; pass convert_weights=True to convert them", "api.needs_conversion"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "not enough memory for this trace: use a shorter text, or all_layers=False for one layer only",
        "api.out_of_memory",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "give a picture (a file or an array) or generate=SEED: one of the two",
        "api.vision_source",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "generate={value!r}: a picture's seed is a whole number from 0 to {limit}",
        "api.generate_seed",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{function}() has no option {names}: it takes {options}", "api.unknown_option"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{name} must be a path (text or a Path), not {kind}", "api.not_a_path"),
    QT_TRANSLATE_NOOP("CoreMessages", "{name} must be True or False, not {value!r}", "api.not_a_flag"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "view() shows what trace() or translate() returned, not {kind}",
        "api.not_a_trace",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "head {value!r} is not one of the trace's heads, 0 to {last}", "api.head"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "a picture of {dtype} numbers: give {kinds}, or floats from 0 to 1",
        "api.picture_dtype",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "a picture's floats must be from 0 to 1, not {low:.6g} to {high:.6g} (give 0 to 255 as {whole})",
        "api.picture_range",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "cannot write {path}: {reason}", "api.cannot_write"),
)
register(API)

Scoring = Literal["dot", "cosine", "additive", "general"]
Scale = Literal["none", "sqrt", "temperature"]
Hardness = Literal["soft", "hard", "sample"]
WeightSource = Literal["pretrained", "random", "identity"]
Decoding = Literal["greedy", "sample"]
Ablation = Literal["zero", "mean"]
TranslationModel = Literal["bahdanau", "luong", "transformer"]
TranslationScoring = Literal["additive", "general", "dot", "scaled-dot"]
VisionModel = Literal["plain", "se", "cbam", "residual", "vit"]
MAX_PICTURE_SEED = 2**63 - 1


class TraceOptions(TypedDict, total=False):
    """``trace``'s other options: the ``trace`` command's, by the same names (README table)."""

    scoring: Scoring  # dot
    scale: Scale  # sqrt
    temperature: float  # 1.0, for scale="temperature"
    heads: int | None  # None: the model's own
    attention: Hardness  # soft
    mask: str  # none, causal, window:K, valid:N
    weights: WeightSource  # pretrained
    d_model: int  # 64, width of random and identity weights
    seed: int  # 0
    max_tokens: int  # 512


class ExplorerError(MessageError, ValueError):
    """Everything the explorer refuses, in one line: ``str(error)`` is what the command line
    prints after ``error:``. ``key`` names the message (``explorer.messages``; None for the few
    that have none), ``message.params`` holds its values; the original exception is ``__cause__``."""

    @property
    def key(self) -> str | None:
        message = self.message
        return message.key if message is not None else None


@contextmanager
def _refusing() -> Iterator[None]:
    """Turn the explorer's own errors into ExplorerError, keeping their message."""
    from explorer.core.device import is_out_of_memory

    try:
        yield
    except ExplorerError:
        raise
    except MemoryError as exc:
        raise ExplorerError(Message.of("api.out_of_memory")) from exc
    except RuntimeError as exc:  # torch's "can't allocate memory" is a RuntimeError
        if not is_out_of_memory(exc):
            raise
        raise ExplorerError(Message.of("api.out_of_memory")) from exc
    except MessageError as exc:  # ConfigError, ModelError, LabError, ImageError, PageError, …
        raise ExplorerError(message_of(exc)) from exc


F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


def _known_options(function: F) -> F:
    """A keyword the function does not take is refused like every other bad input (Python's
    own TypeError would name neither the explorer nor what the function takes)."""
    taken = inspect.signature(function).parameters

    @functools.wraps(function)
    def checked(*args: Any, **options: Any) -> Any:
        unknown = [name for name in options if name not in taken]
        if unknown:
            raise ExplorerError(
                Message.of(
                    "api.unknown_option",
                    function=function.__name__,
                    names=", ".join(unknown),
                    options=", ".join(taken),
                )
            )
        return function(*args, **options)

    return typing.cast(F, checked)


def _path(value: Any, name: str) -> str | None:
    """A path argument as text (None stays None); anything else refused by name."""
    if value is None:
        return None
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    raise ExplorerError(Message.of("api.not_a_path", name=name, kind=type(value).__name__))


def _flag(value: Any, name: str) -> bool:
    """A True/False argument: the text "no" is not False, so it is refused, not taken as True."""
    if type(value).__name__ in ("bool", "bool_"):
        return bool(value)
    raise ExplorerError(Message.of("api.not_a_flag", name=name, value=value))


def _plain(value: Any) -> Any:
    """A numpy scalar (a loop over np.arange gives them) as the Python number it holds."""
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:
        return value.item()
    return value


_engine: Engine | None = None
_engine_lock = threading.Lock()


def engine() -> Engine:
    """The one engine every call shares: models stay loaded, texts' hidden states cached."""
    global _engine
    with _engine_lock:
        if _engine is None:
            from explorer.core.engine import Engine

            _engine = Engine()
        return _engine


def trace(
    sentence: str,
    query: str | None = None,
    *,
    model: str = "minilm",
    model_dir: str | os.PathLike[str] | None = None,
    layer: int = 0,
    all_layers: bool = True,
    device: str = "auto",
    strict_device: bool = False,
    convert_weights: bool = False,
    next_tokens: int = 0,
    generate: int = 0,
    decoding: Decoding = "greedy",
    decoding_temperature: float = 1.0,
    top_k: int = 0,
    ablate: str | None = None,
    ablation: Ablation = "zero",
    **options: Unpack[TraceOptions],
) -> AttentionTrace:
    """Every stage of one attention, as ``python -m explorer trace`` computes it.

    ``query``: another text whose tokens attend over the sentence's (None: self-attention).
    ``model``: ``minilm`` or ``multilingual``; ``model_dir``: your own model folder (BERT, RoBERTa,
    XLM-R, DistilBERT, GPT-2, Llama, Mistral or Qwen2; it wins over ``model``). ``layer``: the layer whose stages the trace holds. ``all_layers``:
    also compute every layer's weights into ``trace.layer_weights`` [layers, heads, n_q, n_k],
    which the notebook view and ``to_html`` switch between. ``options``: TraceOptions.
    ``convert_weights``: agree to convert a folder's pytorch_model.bin once to safetensors.

    A language model (``model_dir`` a GPT-2, Llama, Mistral or Qwen2 folder) answers more, as
    the command's options of the same names: ``next_tokens``: the K most likely next tokens
    after every position (``trace.next_tokens``); ``generate``: N tokens written after the
    sentence, ``decoding`` greedy or sample (``decoding_temperature``, ``top_k``, the options'
    ``seed``), into ``trace.generation``; ``ablate``: heads turned off ("L.H,L.H"), zeroed or
    replaced by their mean (``ablation``) before W_O, what that changes in ``trace.ablation``
    (an encoder's: its output vectors' cosine to the unablated ones), and ``generate`` writes
    with them off.
    """
    from explorer.core.config import AttentionConfig
    from explorer.core.decoding import DecoderRequests

    with _refusing():
        all_layers, strict_device = _flag(all_layers, "all_layers"), _flag(strict_device, "strict_device")
        convert_weights = _flag(convert_weights, "convert_weights")
        config = AttentionConfig.from_dict(
            {
                "sentence": sentence,
                "query": "" if query is None else query,
                "model": model,
                "model_dir": _path(model_dir, "model_dir"),
                "layer": _plain(layer),
                "device": device,
                **{name: _plain(value) for name, value in options.items()},
            }
        )
        next_tokens, generate, top_k = _plain(next_tokens), _plain(generate), _plain(top_k)
        asked = DecoderRequests.of(
            next_tokens,
            generate,
            decoding,
            _plain(decoding_temperature),
            top_k,
            config.seed,
            ablate,
            ablation,
        )
        result = _trace(config, strict_device, convert_weights, asked.next_tokens, asked.ablation)
        asked.answer(engine(), config, result)
        if all_layers:
            result.layer_weights = engine().layer_weights(config, heads=asked.ablation)
        return _guarding(result)


def _trace(
    config: AttentionConfig,
    strict_device: bool,
    convert_weights: bool,
    next_tokens: int = 0,
    heads: HeadSet | None = None,
) -> AttentionTrace:
    from explorer.models.errors import NeedsConversion

    shared = engine()
    try:
        return shared.trace(config, strict_device=strict_device, next_tokens=next_tokens, heads=heads)
    except NeedsConversion as exc:
        if not convert_weights:
            raise ExplorerError(Message.of("api.needs_conversion", problem=message_of(exc))) from exc
        from explorer.models.convert_bin import convert

        convert(exc.source)
        shared.forget_model(config.model_dir or exc.folder)
        return shared.trace(config, strict_device=strict_device, next_tokens=next_tokens, heads=heads)


@_known_options
def translate(
    source: str,
    *,
    model: TranslationModel = "bahdanau",
    scoring: TranslationScoring | None = None,
    attention: Hardness = "soft",
    seed: int = 0,
    checkpoint: str | os.PathLike[str] | None = None,
) -> TranslationTrace:
    """A date turned into YYYY-MM-DD by a trained encoder–decoder, with every attention number,
    as ``python -m explorer translate`` computes it. ``scoring`` None: the model's default;
    ``checkpoint``: a folder ``train`` wrote (it sets the model and scoring)."""
    with _refusing():
        from explorer.core.config import MAX_SEED

        seed = _plain(seed)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ExplorerError(Message.of("config.seed", limit=MAX_SEED, value=seed))
        from explorer.seq2seq.translate import translate as lab_translate

        traced = lab_translate(source, model, scoring, attention, seed, _path(checkpoint, "checkpoint"))
        return _guarding(traced)


@_known_options
def vision(
    image: str | os.PathLike[str] | np.ndarray | None = None,
    *,
    generate: int | None = None,
    model: VisionModel | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    device: str = "auto",
) -> VisionTrace | ViTTrace:
    """Every stage of one picture through one model, as ``python -m explorer vision`` computes it.

    ``image``: a PNG (JPEG, BMP, GIF) file, or an array [H, W] or [H, W, 1-4] of floats in
    0..1, uint8, uint16 or bool (anything else refused), converted and resized with notices;
    or ``generate``: the seed of a generated picture
    (which adds its object mask and label). ``model``: a shipped model (default cbam; vit: the
    vision transformer, whose trace is a ViTTrace);
    ``checkpoint``: a NAME that ``train-vision`` wrote instead."""
    with _refusing():
        if not isinstance(device, str) or not re.fullmatch(r"auto|cpu|cuda|mps|cuda:\d{1,3}", device):
            raise ExplorerError(Message.of("config.device", value=device, choices="auto, cpu, cuda, mps"))
        from explorer.vision.models import MODELS

        if model is not None and model not in MODELS:  # before the picture: the CNNs and vit alike
            raise ExplorerError(Message.of("vision.model_unknown", value=model, choices=", ".join(MODELS)))
        pixels, mask, label, notices, source = _picture(image, generate)
        from explorer.core.device import choose_device
        from explorer.vision.checkpoints import (
            CheckpointError,
            load_checkpoint,
            load_shipped,
            load_shipped_vit,
        )
        from explorer.vision.trace import run_model
        from explorer.vision.vit import VisionTransformer
        from explorer.vision.vit_trace import run_vit_model

        try:
            if checkpoint is not None:
                stem = (
                    (_path(checkpoint, "checkpoint") or "").removesuffix(".safetensors").removesuffix(".json")
                )
                network, _ = load_checkpoint(stem)
            else:
                network, _ = load_shipped_vit() if model == "vit" else load_shipped(model or "cbam")
        except CheckpointError as exc:  # plain text, as the vision command prints it
            raise ExplorerError(str(exc)) from exc
        chosen, notice = choose_device(device)
        if notice:
            notices.append(notice)
        if chosen.type != "cpu":
            import copy

            network = copy.deepcopy(network).to(chosen)  # the shipped model stays on the CPU
        if isinstance(network, VisionTransformer):
            return _guarding(
                run_vit_model(network, pixels, object_mask=mask, label=label, source=source, notices=notices)
            )
        return _guarding(
            run_model(network, pixels, object_mask=mask, label=label, source=source, notices=notices)
        )


Picture = tuple["np.ndarray", "np.ndarray | None", "int | None", "list[str]", str]


def _picture(image: str | os.PathLike[str] | np.ndarray | None, generate: int | None) -> Picture:
    """(pixels [32, 32, 3], object mask, label, notices, source text) of the picture asked for."""
    import numpy as np

    from explorer.vision.images import load_image, resize, to_rgb
    from explorer.vision.shapes import IMAGE_SIZE
    from explorer.vision.shapes import generate as generated

    if generate is not None and image is None:
        if (
            isinstance(generate, bool)
            or not isinstance(generate, int)
            or not 0 <= generate <= MAX_PICTURE_SEED
        ):
            raise ExplorerError(Message.of("api.generate_seed", value=generate, limit=MAX_PICTURE_SEED))
        picture = generated(generate)
        return picture.image, picture.mask, picture.label, [], f"generate:{generate}"
    if isinstance(image, np.ndarray) and generate is None:
        rgb, converted = to_rgb(_unit_pixels(image))
        pixels, resized = resize(rgb, IMAGE_SIZE)
        return pixels, None, None, [*converted, *([resized] if resized else [])], "array"
    if isinstance(image, (str, os.PathLike)) and generate is None:
        loaded = load_image(os.fspath(image))
        return loaded.pixels, None, None, [*loaded.notices], f"image:{os.fspath(image)}"
    raise ExplorerError(Message.of("api.vision_source"))


PICTURE_KINDS = "uint8 (0 to 255), uint16 (0 to 65535), bool"  # the array types vision() reads


def _unit_pixels(image: np.ndarray) -> np.ndarray:
    """An array picture as floats in 0..1: uint8 ÷ 255, uint16 ÷ 65535, bool as 0 or 1, floats
    as they are; floats outside 0..1 and other types refused by name, where clipping
    made a uint16 picture white and a float picture of 0..255 nearly white, silently."""
    import numpy as np

    from explorer.finite import count_non_finite

    if image.dtype == np.bool_:
        return image.astype(np.float64)
    if image.dtype == np.uint8:
        return image / 255.0
    if image.dtype == np.uint16:
        return image / 65535.0
    if image.dtype.kind != "f":  # int64 0..255 or 0..1? Either reading may be wrong: say so
        raise ExplorerError(Message.of("api.picture_dtype", dtype=image.dtype.name, kinds=PICTURE_KINDS))
    if image.size and not count_non_finite(image):  # NaN and inf: to_rgb counts them
        low, high = float(image.min()), float(image.max())
        if low < 0.0 or high > 1.0:
            raise ExplorerError(Message.of("api.picture_range", low=low, high=high, whole="uint8"))
    return image


# What a returned trace's methods may refuse; each refuses as the functions do (ExplorerError).
WRITERS = ("save", "to_json", "to_npz", "to_html")
READERS = ("page", "stage", "block", "attention_trace", "step")
_guarded: dict[type, type] = {}


def _guarding(result: T) -> T:
    """``result`` with its writers and readers refusing with ExplorerError, as the docstring
    promises (``save`` raised ConfigError, ValueError, OSError or TypeError, ``block`` KeyError).
    The object keeps its class's name, fields and repr; pickled or copied it is the plain class."""
    cls = type(result)
    if cls in _guarded.values():  # the engine's cached trace, returned again
        return result
    with _engine_lock:
        guarded = _guarded.get(cls)
        if guarded is None:
            guarded = _guarded[cls] = _guarded_class(cls)
    object.__setattr__(result, "__class__", guarded)  # a frozen dataclass refuses plain assignment
    return result


def _guarded_class(cls: type) -> type:
    names = [name for name in (*WRITERS, *READERS) if callable(getattr(cls, name, None))]
    namespace: dict[str, Any] = {name: _guarded_method(getattr(cls, name), name in WRITERS) for name in names}

    def __reduce_ex__(self: Any, protocol: Any) -> Any:
        reduced = typing.cast(Any, cls).__reduce_ex__(self, protocol)
        if isinstance(reduced, tuple) and len(reduced) > 1 and reduced[1] and reduced[1][0] is type(self):
            # pickle refuses __newobj__ with another class than the object's: rebuild the plain one
            rebuild = _plain_new if reduced[0] is copyreg.__newobj__ else reduced[0]  # type: ignore[attr-defined]
            reduced = (rebuild, (cls, *reduced[1][1:]), *reduced[2:])
        return reduced

    namespace.update(
        __slots__=(), __module__=cls.__module__, __qualname__=cls.__qualname__, __reduce_ex__=__reduce_ex__
    )
    return type(cls.__name__, (cls,), namespace)


def _plain_new(cls: type, *args: Any) -> Any:
    """An unpickled or copied trace: its own class, without the API's guards."""
    return cls.__new__(cls, *args)


def _guarded_method(method: Callable[..., Any], writes: bool) -> Callable[..., Any]:
    @functools.wraps(method)
    def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
        with _refusing():
            if writes:
                return _write(method, self, *args, **kwargs)
            try:
                return method(self, *args, **kwargs)
            except KeyError as exc:  # VisionTrace.block: "no block 'x'; blocks: …"
                raise ExplorerError(str(exc.args[0] if exc.args else exc)) from exc
            except ValueError as exc:
                if isinstance(exc, MessageError):
                    raise
                raise ExplorerError(str(exc)) from exc

    return guarded


def _write(method: Callable[..., Any], traced: Any, *args: Any, **kwargs: Any) -> Any:
    """A writer's call: the path checked as every command checks --out (a folder that does not
    exist is refused, never created), the operating system's refusal one line."""
    from pathlib import Path

    if args:
        path, args = args[0], args[1:]
    else:  # save(path=...)
        path = kwargs.pop("path", None)
    text = os.path.expanduser(_path(path, "path") or "")  # "~/t.json" is the home's, as in a shell
    parent = Path(text).parent
    if not parent.is_dir():
        raise ExplorerError(Message.of("files.no_folder", folder=parent))
    try:
        return method(traced, text, *args, **kwargs)
    except OSError as exc:
        raise ExplorerError(
            Message.of("api.cannot_write", path=text, reason=exc.strerror or str(exc))
        ) from exc
    except ValueError as exc:  # a lab's own "the file name must end in .json or .npz"
        if isinstance(exc, MessageError):
            raise
        raise ExplorerError(str(exc)) from exc


class View:
    """A trace's view in a chosen language, for a notebook cell: ``explorer.view(t, "zh_CN")``."""

    def __init__(self, traced: AttentionTrace | TranslationTrace, language: str = "en", head: int = 0):
        from explorer.web.language import check_language

        with _refusing():
            if not callable(getattr(traced, "page", None)):
                raise ExplorerError(Message.of("api.not_a_trace", kind=type(traced).__name__))
            head, heads = _plain(head), getattr(traced, "heads", None)
            if isinstance(heads, int) and (type(head) is not int or not 0 <= head < heads):
                raise ExplorerError(Message.of("api.head", value=head, last=heads - 1))
            self.page = traced.page(head)
            self.language = check_language(language)

    def _repr_html_(self) -> str:
        from explorer.web import fragment

        return fragment(self.page, self.language)

    def save(self, path: str | os.PathLike[str]) -> None:
        """The same view as a page of its own (OUT.html)."""
        from explorer.web import write_page

        with _refusing():
            _write(lambda _, text: write_page(text, self.page, self.language), self, path)


def view(traced: AttentionTrace | TranslationTrace, language: str = "en", head: int = 0) -> View:
    """The interactive view of a trace, opening in ``language`` (``en`` or ``zh_CN``) on
    ``head``; the view switches languages itself. A trace alone (the last expression of a
    cell) opens in English on head 0."""
    return View(traced, language, head)


__all__ = [
    "API_VERSION",
    "ExplorerError",
    "TraceOptions",
    "View",
    "engine",
    "trace",
    "translate",
    "view",
    "vision",
]
