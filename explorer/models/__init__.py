"""Qt-free weight sources: the plain-torch BERT encoder, its loader, seeded random weights."""
