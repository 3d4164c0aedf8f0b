"""A source checkout's compiled translation (a build output git ignores) is made when it is
missing or older than its .ts: a fresh clone opened in English with no word (trial 7 N1)."""

from __future__ import annotations

import os
import shutil

from explorer.gui import i18n
from explorer.gui.i18n import translate


def test_a_missing_or_stale_qm_is_compiled_when_the_language_is_set(qapp, tmp_path, monkeypatch):
    source = i18n.translations_dir() / "explorer_zh_CN.ts"
    shutil.copy(source, tmp_path / source.name)
    monkeypatch.setattr(i18n, "translations_dir", lambda: tmp_path)
    qm = tmp_path / "explorer_zh_CN.qm"
    try:
        assert not qm.exists()
        assert i18n.set_language("zh_CN")  # a fresh clone: no .qm at all
        assert (
            qm.is_file()
            and translate("Translation", "The answer below is still the one for “{text}”.")
            != "The answer below is still the one for “{text}”."
        )
        i18n.set_language("en")
        qm.write_bytes(b"")  # an old build: older than its .ts
        os.utime(qm, (1, 1))
        assert i18n.set_language("zh_CN")
        assert qm.stat().st_size > 1000
    finally:
        i18n.set_language("en")
