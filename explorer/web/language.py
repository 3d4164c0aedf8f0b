"""The page in English or Simplified Chinese, from the window's own catalogue.

The Chinese words and notices are read from resources/translations/explorer_zh_CN.ts (the
XML source the window's .qm is compiled from): one catalogue for the window and the page,
and no Qt needed to read it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from functools import lru_cache

from explorer.messages import CONTEXT as MESSAGES_CONTEXT
from explorer.messages import TEMPLATES, Message
from explorer.resources import resource_path
from explorer.web.messages import PageError
from explorer.web.words import CONTEXT as WORDS_CONTEXT
from explorer.web.words import WORDS

LANGUAGES = ("en", "zh_CN")  # the window's language codes (explorer.appstate.state.LANGUAGES)


def check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise PageError.of("web.language", value=language, choices=", ".join(LANGUAGES))
    return language


@lru_cache(maxsize=4)
def catalogue(language: str) -> Mapping[tuple[str, str, str], str]:
    """(context, English source, key) → translation, the finished entries of one .ts file;
    empty for English, or when the file is missing (the page then speaks English)."""
    if check_language(language) == "en":
        return {}
    path = resource_path("translations", f"explorer_{language}.ts")
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return {}
    found: dict[tuple[str, str, str], str] = {}
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            if translation is None or translation.get("type") or not translation.text:
                continue
            found[(name, message.findtext("source") or "", message.findtext("comment") or "")] = (
                translation.text
            )
    return found


def words(language: str) -> dict[str, str]:
    """Every page word in ``language`` (English where a word is not translated)."""
    table = catalogue(language)
    return {key: table.get((WORDS_CONTEXT, text, ""), text) for key, text in WORDS.items()}


def word(key: str, language: str, **params: object) -> str:
    text = words(language)[key]
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):  # a damaged translation never hides the note
        return WORDS[key].format(**params)


def message_text(message: str, language: str) -> str:
    """A notice in ``language``: a Message through the catalogue, plain text as it is."""
    if not isinstance(message, Message) or language == "en":
        return str(message)
    table = catalogue(language)
    return message.render(lambda key: table.get((MESSAGES_CONTEXT, TEMPLATES[key], key), TEMPLATES[key]))
