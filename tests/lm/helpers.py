"""Small models for the lab's tests."""

import torch

from explorer.lm.model import GPT, GPTConfig


def random_gpt(seed: int, **changes) -> GPT:
    """A GPT with every trained tensor moved away from its start (biases and norms too)."""
    torch.manual_seed(seed)
    model = GPT(GPTConfig(**changes))
    with torch.no_grad():
        for p in model.parameters():
            if p.requires_grad:
                p.add_(torch.randn_like(p) * 0.2)
    return model.eval()
