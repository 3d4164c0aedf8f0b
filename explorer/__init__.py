"""Attention Explorer: watch attention compute, number by number."""
