"""What API_VERSION promises (docs/api.md). When one of these fails, the API changed: keep the old
behaviour, or raise the major number of explorer.API_VERSION and say so in CHANGELOG.md
(adding a function or an optional parameter is a minor change: add it here and to the docs)."""

from __future__ import annotations

import dataclasses
import inspect
import re
import typing
from pathlib import Path

import explorer
from explorer import api
from explorer.core import config as core_config
from explorer.core.decoding import ABLATIONS, DECODINGS
from explorer.core.trace import AttentionTrace
from explorer.messages import MessageError
from explorer.seq2seq import spec as lab_spec
from explorer.seq2seq.trace import TranslationTrace
from explorer.vision.models import VARIANTS
from explorer.vision.trace import VisionTrace

ROOT = Path(__file__).resolve().parents[2]
P, K = inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY

PROMISED = {
    "trace": (
        [
            ("sentence", P, inspect.Parameter.empty),
            ("query", P, None),
            ("model", K, "minilm"),
            ("model_dir", K, None),
            ("layer", K, 0),
            ("all_layers", K, True),
            ("device", K, "auto"),
            ("strict_device", K, False),
            ("convert_weights", K, False),
            ("next_tokens", K, 0),
            ("generate", K, 0),
            ("decoding", K, "greedy"),
            ("decoding_temperature", K, 1.0),
            ("top_k", K, 0),
            ("ablate", K, None),
            ("ablation", K, "zero"),
            ("options", inspect.Parameter.VAR_KEYWORD, inspect.Parameter.empty),
        ],
        "AttentionTrace",
    ),
    "translate": (
        [
            ("source", P, inspect.Parameter.empty),
            ("model", K, "bahdanau"),
            ("scoring", K, None),
            ("attention", K, "soft"),
            ("seed", K, 0),
            ("checkpoint", K, None),
        ],
        "TranslationTrace",
    ),
    "vision": (
        [
            ("image", P, None),
            ("generate", K, None),
            ("model", K, None),
            ("checkpoint", K, None),
            ("device", K, "auto"),
        ],
        "VisionTrace | ViTTrace",
    ),
    "view": (
        [("traced", P, inspect.Parameter.empty), ("language", P, "en"), ("head", P, 0)],
        "View",
    ),
}


def test_the_version_is_major_dot_minor():
    assert re.fullmatch(r"\d+\.\d+", explorer.API_VERSION)
    assert explorer.API_VERSION == api.API_VERSION


def test_the_package_offers_the_promised_names():
    assert set(explorer.__all__) == {"API_VERSION", "ExplorerError", *PROMISED}
    for name in PROMISED:
        assert getattr(explorer, name) is getattr(api, name) or name == "vision"


def test_each_function_keeps_its_parameters_defaults_and_result():
    for name, (parameters, returns) in PROMISED.items():
        signature = inspect.signature(getattr(api, name))
        found = [(p.name, p.kind, p.default) for p in signature.parameters.values()]
        assert found == parameters, name
        assert signature.return_annotation == returns, name


def test_trace_options_are_every_other_setting_of_the_command():
    explicit = {"sentence", "query", "model", "model_dir", "layer", "device"}
    settings = {f.name for f in dataclasses.fields(core_config.AttentionConfig)}
    assert set(api.TraceOptions.__annotations__) == settings - explicit
    assert typing.get_args(api.Scoring) == core_config.SCORINGS
    assert typing.get_args(api.Scale) == core_config.SCALES
    assert typing.get_args(api.Hardness) == core_config.ATTENTIONS == lab_spec.ATTENTIONS
    assert typing.get_args(api.WeightSource) == core_config.WEIGHT_SOURCES
    assert typing.get_args(api.TranslationModel) == lab_spec.MODELS
    assert typing.get_args(api.TranslationScoring) == lab_spec.SCORINGS
    assert typing.get_args(api.VisionModel) == (*VARIANTS, "vit")
    assert typing.get_args(api.Decoding) == DECODINGS and typing.get_args(api.Ablation) == ABLATIONS


def test_refusals_are_one_documented_type():
    assert issubclass(explorer.ExplorerError, ValueError) and issubclass(explorer.ExplorerError, MessageError)
    assert isinstance(inspect.getattr_static(explorer.ExplorerError, "key"), property)


def test_the_returned_objects_keep_what_the_docs_show():
    attention = {f.name for f in dataclasses.fields(AttentionTrace)}
    assert {
        "tokens_query",
        "tokens_key",
        "weights",
        "scores",
        "Q",
        "K",
        "V",
        "output",
        "notices",
        "layer_weights",
    } <= attention
    translation = {f.name for f in dataclasses.fields(TranslationTrace)}
    assert {"source_tokens", "output_tokens", "alignment", "weights", "stages", "notices"} <= translation
    for cls in (AttentionTrace, TranslationTrace):
        for method in ("save", "to_html", "page", "_repr_html_"):
            assert callable(getattr(cls, method)), (cls, method)
    for method in ("save", "stage", "block"):
        assert callable(getattr(VisionTrace, method))


def test_the_changelog_names_the_current_version():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"Python API {explorer.API_VERSION}" in changelog


def test_the_docs_show_each_function():
    docs = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert f'API_VERSION` is `"{explorer.API_VERSION}"`' in docs
    for name in PROMISED:
        assert f"explorer.{name}(" in docs, name
