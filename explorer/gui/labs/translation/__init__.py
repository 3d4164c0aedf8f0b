"""The translation lab's tab (explorer.seq2seq is its Qt-free package, explorer.appstate.translation
its state): ``view`` the tab, ``controls`` its pickers, ``parts`` its words, panels and output
strip, ``choices`` the rows the pickers wrap onto, ``training`` what its training page draws,
``lesson`` what a lesson step points at, ``export`` its figures."""
