"""Attention blocks for images, one short named step per line of the papers' equations.

Every block maps feature maps X [N, C, H, W] to maps of the same shape, and when given a
``keep`` dict it stores every intermediate there under its fixed name (what the trace, the
``vision`` command and the tab show):

SE (Hu et al., squeeze-and-excitation), r = the reduction ratio:
    squeeze             z = mean over positions of X                      [N, C]
    excitation_hidden   δ(W₁ z), W₁: C → C/r, δ = ReLU                    [N, C/r]
    excitation          s = σ(W₂ δ(W₁ z)), W₂: C/r → C                    [N, C]
    channel_weights     s again (the weights that scale the channels)
    output              X̃ = s ⊙ X, each channel times its weight         [N, C, H, W]

CBAM (Woo et al.), channel attention then spatial attention, one shared MLP:
    squeeze / squeeze_max   average- and max-pooled descriptors over positions   [N, C]
    channel_weights     M_c = σ(MLP(avg) + MLP(max)), MLP = W₁ δ(W₀ ·)          [N, C]
    channel_refined     F′ = M_c ⊙ X                                           [N, C, H, W]
    pooled_avg / pooled_max   mean and max of F′ over channels                  [N, H, W]
    spatial_logits      f^{k×k}([pooled_avg; pooled_max]) + b (zero padding)    [N, H, W]
    spatial_map         M_s = σ(spatial_logits), one weight per position        [N, H, W]
    output              F″ = M_s ⊙ F′                                          [N, C, H, W]

Residual attention (Wang et al.), H = (1 + M(x)) · T(x):
    trunk               T(x) = δ(conv₃ₓ₃(x))                                   [N, C, H, W]
    mask_branch         M(x) = σ(conv₁ₓ₁(up₂(δ(conv₃ₓ₃(maxpool₂(x))))))      [N, C, H, W]
    spatial_map         the mean of M(x) over channels (one number per position) [N, H, W]
    output              H = (1 + M(x)) ⊙ T(x)                                  [N, C, H, W]

The MLPs have no biases, as in the equations; the spatial convolution has one bias (so a
background of zero features can get a low weight) — the worked arithmetic shows it.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

Keep = dict[str, torch.Tensor] | None


def hidden_width(channels: int, reduction: int) -> int:
    return max(1, channels // reduction)


class SEBlock(nn.Module):
    def __init__(self, channels: int, reduction: int):
        super().__init__()
        self.w1 = nn.Linear(channels, hidden_width(channels, reduction), bias=False)  # W₁
        self.w2 = nn.Linear(hidden_width(channels, reduction), channels, bias=False)  # W₂

    def forward(self, x: torch.Tensor, keep: Keep = None) -> torch.Tensor:
        z = x.mean(dim=(2, 3))  # squeeze: one number per channel
        hidden = F.relu(self.w1(z))  # δ(W₁ z): the bottleneck
        s = torch.sigmoid(self.w2(hidden))  # excitation: a weight in (0, 1) per channel
        out = x * s[:, :, None, None]  # rescale every channel by its weight
        if keep is not None:
            keep.update(squeeze=z, excitation_hidden=hidden, excitation=s, channel_weights=s, output=out)
        return out


class CBAMBlock(nn.Module):
    def __init__(self, channels: int, reduction: int, kernel: int):
        super().__init__()
        self.w0 = nn.Linear(channels, hidden_width(channels, reduction), bias=False)  # W₀
        self.w1 = nn.Linear(hidden_width(channels, reduction), channels, bias=False)  # W₁
        self.spatial = nn.Conv2d(2, 1, kernel, padding=kernel // 2, bias=True)  # f^{k×k}

    def mlp(self, v: torch.Tensor) -> torch.Tensor:
        return self.w1(F.relu(self.w0(v)))

    def forward(self, x: torch.Tensor, keep: Keep = None) -> torch.Tensor:
        avg = x.mean(dim=(2, 3))  # average-pooled descriptor
        mx = x.flatten(2).max(dim=2).values  # max-pooled descriptor (max, not amax: a cheaper backward)
        mc = torch.sigmoid(self.mlp(avg) + self.mlp(mx))  # channel weights
        refined = x * mc[:, :, None, None]  # F′: channels rescaled
        pooled_avg = refined.mean(dim=1)  # mean over channels, per position
        pooled_max = refined.max(dim=1).values  # max over channels, per position
        logits = self.spatial(torch.stack([pooled_avg, pooled_max], dim=1))[:, 0]  # k×k conv
        ms = torch.sigmoid(logits)  # spatial map: a weight in (0, 1) per position
        out = refined * ms[:, None]  # F″: every position rescaled
        if keep is not None:
            keep.update(
                squeeze=avg,
                squeeze_max=mx,
                channel_weights=mc,
                channel_refined=refined,
                pooled_avg=pooled_avg,
                pooled_max=pooled_max,
                spatial_logits=logits,
                spatial_map=ms,
                output=out,
            )
        return out


class ResidualAttentionBlock(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.trunk = nn.Conv2d(channels, channels, 3, padding=1)
        self.mask_down = nn.Conv2d(channels, channels, 3, padding=1)
        self.mask_out = nn.Conv2d(channels, channels, 1)

    def forward(self, x: torch.Tensor, keep: Keep = None) -> torch.Tensor:
        t = F.relu(self.trunk(x))  # T(x): the trunk's features
        down = F.relu(self.mask_down(F.max_pool2d(x, 2)))  # bottom-up: look at half resolution
        up = F.interpolate(down, size=x.shape[-2:], mode="nearest")  # top-down: back to full size
        m = torch.sigmoid(self.mask_out(up))  # M(x) in (0, 1), per channel and position
        out = (1 + m) * t  # H = (1 + M) · T: attention can only add to the trunk
        if keep is not None:
            keep.update(trunk=t, mask_branch=m, spatial_map=m.mean(dim=1), output=out)
        return out
