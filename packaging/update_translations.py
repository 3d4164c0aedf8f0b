"""Refresh the translation sources and compile them: ``python packaging/update_translations.py``.

1. ``pyside6-lupdate`` reads every explorer/**/*.py and updates
   resources/translations/explorer_*.ts (new texts are added as unfinished, translations
   already made are kept, vanished texts are marked obsolete);
2. translate the new texts (Qt Linguist: ``pyside6-linguist resources/translations/explorer_zh_CN.ts``,
   or edit the XML);
3. ``pyside6-lrelease`` compiles each .ts into the .qm the application loads. Commit the .ts
   only: ``./dev`` and ``packaging/build.sh`` compile the .qm (``--no-lupdate``).

``--no-lupdate`` only compiles.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TS_DIR = ROOT / "resources" / "translations"
LANGUAGES = ("zh_CN",)


def tool(name: str) -> list[str]:
    exe = Path(sys.executable).parent / f"pyside6-{name}"
    if exe.exists():
        return [str(exe)]
    found = shutil.which(f"pyside6-{name}")
    if found:
        return [found]
    return [sys.executable, "-m", "PySide6.scripts.pyside_tool", name]


def main(argv: list[str]) -> int:
    sources = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "explorer").rglob("*.py"))
    TS_DIR.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES:
        ts = TS_DIR / f"explorer_{lang}.ts"
        if "--no-lupdate" not in argv:
            subprocess.run(
                tool("lupdate")
                + ["-locations", "none", "-no-obsolete", "-target-language", lang]
                + sources
                + ["-ts", str(ts.relative_to(ROOT))],
                cwd=ROOT,
                check=True,
            )
        subprocess.run(tool("lrelease") + [str(ts), "-qm", str(ts.with_suffix(".qm"))], cwd=ROOT, check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
