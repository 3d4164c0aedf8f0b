"""Rotary position embedding (RoPE): the frequency of each pair of dimensions, and the angles.

Query and key vectors of one head are rotated pair by pair before they are compared: the pair
(x_i, x_{i + d/2}) of a token at position p turns by the angle p · ω_i, with

    ω_i = 1 / θ^(2i / d)          (i = 0 … d/2 − 1, θ = rope_theta, d = the head's width)

so the score of a query at p and a key at p' depends on p − p' only. Llama, Mistral and Qwen2
pair dimension i with i + d/2 (the "rotate half" layout of their checkpoints), not with i + 1.

Scaled variants change ω_i only (``rope_scaling`` / ``rope_parameters`` in config.json):
``linear`` divides every ω_i by the factor; ``llama3`` (Llama 3.1 and later) divides the low
frequencies by the factor, keeps the high ones and blends those between; ``yarn`` blends
interpolated and original frequencies and multiplies cos and sin by an attention factor;
``dynamic`` changes them only past max_position_embeddings tokens, which the explorer never
reads (longer inputs are cut), so it computes as the plain rotation. Frequencies are computed
in float32 as transformers computes them, so the angles are the same numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

ROPE_KINDS = ("default", "linear", "llama3", "yarn", "dynamic")
# transformers' default base when a config names none (RotaryEmbeddingConfigMixin.default_theta).
DEFAULT_THETA = 10_000.0


@dataclass(frozen=True)
class RopeSpec:
    kind: str = "default"
    theta: float = DEFAULT_THETA
    factor: float = 1.0
    low_freq_factor: float = 1.0  # llama3
    high_freq_factor: float = 4.0  # llama3
    original_max_positions: int = 0  # llama3, yarn: the context the model was pretrained with
    attention_factor: float | None = None  # yarn: cos and sin are multiplied by it
    beta_fast: float = 32.0  # yarn
    beta_slow: float = 1.0  # yarn
    mscale: float | None = None  # yarn (DeepSeek's spelling of the attention factor)
    mscale_all_dim: float | None = None
    truncate: bool = True  # yarn

    def describe(self) -> dict[str, object]:
        """What the trace says about the rotation."""
        data = {"kind": self.kind, "theta": self.theta, "pairs": "dimension i with i + d_k/2"}
        if self.kind in ("linear", "llama3", "yarn", "dynamic"):
            data["factor"] = self.factor
        if self.kind in ("llama3", "yarn"):
            data["original_max_position_embeddings"] = self.original_max_positions
        if self.kind == "yarn":
            data["attention_factor"] = self.cos_sin_factor()
        return data

    def cos_sin_factor(self) -> float:
        """yarn's attention factor (1 for every other kind)."""
        if self.kind != "yarn":
            return 1.0
        if self.attention_factor is not None:
            return float(self.attention_factor)
        if self.mscale and self.mscale_all_dim:
            return _yarn_mscale(self.factor, self.mscale) / _yarn_mscale(self.factor, self.mscale_all_dim)
        return _yarn_mscale(self.factor)


def inverse_frequencies(spec: RopeSpec, head_dim: int) -> torch.Tensor:
    """ω_i for the d/2 pairs of a head, float32 [head_dim // 2]."""
    exponents = torch.arange(0, head_dim, 2, dtype=torch.int64).to(torch.float32) / head_dim
    base = spec.theta**exponents
    omega = 1.0 / base
    if spec.kind == "linear":
        return omega / spec.factor
    if spec.kind == "llama3":
        return _llama3(omega, spec)
    if spec.kind == "yarn":
        return _yarn(base, head_dim, spec)
    return omega  # default, and dynamic within max_position_embeddings


def angles(positions: torch.Tensor, omega: torch.Tensor) -> torch.Tensor:
    """θ[p, i] = position_p · ω_i, float32 [n, d/2]: the angle each pair of dimensions turns."""
    return positions.to(torch.float32)[:, None] * omega.to(positions.device)[None, :]


def cos_sin(theta: torch.Tensor, factor: float = 1.0) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and sin of each angle, repeated for both halves of the head: [n, d] each."""
    both = torch.cat((theta, theta), dim=-1)
    return both.cos() * factor, both.sin() * factor


def rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Turn each pair (x_i, x_{i + d/2}) by its angle: [..., n, d] with cos, sin [n, d].

    (x_i, x_{i+d/2}) → (x_i cos θ − x_{i+d/2} sin θ, x_{i+d/2} cos θ + x_i sin θ)."""
    half = x.shape[-1] // 2
    turned = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + turned * sin


def _llama3(omega: torch.Tensor, spec: RopeSpec) -> torch.Tensor:
    """Long wavelengths (beyond original/low_freq_factor) slowed by the factor, short ones kept,
    the band between blended linearly in original / wavelength."""
    low_wavelength = spec.original_max_positions / spec.low_freq_factor
    high_wavelength = spec.original_max_positions / spec.high_freq_factor
    wavelength = 2 * math.pi / omega
    scaled = torch.where(wavelength > low_wavelength, omega / spec.factor, omega)
    smooth = (spec.original_max_positions / wavelength - spec.low_freq_factor) / (
        spec.high_freq_factor - spec.low_freq_factor
    )
    blended = (1 - smooth) * scaled / spec.factor + smooth * scaled
    medium = ~(wavelength < high_wavelength) * ~(wavelength > low_wavelength)
    return torch.where(medium, blended, scaled)


def _yarn(base: torch.Tensor, head_dim: int, spec: RopeSpec) -> torch.Tensor:
    """Pairs that turn many times within the original context keep ω_i, pairs that turn less
    than once are interpolated (ω_i / factor), those between ramp from one to the other."""

    def correction_dim(rotations: float) -> float:
        return (head_dim * math.log(spec.original_max_positions / (rotations * 2 * math.pi))) / (
            2 * math.log(spec.theta)
        )

    low, high = correction_dim(spec.beta_fast), correction_dim(spec.beta_slow)
    if spec.truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, head_dim - 1)
    if low == high:
        high += 0.001  # no zero-width ramp
    ramp = ((torch.arange(head_dim // 2, dtype=torch.float32) - low) / (high - low)).clamp(0, 1)
    keep = 1 - ramp  # the share of the original frequency
    return (1.0 / (spec.factor * base)) * (1 - keep) + (1.0 / base) * keep


def _yarn_mscale(scale: float, mscale: float = 1.0) -> float:
    return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0
