import pytest

from explorer.seq2seq.checkpoints import shipped_folder
from explorer.seq2seq.spec import GRU_MODELS, SCORINGS

GRU_PAIRS = [(m, s) for m in GRU_MODELS for s in SCORINGS]
ALL_PAIRS = [*GRU_PAIRS, ("transformer", "scaled-dot")]


@pytest.fixture(scope="session", autouse=True)
def shipped_checkpoints_exist():
    missing = [f"{m}-{s}" for m, s in ALL_PAIRS if not (shipped_folder(m, s) / "model.safetensors").is_file()]
    if missing:
        pytest.fail(f"shipped checkpoints missing in resources/seq2seq: {missing} (see README)")
