"""The one computation behind every number on screen: config in, AttentionTrace out.

The engine loads a pretrained model once, caches the encoder's hidden states per
text, prepares X and the projections for the chosen weights, and runs
``attention.attend`` on the chosen device.
"""

from __future__ import annotations

import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from explorer.core.attention import Projections, Settings, Stages, attend
from explorer.core.config import AttentionConfig, ConfigError
from explorer.core.device import (
    DeviceUnavailable,
    choose_device,
    is_out_of_memory,
    numerics,
    release_memory,
    threads_for,
)
from explorer.core.scoring import make_scoring_params
from explorer.core.trace import STAGE_ARRAYS, AttentionTrace
from explorer.messages import Message, message_of
from explorer.models import catalogue, ready
from explorer.models.bert import BertEncoder, LayerWeights
from explorer.models.loader import ModelError, PretrainedModel, load_model
from explorer.models.random_source import (
    MAX_RANDOM_TOKENS,
    embed_words,
    identity_projections,
    random_projections,
    split_words,
)

DEFAULT_RANDOM_HEADS = 8
# The scorings with seeded, untrained parameters of their own, and what the trace says of them.
UNTRAINED_NOTICES = {"additive": "engine.untrained_additive", "general": "engine.untrained_general"}
_HIDDEN_CACHE_SIZE = 16
# Seeded projections are kept per (kind, width, seed, device); a width of 4,096 takes 256 MB.
_PROJECTION_CACHE_BYTES = 256 * 1024 * 1024


@dataclass
class Prepared:
    """What the attention stage needs, before any head is split."""

    tokens_query: list[str]
    tokens_key: list[str]
    x_query: torch.Tensor
    x_key: torch.Tensor
    projections: Projections  # on the compute device
    cpu_projections: Projections  # the same numbers on the CPU, for the trace file
    default_heads: int
    source: str
    model_name: str | None = None
    layer: int | None = None
    unk_count: int = 0
    ids_query: tuple[int, ...] = ()  # the tokens' vocabulary ids (a pretrained model's)
    ids_key: tuple[int, ...] = ()


class Cancelled(Exception):
    """Raised inside ``Engine.trace`` when its ``should_stop`` callback answers True."""


@dataclass(frozen=True)
class SourceInfo:
    """What the chosen weights offer: the GUI's head and layer pickers read this."""

    source: str  # pretrained / random / identity (pretrained falls back to random)
    width: int
    layers: int  # 0 for random and identity
    default_heads: int
    model_name: str | None = None
    problem: str | None = None  # why pretrained weights were not available (a Message when known)

    @property
    def head_counts(self) -> list[int]:
        return valid_head_counts(self.width)


def clean_text(text: str) -> tuple[str, int]:
    """Drop control characters (NUL and friends) that no tokenizer should see."""
    kept = [
        " " if ch in "\t\r\n" else ch for ch in text if ch in "\t\r\n" or unicodedata.category(ch) != "Cc"
    ]
    return "".join(kept), len(text) - len(kept)


def valid_head_counts(width: int) -> list[int]:
    return [h for h in range(1, width + 1) if width % h == 0]


class Engine:
    """Thread-safe: the GUI worker and tests may share one engine."""

    def __init__(self, default_model: str | Path | None = None):
        self._default_model = default_model
        self._models: dict[str, PretrainedModel | ModelError] = {}
        self._on_device: dict[tuple[str, str], BertEncoder] = {}
        self._projections: OrderedDict[tuple[str, int, int, str], Projections] = OrderedDict()
        self._hidden: OrderedDict[tuple[Any, ...], list[torch.Tensor]] = OrderedDict()
        self._lock = threading.RLock()
        self._local = threading.local()

    # -- models -------------------------------------------------------------
    def model(
        self, model_dir: str | Path | None = None, model_key: str = catalogue.DEFAULT_MODEL
    ) -> PretrainedModel:
        """The loaded model for a folder, else for a catalogue key (MiniLM by default);
        raises ModelError. The catalogue's folder is looked up only here, when it is used."""
        folder = model_dir or (self._default_model if model_key == catalogue.DEFAULT_MODEL else None)
        if not folder:
            try:
                folder = ready.ready_dir(model_key)
            except catalogue.CatalogueError as exc:
                raise ModelError(message_of(exc)) from None
        if folder is None:
            raise ModelError(catalogue.missing_message(model_key))
        key = str(Path(folder).expanduser().resolve())
        with self._lock:
            if key not in self._models:
                try:
                    self._models[key] = load_model(key)
                except ModelError as exc:
                    self._models[key] = exc
            loaded = self._models[key]
        if isinstance(loaded, ModelError):
            raise loaded
        return loaded

    def forget_model(self, model_dir: str | Path) -> None:
        """Drop a cached load (or failure), e.g. after the user fixed the folder."""
        with self._lock:
            self._models.pop(str(Path(model_dir).expanduser().resolve()), None)

    def _pretrained_or_problem(self, config: AttentionConfig) -> tuple[PretrainedModel | None, str | None]:
        """The model, or why the bundled one is unavailable (a folder the user chose raises)."""
        try:
            return self.model(config.model_dir, config.model), None
        except ModelError as exc:
            if config.model_dir or config.model != catalogue.DEFAULT_MODEL:
                raise
            return None, message_of(exc)

    def source_info(self, config: AttentionConfig) -> SourceInfo:
        """Width, layers and default heads of the config's weights (loads the model if needed)."""
        problem = None
        if config.weights == "pretrained":
            model, problem = self._pretrained_or_problem(config)
            if model is not None:
                c = model.config
                return SourceInfo(
                    "pretrained", c.hidden_size, c.num_hidden_layers, c.num_attention_heads, model.name
                )
            config = config.with_(weights="random")
        d = config.d_model
        heads = DEFAULT_RANDOM_HEADS if d % DEFAULT_RANDOM_HEADS == 0 else 1
        return SourceInfo(config.weights, d, 0, heads, None, problem)

    # -- the computation -----------------------------------------------------
    def layer_weights(
        self, config: AttentionConfig, should_stop: Callable[[], bool] | None = None
    ) -> np.ndarray:
        """Attention weights of every layer, [layers, heads, n_q, n_k], for the overview.

        Each layer runs the same ``attend`` as ``trace`` with the config's options;
        random and identity weights have a single layer.
        """
        info = self.source_info(config)
        layers = range(info.layers) if info.source == "pretrained" else [config.layer]
        return np.stack([self.trace(config.with_(layer=layer), should_stop).weights for layer in layers])

    def trace(
        self,
        config: AttentionConfig,
        should_stop: Callable[[], bool] | None = None,
        strict_device: bool = False,
    ) -> AttentionTrace:
        """Compute every stage. ``should_stop()`` is consulted between the encoder's layers
        and before attention; when it answers True the call raises ``Cancelled``.

        An absent device or an out-of-memory error falls back to the CPU with a notice;
        ``strict_device`` raises ``DeviceUnavailable`` instead."""
        started = time.perf_counter()
        self._local.should_stop = should_stop  # per thread: engines are shared
        device, device_notice = choose_device(config.device, strict=strict_device)
        notices: list[Message] = [device_notice] if device_notice else []
        try:
            return self._trace_on(config, device, notices, started)
        except RuntimeError as exc:
            if device.type == "cpu" or not is_out_of_memory(exc):
                raise
            release_memory(device)  # the failed attempt's blocks, for the next trace
            name = device.type.upper()
            if strict_device:
                raise DeviceUnavailable.of("device.oom_strict", device=name) from None
            notices.append(Message.of("device.oom_fallback", device=name))
            return self._trace_on(config, torch.device("cpu"), notices, started)

    def _trace_on(
        self, config: AttentionConfig, device: torch.device, notices: list[Message], started: float
    ) -> AttentionTrace:
        prepared = self._prepare(config, device, notices)
        width = prepared.projections.width
        heads = config.heads or prepared.default_heads
        if width % heads:
            options = ", ".join(map(str, valid_head_counts(width)))
            raise ConfigError.of("engine.heads_not_dividing", heads=heads, width=width, options=options)
        if prepared.source == "pretrained" and heads != prepared.default_heads:
            notices.append(
                Message.of(
                    "engine.heads_regrouped",
                    width=width,
                    model_heads=prepared.default_heads,
                    model_d_k=width // prepared.default_heads,
                    heads=heads,
                    d_k=width // heads,
                )
            )
        d_k = width // heads
        mask = config.mask_spec
        if mask.kind == "valid" and mask.size == 0:
            notices.append(Message.of("engine.valid_zero"))
        elif mask.kind == "valid" and mask.size > len(prepared.tokens_key):
            notices.append(Message.of("engine.valid_beyond", size=mask.size, keys=len(prepared.tokens_key)))
        params = make_scoring_params(config.scoring, heads, d_k, config.seed)
        untrained = sorted(params.as_arrays())
        if untrained:
            notices.append(Message.of(UNTRAINED_NOTICES[config.scoring]))
        settings = Settings(
            heads,
            config.scoring,
            config.scale,
            float(config.temperature),
            config.attention,
            mask,
            config.seed,
        )
        n_q, n_k = len(prepared.tokens_query), len(prepared.tokens_key)
        self._check_stop()
        attn_started = time.perf_counter()
        with threads_for(heads * n_q * n_k * d_k + (n_q + n_k) * width * width * 4):
            stages = attend(
                prepared.x_query, prepared.x_key, prepared.projections, settings, params.to(device)
            )
            if device.type != "cpu":
                torch.cuda.synchronize() if device.type == "cuda" else None
        done = time.perf_counter()
        return AttentionTrace(
            config=config,
            tokens_query=prepared.tokens_query,
            tokens_key=prepared.tokens_key,
            X_query=cpu_array(prepared.x_query),
            X_key=cpu_array(prepared.x_key),
            **stage_arrays(stages),
            heads=heads,
            d_k=d_k,
            device=str(device),
            weights_source=prepared.source,
            model_name=prepared.model_name,
            layer=prepared.layer,
            scoring_params=params.as_arrays(),
            untrained=untrained,
            notices=notices,
            unk_count=prepared.unk_count,
            token_ids_query=list(prepared.ids_query),
            token_ids_key=list(prepared.ids_key),
            projections=projection_arrays(prepared.cpu_projections),
            numerics=numerics(device),
            timings_ms={
                "total": (done - started) * 1e3,
                "attention": (done - attn_started) * 1e3,
                "prepare": (attn_started - started) * 1e3,
            },
        )

    def _check_stop(self) -> None:
        stop = getattr(self._local, "should_stop", None)
        if stop is not None and stop():
            raise Cancelled()

    # -- inputs ----------------------------------------------------------------
    def _prepare(self, config: AttentionConfig, device: torch.device, notices: list[Message]) -> Prepared:
        sentence, dropped = clean_text(config.sentence)
        query, dropped_q = clean_text(config.query)
        if dropped + dropped_q:
            notices.append(Message.of("engine.control_characters", count=dropped + dropped_q))
        if not sentence.strip():
            raise ConfigError.of("engine.no_visible_characters")
        if config.weights == "pretrained":
            model, problem = self._pretrained_or_problem(config)
            if model is None:
                notices.append(Message.of("engine.pretrained_unavailable", problem=problem))
                return self._prepare_random(config.with_(weights="random"), sentence, query, device, notices)
            return self._prepare_pretrained(config, model, sentence, query, device, notices)
        return self._prepare_random(config, sentence, query, device, notices)

    def _prepare_pretrained(
        self,
        config: AttentionConfig,
        model: PretrainedModel,
        sentence: str,
        query: str,
        device: torch.device,
        notices: list[Message],
    ) -> Prepared:
        layers = model.config.num_hidden_layers
        if config.layer >= layers:
            raise ConfigError.of(
                "engine.layer_missing", layer=config.layer, model=model.name, last=layers - 1
            )
        limit = min(config.max_tokens, model.max_tokens)
        key_tok = model.tokenizer.encode(sentence, limit)
        query_tok = model.tokenizer.encode(query, limit) if query.strip() else key_tok
        for key, tok in (("engine.sentence_cut_tokens", key_tok), ("engine.query_cut_tokens", query_tok)):
            if tok.original_length > len(tok.ids):
                notices.append(
                    Message.of(
                        key,
                        before=tok.original_length,
                        after=len(tok.ids),
                        model=model.name,
                        limit=limit,
                    )
                )
            if query_tok is key_tok:
                break  # self-attention: the query is the sentence
        unk = key_tok.unk_count + (query_tok.unk_count if query_tok is not key_tok else 0)
        if unk:
            notices.append(Message.of("engine.unknown_tokens", count=unk, model=model.name))
        x_key = self._hidden_state(model, key_tok.ids, config.layer, device)
        x_query = (
            x_key if query_tok is key_tok else self._hidden_state(model, query_tok.ids, config.layer, device)
        )
        on_cpu = model.encoder.layers[config.layer]
        on_device = self._encoder_on(model, device).layers[config.layer]
        return Prepared(
            query_tok.tokens,
            key_tok.tokens,
            x_query,
            x_key,
            layer_projections(on_device),
            layer_projections(on_cpu),
            model.config.num_attention_heads,
            "pretrained",
            model.name,
            config.layer,
            unk,
            tuple(query_tok.ids),
            tuple(key_tok.ids),
        )

    def _hidden_state(
        self, model: PretrainedModel, ids: list[int], layer: int, device: torch.device
    ) -> torch.Tensor:
        """The hidden state entering ``layer``, cached per (model, text, device)."""
        key = (str(model.path), tuple(ids), str(device))
        with self._lock:
            states = self._hidden.get(key)
            if states is not None:
                self._hidden.move_to_end(key)
                return states[layer]
        encoder = self._encoder_on(model, device)
        ids_t = torch.tensor(ids, dtype=torch.long, device=device)
        with threads_for(len(ids) * model.config.hidden_size**2 * 12 * model.config.num_hidden_layers):
            states = encoder.hidden_states(ids_t, between_layers=self._check_stop)
        with self._lock:
            self._hidden[key] = states
            while len(self._hidden) > _HIDDEN_CACHE_SIZE:
                self._hidden.popitem(last=False)
        return states[layer]

    def _encoder_on(self, model: PretrainedModel, device: torch.device) -> BertEncoder:
        """The model's encoder on ``device``: moved there once per (model, device), not per trace."""
        key = (str(model.path), str(device))
        with self._lock:
            encoder = self._on_device.get(key)
            if encoder is None:
                encoder = model.encoder if device.type == "cpu" else model.encoder.to(device)
                self._on_device[key] = encoder
        return encoder

    def _seeded_projections(self, kind: str, d: int, seed: int, device: torch.device) -> Projections:
        """Random or identity projections, made once per (kind, width, seed) and moved
        to each device once; the least recently used go when they pass the byte budget."""
        key = (kind, d, seed if kind == "random" else 0, str(device))
        with self._lock:
            cached = self._projections.get(key)
            if cached is not None:
                self._projections.move_to_end(key)
                return cached
        if device.type == "cpu":
            tensors = identity_projections(d) if kind == "identity" else random_projections(d, seed)
            made = Projections(**tensors)
        else:
            made = self._seeded_projections(kind, d, seed, torch.device("cpu")).to(device)
        with self._lock:
            self._projections[key] = made
            while len(self._projections) > 1 and _total_bytes(self._projections) > _PROJECTION_CACHE_BYTES:
                self._projections.popitem(last=False)
        return made

    def _prepare_random(
        self, config: AttentionConfig, sentence: str, query: str, device: torch.device, notices: list[Message]
    ) -> Prepared:
        limit = min(config.max_tokens if config.max_tokens != 512 else MAX_RANDOM_TOKENS, MAX_RANDOM_TOKENS)
        words_key = split_words(sentence)
        words_query = split_words(query) if query.strip() else words_key
        for key, words in (("engine.sentence_cut_words", words_key), ("engine.query_cut_words", words_query)):
            if len(words) > limit:
                notices.append(Message.of(key, before=len(words), limit=limit))
            if words_query is words_key:
                break  # self-attention: the query is the sentence
        words_key, words_query = words_key[:limit], words_query[:limit]
        if not words_key:  # a guard: _prepare already refused a sentence without a visible character
            raise ConfigError.of("engine.no_visible_characters")
        d = config.d_model
        x_key = embed_words(words_key, d, config.seed).to(device)
        x_query = (
            x_key
            if words_query is words_key or not query.strip()
            else embed_words(words_query, d, config.seed).to(device)
        )
        default_heads = DEFAULT_RANDOM_HEADS if d % DEFAULT_RANDOM_HEADS == 0 else 1
        return Prepared(
            words_query if query.strip() else words_key,
            words_key,
            x_query,
            x_key,
            self._seeded_projections(config.weights, d, config.seed, device),
            self._seeded_projections(config.weights, d, config.seed, torch.device("cpu")),
            default_heads,
            config.weights,
        )


def layer_projections(lw: LayerWeights) -> Projections:
    return Projections(lw.w_q, lw.w_k, lw.w_v, lw.w_o, lw.b_q, lw.b_k, lw.b_v, lw.b_o)


def cpu_array(t: torch.Tensor) -> np.ndarray:
    """A tensor as numpy on the CPU (a view of a CPU tensor, no copy)."""
    return t.detach().to("cpu").numpy()


def stage_arrays(stages: Stages) -> dict[str, Any]:
    """The trace's fields for what ``attend`` kept (Q … entropy, the scale's divisor), as
    numpy arrays on the CPU: the engine's traces and the board's are built alike."""
    names = {"Q": "q", "K": "k", "V": "v"}  # the trace's names where they differ
    fields = [name for name in STAGE_ARRAYS if not name.startswith("X_")]  # X: the input, not a stage
    return {
        **{f: cpu_array(getattr(stages, names.get(f, f))) for f in fields},
        "scale_divisor": stages.scale_divisor,
    }


def projection_arrays(proj: Projections) -> dict[str, np.ndarray]:
    """nn.Linear weights and biases as read-only numpy views (CPU tensors: no copy)."""
    arrays = {}
    for name in ("w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o"):
        tensor = getattr(proj, name)
        if tensor is not None:
            array = tensor.detach().numpy()
            array.flags.writeable = False
            arrays[name] = array
    return arrays


def _total_bytes(cache: OrderedDict[Any, Projections]) -> int:
    return sum(
        t.numel() * t.element_size()
        for proj in cache.values()
        for t in vars(proj).values()
        if isinstance(t, torch.Tensor)
    )
