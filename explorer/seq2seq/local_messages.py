"""The local-attention models' notices and errors (keys ``seq2seq.window_*``), registered into
``explorer.messages.TEMPLATES`` when explorer.seq2seq.local_attention is imported."""

from explorer.messages import QT_TRANSLATE_NOOP, register, section

LOCAL = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the weights a_t(s) = align_t(s) · Gaussian each output word used: one row per word written, zero outside the window [p_t − D, p_t + D]",
        "seq2seq.window_note",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "read with the window D = {used}; the model was trained with D = {trained}",
        "seq2seq.window_changed",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{count} output step(s) found no source word in their window (p_t − D past the last word, position {last}): they read nothing, c_t = 0",
        "seq2seq.window_off_source",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the {model} model reads every source word and has no window; D is for {choices}",
        "seq2seq.window_not_local",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{model} is not a windowed model: choose one of {choices}",
        "seq2seq.window_model",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "no checkpoint of {name} is shipped: train the pair from scratch on the tab's second page",
        "seq2seq.window_not_shipped",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the window D a run trains with must be a whole number from {low} to {high}, not {value!r}; "
        "until it is one, a run trains with D = {used}",
        "seq2seq.window_out_of_range",
    ),
)

register(LOCAL)
