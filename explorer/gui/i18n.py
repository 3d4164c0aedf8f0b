"""Interface language: English (the source texts) or Simplified Chinese, switchable at run time.

Installs a QTranslator for our ``explorer_<code>.qm`` (resources/translations, found the same
way from source and from a frozen bundle) and one for Qt's own ``qt_<code>.qm`` (the texts of
standard dialogs and buttons). Installing or removing a translator sends every widget a
``QEvent.LanguageChange``; the window answers it by setting all its texts again.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from PySide6 import QtCore

from explorer.appstate.state import LANGUAGES
from explorer.resources import resource_path

DEFAULT_LANGUAGE = "en"

_installed: list[QtCore.QTranslator] = []
_current = DEFAULT_LANGUAGE


def translations_dir() -> Path:
    return resource_path("translations")


def _lrelease() -> list[str]:
    found = Path(sys.executable).parent / "pyside6-lrelease"
    if found.exists():
        return [str(found)]
    on_path = shutil.which("pyside6-lrelease")
    return [on_path] if on_path else [sys.executable, "-m", "PySide6.scripts.pyside_tool", "lrelease"]


def compile_if_stale(code: str) -> None:
    """From a source checkout the compiled ``.qm`` is a build output (git ignores it): a fresh
    clone has none, and after a pull it is older than its ``.ts``. Then the window opened in
    English without a word (trial 7 N1), or in English for the newest texts. Compile it here
    (pyside6-lrelease, ~0.2 s, once); a bundle ships its ``.qm`` and no ``.ts``."""
    if getattr(sys, "frozen", False):  # sys.executable is the app itself: never run it
        return
    ts = translations_dir() / f"explorer_{code}.ts"
    qm = ts.with_suffix(".qm")
    if not ts.is_file() or (qm.is_file() and qm.stat().st_mtime >= ts.stat().st_mtime):
        return
    try:
        subprocess.run(_lrelease() + [str(ts), "-qm", str(qm)], capture_output=True, timeout=60, check=True)
    except (OSError, subprocess.SubprocessError) as error:
        print(
            f"explorer: could not compile {ts.name} ({error}); run ./dev or "
            "packaging/update_translations.py --no-lupdate",
            file=sys.stderr,
        )


def normalise(code: str | None) -> str:
    """'zh', 'zh_CN', 'zh-CN', 'zh_Hans' -> 'zh_CN'; anything unknown -> 'en'."""
    if not code:
        return DEFAULT_LANGUAGE
    code = code.replace("-", "_")
    if code in LANGUAGES:
        return code
    if code.lower().startswith("zh"):
        return "zh_CN"
    return DEFAULT_LANGUAGE


def current_language() -> str:
    return _current


def set_language(code: str | None) -> bool:
    """Switch every window to this language now; False if our translation file is missing."""
    global _current
    code = normalise(code)
    app = QtCore.QCoreApplication.instance()
    if app is None:
        _current = code
        return True
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    ok = True
    if code != DEFAULT_LANGUAGE:
        compile_if_stale(code)
        ours = QtCore.QTranslator(app)
        if ours.load(f"explorer_{code}", str(translations_dir())):
            app.installTranslator(ours)
            _installed.append(ours)
        else:
            ok = False
        qt_dir = QtCore.QLibraryInfo.path(QtCore.QLibraryInfo.LibraryPath.TranslationsPath)
        qt = QtCore.QTranslator(app)
        if qt.load(f"qt_{code}", qt_dir) or qt.load(f"qtbase_{code}", qt_dir):
            app.installTranslator(qt)
            _installed.append(qt)
    _current = code if ok else DEFAULT_LANGUAGE
    QtCore.QLocale.setDefault(QtCore.QLocale(_current))
    # Deliver the LanguageChange events now, so the texts are new when this returns.
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.LanguageChange)
    return ok


def translate(context: str, text: str) -> str:
    """``text`` in the interface language. Call it with literal strings,
    ``translate("Stages", "raw scores")``: pyside6-lupdate extracts those calls under their context."""
    return QtCore.QCoreApplication.translate(context, text)
