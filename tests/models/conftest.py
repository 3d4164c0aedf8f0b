"""Tiny model folders, built once per session (transformers is in the test extra)."""

import pytest

from tests.models import tiny


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """Converted weights go to a fresh folder per test, never the user's data folder."""
    folder = tmp_path / "data"
    monkeypatch.setenv("EXPLORER_DATA_DIR", str(folder))
    return folder


@pytest.fixture(scope="session")
def transformers():
    return pytest.importorskip("transformers", reason="transformers is in the test extra")


@pytest.fixture(scope="session")
def folders(tmp_path_factory, transformers):
    """folders(family, **options) → a tiny folder, built once per distinct request."""
    built = {}

    def get(family="bert", **options):
        key = (family, tuple(sorted((k, str(v)) for k, v in options.items())))
        if key not in built:
            built[key] = tiny.build(tmp_path_factory.mktemp(family.replace("-", "")), family, **options)
        return built[key]

    return get


@pytest.fixture(scope="session")
def decoder_folders(tmp_path_factory, transformers):
    """decoder_folders(family, **options) → a tiny decoder folder, built once per distinct request."""
    from tests.models import tiny_decoders

    built = {}

    def get(family="llama", **options):
        key = (family, tuple(sorted((k, str(v)) for k, v in options.items())))
        if key not in built:
            built[key] = tiny_decoders.build(tmp_path_factory.mktemp(family), family, **options)
        return built[key]

    return get
