from explorer.seq2seq.spec import GRU_MODELS, SCORINGS

# Every (model, scoring) the lab ships a checkpoint for, in resources/seq2seq/<model>-<scoring>/.
GRU_PAIRS = [(m, s) for m in GRU_MODELS for s in SCORINGS]
ALL_PAIRS = [*GRU_PAIRS, ("transformer", "scaled-dot")]
