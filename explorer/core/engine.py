"""The one computation behind every number on screen: config in, AttentionTrace out.

The engine loads a pretrained model once, caches the hidden states per text (an encoder's,
or a decoder's whole forward pass: every layer through the staged attention), prepares X
and the projections for the chosen weights, and runs ``attention.attend`` (a decoder:
``causal_attention.attend_decoder``, with its rotation, shared K/V heads and causal mask)
on the chosen device. A decoder also answers its next tokens, writes text and turns heads
off (``decoding.py``).
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

from explorer import reading
from explorer.core.attention import Projections, Settings, Stages, attend
from explorer.core.causal_attention import DecoderStages, Rotary, attend_decoder, decoder_mask
from explorer.core.config import AttentionConfig, ConfigError, MaskSpec
from explorer.core.decoder_pass import (
    Ablation,
    DecoderPass,
    attention_input,
    logits,
    rotary_for,
    run_decoder,
)
from explorer.core.decoder_pass import layer_projections as decoder_layer_projections
from explorer.core.decoder_pass import next_tokens as top_next_tokens
from explorer.core.decoding import (
    Entries,
    GenerationSpec,
    HeadSet,
    check_next_tokens,
    check_within_vocabulary,
    decoder_ablation,
    encoder_ablation,
    generate,
    next_token_entries,
)
from explorer.core.device import (
    DeviceUnavailable,
    choose_device,
    is_out_of_memory,
    numerics,
    release_memory,
    threads_for,
)
from explorer.core.head_measures import first_token_share
from explorer.core.scoring import make_scoring_params
from explorer.core.trace import STAGE_ARRAYS, AttentionTrace
from explorer.messages import Message, message_of
from explorer.models import catalogue, ready
from explorer.models.ablation import HeadEdit
from explorer.models.bert import BertEncoder, LayerWeights
from explorer.models.decoder import DecoderWeights
from explorer.models.decoder_config import DecoderConfig
from explorer.models.loader import ModelError, PretrainedDecoder, PretrainedModel, Tokenized, load_model
from explorer.models.random_source import (
    MAX_RANDOM_TOKENS,
    embed_words,
    identity_projections,
    random_projections,
    split_words,
)

DEFAULT_RANDOM_HEADS = 8
Loaded = PretrainedModel | PretrainedDecoder
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
    pieces_query: tuple[str, ...] = ()  # as the vocabulary spells them
    pieces_key: tuple[str, ...] = ()
    family: str | None = None
    causal_model: bool = False  # the model was trained with a causal mask (its own mask: "model")
    decoder: DecoderContext | None = None


@dataclass
class DecoderContext:
    """What a decoder layer's attention needs beyond X and the projections."""

    model: PretrainedDecoder
    run: DecoderPass  # the model's own forward over the text (hidden states, final, sink)
    rotary: Rotary | None  # on the compute device
    window: int | None  # this layer's sliding window
    extra_divisor: float  # GPT-2's scale_attn_by_inverse_layer_idx: layer + 1
    fixed_heads: bool  # rotary or grouped heads: the head count is the model's
    heads_off: HeadSet | None = None  # turned off in this forward (every layer, this one too)

    def edit_for(self, layer: int) -> HeadEdit | None:
        return None if self.heads_off is None else self.heads_off.ablation.edit_for(layer)

    @property
    def kv_heads(self) -> int:
        return self.model.config.num_key_value_heads


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
    causal: bool = False  # trained with a causal mask (a decoder, or a BERT with "is_decoder": true)
    is_decoder: bool = False  # a language model: next tokens, generation
    kv_heads: int | None = None  # grouped-query attention: fewer K/V heads than query heads
    fixed_heads: bool = False  # the head count cannot be changed (rotary positions, shared K/V)
    family: str | None = None

    @property
    def head_counts(self) -> list[int]:
        return [self.default_heads] if self.fixed_heads else valid_head_counts(self.width)


def clean_text(text: str) -> tuple[str, int]:
    """Drop control characters (NUL and friends) that no tokenizer should see."""
    kept = [
        " " if ch in "\t\r\n" else ch for ch in text if ch in "\t\r\n" or unicodedata.category(ch) != "Cc"
    ]
    return "".join(kept), len(text) - len(kept)


def visible(text: str) -> bool:
    """Whether ``text`` holds a character that shows: a sentence of format marks alone (U+202E,
    U+FEFF, U+200B) tokenized to no word, and was traced as [CLS] [SEP] with exit 0."""
    return any(unicodedata.category(ch)[0] not in "CZ" for ch in text)


def valid_head_counts(width: int) -> list[int]:
    return [h for h in range(1, width + 1) if width % h == 0]


class Engine:
    """Thread-safe: the GUI worker and tests may share one engine."""

    def __init__(self, default_model: str | Path | None = None):
        self._default_model = default_model
        self._models: dict[str, Loaded | ModelError] = {}
        self._on_device: dict[tuple[str, str], BertEncoder] = {}
        self._decoders_on: dict[tuple[str, str], DecoderWeights] = {}
        self._projections: OrderedDict[tuple[str, int, int, str], Projections] = OrderedDict()
        # Per (model, text, device): an encoder's hidden states, or a decoder's whole pass.
        self._hidden: OrderedDict[tuple[Any, ...], list[torch.Tensor]] = OrderedDict()
        self._passes: OrderedDict[tuple[Any, ...], DecoderPass] = OrderedDict()
        self._lock = threading.RLock()
        self._local = threading.local()

    # -- models -------------------------------------------------------------
    def model(self, model_dir: str | Path | None = None, model_key: str = catalogue.DEFAULT_MODEL) -> Loaded:
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
        key = str(reading.canonical(folder))  # one load per folder, however it is named
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
        """Drop a cached load (or failure), e.g. after the user fixed the folder; a decoder's
        float32 copies still being made stop being made (a forward still makes what it reads)."""
        with self._lock:
            dropped = self._models.pop(str(reading.canonical(model_dir)), None)
        if isinstance(dropped, PretrainedDecoder):
            dropped.weights.close()

    def _pretrained_or_problem(self, config: AttentionConfig) -> tuple[Loaded | None, str | None]:
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
            if isinstance(model, PretrainedDecoder):
                dc = model.config
                return SourceInfo(
                    "pretrained",
                    dc.num_attention_heads * dc.head_dim,
                    dc.num_hidden_layers,
                    dc.num_attention_heads,
                    model.name,
                    causal=True,
                    is_decoder=True,
                    kv_heads=dc.num_key_value_heads,
                    fixed_heads=_fixed_heads(dc),
                    family=model.family,
                )
            if model is not None:
                c = model.config
                return SourceInfo(
                    "pretrained",
                    c.hidden_size,
                    c.num_hidden_layers,
                    c.num_attention_heads,
                    model.name,
                    causal=c.causal,
                    family=model.family,
                )
            config = config.with_(weights="random")
        d = config.d_model
        heads = DEFAULT_RANDOM_HEADS if d % DEFAULT_RANDOM_HEADS == 0 else 1
        return SourceInfo(config.weights, d, 0, heads, None, problem)

    # -- the computation -----------------------------------------------------
    def layer_weights(
        self,
        config: AttentionConfig,
        should_stop: Callable[[], bool] | None = None,
        heads: HeadSet | None = None,
    ) -> np.ndarray:
        """Attention weights of every layer, [layers, heads, n_q, n_k], for the overview.

        Each layer runs the same ``attend`` as ``trace`` with the config's options;
        random and identity weights have a single layer.
        """
        info = self.source_info(config)
        if info.is_decoder and _own_attention(config):
            return self._decoder_weights_every_layer(config, should_stop, heads)
        layers = range(info.layers) if info.source == "pretrained" else [config.layer]
        return np.stack(
            [self.trace(config.with_(layer=layer), should_stop, heads=heads).weights for layer in layers]
        )

    def trace(
        self,
        config: AttentionConfig,
        should_stop: Callable[[], bool] | None = None,
        strict_device: bool = False,
        next_tokens: int = 0,
        heads: HeadSet | None = None,
    ) -> AttentionTrace:
        """Compute every stage. ``should_stop()`` is consulted between the encoder's layers
        and before attention; when it answers True the call raises ``Cancelled``.

        An absent device or an out-of-memory error falls back to the CPU with a notice;
        ``strict_device`` raises ``DeviceUnavailable`` instead. ``next_tokens`` (a decoder):
        the trace also holds the k most likely next tokens after every position. ``heads``:
        turned off — a decoder's stages come from the forward with them off (what enters the
        layer, and the layer's own off heads left out of its concatenation); an encoder's are
        computed with every head on, and a notice says so."""
        check_next_tokens(next_tokens)
        trace = self._on_some_device(
            config,
            should_stop,
            strict_device,
            lambda device, notices, started: self._trace_on(config, device, notices, started, heads),
        )
        if next_tokens:
            trace.next_tokens = self._next_tokens_of(config, trace, next_tokens)
        return trace

    # -- what only a language model answers ------------------------------------------------------
    def decoder(self, config: AttentionConfig) -> PretrainedDecoder:
        """The config's model when it is a decoder; ConfigError saying so otherwise."""
        model = self.model(config.model_dir, config.model) if config.weights == "pretrained" else None
        if not isinstance(model, PretrainedDecoder):
            name = model.name if model is not None else config.weights
            raise ConfigError.of("decoding.not_decoder", model=name)
        return model

    def next_tokens(
        self,
        config: AttentionConfig,
        k: int = 10,
        positions: list[int] | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> Entries:
        """The k most likely next tokens after each position of the config's text (``positions``:
        only these, negative from the end, in their order), with their probabilities:
        [{"id", "token", "probability"}, …] per position, from the cached forward."""
        check_next_tokens(k)
        model = self.decoder(config)
        check_within_vocabulary("next tokens", k, model)
        self._local.should_stop = should_stop
        device, _ = choose_device(config.device)
        tok = self._decoder_tokens(config, model)
        run = self._decoder_pass(model, tok.ids, device)
        final = run.final
        if positions is not None:
            n = final.shape[0]
            for p in positions:
                if isinstance(p, bool) or not isinstance(p, int) or not -n <= p < n:
                    raise ConfigError.of("decoding.position", position=p, last=n - 1)
            final = final[[p % n for p in positions]]
        with threads_for(final.shape[0] * model.config.vocab_size * model.config.hidden_size):
            top = top_next_tokens(model, final, max(k, 1), self._weights_on(model, device))
        return next_token_entries(model.tokenizer, top)

    def next_token_logits(
        self,
        config: AttentionConfig,
        positions: list[int],
        heads: HeadSet | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> torch.Tensor:
        """The LM head's logits after each of ``positions`` [len(positions), vocabulary], on the
        CPU; with ``heads``, from the forward with those heads turned off (cached like the plain one)."""
        model = self.decoder(config)
        self._local.should_stop = should_stop
        if heads is not None:
            c = model.config
            heads.check(c.num_hidden_layers, c.num_attention_heads, model.name)
        device, _ = choose_device(config.device)
        tok = self._decoder_tokens(config, model)
        n = len(tok.ids)
        for p in positions:
            if isinstance(p, bool) or not isinstance(p, int) or not -n <= p < n:
                raise ConfigError.of("decoding.position", position=p, last=n - 1)
        run = self._decoder_pass(model, tok.ids, device, heads)
        final = run.final[[p % n for p in positions]]
        with threads_for(final.shape[0] * model.config.vocab_size * model.config.hidden_size):
            with torch.inference_mode():
                return logits(model, final, self._weights_on(model, device)).cpu()

    def generate(
        self,
        config: AttentionConfig,
        spec: GenerationSpec,
        should_stop: Callable[[], bool] | None = None,
        heads: HeadSet | None = None,
    ) -> dict[str, Any]:
        """Write ``spec.tokens`` tokens after the config's text (see ``decoding.generate``), with
        ``heads`` turned off in every step's forward when given."""
        model = self.decoder(config)
        check_within_vocabulary("top-k", spec.top_k, model)
        self._local.should_stop = should_stop
        if heads is not None:
            c = model.config
            heads.check(c.num_hidden_layers, c.num_attention_heads, model.name)
        device, _ = choose_device(config.device)
        tok = self._decoder_tokens(config, model)
        self._check_layer(model, config.layer)
        with threads_for(len(tok.ids) * model.config.hidden_size**2 * 12 * model.config.num_hidden_layers):
            out = generate(
                model,
                tok.ids,
                spec,
                config.layer,
                device,
                self._weights_on(model, device),
                self._check_stop,
                heads,
            )
        return out.to_dict(model.tokenizer)

    def ablate(
        self,
        config: AttentionConfig,
        heads: HeadSet,
        k: int = 5,
        should_stop: Callable[[], bool] | None = None,
    ) -> dict[str, Any]:
        """Heads turned off: a decoder's next-token probabilities before and after at every
        position, an encoder's output vectors' cosine to the unablated ones."""
        self._local.should_stop = should_stop
        if config.weights != "pretrained":
            raise ConfigError.of("decoding.ablate_pretrained")
        model = self.model(config.model_dir, config.model)
        c = model.config
        heads.check(c.num_hidden_layers, c.num_attention_heads, model.name)
        device, _ = choose_device(config.device)
        if isinstance(model, PretrainedDecoder):
            tok = self._decoder_tokens(config, model)
            plain = self._decoder_pass(model, tok.ids, device).final
            return decoder_ablation(model, tok.ids, heads, k, device, self._weights_on(model, device), plain)
        sentence, _ = clean_text(config.sentence)
        tok = model.tokenizer.encode(sentence, min(config.max_tokens, model.max_tokens))
        return encoder_ablation(model, tok.ids, heads, device, self._encoder_on(model, device))

    def _decoder_tokens(self, config: AttentionConfig, model: PretrainedDecoder) -> Tokenized:
        sentence, _ = clean_text(config.sentence)
        if not visible(sentence):
            raise ConfigError.of("engine.no_visible_characters")
        return model.tokenizer.encode(sentence, min(config.max_tokens, model.max_tokens))

    def _next_tokens_of(self, config: AttentionConfig, trace: AttentionTrace, k: int) -> Entries:
        if trace.weights_source != "pretrained" or not self.source_info(config).is_decoder:
            raise ConfigError.of("decoding.not_decoder", model=trace.model_name or trace.weights_source)
        return self.next_tokens(config, k)

    def _decoder_weights_every_layer(
        self, config: AttentionConfig, should_stop: Callable[[], bool] | None, heads: HeadSet | None = None
    ) -> np.ndarray:
        """[layers, heads, n, n] from one forward with the model's own attention (``heads`` off)."""
        model = self.decoder(config)
        self._local.should_stop = should_stop
        device, _ = choose_device(config.device)
        tok = self._decoder_tokens(config, model)
        layers = range(model.config.num_hidden_layers)
        ids = torch.tensor(tok.ids, device=device)
        run = run_decoder(
            model,
            ids,
            self._weights_on(model, device),
            keep_weights=layers,
            ablation=_ablation_of(heads),
            between_layers=self._check_stop,
        )
        return np.stack([run.weights[layer].cpu().numpy() for layer in layers])

    @staticmethod
    def _check_layer(model: PretrainedDecoder, layer: int) -> None:
        layers = model.config.num_hidden_layers
        if layer >= layers:
            raise ConfigError.of("engine.layer_missing", layer=layer, model=model.name, last=layers - 1)

    def _on_some_device(
        self,
        config: AttentionConfig,
        should_stop: Callable[[], bool] | None,
        strict_device: bool,
        work: Callable[[torch.device, list[Message], float], AttentionTrace],
    ) -> AttentionTrace:
        """``work(device, notices, started)`` on the config's device, or on the CPU with a notice
        when that device is absent or runs out of memory."""
        started = time.perf_counter()
        self._local.should_stop = should_stop  # per thread: engines are shared
        device, device_notice = choose_device(config.device, strict=strict_device)
        notices: list[Message] = [device_notice] if device_notice else []
        try:
            return work(device, notices, started)
        except RuntimeError as exc:
            if device.type == "cpu" or not is_out_of_memory(exc):
                raise
            release_memory(device)  # the failed attempt's blocks, for the next trace
            name = device.type.upper()
            if strict_device:
                raise DeviceUnavailable.of("device.oom_strict", device=name) from None
            notices.append(Message.of("device.oom_fallback", device=name))
            return work(torch.device("cpu"), notices, started)

    def _trace_on(
        self,
        config: AttentionConfig,
        device: torch.device,
        notices: list[Message],
        started: float,
        heads_off: HeadSet | None = None,
    ) -> AttentionTrace:
        prepared = self._prepare(config, device, notices, heads_off)
        width = prepared.projections.width
        heads = config.heads or prepared.default_heads
        decoder = prepared.decoder
        if decoder is not None and decoder.fixed_heads and heads != prepared.default_heads:
            c = decoder.model.config
            raise ConfigError.of(
                "engine.decoder_heads_fixed",
                model=prepared.model_name,
                heads=c.num_attention_heads,
                kv_heads=c.num_key_value_heads,
            )
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
        if decoder is not None:
            self._decoder_notices(prepared, decoder, heads, notices)
        mask = config.mask_spec
        if prepared.causal_model:
            mask = self._causal_notices(prepared, mask, notices)
        elif mask.kind == "model":
            mask = MaskSpec("none")  # an encoder's own mask: every key visible
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
            extra_divisor=decoder.extra_divisor if decoder is not None else 1.0,
        )
        n_q, n_k = len(prepared.tokens_query), len(prepared.tokens_key)
        self._check_stop()
        attn_started = time.perf_counter()
        stages: Stages
        with threads_for(heads * n_q * n_k * d_k + (n_q + n_k) * width * width * 4):
            if decoder is not None:
                regrouped = heads != prepared.default_heads  # GPT-2's columns in other heads: no sharing
                stages = attend_decoder(
                    prepared.x_key,
                    prepared.projections,
                    settings,
                    heads if regrouped else decoder.kv_heads,
                    decoder.rotary,
                    decoder_mask(mask, n_k, decoder.window, device),
                    params.to(device),
                    edit_heads=None if regrouped else decoder.edit_for(config.layer),
                )
            else:
                stages = attend(
                    prepared.x_query, prepared.x_key, prepared.projections, settings, params.to(device)
                )
            if device.type != "cpu":
                torch.cuda.synchronize() if device.type == "cuda" else None
        done = time.perf_counter()
        weights = cpu_array(stages.weights)
        mask_array = cpu_array(stages.mask)
        # Row 0 of a causal mask can only see key 0: its weight there says nothing about the head.
        forced = n_q > 1 and n_k > 1 and not bool(mask_array[0, 1:].any())
        sink = first_token_share(weights, skip_first_row=forced) if n_q and n_k else np.zeros(heads)
        extras = decoder_extras(stages, decoder) if isinstance(stages, DecoderStages) and decoder else {}
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
            causal=prepared.causal_model,
            model_family=prepared.family,
            pieces_query=list(prepared.pieces_query),
            pieces_key=list(prepared.pieces_key),
            first_token_share=[float(v) for v in sink],
            **extras,
        )

    def _decoder_notices(
        self, prepared: Prepared, decoder: DecoderContext, heads: int, notices: list[Message]
    ) -> None:
        """What the trace of a decoder layer must say about how it was computed."""
        c, layer = decoder.model.config, prepared.layer or 0
        if c.num_key_value_heads < c.num_attention_heads and heads == prepared.default_heads:
            notices.append(
                Message.of(
                    "engine.grouped_heads",
                    heads=c.num_attention_heads,
                    kv_heads=c.num_key_value_heads,
                    group=c.group_size,
                )
            )
        if c.layer_scaled:
            notices.append(Message.of("engine.layer_scaled", layer=layer, factor=layer + 1))

    def _causal_notices(self, prepared: Prepared, mask: MaskSpec, notices: list[Message]) -> MaskSpec:
        """A causally trained model: its own mask, or another one with a notice saying so."""
        decoder, layer = prepared.decoder, prepared.layer
        if mask.kind not in ("model", "causal"):
            notices.append(
                Message.of("engine.mask_not_causal", layer=layer, mask=str(mask), model=prepared.model_name)
            )
            return mask
        if decoder is None:
            return MaskSpec("causal")
        n = len(prepared.tokens_key)
        if decoder.window is not None and n > decoder.window:
            notices.append(
                Message.of(
                    "engine.sliding_window", layer=layer, window=decoder.window, before=decoder.window - 1
                )
            )
        return mask

    def _check_stop(self) -> None:
        stop = getattr(self._local, "should_stop", None)
        if stop is not None and stop():
            raise Cancelled()

    # -- inputs ----------------------------------------------------------------
    def _prepare(
        self,
        config: AttentionConfig,
        device: torch.device,
        notices: list[Message],
        heads_off: HeadSet | None = None,
    ) -> Prepared:
        sentence, dropped = clean_text(config.sentence)
        query, dropped_q = clean_text(config.query)
        if dropped + dropped_q:
            notices.append(Message.of("engine.control_characters", count=dropped + dropped_q))
        if not visible(sentence):
            raise ConfigError.of("engine.no_visible_characters")
        if config.weights == "pretrained":
            model, problem = self._pretrained_or_problem(config)
            if model is None:
                notices.append(Message.of("engine.pretrained_unavailable", problem=problem))
                return self._prepare_random(config.with_(weights="random"), sentence, query, device, notices)
            return self._prepare_pretrained(config, model, sentence, query, device, notices, heads_off)
        return self._prepare_random(config, sentence, query, device, notices)

    def _prepare_pretrained(
        self,
        config: AttentionConfig,
        model: Loaded,
        sentence: str,
        query: str,
        device: torch.device,
        notices: list[Message],
        heads_off: HeadSet | None = None,
    ) -> Prepared:
        layers = model.config.num_hidden_layers
        heads_off = heads_off if heads_off is not None and heads_off.heads else None
        if heads_off is not None:
            heads_off.check(layers, model.config.num_attention_heads, model.name)
            if isinstance(model, PretrainedDecoder):
                key = f"engine.heads_off_{heads_off.mode}"
            else:
                key = "engine.heads_off_encoder"
            notices.append(Message.of(key, heads=heads_off.names()))
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
            tokenizer = model.tokenizer
            unknown = tokenizer.unk_token or "[UNK]"
            pairs = (*zip(key_tok.ids, key_tok.tokens), *zip(query_tok.ids, query_tok.tokens))
            example = next((t for i, t in pairs if i == tokenizer.unk_id), unknown)  # [UNK:们]
            values = {"count": unk, "model": model.name, "unknown": unknown, "example": example}
            if any(t.original_length > len(t.ids) for t in (key_tok, query_tok)):  # counted in what was kept
                read = len(key_tok.ids) + (len(query_tok.ids) if query_tok is not key_tok else 0)
                notices.append(Message.of("engine.unknown_tokens_read", read=read, **values))
            else:
                notices.append(Message.of("engine.unknown_tokens", **values))
        if isinstance(model, PretrainedDecoder):
            if query.strip():
                raise ConfigError.of("engine.decoder_query", model=model.name)
            return self._prepare_decoder(config, model, key_tok, unk, device, heads_off)
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
            tuple(query_tok.pieces),
            tuple(key_tok.pieces),
            model.family,
            causal_model=model.config.causal,
        )

    def _prepare_decoder(
        self,
        config: AttentionConfig,
        model: PretrainedDecoder,
        tok: Tokenized,
        unk: int,
        device: torch.device,
        heads_off: HeadSet | None = None,
    ) -> Prepared:
        """X = the hidden state entering the layer after its norm, from the cached forward (with
        ``heads_off`` turned off, when any)."""
        c, layer = model.config, config.layer
        run = self._decoder_pass(model, tok.ids, device, heads_off)
        weights = self._weights_on(model, device)
        on_device = weights.layer(layer)
        x = attention_input(model, on_device, run.hidden[layer], layer)
        return Prepared(
            tok.tokens,
            tok.tokens,
            x,
            x,
            decoder_layer_projections(on_device),
            decoder_layer_projections(model.weights.layer(layer)),
            c.num_attention_heads,
            "pretrained",
            model.name,
            layer,
            unk,
            tuple(tok.ids),
            tuple(tok.ids),
            tuple(tok.pieces),
            tuple(tok.pieces),
            model.family,
            causal_model=True,
            decoder=DecoderContext(
                model,
                run,
                rotary_for(model, len(tok.ids), device),
                c.sliding_windows[layer],
                float(layer + 1) if c.layer_scaled else 1.0,
                _fixed_heads(c),
                heads_off,
            ),
        )

    def _hidden_state(
        self, model: PretrainedModel, ids: list[int], layer: int, device: torch.device
    ) -> torch.Tensor:
        """The hidden state entering ``layer``, cached per (model, text, device).

        Only the layers before ``layer`` run (a keystroke on layer 0 needs the embeddings
        alone, not six layers); a later layer asked for carries the kept states on."""
        key = (str(model.path), tuple(ids), str(device))
        with self._lock:
            states = self._hidden.get(key)
            if states is not None:
                self._hidden.move_to_end(key)
                if len(states) > layer:
                    return states[layer]
        encoder = self._encoder_on(model, device)
        # The thread count of a whole pass, whatever part of it runs: the same numbers.
        with threads_for(len(ids) * model.config.hidden_size**2 * 12 * model.config.num_hidden_layers):
            if states is None:
                ids_t = torch.tensor(ids, dtype=torch.long, device=device)
                states = encoder.hidden_states(ids_t, up_to_layer=layer, between_layers=self._check_stop)
            else:
                states = encoder.more_states(states, up_to_layer=layer, between_layers=self._check_stop)
        with self._lock:
            if len(self._hidden.get(key, ())) < len(states):  # another thread may have gone further
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

    def _weights_on(self, model: PretrainedDecoder, device: torch.device) -> DecoderWeights:
        """A decoder's weights on ``device`` (float32 copies there, made once per device)."""
        if device.type == "cpu":
            return model.weights
        key = (str(model.path), str(device))
        with self._lock:
            weights = self._decoders_on.get(key)
            if weights is None:
                weights = model.weights.moved(device)
                self._decoders_on[key] = weights
        return weights

    def _decoder_pass(
        self, model: PretrainedDecoder, ids: list[int], device: torch.device, heads: HeadSet | None = None
    ) -> DecoderPass:
        """The model's own forward over ``ids`` (``heads`` turned off, if any), cached per (model,
        text, device, heads) like an encoder's hidden states (the weights of its layers are not kept)."""
        key = (str(model.path), tuple(ids), str(device), heads if heads is not None and heads.heads else None)
        with self._lock:
            cached = self._passes.get(key)
            if cached is not None:
                self._passes.move_to_end(key)
                return cached
        weights = self._weights_on(model, device)
        ids_t = torch.tensor(ids, dtype=torch.long, device=device)
        c = model.config
        ablation = heads.ablation if heads is not None and heads.heads else None
        prefix = None if ablation is not None else self._longest_prefix(key, ids)
        new_rows = len(ids) - (prefix[1] if prefix is not None else 0)
        with threads_for(
            new_rows * (c.hidden_size * (c.hidden_size + c.intermediate_size) * 4) * c.num_hidden_layers
        ):
            run = run_decoder(
                model, ids_t, weights, ablation=ablation, between_layers=self._check_stop, prefix=prefix
            )
        with self._lock:
            self._passes[key] = run
            while len(self._passes) > _HIDDEN_CACHE_SIZE:
                self._passes.popitem(last=False)
        return run

    def _longest_prefix(self, key: tuple[Any, ...], ids: list[int]) -> tuple[DecoderPass, int] | None:
        """The cached plain pass (same model and device) sharing the most first tokens with
        ``ids``: a character typed at the end changes only the last token or two."""
        best: tuple[DecoderPass, int] | None = None
        with self._lock:
            for (path, own, device, heads), run in self._passes.items():
                if (path, device, heads) != (key[0], key[2], None):
                    continue
                p = run.common_prefix(ids, list(own))
                if p and (best is None or p > best[1]):
                    best = (run, p)
        return best

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


def _ablation_of(heads: HeadSet | None) -> Ablation | None:
    return heads.ablation if heads is not None and heads.heads else None


def _fixed_heads(config: DecoderConfig) -> bool:
    """Rotary positions turn pairs inside a head, and shared K/V heads serve fixed groups: such
    a model's head count cannot be regrouped (GPT-2's can, as an encoder's)."""
    return config.rope is not None or config.num_key_value_heads != config.num_attention_heads


def _own_attention(config: AttentionConfig) -> bool:
    """The config asks for the attention the model was trained with."""
    return (
        config.scoring == "dot"
        and config.scale == "sqrt"
        and config.attention == "soft"
        and config.mask_spec.kind in ("model", "causal")
        and config.heads is None
    )


def decoder_extras(stages: DecoderStages, decoder: DecoderContext) -> dict[str, Any]:
    """The trace's fields that only a decoder layer has."""

    def arr(t: torch.Tensor | None) -> np.ndarray | None:
        return None if t is None else cpu_array(t)

    c = decoder.model.config
    rope = None
    if c.rope is not None:
        rope = {
            **c.rope.describe(),
            "formula": "(q_i, q_{i+d/2}) at position p turns by p·ω_i: "
            "(q_i cos pω_i − q_{i+d/2} sin pω_i, q_{i+d/2} cos pω_i + q_i sin pω_i), ω_i = 1/θ^(2i/d)",
        }
    return {
        "Q_rotated": arr(stages.q_rotated),
        "K_rotated": arr(stages.k_rotated),
        "rope_angles": arr(stages.angles),
        "rope": rope,
        "positions": "rotary" if c.rope is not None else "learned",
        "kv_heads": len(set(stages.kv_head_of)),
        "kv_head_of": list(stages.kv_head_of),
        "sliding_window": decoder.window,
        "first_token_share_by_layer": decoder.run.sink.round(7).tolist(),
    }


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
