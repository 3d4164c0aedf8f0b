"""Trial 8 F15: the ViT heads page's bar labels agree with their bars and the dashed line.

On main e7f0a87 the self shares were written with 2 decimals (0.0049 -> "0.00", 0.0149 -> "0.01"),
and labels sat on the dashed line: both assertions below failed there."""

import numpy as np

from explorer.gui.labs.vision.vit_pictures import HeadBars


def test_self_share_labels_agree_with_bars_and_the_uniform_line(qtbot):
    bars = HeadBars()
    qtbot.addWidget(bars)
    bars.resize(600, 320)
    uniform = 1 / 65
    values = np.array([[0.0172, 0.0213, 0.0205, 0.0158], [0.0049, 0.0149, 0.0162, 0.0240]])
    bars.show_bars(values, "self share", "layer", uniform, "dashed: an even spread, 1/65", digits=2)
    ref_y = bars.reference_y()
    labels = bars.labels()
    assert len(labels) == values.size
    for text, where, _box, value in labels:
        written = float(text)
        assert abs(written - value) <= 0.01 * value, (text, value)  # 3 significant digits
        assert (written > uniform) == (value > uniform), (text, value)
        assert not (where.top() - 1 <= ref_y <= where.bottom() + 1), (text, where, ref_y)  # off the line
