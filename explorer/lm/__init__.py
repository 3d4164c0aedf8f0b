"""The language-model lab, Qt-free: a tiny GPT-2 learns while the class watches, and induction
heads form (Olsson et al. 2022). What a tab needs, module by module:

The model (model.py, folders.py, vocab.py):
    GPT(GPTConfig(...)): GPT-2's architecture and tensor names; ``model(ids, off={(layer, head)},
        record=True)`` → LMOutput(logits, layers): each layer's input X and every stage of
        explorer.core's ``attend`` (q, k, v, scores, scaled, causal mask, weights, head outputs, …).
    load_shipped("induction" | "text") → LMFolder(model, vocab, folder, record), cached;
        load_folder(dir) for any folder ``train --model gpt`` wrote (or another GPT-2 folder);
        save_folder(dir, model, vocab, record). CharVocab: encode (refuses unknown characters
        with one keyed message), decode, token.

The probe and the measures (tasks.py, measures.py, ablation.py):
    probe_for(vocab) → [16, 48] rows of 24 random tokens repeated once (the same
        every run); probe_measures(model, probe, period) → first- and repeated-half loss and
        HeadScores (previous_token, induction, first_token: [layers, heads] each;
        .induction_heads, .previous_token_heads); ranking(scores.induction).
    head_scores(weights_per_layer, period): the same scores from any decoder's attention.
    phase_change(steps, first_half, repeated_half): the step where the repeated half's loss
        pulls away from the first half's fastest (induction), or None.
    ablate(model, probe, period, heads) → Ablation(repeated_half_loss, change): the causal test.

Training, on the caller's (worker) thread (train.py):
    train_lm(LMSpec(task, mlp=…), TrainOptions (DEFAULTS[task]), on_progress, should_stop,
        measures) → LMTrainResult(model, config, vocab, log, device, notices,
        phase_change_step); GOAL the window times; explorer.training's Progress
        per step, its metrics at evaluations (``induction/1.2``, ``repeated_half_loss``, …),
        a snapshot every 25 steps; cancel raises explorer.training.TrainingCancelled.
    score_curves(log, config) → per score [evaluations, layers, heads]; model_at(config,
        snapshot) → the model at that snapshot (the scrubber).

Looking at a text (trace.py):
    trace_text(model, vocab, text, off) → LMTrace: .layer(i) is an explorer.core AttentionTrace
        (the Pipeline tab's panels and worked arithmetic apply), .weights [layers, heads, n, n],
        .losses per position, .top predictions.

Writing text (generate.py):
    generate(model, vocab, prompt, GenerationSpec(...)) → LMGeneration: each new token, the
        model's probability of it and the attention that chose it; generate_steps yields them
        one at a time (the window's worker asks for each in turn).

What a trained model learned (report.py): model_report(model, vocab, task).
Errors meant for the user are ``LMError`` (a ValueError) with a one-line ``lm.*`` message.
"""

from explorer.lm import messages as messages  # registers the lm.* templates
