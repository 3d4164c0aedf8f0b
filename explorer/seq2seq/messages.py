"""The translation lab's notices and errors (keys ``seq2seq.*``), registered into
``explorer.messages.TEMPLATES`` when the package is imported."""

from explorer.messages import QT_TRANSLATE_NOOP, register, section

SEQ2SEQ = section(
    QT_TRANSLATE_NOOP("CoreMessages", "model {value!r} is not one of {choices}", "seq2seq.model_unknown"),
    QT_TRANSLATE_NOOP("CoreMessages", "scoring {value!r} is not one of {choices}", "seq2seq.scoring_unknown"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "attention {value!r} is not one of {choices}", "seq2seq.attention_unknown"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the transformer scores with scaled-dot only, not {value!r} (--scoring chooses the GRU models' attention)",
        "seq2seq.transformer_scoring",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "d_model {d_model} is not divisible by {heads} heads", "seq2seq.heads_not_dividing"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{name} must be a whole number of 1 or more, not {value!r}", "seq2seq.not_positive"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{name} is {value}, more than this lab's models use (at most {limit})",
        "seq2seq.too_large",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "source_chars must be distinct single characters: entry {index} is {value!r}",
        "seq2seq.source_chars",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "unknown model settings: {keys}", "seq2seq.unknown_settings"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "the source text is empty: type a date such as {example!r}", "seq2seq.source_empty"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the source has {count} characters; the models read at most {limit}",
        "seq2seq.source_too_long",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "--attention sample is offered for the GRU models (bahdanau, luong); the transformer decodes with soft or hard cross-attention",
        "seq2seq.sample_transformer",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "no checkpoint in {folder}: {file} is missing", "seq2seq.no_checkpoint"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{path} cannot be read as JSON: {detail}", "seq2seq.config_not_json"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{path} is not a translation-lab checkpoint", "seq2seq.not_a_checkpoint"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: checkpoint version {version} is not one this explorer reads (it reads version {known})",
        "seq2seq.checkpoint_version",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{path} describes a model that cannot be built: {detail}", "seq2seq.impossible_spec"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{weights} cannot be read: {detail}", "seq2seq.weights_unreadable"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{weights} does not fit its config.json: {detail}", "seq2seq.weights_misfit"
    ),
    # the sequence models (sentences, compound sentences, copy): tasks.py, sequence_trace.py
    QT_TRANSLATE_NOOP("CoreMessages", "task {value!r} is not one of {choices}", "seq2seq.task_unknown"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the source text is empty: type a sentence such as {example!r}",
        "seq2seq.sentence_empty",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the source has {count} words; this model reads at most {limit}",
        "seq2seq.sentence_too_long",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "control characters and unusual spaces were made plain spaces",
        "seq2seq.spaces_made_plain",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{count} word(s) never seen in training were read as {unk}: {words}",
        "seq2seq.unknown_words",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "no true translation or alignment: the lab's sentence grammar does not write this text",
        "seq2seq.no_truth",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "one word off: {words} — the encoder reads both ways, so the word beside holds it too",
        "seq2seq.word_shift",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the attention weights each output word used: one row per word written, one column per source word",
        "seq2seq.note_attention",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "no attention: every output word reads the same fixed context {context}, one column",
        "seq2seq.note_fixed",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{path} is not a length-curve result: {detail}", "seq2seq.length_file"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "no length-curve result is shipped for the task {task} (shipped: {shipped}); train it, or choose one of those tasks",
        "seq2seq.length_not_shipped",
    ),
)

register(SEQ2SEQ)
