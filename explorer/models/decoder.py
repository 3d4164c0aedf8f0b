"""A decoder's weights: found under each family's names, kept as stored, handed out in float32.

The tensors stay as the file stores them (float16 or bfloat16 included), memory-mapped by
safetensors; ``layer(i)`` gives layer i's weights in float32, nn.Linear convention
(weight [out, in]). Whether the float32 copies are kept (fast: every forward reads them as
they are) or made again for each layer of each forward (half the memory for 16-bit files)
is the store's ``keep_float32`` choice, made by the loader from the memory there is.

The pieces of the forward that are not attention live here too (the norms, the MLP, the
embeddings and the LM head); the attention of every layer is the engine's staged attention.
"""

from __future__ import annotations

import atexit
import os
import re
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch
import torch.nn.functional as F

from explorer.finite import NotFinite
from explorer.models.bert import ACTIVATIONS
from explorer.models.decoder_config import DecoderConfig
from explorer.models.rope import angles, cos_sin, inverse_frequencies

if TYPE_CHECKING:
    from explorer.models.tokenizer import TextTokenizer

# Canonical names: "embed", "positions", "final_norm.weight|bias", "lm_head", and per layer
# "layers.N.<part>" with the parts below. Each family's own names follow.
LAYER_PARTS = (
    "norm1.weight",
    "norm1.bias",
    "q.weight",
    "q.bias",
    "k.weight",
    "k.bias",
    "v.weight",
    "v.bias",
    "qkv.weight",  # GPT-2's fused c_attn, Conv1D [in, 3 · out]
    "qkv.bias",
    "o.weight",
    "o.bias",
    "norm2.weight",
    "norm2.bias",
    "fc.weight",  # GPT-2's MLP: fc → activation → proj (Conv1D)
    "fc.bias",
    "proj.weight",
    "proj.bias",
    "gate.weight",  # SwiGLU: down(act(gate x) · up x)
    "gate.bias",
    "up.weight",
    "up.bias",
    "down.weight",
    "down.bias",
)
_GPT2_PARTS = {
    "norm1.weight": "ln_1.weight",
    "norm1.bias": "ln_1.bias",
    "qkv.weight": "attn.c_attn.weight",
    "qkv.bias": "attn.c_attn.bias",
    "o.weight": "attn.c_proj.weight",
    "o.bias": "attn.c_proj.bias",
    "norm2.weight": "ln_2.weight",
    "norm2.bias": "ln_2.bias",
    "fc.weight": "mlp.c_fc.weight",
    "fc.bias": "mlp.c_fc.bias",
    "proj.weight": "mlp.c_proj.weight",
    "proj.bias": "mlp.c_proj.bias",
}
_LLAMA_PARTS = {
    "norm1.weight": "input_layernorm.weight",
    "q.weight": "self_attn.q_proj.weight",
    "q.bias": "self_attn.q_proj.bias",
    "k.weight": "self_attn.k_proj.weight",
    "k.bias": "self_attn.k_proj.bias",
    "v.weight": "self_attn.v_proj.weight",
    "v.bias": "self_attn.v_proj.bias",
    "o.weight": "self_attn.o_proj.weight",
    "o.bias": "self_attn.o_proj.bias",
    "norm2.weight": "post_attention_layernorm.weight",
    "gate.weight": "mlp.gate_proj.weight",
    "gate.bias": "mlp.gate_proj.bias",
    "up.weight": "mlp.up_proj.weight",
    "up.bias": "mlp.up_proj.bias",
    "down.weight": "mlp.down_proj.weight",
    "down.bias": "mlp.down_proj.bias",
}
_GPT2_TOP = {"embed": "wte.weight", "positions": "wpe.weight", "final_norm.weight": "ln_f.weight",
             "final_norm.bias": "ln_f.bias"}  # fmt: skip
_LLAMA_TOP = {"embed": "embed_tokens.weight", "final_norm.weight": "norm.weight"}
LM_HEAD = "lm_head.weight"  # outside the base model's prefix in every family


@dataclass(frozen=True)
class DecoderNames:
    """Where a family's tensors lie: the base model's prefix, the layers' and the top names."""

    layer_prefix: str  # "h." or "layers."
    parts: dict[str, str]
    top: dict[str, str]

    @classmethod
    def of(cls, config: DecoderConfig) -> DecoderNames:
        if config.gpt2:
            return cls("h.", _GPT2_PARTS, _GPT2_TOP)
        return cls("layers.", _LLAMA_PARTS, _LLAMA_TOP)

    def own(self, canonical: str, base: str = "") -> str:
        """A canonical name as the family's file spells it, after the base prefix ``base``."""
        if canonical == "lm_head":
            return LM_HEAD
        if canonical.startswith("layers."):
            _, index, part = canonical.split(".", 2)
            return f"{base}{self.layer_prefix}{index}.{self.parts[part]}"
        return f"{base}{self.top[canonical]}"


def expected_parts(config: DecoderConfig) -> list[str]:
    """The layer parts this config's forward reads."""
    if config.gpt2:
        return list(_GPT2_PARTS)
    parts = ["norm1.weight", "q.weight", "k.weight", "v.weight", "o.weight", "norm2.weight"]
    parts += ["gate.weight", "up.weight", "down.weight"]
    if config.attention_bias:
        parts += ["q.bias", "k.bias", "v.bias"]
    if config.output_bias:
        parts.append("o.bias")
    if config.mlp_bias:
        parts += ["gate.bias", "up.bias", "down.bias"]
    return parts


@dataclass
class FoundTensors:
    tensors: dict[str, torch.Tensor]  # canonical name → the tensor as stored
    own_names: dict[str, str]  # canonical name → the name in the file
    base: str  # the prefix in front of the base model's names ("transformer.", "model.", "")
    layers_found: int


def find_tensors(config: DecoderConfig, stored: dict[str, torch.Tensor]) -> FoundTensors:
    """The stored tensors under canonical names; what the forward does not read is left out
    (position_ids, the old causal-mask buffers, rotary inv_freq buffers)."""
    names = DecoderNames.of(config)
    embed = names.top["embed"]
    bases = [
        n[: -len(embed)]
        for n in stored
        if n.endswith(embed) and (n == embed or n[: -len(embed)].endswith("."))
    ]
    base = min(bases, key=len) if bases else ""
    tops = ("embed", "positions", "final_norm.weight", "final_norm.bias")
    wanted: dict[str, str] = {names.own(c, base): c for c in tops if c in names.top}
    back = {own: part for part, own in names.parts.items()}
    pattern = re.compile(rf"^{re.escape(base + names.layer_prefix)}(\d+)\.(.+)$")
    tensors: dict[str, torch.Tensor] = {}
    own_names: dict[str, str] = {}
    layers = 0
    for name, tensor in stored.items():
        canonical: str | None = wanted.get(name)
        match = pattern.match(name)
        if match:
            layers = max(layers, int(match.group(1)) + 1)
            part = back.get(match.group(2))
            canonical = f"layers.{match.group(1)}.{part}" if part else None
        elif name == LM_HEAD:
            canonical = "lm_head"
        if canonical is not None:
            tensors[canonical], own_names[canonical] = tensor, name
    return FoundTensors(tensors, own_names, base, layers)


@dataclass
class DecoderLayer:
    """One layer's weights in float32, nn.Linear convention; absent biases are None."""

    norm1_w: torch.Tensor
    norm1_b: torch.Tensor | None
    w_q: torch.Tensor
    b_q: torch.Tensor | None
    w_k: torch.Tensor
    b_k: torch.Tensor | None
    w_v: torch.Tensor
    b_v: torch.Tensor | None
    w_o: torch.Tensor
    b_o: torch.Tensor | None
    norm2_w: torch.Tensor
    norm2_b: torch.Tensor | None
    w_in: torch.Tensor | None = None  # GPT-2: fc
    b_in: torch.Tensor | None = None
    w_out: torch.Tensor | None = None  # GPT-2: proj
    b_out: torch.Tensor | None = None
    w_gate: torch.Tensor | None = None  # SwiGLU
    b_gate: torch.Tensor | None = None
    w_up: torch.Tensor | None = None
    b_up: torch.Tensor | None = None
    w_down: torch.Tensor | None = None
    b_down: torch.Tensor | None = None

    def to(self, device: torch.device) -> DecoderLayer:
        moved: dict[str, Any] = {f.name: _move(getattr(self, f.name), device) for f in fields(self)}
        return replace(self, **moved)


TOP_NAMES = ("embed", "positions", "final_norm.weight", "final_norm.bias", "lm_head")
# float32 copies of stored tensors, by canonical name (the loader's reads the file a block at a time).
ReadFloat32 = Callable[[Mapping[str, torch.Tensor]], dict[str, torch.Tensor]]


def _float32(tensors: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    return {name: t.float() for name, t in tensors.items()}


class DecoderWeights:
    """The tensors of one decoder, as stored; float32 views and copies on demand.

    With ``keep_float32`` each layer's float32 copy is made once and kept: all at construction,
    or, with ``later=True``, by ``convert_in_background`` (a thread, layer by layer) and by any
    forward that reaches a layer first (a lock per layer: whoever comes first converts it, the
    other waits and reads the copy; each is converted exactly once). ``read_float32``: how the
    copies are made (default: the mapped tensors converted)."""

    def __init__(
        self,
        config: DecoderConfig,
        tensors: dict[str, torch.Tensor],
        keep_float32: bool,
        read_float32: ReadFloat32 | None = None,
        later: bool = False,
    ):
        self.config = config
        self.keep_float32 = keep_float32
        self._stored = tensors
        self._read = read_float32 or _float32
        self._layers: list[DecoderLayer | None] = [None] * config.num_hidden_layers
        self._top: dict[str, torch.Tensor] = {}
        self._layer_locks = [threading.Lock() for _ in range(config.num_hidden_layers)]
        self._top_lock = threading.Lock()
        self._closed = threading.Event()
        self._converting: threading.Thread | None = None
        if keep_float32 and not later:  # convert once; the 16-bit tensors are then let go
            self._keep_all()

    # -- the float32 copies, kept once ---------------------------------------------------------
    def convert_in_background(self) -> threading.Thread | None:
        """Start making every copy not yet made, on a thread of low priority that stops when
        the store is closed or dropped (it holds only a weak reference between layers)."""
        if not self.keep_float32 or self.converted:
            return None
        thread = threading.Thread(
            target=_convert_rest, args=(weakref.ref(self),), name="decoder-float32", daemon=True
        )
        self._converting = thread
        _CONVERTING[:] = [(t, closed) for t, closed in _CONVERTING if t.is_alive()]
        _CONVERTING.append((thread, self._closed))
        thread.start()
        return thread

    @property
    def converted(self) -> bool:
        """Every float32 copy made (and the stored tensors let go)."""
        return not self._stored or not self.keep_float32

    def close(self) -> None:
        """Stop the conversion thread after the layer it is converting (the model is dropped)."""
        self._closed.set()

    def wait_converted(self, timeout: float | None = None) -> bool:
        thread = self._converting
        if thread is not None:
            thread.join(timeout)
        return self.converted

    def _keep_all(self) -> None:
        for i in range(self.config.num_hidden_layers):
            self.layer(i)
        for name in TOP_NAMES:
            self._kept_top(name)
        self._stored = {}  # every copy made: the mapping is let go (readers took _stored first)

    def _kept_top(self, name: str) -> torch.Tensor | None:
        """A top tensor's float32 copy, made now and kept when not yet made (None: absent)."""
        if name == "lm_head" and self.config.tie_word_embeddings:
            name = "embed"
        kept = self._top.get(name)
        if kept is not None:
            return kept
        with self._top_lock:
            kept = self._top.get(name)
            stored = self._stored.get(name)
            if kept is None and stored is not None:
                kept = self._top[name] = self._read({name: stored})[name]
            return kept

    def moved(self, device: torch.device) -> DecoderWeights:
        """A store on ``device`` holding float32 copies (each layer converted, then moved)."""
        moved = DecoderWeights(self.config, {}, True, later=True)  # filled here, nothing stored
        moved._layers = [self.layer(i).to(device) for i in range(self.config.num_hidden_layers)]
        for name in TOP_NAMES:
            tensor = self.optional(name) if name != "lm_head" or not self.config.tie_word_embeddings else None
            if tensor is not None:
                moved._top[name] = tensor.to(device)
        return moved

    @property
    def stored_dtypes(self) -> set[torch.dtype]:
        return {t.dtype for t in self._stored.values()} if self._stored else set()

    def layer(self, i: int) -> DecoderLayer:
        """Layer i in float32: the kept copy (made now, once, when not yet made), or, when
        copies are not kept, one made now (dropped by the caller after use)."""
        kept = self._layers[i]
        if kept is not None:
            return kept
        if not self.keep_float32:
            return self._convert(i)
        with self._layer_locks[i]:
            kept = self._layers[i]
            if kept is None:
                kept = self._layers[i] = self._convert(i)
            return kept

    def top(self, name: str) -> torch.Tensor:
        """embed, positions, final_norm.weight, lm_head: float32 (converted now if not kept);
        the LM head of a tied model is its embedding table."""
        found = self.optional(name)
        if found is None:
            raise KeyError(name)  # the checks make sure the forward's tensors are there
        return found

    def optional(self, name: str) -> torch.Tensor | None:
        """A tensor a family may lack (GPT-2's final_norm.bias), float32, or None."""
        if self.keep_float32:
            return self._kept_top(name)
        if name == "lm_head" and self.config.tie_word_embeddings:
            name = "embed"
        stored = self._stored.get(name)
        return None if stored is None else stored.float()

    def embed_rows(self, ids: torch.Tensor) -> torch.Tensor:
        """The embedding rows of ``ids`` in float32 (only those rows converted)."""
        stored = self._stored  # first: the thread sets the copy before it lets the stored go
        table = self._top.get("embed")
        if table is None:
            table = stored["embed"]  # not yet converted: only these rows are read
        return table[ids.to(table.device)].float()

    def lm_head_chunks(self, rows: int = 16384) -> Iterator[tuple[int, torch.Tensor]]:
        """(first id, float32 rows [m, hidden]) over the vocabulary, a block at a time: logits
        of a 151,936-token vocabulary without a float32 copy of its 16-bit table, and without
        an [n, vocabulary] array at once (views of a kept float32 table)."""
        key = "embed" if self.config.tie_word_embeddings else "lm_head"
        kept = self._kept_top(key) if self.keep_float32 else None
        table = kept if kept is not None else self._stored[key]
        for start in range(0, table.shape[0], rows):  # kept or not: [n, 16384] logits at a time
            yield start, table[start : start + rows].float()

    def _convert(self, i: int) -> DecoderLayer:
        prefix = f"layers.{i}."
        copies = self._read({n: t for n, t in self._stored.items() if n.startswith(prefix)})

        def get(part: str) -> torch.Tensor:
            """A part the checks found (every part the forward reads), in float32."""
            return copies[prefix + part]

        def bias(part: str) -> torch.Tensor | None:
            return copies.get(prefix + part)

        if self.config.gpt2:
            width = self.config.hidden_size
            qkv, qkv_b = get("qkv.weight"), get("qkv.bias")  # Conv1D: [in, 3 · width]
            w = [qkv[:, j * width : (j + 1) * width].t() for j in range(3)]
            b = [qkv_b[j * width : (j + 1) * width] for j in range(3)]
            return DecoderLayer(
                get("norm1.weight"), get("norm1.bias"), w[0], b[0], w[1], b[1], w[2], b[2],
                get("o.weight").t(), get("o.bias"), get("norm2.weight"), get("norm2.bias"),
                w_in=get("fc.weight").t(), b_in=get("fc.bias"),
                w_out=get("proj.weight").t(), b_out=get("proj.bias"),
            )  # fmt: skip
        return DecoderLayer(
            get("norm1.weight"), None, get("q.weight"), bias("q.bias"), get("k.weight"), bias("k.bias"),
            get("v.weight"), bias("v.bias"), get("o.weight"), bias("o.bias"), get("norm2.weight"), None,
            w_gate=get("gate.weight"), b_gate=bias("gate.bias"), w_up=get("up.weight"), b_up=bias("up.bias"),
            w_down=get("down.weight"), b_down=bias("down.bias"),
        )  # fmt: skip


@dataclass
class PretrainedDecoder:
    """A loaded decoder-only language model: what the engine traces and the window names."""

    name: str
    path: Path
    config: DecoderConfig
    weights: DecoderWeights
    tokenizer: TextTokenizer
    notes: list[str] = field(default_factory=list)

    is_decoder = True

    @property
    def max_tokens(self) -> int:
        return self.config.max_tokens

    @property
    def family(self) -> str:
        return self.config.label

    @property
    def description(self) -> str:
        """What the Weights box says: name, family, causal, shape, K/V heads, and notes."""
        c = self.config
        shape = f"{c.num_hidden_layers} layers × {c.num_attention_heads} heads"
        if c.num_key_value_heads != c.num_attention_heads:
            shape += f" sharing {c.num_key_value_heads} K/V heads"
        text = f"{self.name} ({self.family}, causal, {shape}, {c.hidden_size} wide)"
        return "; ".join([text, *self.notes])


# -- the pieces of the forward that are not attention --------------------------------------------


def norm(
    x: torch.Tensor,
    weight: torch.Tensor,
    bias: torch.Tensor | None,
    eps: float,
    rms: bool,
    stage: str = "a norm's mean of squares",
) -> torch.Tensor:
    """LayerNorm (GPT-2) or RMSNorm (the Llama kind: x / √(mean x² + ε) · weight, no centring).

    A mean of squares beyond float32 (finite weights near 1e37 give one) made 1/√ of it 0 and
    every row after it zeros, finite and wrong: NotFinite names ``stage`` instead. For LayerNorm
    the same mean bounds its variance, so one check serves both."""
    squares = x.pow(2).mean(-1, keepdim=True)
    if not bool(torch.isfinite(squares).all()):
        raise NotFinite.of("numbers.overflow", stage=stage, count=int((~torch.isfinite(squares)).sum()))
    if not rms:
        return F.layer_norm(x, x.shape[-1:], weight, bias, eps)
    return weight * (x * torch.rsqrt(squares + eps))


FEW_ROWS = 64  # up to this many rows, the weight is streamed as the left operand (below)
BLOCK_ROWS = 256  # 256 rows of a 896-wide weight: ~0.9 MB, still in the cache for the next row


def linear(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
    """F.linear (x Wᵀ + b) of x [n, in], for a few rows on the CPU computed another way with
    the same products (a keystroke computes 1–2 new rows through every weight, where the BLAS's
    general small-row product costs ~2× one row): up to 64 rows as (W Xᵀ)ᵀ, which streams the
    weight as the left operand; but 2–3 rows through a weight wider than it is tall (the MLP's
    down projection: 896 × 4864) as one matrix-vector product per row over each block of the
    weight's rows, read from memory once and from the cache for the other rows (there 20 %
    faster than (W Xᵀ)ᵀ, which is 15–20 % faster for the other shapes of the Qwen one)."""
    rows = x.shape[0] if x.dim() == 2 else 0
    if not 1 < rows <= FEW_ROWS or x.device.type != "cpu":
        return F.linear(x, weight, bias)
    if rows > 3 or weight.shape[0] >= weight.shape[1]:
        out = torch.mm(weight, x.T).T
    else:
        out = x.new_empty(rows, weight.shape[0])
        for start in range(0, weight.shape[0], BLOCK_ROWS):
            block = weight[start : start + BLOCK_ROWS]
            for row in range(rows):
                torch.mv(block, x[row], out=out[row, start : start + BLOCK_ROWS])
    return out if bias is None else out + bias


def mlp(x: torch.Tensor, layer: DecoderLayer, activation: str) -> torch.Tensor:
    act = ACTIVATIONS[activation]
    if layer.w_gate is not None and layer.w_up is not None and layer.w_down is not None:  # SwiGLU
        gate = act(linear(x, layer.w_gate, layer.b_gate))
        return linear(gate * linear(x, layer.w_up, layer.b_up), layer.w_down, layer.b_down)
    if layer.w_in is None or layer.w_out is None:
        raise ValueError("a layer with neither a gated nor a plain MLP")
    return linear(act(linear(x, layer.w_in, layer.b_in)), layer.w_out, layer.b_out)


def rope_tables(
    config: DecoderConfig, n: int, device: torch.device | None = None
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor] | None:
    """(angles [n, d/2], cos [n, d], sin [n, d]) for positions 0 … n − 1; None without RoPE."""
    if config.rope is None:
        return None
    omega = inverse_frequencies(config.rope, config.head_dim)
    theta = angles(torch.arange(n, device=device), omega)
    cos, sin = cos_sin(theta, config.rope.cos_sin_factor())
    return theta, cos, sin


# Every conversion thread started and the event that stops it. A daemon thread still inside torch
# when the interpreter finalizes aborts the process ("terminate called without an active
# exception", exit 134) after a command has written its result: each is stopped after its
# layer and joined at exit.
_CONVERTING: list[tuple[threading.Thread, threading.Event]] = []


def stop_conversions() -> None:
    """Stop every conversion thread after the layer it is converting, and wait for it."""
    for _, closed in _CONVERTING:
        closed.set()
    for thread, _ in _CONVERTING:
        thread.join()
    _CONVERTING.clear()


atexit.register(stop_conversions)


def _convert_rest(store_ref: weakref.ref[DecoderWeights]) -> None:
    """The conversion thread: at the lowest priority (the window's thread and a forward come
    first on two cores), one layer at a time, the store looked up again between layers."""
    try:  # Linux: a thread's own nice value (its id as the process id)
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
    except (AttributeError, OSError):
        pass
    store = store_ref()
    if store is None:
        return
    closed = store._closed
    layers = store.config.num_hidden_layers
    del store
    for step in range(layers + len(TOP_NAMES) + 1):
        store = store_ref()
        if store is None or closed.is_set():
            return
        if step < layers:
            store.layer(step)
        elif step < layers + len(TOP_NAMES):
            store._kept_top(TOP_NAMES[step - layers])
        else:
            store._stored = {}  # every copy made: the mapping is let go
        del store


def _move(t: torch.Tensor | None, device: torch.device) -> torch.Tensor | None:
    return None if t is None else t.to(device)
