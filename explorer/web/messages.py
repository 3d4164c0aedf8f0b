"""The page's errors (keys ``web.*``), registered into ``explorer.messages.TEMPLATES`` on import."""

from explorer.messages import QT_TRANSLATE_NOOP, MessageError, register, section

WEB = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{name}: {count} attention weights are not finite (NaN or infinity); a page shows finite numbers only",
        "web.not_finite",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{path}: the page's file name must end in .html or .htm", "web.file_suffix"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "language {value!r} is not one of {choices}", "web.language"),
)

register(WEB)


class PageError(MessageError, ValueError):
    """What cannot go on a page, said in one line (raise with ``PageError.of``)."""
