"""Tiny random decoder folders (GPT-2, Llama, Mistral, Qwen2), written offline with transformers.

Hidden 32, 3 layers, 4 query heads over 2 K/V heads (GPT-2: 4 heads): small enough to build
in well under a second, large enough that a wrong rotation, a missing bias, a K/V head read
by the wrong query head or a window off by one changes every number. The tokenizers are real
tokenizer.json files trained here: byte-level BPE (GPT-2, Qwen2, Llama 3) and SentencePiece
BPE with byte fallback (Llama 2, Mistral), so Chinese characters split into byte tokens.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch

from tests.models.tiny import CORPUS

ENGLISH = "the animal did not cross the street because it was too tired"
CHINESE = "这只动物没有过马路，因为它太累了。我爱北京"
LONG = " ".join(CORPUS[:5] * 3) + " 注意力 attention"  # about 300 tokens in every tiny tokenizer
TEXTS = {"english": ENGLISH, "chinese": CHINESE, "long": LONG}
LAYERS, HEADS, KV_HEADS, WIDTH, FFN, POSITIONS = 3, 4, 2, 32, 64, 400
ENGLISH_ONLY = [line for line in CORPUS if line.isascii()]
_TRAINED: dict[tuple, str] = {}  # tokenizers trained once per kind (training is deterministic)
_REFERENCES: dict[Path, object] = {}  # transformers' model of each folder built here, float32


def _cached(key: tuple, train):
    from tokenizers import Tokenizer

    if key not in _TRAINED:
        _TRAINED[key] = train().to_str()
    return Tokenizer.from_str(_TRAINED[key])


def byte_level_tokenizer(specials: list[str], bos: str | None = None):
    """GPT-2's kind (and Qwen2's, Llama 3's): bytes as printable stand-ins, merges learnt here."""
    return _cached(("byte_level", tuple(specials), bos), lambda: _byte_level(specials, bos))


def _byte_level(specials: list[str], bos: str | None):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=500, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tok.train_from_iterator(ENGLISH_ONLY, trainer)  # Chinese stays in byte tokens
    if bos is None:
        tok.post_processor = processors.ByteLevel(trim_offsets=False)
    else:
        tok.post_processor = processors.TemplateProcessing(
            single=f"{bos} $A", pair=f"{bos} $A {bos} $B", special_tokens=[(bos, tok.token_to_id(bos))]
        )
    return tok


def byte_fallback_tokenizer(add_bos_template: bool = True):
    """Llama 2's and Mistral's kind: "▁" for a space, "<0xE6>" for a byte with no piece of its own."""
    return _cached(("byte_fallback", add_bos_template), lambda: _byte_fallback(add_bos_template))


def _byte_fallback(add_bos_template: bool):
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True))
    tok.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
    # Pieces learnt within words (SentencePiece's do not cross a "▁"); the saved file has no
    # pre-tokenizer, as Llama 2's has none.
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="never", split=True)
    tok.decoder = decoders.Sequence(
        [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]
    )
    trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=["<unk>", "<s>", "</s>"])
    tok.train_from_iterator(ENGLISH_ONLY, trainer)
    data = json.loads(tok.to_str())
    vocab = data["model"]["vocab"]
    pieces = sorted(vocab, key=vocab.get)
    # SentencePiece's layout: the specials, then the 256 byte pieces, then the learnt pieces.
    ordered = pieces[:3] + [f"<0x{b:02X}>" for b in range(256)] + pieces[3:]
    data["model"]["vocab"] = {piece: i for i, piece in enumerate(ordered)}
    data["pre_tokenizer"] = None
    tok = Tokenizer.from_str(json.dumps(data))
    if add_bos_template:
        tok.post_processor = processors.TemplateProcessing(
            single="<s> $A", pair="<s> $A <s> $B", special_tokens=[("<s>", tok.token_to_id("<s>"))]
        )
    return tok


def save_tokenizer(tok, folder: Path, **settings) -> int:
    """tokenizer.json (and tokenizer_config.json with ``settings``) as transformers saves them."""
    import transformers

    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, **settings)
    fast.save_pretrained(str(folder))
    return max(tok.get_vocab(with_added_tokens=True).values()) + 1


def randomise(model, seed: int) -> None:
    """Every parameter away from its init (biases 0, norms 1), so each one matters."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            noise = torch.randn(p.shape, generator=gen)
            is_norm = any(k in name for k in ("ln_", "layernorm", "norm.weight", "norm.bias"))
            p.copy_(1 + 0.1 * noise if is_norm and name.endswith("weight") else 0.25 * noise)


def build(folder: Path, family: str = "llama", dtype: torch.dtype = torch.float32, seed: int = 0,
          tokenizer: str | None = None, tokenizer_settings: dict | None = None, **config_changes) -> Path:  # fmt: skip
    """Write a tiny ``family`` folder (gpt2, llama, llama3, mistral, qwen2) saved as transformers saves it."""
    import transformers

    folder.mkdir(parents=True, exist_ok=True)
    kind = tokenizer or {"gpt2": "gpt2", "qwen2": "gpt2", "llama3": "llama3"}.get(family, "fallback")
    if kind == "gpt2":
        vocab = save_tokenizer(
            byte_level_tokenizer(["<|endoftext|>"]),
            folder,
            **(tokenizer_settings or {"eos_token": "<|endoftext|>"}),
        )
        bos = eos = 0
    elif kind == "llama3":
        tok = byte_level_tokenizer(["<|begin_of_text|>", "<|end_of_text|>"], bos="<|begin_of_text|>")
        vocab = save_tokenizer(tok, folder, **(tokenizer_settings or {"bos_token": "<|begin_of_text|>"}))
        bos, eos = 0, 1
    else:
        settings = tokenizer_settings or {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}
        vocab = save_tokenizer(byte_fallback_tokenizer(), folder, **settings)
        bos, eos = 1, 2
    model_type = "llama" if family == "llama3" else family
    if model_type == "gpt2":
        config = transformers.GPT2Config(
            vocab_size=vocab, n_positions=POSITIONS, n_embd=WIDTH, n_layer=LAYERS, n_head=HEADS,
            n_inner=FFN, bos_token_id=bos, eos_token_id=eos, **config_changes,
        )  # fmt: skip
        model_class = transformers.GPT2LMHeadModel
    else:
        settings = dict(
            vocab_size=vocab, hidden_size=WIDTH, intermediate_size=FFN, num_hidden_layers=LAYERS,
            num_attention_heads=HEADS, num_key_value_heads=KV_HEADS, max_position_embeddings=POSITIONS,
            bos_token_id=bos, eos_token_id=eos, rms_norm_eps=1e-5,
        )  # fmt: skip
        settings.update(config_changes)
        config_class, model_class = {
            "llama": (transformers.LlamaConfig, transformers.LlamaForCausalLM),
            "mistral": (transformers.MistralConfig, transformers.MistralForCausalLM),
            "qwen2": (transformers.Qwen2Config, transformers.Qwen2ForCausalLM),
        }[model_type]
        config = config_class(**settings)
    torch.manual_seed(seed)
    model = model_class(config).eval()
    randomise(model, seed)
    model.to(dtype).save_pretrained(str(folder))
    if dtype == torch.float32:  # (a 16-bit copy's rotary buffers were rounded too: read it back)
        model.set_attn_implementation("eager")
        _REFERENCES[folder.resolve()] = model
    return folder


def reference(folder: Path):
    """transformers' own causal LM for the folder, eager attention, float32 (the model built
    here, else read back from the folder)."""
    import transformers

    built = _REFERENCES.get(Path(folder).resolve())
    if built is not None:
        return built
    return transformers.AutoModelForCausalLM.from_pretrained(
        str(folder), attn_implementation="eager", dtype=torch.float32
    ).eval()


def reference_outputs(ref, ids: list[int]):
    with torch.no_grad():
        out = ref(torch.tensor([ids]), output_attentions=True)
    return [a[0] for a in out.attentions], out.logits[0]
