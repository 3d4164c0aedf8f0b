"""A plain-torch BERT encoder that hands out every layer's input and projections.

It mirrors Hugging Face's ``BertModel`` in eager mode (no dropout: inference), so the
engine can run attention on layer L's real hidden states with layer L's real
W_q, W_k, W_v and W_O, and tests can compare both step for step. RoBERTa, XLM-R
and DistilBERT run through the same forward: ``families.py`` renames their tensors
to BERT's names and says where their positions start.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F


@dataclass(frozen=True)
class BertConfig:
    hidden_size: int
    num_attention_heads: int
    num_hidden_layers: int
    intermediate_size: int
    max_position_embeddings: int
    vocab_size: int
    type_vocab_size: int = 2  # 0: no token-type embeddings (DistilBERT)
    layer_norm_eps: float = 1e-12
    hidden_act: str = "gelu"
    model_type: str = "bert"
    pad_token_id: int | None = 0
    # RoBERTa and XLM-R number positions from pad_token_id + 1, BERT from 0.
    position_offset: int = 0
    causal: bool = False  # "is_decoder": true: each token sees itself and the tokens before it

    @property
    def is_decoder(self) -> bool:
        return False  # no LM head: a causal encoder still describes its text, it writes none

    @property
    def max_tokens(self) -> int:
        """The longest input the position table can number."""
        return self.max_position_embeddings - self.position_offset


@dataclass(frozen=True)
class LayerWeights:
    """One encoder layer's parameters, nn.Linear convention: weight [out, in]."""

    w_q: torch.Tensor
    b_q: torch.Tensor
    w_k: torch.Tensor
    b_k: torch.Tensor
    w_v: torch.Tensor
    b_v: torch.Tensor
    w_o: torch.Tensor
    b_o: torch.Tensor
    ln1_w: torch.Tensor
    ln1_b: torch.Tensor
    w_in: torch.Tensor
    b_in: torch.Tensor
    w_out: torch.Tensor
    b_out: torch.Tensor
    ln2_w: torch.Tensor
    ln2_b: torch.Tensor


_LAYER_KEYS = {
    "w_q": "attention.self.query.weight",
    "b_q": "attention.self.query.bias",
    "w_k": "attention.self.key.weight",
    "b_k": "attention.self.key.bias",
    "w_v": "attention.self.value.weight",
    "b_v": "attention.self.value.bias",
    "w_o": "attention.output.dense.weight",
    "b_o": "attention.output.dense.bias",
    "ln1_w": "attention.output.LayerNorm.weight",
    "ln1_b": "attention.output.LayerNorm.bias",
    "w_in": "intermediate.dense.weight",
    "b_in": "intermediate.dense.bias",
    "w_out": "output.dense.weight",
    "b_out": "output.dense.bias",
    "ln2_w": "output.LayerNorm.weight",
    "ln2_b": "output.LayerNorm.bias",
}

# transformers' ACT2FN, name for name (tests compare them on the same inputs).
ACTIVATIONS: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "gelu": F.gelu,
    "gelu_python": F.gelu,
    "gelu_pytorch_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "gelu_new": lambda x: 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3))),
    "gelu_fast": lambda x: 0.5 * x * (1.0 + torch.tanh(x * 0.7978845608 * (1.0 + 0.044715 * x * x))),
    "quick_gelu": lambda x: x * torch.sigmoid(1.702 * x),
    "relu": F.relu,
    "silu": F.silu,
    "swish": F.silu,
    "tanh": torch.tanh,
}


class BertEncoder:
    """Takes tensors under BERT's names (``embeddings.…``, ``encoder.layer.N.…``)."""

    def __init__(self, config: BertConfig, tensors: dict[str, torch.Tensor]):
        self.config = config
        get = _tensor_getter(tensors)
        self.word = get("embeddings.word_embeddings.weight")
        self.position = get("embeddings.position_embeddings.weight")
        self.token_type = get("embeddings.token_type_embeddings.weight") if config.type_vocab_size else None
        self.emb_ln = (get("embeddings.LayerNorm.weight"), get("embeddings.LayerNorm.bias"))
        self.layers = [
            LayerWeights(**{name: get(f"encoder.layer.{i}.{key}") for name, key in _LAYER_KEYS.items()})
            for i in range(config.num_hidden_layers)
        ]
        if config.hidden_act not in ACTIVATIONS:
            raise ValueError(f"unsupported activation {config.hidden_act!r}")
        self.activation = ACTIVATIONS[config.hidden_act]

    def to(self, device: torch.device) -> BertEncoder:
        moved = object.__new__(BertEncoder)
        moved.config, moved.activation = self.config, self.activation
        moved.word, moved.position = self.word.to(device), self.position.to(device)
        moved.token_type = None if self.token_type is None else self.token_type.to(device)
        moved.emb_ln = (self.emb_ln[0].to(device), self.emb_ln[1].to(device))
        moved.layers = [
            LayerWeights(**{k: getattr(lw, k).to(device) for k in _LAYER_KEYS}) for lw in self.layers
        ]
        return moved

    def positions(self, input_ids: torch.Tensor) -> torch.Tensor:
        """Row of the position table for each token.

        BERT: 0, 1, 2, … RoBERTa/XLM-R: pad + 1, pad + 2, … with padding tokens kept at
        pad (fairseq's make_positions, which transformers copies).
        """
        offset = self.config.position_offset
        if not offset:
            return torch.arange(input_ids.shape[0], device=input_ids.device)
        pad = offset - 1
        not_pad = (input_ids != pad).long()
        return torch.cumsum(not_pad, dim=0) * not_pad + pad

    @torch.inference_mode()
    def hidden_states(
        self,
        input_ids: torch.Tensor,
        up_to_layer: int | None = None,
        between_layers: Callable[[], object] | None = None,
        edit_heads: Callable[[int], Callable[[torch.Tensor], torch.Tensor] | None] | None = None,
    ) -> list[torch.Tensor]:
        """[embeddings, after layer 0, ...] for ids [n]: entry L is what enters layer L.

        ``between_layers`` is called before each layer; it may raise to stop early.
        ``edit_heads(layer)`` may give an edit of that layer's head outputs (turning heads off).
        """
        eps = self.config.layer_norm_eps
        x = self.word[input_ids] + self.position[self.positions(input_ids)]
        if self.token_type is not None:
            x = x + self.token_type[0]  # one segment: every token is of type 0
        x = F.layer_norm(x, x.shape[-1:], *self.emb_ln, eps)
        return self.more_states([x], up_to_layer, between_layers, edit_heads)

    @torch.inference_mode()
    def more_states(
        self,
        states: list[torch.Tensor],
        up_to_layer: int | None = None,
        between_layers: Callable[[], object] | None = None,
        edit_heads: Callable[[int], Callable[[torch.Tensor], torch.Tensor] | None] | None = None,
    ) -> list[torch.Tensor]:
        """``states`` ([embeddings, after layer 0, …], as ``hidden_states`` gives them) carried
        on to the state entering ``up_to_layer`` (None: after the last layer): the same
        layers on the same inputs as one whole pass, so the same numbers."""
        states = list(states)
        last = self.config.num_hidden_layers if up_to_layer is None else up_to_layer
        x = states[-1]
        for index in range(len(states) - 1, last):
            if between_layers is not None:
                between_layers()
            x = self._layer(x, self.layers[index], None if edit_heads is None else edit_heads(index))
            states.append(x)
        return states

    def attention_probs(self, x: torch.Tensor, lw: LayerWeights) -> torch.Tensor:
        heads = self.config.num_attention_heads
        d_k = x.shape[-1] // heads

        def split(t: torch.Tensor) -> torch.Tensor:
            return t.view(t.shape[0], heads, d_k).transpose(0, 1)

        q, k = split(F.linear(x, lw.w_q, lw.b_q)), split(F.linear(x, lw.w_k, lw.b_k))
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)
        if self.config.causal:
            n = scores.shape[-1]
            later = torch.ones(n, n, dtype=torch.bool, device=scores.device).triu(1)
            scores = scores.masked_fill(later, float("-inf"))
        return torch.softmax(scores, dim=-1)

    def _layer(
        self, x: torch.Tensor, lw: LayerWeights, edit: Callable[[torch.Tensor], torch.Tensor] | None = None
    ) -> torch.Tensor:
        eps = self.config.layer_norm_eps
        heads = self.config.num_attention_heads
        n, width = x.shape
        d_k = width // heads
        v = F.linear(x, lw.w_v, lw.b_v).view(n, heads, d_k).transpose(0, 1)
        outputs = self.attention_probs(x, lw) @ v  # [heads, n, d_k]
        if edit is not None:
            outputs = edit(outputs)
        context = outputs.transpose(0, 1).reshape(n, width)
        x = F.layer_norm(F.linear(context, lw.w_o, lw.b_o) + x, (width,), lw.ln1_w, lw.ln1_b, eps)
        inner = self.activation(F.linear(x, lw.w_in, lw.b_in))
        return F.layer_norm(F.linear(inner, lw.w_out, lw.b_out) + x, (width,), lw.ln2_w, lw.ln2_b, eps)


def _tensor_getter(tensors: dict[str, torch.Tensor]) -> Callable[[str], torch.Tensor]:
    """Look a parameter up (or with the ``bert.`` prefix some checkpoints carry), in float32.

    float16 and bfloat16 weights are upcast here: every number is computed in float32.
    """

    def get(name: str) -> torch.Tensor:
        for key in (name, f"bert.{name}"):
            if key in tensors:
                return tensors[key].float()
        raise KeyError(name)

    return get
