"""The translation lab, Qt-free: dates → ISO with attention you can watch being learned.

What a window tab needs, in one place (each module's docstring says more):

Translate with a shipped model (loaded once, cached, thread-safe):
    trace = translate("9 mai 2018", model="bahdanau", scoring="additive", attention="soft")
    trace.output, trace.output_tokens, trace.source_tokens
    trace.alignment            [T, n] what the matrix / line view draws; trace.alignment_note says what it is
    trace.step(i)              GRU: StepStages(query, scores, scaled, weights, context) of output step i
    trace.attention_trace(kind, layer)   an explorer.core AttentionTrace: the stage panels and
                               explorer.core.worked.work_cell apply unchanged (GRU: kind "cross", one
                               head; Transformer: "encoder_self", "decoder_self", "cross", per layer)
    trace.alignment_score, trace.alignment_hits   (None / [] when the text is not a generated date)
    trace.spelled_alignment_score   the same fraction over the digits a source character spells
                               (padded digits left out): show it beside alignment_score, not instead
    trace.example.padded_steps  output digits no source character spells (a leading 0, the century)
    trace.source_fields        per source character "year" / "month" / "day" / None, for colouring
    trace.notices              unknown characters, spaces removed, an output that is not a date

Train from scratch on a worker thread, and replay:
    result = train_model("bahdanau", "additive", steps=400, seed=0, on_progress=..., should_stop=...,
                         watch_text="9 mai 2018")     → TrainResult(spec, model, log, ...)
    LabProgress: step, loss, exact_match (held-out, at evaluations), snapshot and watched (a
    TranslationTrace of watch_text) at snapshot steps; cancel raises explorer.training.TrainingCancelled.
    alignment_at(result.spec, snapshot, text)   the scrubber: any snapshot, any text, milliseconds.
    trace_translation(result.model, result.spec, text)   "use what I just trained".

The task itself:
    FORMATS, examples_of(date), render(date, fmt) → DateExample(source, target, spans),
    find_fields(text) → the DateExample it is, or None; alignment_score(alignment, example),
    spelled_alignment_score(alignment, example).

Sentences, and a model without attention (word level; explorer.seq2seq.sequence_*):
    trace = translate_sequence("Jane visits Africa in September", "sentences-zh", "attention")
    trace.output, trace.output_tokens, trace.source_tokens, trace.expected (the grammar's translation)
    trace.alignment [T, n] and trace.alignment_columns; for model "no-attention" [T, 1] and ["C"]:
                               the one fixed context every step reads (trace.context_kind "fixed")
    trace.true_alignment [T_true, n], trace.true_links, trace.alignment_score / alignment_hits
    trace.attention_trace()    the attention as an explorer.core AttentionTrace (attention models)
    trace_sequence(module, get_task(name), text)   the same for a module being trained
Side by side, with the length curves at every evaluation:
    result = train_sequence_models(("no-attention", "attention"), "compound-fr", steps=500, seed=0,
                                   on_progress=..., should_stop=...)
    SequenceProgress: step, losses and cpu_seconds per model; curves {model: LengthCurve} at
    evaluations (curve.lengths, .word_accuracy, .exact_match, .short / .long summaries)
    shipped_length_result()    the shipped curves (LengthResult: .final, .evaluations, .parameters)
    load_sequence_model(task, model)   a shipped sequence checkpoint: (module, training record, label)
    draw_length_figure(result) a PIL image of the figure; save_length_png(result, path)
The grammar: explorer.seq2seq.sentences (render, parse, sample_clauses); tasks: explorer.seq2seq.tasks.

Errors meant for the user are ``LabError`` (a ValueError) with a one-line message.
"""

from explorer.lab import TrainOptions
from explorer.seq2seq import local_attention as local_attention  # registers global, local-m, local-p(-ours)
from explorer.seq2seq import local_tasks as local_tasks  # registers copy-twice
from explorer.seq2seq import messages as messages  # registers the seq2seq.* templates
from explorer.seq2seq.alignment import alignment_hits, alignment_score, spelled_alignment_score
from explorer.seq2seq.dates import EXAMPLE_DATE, FORMATS, DateExample, examples_of, find_fields, render
from explorer.seq2seq.length_curve import LengthCurve
from explorer.seq2seq.length_result import LengthResult, shipped_length_result
from explorer.seq2seq.sequence_checkpoints import load_sequence_model
from explorer.seq2seq.sequence_models import SEQUENCE_MODELS, SequenceSpec
from explorer.seq2seq.sequence_trace import SequenceTrace, trace_sequence, translate_sequence
from explorer.seq2seq.sequence_train import SequenceProgress, SequenceTrainOptions, train_sequence_models
from explorer.seq2seq.spec import ATTENTIONS, DEFAULT_SCORING, MODELS, SCORINGS, LabError, ModelSpec
from explorer.seq2seq.tasks import TASKS, get_task
from explorer.seq2seq.trace import StepStages, TranslationTrace
from explorer.seq2seq.train import LabProgress, TrainResult, alignment_at, train_model
from explorer.seq2seq.translate import load_model, trace_translation, translate

__all__ = [
    "SEQUENCE_MODELS",
    "TASKS",
    "LengthCurve",
    "LengthResult",
    "SequenceProgress",
    "SequenceSpec",
    "SequenceTrace",
    "SequenceTrainOptions",
    "get_task",
    "load_sequence_model",
    "shipped_length_result",
    "trace_sequence",
    "train_sequence_models",
    "translate_sequence",
    "ATTENTIONS",
    "DEFAULT_SCORING",
    "EXAMPLE_DATE",
    "FORMATS",
    "MODELS",
    "SCORINGS",
    "DateExample",
    "LabError",
    "LabProgress",
    "ModelSpec",
    "StepStages",
    "TrainOptions",
    "TrainResult",
    "TranslationTrace",
    "alignment_at",
    "alignment_hits",
    "alignment_score",
    "examples_of",
    "find_fields",
    "load_model",
    "render",
    "spelled_alignment_score",
    "trace_translation",
    "train_model",
    "translate",
]
