"""The lesson numbers heads as the panels beside it do, from 0 (trial 7 N4: step 4's formula
said Q₁…Q_h beside a panel titled Q₀…Q₁₁, step 10's z⁽¹⁾…z⁽ʰ⁾ beside "head 0 ⋯ head 11")."""

from __future__ import annotations

from explorer.appstate.lesson import STEPS, step_index


def test_the_heads_and_concat_formulas_count_heads_from_zero():
    split = STEPS[step_index("attention.heads")].formula
    concat = STEPS[step_index("attention.concat")].formula
    assert split.index("Q₀") < split.index("Qₕ₋₁") and "Q_h" not in split
    assert concat.index("z⁽⁰⁾") < concat.index("z⁽ʰ⁻¹⁾") and "z⁽ʰ⁾" not in concat
