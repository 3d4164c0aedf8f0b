"""Qt-free weight sources: encoder folders (BERT, RoBERTa, XLM-R, DistilBERT) checked and
loaded into one plain-torch forward, and seeded random weights."""
