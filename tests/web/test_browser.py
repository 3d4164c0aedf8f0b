"""The page and the notebook view in a real browser (headless Chromium over the DevTools
protocol): nothing is requested beyond the file, switching head and layer changes the drawing,
the hovered number is the trace's, both languages, light and dark."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from explorer.core.config import AttentionConfig
from explorer.web import fragment, write_page
from explorer.web import page as page_module

VIEW = "document.querySelector('.ae-view')"


def opened(browser, tmp_path, page, language="en", dark=False, name="page.html"):
    path = write_page(tmp_path / name, page, language)
    tab = browser.open(path.as_uri(), dark=dark)
    assert tab.evaluate(f"Number({VIEW}.dataset.draws)") >= 1, tab.errors()
    return tab


def centre(tab, selector: str) -> tuple[float, float]:
    box = tab.evaluate(f"document.querySelector({json.dumps(selector)}).getBoundingClientRect().toJSON()")
    return box["left"] + box["width"] / 2, box["top"] + box["height"] / 2


def drawing(tab, canvas: str = "ae-heatmap") -> str:
    return tab.evaluate(f"document.querySelector('.{canvas}').toDataURL()")


def hover_cell(tab, i: int, j: int) -> dict:
    point = tab.evaluate(f"{VIEW}.aeView.cell_center({i}, {j})")
    tab.move(point["x"], point["y"])
    return tab.evaluate(
        "(() => { const r = document.querySelector('.ae-readout');"
        " return {value: r.dataset.value, query: r.dataset.query, key: r.dataset.key, text: r.textContent}; })()"
    )


def rgb(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", text)[:3])


def test_the_page_opens_offline_and_asks_for_nothing_but_itself(browser, tmp_path, animal):
    tab = opened(browser, tmp_path, animal.page())
    assert tab.requests() == [(tmp_path / "page.html").as_uri()]
    assert tab.errors() == []
    assert tab.evaluate("document.title").startswith("Attention Explorer · The animal")
    assert tab.evaluate(f"{VIEW}.dataset.layer") == "5" and tab.evaluate(f"{VIEW}.dataset.head") == "0"
    assert tab.evaluate("document.querySelectorAll('.ae-thumb canvas').length") == 12
    assert tab.evaluate("document.querySelectorAll('.ae-layers button').length") == 6
    assert isinstance(tab.evaluate("window.__aeFirstDraw"), (int, float))


def test_the_network_check_sees_a_request_when_there_is_one(browser, tmp_path):
    """The check above can fail: a page that asks for an image is caught asking."""
    page = tmp_path / "asks.html"
    page.write_text('<!DOCTYPE html><img src="http://192.0.2.7/picture.png"><p>hello</p>', encoding="utf-8")
    tab = browser.open(page.as_uri())
    assert "http://192.0.2.7/picture.png" in tab.requests()


def test_switching_head_and_layer_changes_what_is_drawn(browser, tmp_path, animal):
    tab = opened(browser, tmp_path, animal.page())
    heat, lines = drawing(tab), drawing(tab, "ae-lines")
    tab.click(*centre(tab, ".ae-heads button[data-index='11']"))
    assert tab.evaluate(f"{VIEW}.dataset.head") == "11"
    assert drawing(tab) != heat and drawing(tab, "ae-lines") != lines
    heat = drawing(tab)
    tab.click(*centre(tab, ".ae-layers button[data-index='2']"))
    assert tab.evaluate(f"{VIEW}.dataset.layer") == "2"
    assert drawing(tab) != heat
    tab.click(*centre(tab, ".ae-thumb[data-index='3'] canvas"))  # a thumbnail picks its head
    assert tab.evaluate(f"{VIEW}.dataset.head") == "3"
    assert tab.errors() == []


def test_the_hovered_value_is_the_traces_number(browser, tmp_path, animal):
    tab = opened(browser, tmp_path, animal.page(head=11))
    it, animal_token = animal.tokens_query.index("it"), animal.tokens_key.index("animal")
    for layer in (5, 1):
        if layer != 5:
            tab.click(*centre(tab, f".ae-layers button[data-index='{layer}']"))
        for i, j in ((it, animal_token), (0, 0), (len(animal.tokens_query) - 1, 3)):
            shown = hover_cell(tab, i, j)
            expected = float(animal.layer_weights[layer, 11, i, j])
            assert (int(shown["query"]), int(shown["key"])) == (i, j)
            assert float(shown["value"]) == expected  # the float32 itself, not a rounding of it
            assert f"{expected:.4f}" in shown["text"] and f"layer {layer}, head 11" in shown["text"]
    # the selected query's weights: its largest key first
    point = tab.evaluate(f"{VIEW}.aeView.token_center('query', {it})")
    tab.click(point["x"], point["y"])
    first = tab.evaluate("document.querySelectorAll('.ae-bars > span')[2].textContent")
    assert first == animal.tokens_key[int(np.argmax(animal.layer_weights[1, 11, it]))]


def test_a_rounded_page_says_so_where_it_shows_a_number(browser, tmp_path, animal, monkeypatch):
    monkeypatch.setattr(page_module, "FLOAT_VALUES", 1000)
    tab = opened(browser, tmp_path, animal.page(head=11))
    assert "rounded to multiples of 1/255" in tab.evaluate("document.querySelector('.ae-notes').textContent")
    shown = hover_cell(tab, 3, 2)
    assert abs(float(shown["value"]) - float(animal.layer_weights[5, 11, 3, 2])) <= 0.5 / 255 + 1e-7
    assert "≈" in shown["text"]


def test_both_languages_are_on_the_page_and_the_option_picks_the_first(browser, tmp_path, animal):
    tab = opened(browser, tmp_path, animal.page(), language="zh_CN")
    assert tab.evaluate("document.querySelector('.ae-view h2').textContent").startswith("注意力探索器 · ")
    assert tab.evaluate(f"{VIEW}.lang") == "zh-Hans"
    assert "这一层的每一个头" in tab.evaluate("document.querySelector('.ae-view').textContent")
    tab.click(*centre(tab, "button[data-lang='en']"))
    assert tab.evaluate("document.querySelector('.ae-view h2').textContent").startswith(
        "Attention Explorer · "
    )
    assert "Every head of this layer" in tab.evaluate(f"{VIEW}.textContent")
    assert "模型" not in tab.evaluate("document.querySelector('.ae-settings').textContent")


def test_the_page_follows_the_browsers_dark_scheme(browser, tmp_path, animal):
    for dark in (False, True):
        tab = opened(browser, tmp_path, animal.page(), dark=dark, name=f"page-{dark}.html")
        background = rgb(tab.evaluate(f"getComputedStyle({VIEW}).backgroundColor"))
        text = rgb(tab.evaluate(f"getComputedStyle({VIEW}).color"))
        corner = tab.evaluate(
            "Array.from(document.querySelector('.ae-heatmap').getContext('2d').getImageData(1, 1, 1, 1).data)"
        )
        if dark:
            assert max(background) < 60 and min(text) > 180 and max(corner[:3]) < 60
        else:
            assert min(background) > 240 and max(text) < 80 and min(corner[:3]) > 240


def test_the_notebook_view_follows_a_jupyterlab_dark_theme(browser, tmp_path, engine):
    trace = engine.trace(AttentionConfig(sentence="a b c d", weights="random", d_model=16, device="cpu"))
    page = tmp_path / "lab.html"
    page.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"></head>'
        '<body data-jp-theme-light="false" style="--jp-layout-color0: #111111; --jp-ui-font-color1: #eeeeee">'
        f"{fragment(trace.page())}<div>{fragment(trace.page())}</div></body></html>",
        encoding="utf-8",
    )
    tab = browser.open(page.as_uri())
    assert tab.errors() == []
    assert tab.evaluate("document.querySelectorAll('.ae-view.ae-dark').length") == 2  # two cells, two views
    assert rgb(tab.evaluate(f"getComputedStyle({VIEW}).backgroundColor")) == (17, 17, 17)
    corner = tab.evaluate(
        "Array.from(document.querySelector('.ae-heatmap').getContext('2d').getImageData(1, 1, 1, 1).data)"
    )
    assert corner[:3] == [17, 17, 17]
    tab.evaluate("document.body.dataset.jpThemeLight = 'true'; document.body.style.cssText = ''")
    tab.evaluate("new Promise(r => setTimeout(r, 50))")  # the observer redraws
    assert tab.evaluate("document.querySelectorAll('.ae-view.ae-dark').length") == 0


def test_a_translation_page_switches_between_its_attentions(browser, tmp_path):
    import explorer

    trace = explorer.translate("9 mai 2018", model="transformer")
    tab = opened(browser, tmp_path, trace.page())
    assert tab.evaluate("document.querySelectorAll('.ae-which option').length") == 3
    cross = drawing(tab)
    point = tab.evaluate(f"{VIEW}.aeView.cell_center(0, 5)")
    tab.move(point["x"], point["y"])
    value = float(tab.evaluate("document.querySelector('.ae-readout').dataset.value"))
    assert value == float(trace.stages["cross"][1].weights[0, 0, 5])
    tab.evaluate("(() => { const s = document.querySelector('.ae-which'); s.value = '2';"
                 " s.dispatchEvent(new Event('change')); })()")  # fmt: skip
    assert tab.evaluate(f"{VIEW}.aeView.set().meta.name") == "encoder_self"
    assert drawing(tab) != cross and tab.errors() == []


def test_tokens_that_look_like_markup_stay_text(browser, tmp_path, engine):
    evil = 'x </script><script>window.hacked = 1</script> <img src=y onerror="window.hacked = 2"> z'
    trace = engine.trace(AttentionConfig(sentence=evil, weights="random", d_model=16, device="cpu"))
    tab = opened(browser, tmp_path, trace.page())
    assert tab.evaluate("window.hacked === undefined") and tab.errors() == []
    assert tab.evaluate("document.querySelectorAll('img').length") == 0
    assert tab.requests() == [(tmp_path / "page.html").as_uri()]
    assert evil in tab.evaluate("document.querySelector('.ae-view h2').textContent")


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_gru_translation_has_one_head_and_no_switches(browser, tmp_path, language):
    import explorer

    trace = explorer.translate("9 mai 2018")
    tab = opened(browser, tmp_path, trace.page(), language=language, name=f"gru-{language}.html")
    assert tab.evaluate("document.querySelectorAll('.ae-controls button').length") == 0
    shown = hover_cell(tab, 3, 7)
    assert float(shown["value"]) == float(trace.weights[3, 7])
