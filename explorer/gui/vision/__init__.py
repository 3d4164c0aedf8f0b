"""The Vision tab's widgets and pictures (the tab itself is explorer/gui/views/vision.py).

- ``bars``: a bar chart (probabilities per class, channel weights sorted), clickable;
- ``curves``: loss and accuracy curves of a training run, drawn with QPainter;
- ``drawing``: the canvas a teacher paints a shape on;
- ``figures``: the heatmap figures built from a VisionTrace (the tab and the export share them);
- ``worked``: one channel's squeeze and excite, one position's spatial score, as HTML;
- ``training``: a training run on its own thread, its progress brought to the GUI thread;
- ``pages``: the tab's pages (picture, channel, spatial, residual, compare, train).
"""
