"""The language-model lab, Qt-free: a tiny GPT-2 learns, and induction heads form."""

from explorer.lm import messages as messages  # registers the lm.* templates
