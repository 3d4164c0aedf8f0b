"""Fill the unfinished entries of our .ts from another copy of it: the way out of a merge conflict.

Two branches that both add texts both change resources/translations/explorer_zh_CN.ts. To merge:

    git checkout --ours resources/translations/explorer_zh_CN.ts
    git show MERGE_HEAD:resources/translations/explorer_zh_CN.ts > /tmp/theirs.ts
    python packaging/update_translations.py          # lupdate adds their texts, unfinished
    python packaging/merge_translations.py /tmp/theirs.ts
    python packaging/update_translations.py          # lupdate's own layout again, and the .qm

An entry is the same when its context, source text and comment (the key) are; only entries
still unfinished here are filled, and only from finished ones there. It prints what is left.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OURS = ROOT / "resources" / "translations" / "explorer_zh_CN.ts"


def _entries(root: ET.Element):
    for context in root.iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            yield (name, message.findtext("source"), message.findtext("comment")), message


def merge(ours: Path, theirs: Path) -> tuple[int, int]:
    """Copy finished translations from ``theirs`` into unfinished entries of ``ours``;
    returns (filled, still unfinished)."""
    tree = ET.parse(ours)
    done = {
        key: message.find("translation")
        for key, message in _entries(ET.parse(theirs).getroot())
        if message.find("translation") is not None and message.find("translation").get("type") is None
    }
    filled = left = 0
    for key, message in _entries(tree.getroot()):
        translation = message.find("translation")
        if translation is None or translation.get("type") != "unfinished":
            continue
        source = done.get(key)
        if source is None:
            left += 1
            continue
        message.remove(translation)
        message.append(source)
        filled += 1
    ET.indent(tree, space="    ")
    with open(ours, "wb") as out:
        out.write(b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
        tree.write(out, encoding="utf-8", xml_declaration=False)
    return filled, left


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    filled, left = merge(OURS, Path(argv[0]))
    print(f"filled {filled} entries; {left} still unfinished")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
