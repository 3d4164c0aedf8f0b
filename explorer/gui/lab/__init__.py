"""The window parts every lab shares (the labs' own tabs are explorer/gui/labs/<lab>/):

- ``training``: ``TrainingPage`` (the plan, Train and Cancel, progress, the curves, the
  scrubber with Replay, the shipped checkpoint or the run's weights) and ``TrainingContent``,
  what a lab says and draws on it;
- ``curves``: ``CurvePlot``, the one curve widget (pyqtgraph), ``Curves``/``Series`` its data,
  ``CurvesPicture`` the same plots painted for an export;
- ``stages``: ``StagePanels``, the Pipeline's stage panels of one attention of a lab's model;
- ``export``: ``training_curves``, a lab's curves as a figure the Export dialog offers;
- ``warm``: the labs' slow first imports (pyqtgraph, torch's optimiser) on a thread of their own.
"""
