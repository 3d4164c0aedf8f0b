"""The vision lab's notices and errors (keys ``vision.*``), registered into
``explorer.messages.TEMPLATES`` when the package is imported."""

from explorer.messages import QT_TRANSLATE_NOOP, register, section

VISION = section(
    QT_TRANSLATE_NOOP("CoreMessages", "{path}: no such file", "vision.no_file"),
    QT_TRANSLATE_NOOP("CoreMessages", "{path}: not a file", "vision.not_a_file"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: no such file (a checkpoint is NAME.safetensors + NAME.json)",
        "vision.checkpoint_missing",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: not a readable checkpoint description ({detail})",
        "vision.checkpoint_not_json",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{path}: it holds no model configuration", "vision.checkpoint_no_config"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{path}: an impossible configuration ({detail})", "vision.checkpoint_config"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{path}: not a readable safetensors file ({detail})", "vision.weights_unreadable"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{path}: the weights do not fit the configuration ({detail})", "vision.weights_misfit"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "model {value!r} is not one of {choices}", "vision.model_unknown"),
    QT_TRANSLATE_NOOP("CoreMessages", "{path}: cannot read it ({reason})", "vision.unreadable"),
    QT_TRANSLATE_NOOP("CoreMessages", "{path}: the file is empty", "vision.empty_file"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: {megabytes:.0f} MB is too large for a picture (at most {limit} MB)",
        "vision.file_too_large",
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{path}: not a {formats} or {last} image", "vision.not_an_image"),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{path}: the picture declares too many pixels (a decompression bomb?)", "vision.bomb"
    ),
    QT_TRANSLATE_NOOP("CoreMessages", "{path}: a damaged image header ({reason})", "vision.damaged_header"),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: the picture is {width}×{height} pixels: there is nothing to see",
        "vision.no_pixels",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: {width:,}×{height:,} pixels is too large (at most {limit:,}); refused before decoding",
        "vision.too_many_pixels",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "{path}: the picture data is truncated or damaged (the file ends before the last pixel)",
        "vision.truncated",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "{path}: the picture data is truncated or damaged ({reason})", "vision.damaged_data"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "a picture must be H×W, H×W×1, ×2, ×3 or ×4, not {shape}", "vision.array_shape"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "a picture's values must be finite numbers: {count:,} of them are NaN or infinite",
        "vision.array_not_finite",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "an animation of {frames} frames: the first frame is used", "vision.animation"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "a grey-scale picture: its one channel is used as red, green and blue", "vision.grey"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "a picture with transparency: composited on white", "vision.transparency"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages", "resized from {width}×{height} to {size}×{size} pixels", "vision.resized"
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "resized from {width}×{height} to {size}×{size} pixels (stretched: the picture is not square)",
        "vision.resized_stretched",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "these models learnt from generated shapes on a 32×32 grid, never from photographs: "
        "on a photo their prediction means nothing, and their attention shows only what they look for",
        "vision.trained_on_shapes",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "The CNN stays ahead at every size (its lead in points, from the fewest pictures to the most: {gaps}): at {largest} pictures the "
        "Vision Transformer has not overtaken it. Dosovitskiy et al. (2020) found ViTs behind ResNets "
        "after 1.3 million ImageNet pictures and ahead only after pretraining on 14 to 300 million: a "
        "convolution is built knowing that neighbouring pixels belong together and that a pattern means "
        "the same anywhere, while self-attention has to learn both from the pictures.",
        "vision.curve_caption_behind",
    ),
    QT_TRANSLATE_NOOP(
        "CoreMessages",
        "The CNN's lead shrinks as the pictures grow in number (in points: {gaps}) and at {largest} "
        "pictures the Vision Transformer is level or ahead. Dosovitskiy et al. (2020) needed 14 to 300 "
        "million pretraining pictures for that on photographs: a convolution is built knowing that "
        "neighbouring pixels belong together and that a pattern means the same anywhere, while "
        "self-attention has to learn both from the pictures.",
        "vision.curve_caption_overtakes",
    ),
)

register(VISION)
