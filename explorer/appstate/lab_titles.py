"""What each lab's training run is called where the lab is not in view: a third run refused
beside two that train names them (explorer.lab.messages.holders). The same words as the labs'
tabs, as keyed messages, since the refusal is made without Qt."""

from __future__ import annotations

from explorer.messages import QT_TRANSLATE_NOOP, register, section

register(
    section(
        QT_TRANSLATE_NOOP("CoreMessages", "Translation", "appstate.lab_translation"),
        QT_TRANSLATE_NOOP("CoreMessages", "Vision", "appstate.lab_vision"),
        QT_TRANSLATE_NOOP("CoreMessages", "Why attention", "appstate.lab_why_attention"),
        QT_TRANSLATE_NOOP("CoreMessages", "Language model", "appstate.lab_lm"),
        QT_TRANSLATE_NOOP("CoreMessages", "Global vs local", "appstate.lab_local"),
        QT_TRANSLATE_NOOP("CoreMessages", "Vision Transformer's ViT", "appstate.lab_vit"),
        QT_TRANSLATE_NOOP("CoreMessages", "Vision Transformer's CNN", "appstate.lab_vit_cnn"),
    )
)
