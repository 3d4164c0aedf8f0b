import pytest

from tests.web.chromium import Chromium, find_chromium

ANIMAL = "The animal didn't cross the street because it was too tired"


@pytest.fixture(scope="session")
def animal():
    """MiniLM, every layer, as the API gives it (opens on layer 5)."""
    import explorer

    return explorer.trace(ANIMAL, layer=5)


@pytest.fixture(scope="module")
def browser():
    if find_chromium() is None:
        pytest.skip("no Chromium: ./dev test installs Debian's chromium (apt-get install chromium)")
    with Chromium() as chromium:
        yield chromium
