"""A catalogue model's folder, ready to load: the frozen bundle carries the multilingual model
as its 4-bit source, converted once, on first use (``explorer.models.convert_e5``), into the
folder ``catalogue.conversion_dir`` names. Light: the converter loads only for a conversion.
"""

from __future__ import annotations

from pathlib import Path

from explorer.models import catalogue


def ready_dir(key: str) -> Path | None:
    """The catalogue's ``model_dir``, after converting the bundled 4-bit source if that is what
    is needed. Raises ``ConversionError`` (a ``CatalogueError``) when the conversion fails
    (disk full, read-only)."""
    found = catalogue.model_dir(key)
    source = catalogue.bundled_source(key)
    target = catalogue.conversion_dir(key)
    if source is None or (found is not None and found != target and catalogue.is_model_folder(found)):
        return found
    from explorer.models.convert_e5 import ensure_converted

    return ensure_converted(source, target)
