"""Messages of the decoders' config checks added after explorer.messages' table (engineer
trial 9): each names what is wrong in the file's own words. Qt-free."""

from __future__ import annotations

from explorer.messages import QT_TRANSLATE_NOOP, register, section

register(
    section(
        QT_TRANSLATE_NOOP(
            "CoreMessages",
            "{path}: {key} is {value}, not an object; use the config.json that came with the model",
            "decoders.rope_key_not_object",
        ),
        QT_TRANSLATE_NOOP(
            "CoreMessages",
            "{path}: the {kind} rotary scaling needs {high_key} ({high}) above {low_key} ({low}), and {low_key} above 0; use the config.json that came with the model",
            "decoders.rope_frequency_order",
        ),
    )
)
