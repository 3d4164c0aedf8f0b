"""The language-model lab's notices and errors (keys ``lm.*``), registered into
``explorer.messages.TEMPLATES`` when the package is imported."""

from explorer.messages import QT_TRANSLATE_NOOP, register, section

LM = section(
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{name} must be a whole number from 1 to {limit}, not {value!r}",
        "lm.size_out_of_range",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{heads} heads do not divide the width {width}", "lm.heads_not_dividing"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "the text has {count} tokens; this model reads at most {limit}", "lm.too_long"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "head {layer}.{head} does not exist: the model has {layers} layers of {heads} heads",
        "lm.no_such_head",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "the text is empty: type a few characters", "lm.text_empty"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "the text has {count} characters; at most {limit} are read", "lm.text_too_long"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{count} characters are not in this model's vocabulary: {characters} (the first is character "
        "{position} of the text); this model knows only {alphabet}",
        "lm.unknown_characters",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "only the first {limit} characters of the text are used (the lab reads at most {limit})",
        "lm.text_cut",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{folder} is not a folder", "lm.no_folder"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "no GPT-2 model in {folder}: {file} is missing", "lm.folder_file_missing"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{path} cannot be read as JSON: {detail}", "lm.config_not_json"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{path} does not describe a GPT-2 (model_type {value!r})", "lm.not_gpt2"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: {key} = {value!r} is a GPT-2 variant the lab cannot run",
        "lm.config_unsupported",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{path} describes a model that cannot be built: {detail}", "lm.config_impossible"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{weights} holds {size:.1f} MB, more than the lab reads ({limit:.1f} MB)",
        "lm.weights_too_large",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{weights} cannot be read: {detail}", "lm.weights_unreadable"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{weights}: the tensor {name} holds values that are not finite numbers",
        "lm.weights_not_finite",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{weights} does not fit its config.json: {detail}", "lm.weights_misfit"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "task {value!r} is not one of {choices}", "lm.task_unknown"),
    QT_TRANSLATE_NOOP("CoreMessages", "initialisation {value!r} is not one of {choices}", "lm.init_unknown"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "the probe's period must be a whole number from 2 to {limit}, not {value!r}",
        "lm.period_out_of_range",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "training diverged at step {step}: the loss is not a finite number (try a lower learning rate)",
        "lm.loss_not_finite",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "dropout must be a number from 0 to below 1, not {value!r}", "lm.dropout_out_of_range"
    ),
)

register(LM)
