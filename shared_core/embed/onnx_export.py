"""The one-time export of a mean-pooling sentence-transformers model to ONNX."""

from __future__ import annotations

import json
import logging
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any

from ..errors import ConfigError

__all__ = ["ONNX_FORMAT_VERSION", "export_onnx"]

logger = logging.getLogger(__name__)

ONNX_FORMAT_VERSION = 1


def export_onnx(target: str, model_dir: Path) -> None:
    """Export a mean-pooling sentence-transformers model to ``model_dir`` atomically."""
    import torch

    from .models import load_sentence_transformer

    st = load_sentence_transformer(target, "cpu", None)
    modules = [type(m).__name__ for m in st]
    pooling = st[1].get_config_dict() if len(st) > 1 else {}
    if modules[:2] != ["Transformer", "Pooling"] or pooling.get("pooling_mode") != "mean":
        raise ConfigError(f"OnnxEmbedder supports mean-pooling models only, got {modules}")
    hf_model = st[0].auto_model.eval()
    tokenizer = st.tokenizer
    input_names = ["input_ids", "attention_mask"]
    sample = tokenizer(["a short sample", "another one"], padding=True, return_tensors="pt")
    if "token_type_ids" in sample:
        input_names.append("token_type_ids")

    class _Encoder(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any = None) -> Any:
            kwargs = {"input_ids": input_ids, "attention_mask": attention_mask}
            if token_type_ids is not None:
                kwargs["token_type_ids"] = token_type_ids
            return self.inner(**kwargs).last_hidden_state

    batch, seq = torch.export.Dim("batch"), torch.export.Dim("seq")
    model_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".export-", dir=model_dir.parent))
    onnx_logger = logging.getLogger("torch.onnx")
    old_level = onnx_logger.level
    onnx_logger.setLevel(logging.ERROR)  # "torchvision is not installed" notices
    try:
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                _Encoder(hf_model),
                tuple(sample[n] for n in input_names),
                str(tmp / "model.onnx"),
                dynamo=True,
                external_data=False,
                input_names=input_names,
                output_names=["last_hidden_state"],
                dynamic_shapes={n: {0: batch, 1: seq} for n in input_names},
                verbose=False,
            )
        tokenizer.backend_tokenizer.save(str(tmp / "tokenizer.json"))
        meta = {
            "format": ONNX_FORMAT_VERSION,
            "source": target,
            "dimension": int(pooling.get("embedding_dimension") or hf_model.config.hidden_size),
            "max_seq_length": int(st.max_seq_length),
            "pad_id": int(tokenizer.pad_token_id),
            "pad_token": str(tokenizer.pad_token),
            "inputs": input_names,
        }
        (tmp / "meta.json").write_text(json.dumps(meta), "utf-8")
        try:
            tmp.rename(model_dir)
        except OSError:
            if not (model_dir / "meta.json").is_file():  # not a concurrent exporter
                raise
        logger.info("exported %s to ONNX at %s", target, model_dir)
    finally:
        onnx_logger.setLevel(old_level)
        shutil.rmtree(tmp, ignore_errors=True)
