"""The language-model lab's tab (explorer.lm is its Qt-free package, explorer.appstate.lm its
state and lm_jobs what the worker computes): ``view`` the tab, ``heads`` the matrices built
from a result (the tab and the export share them), ``training`` what its training page
draws, ``export`` its figures."""
