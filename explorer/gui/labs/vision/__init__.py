"""The vision lab's tab (explorer.vision is its Qt-free package, explorer.appstate.vision its
state): ``view`` the tab, ``pages`` its pages, ``figures`` the heatmap figures built from a
VisionTrace (the tab and the export share them), ``bars`` its bar charts, ``drawing`` the canvas
a teacher paints on, ``worked`` one channel's or position's arithmetic as HTML, ``training``
what its training page draws, ``export`` its figures."""
