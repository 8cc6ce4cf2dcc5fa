"""``corpus/manifest.yaml``: read, validated against a schema, and confined.

The manifest is data a build trusts to name files and a download, so it is checked before
anything it names is touched:

* its shape against :data:`SCHEMA` (JSON Schema, draft 2020-12);
* every input ``path`` is relative, without ``..``, and stays inside the corpus folder once
  symbolic links are followed;
* the reference's ``mirror_name`` is a plain file name (it cannot leave the mirror folder);
* the reference ``url`` is ``https`` to a host in :data:`ALLOWED_HOSTS`, and a download
  needs the ``sha256`` it is checked against.

Every violation is one :class:`~pipeline.errors.InputError` naming the manifest and the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

import yaml

from .errors import InputError
from .io import read_bounded

#: Hosts a manifest may download the reference edition from (Wizards of the Coast's own).
ALLOWED_HOSTS = frozenset({"media.wizards.com", "magic.wizards.com"})
#: A manifest is a short hand-written file; anything larger is not one.
MAX_MANIFEST_BYTES = 1 << 20
ROLES = ("translation", "rulings", "cards")

_SHA256 = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "reference": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "edition": {"type": "string", "pattern": r"^(\d{4}-\d{2}-\d{2}|latest)$"},
                "language": {"const": "en"},
                "mirror_name": {"type": "string", "pattern": r"^[A-Za-z0-9][A-Za-z0-9._ -]{0,120}$"},
                "url": {"type": "string", "maxLength": 2000},
                "sha256": _SHA256,
            },
            "dependentRequired": {"url": ["sha256"]},
        },
        "inputs": {
            "type": "array",
            "maxItems": 1000,
            "items": {
                "type": "object",
                "required": ["path", "role"],
                "properties": {
                    "path": {"type": "string", "minLength": 1, "maxLength": 1000},
                    "role": {"enum": list(ROLES)},
                    "language": {"type": "string", "pattern": "^[a-z]{2}$"},
                    "card_language": {"type": "string", "pattern": "^[a-z]{2}$"},
                    "note": {"type": "string"},
                },
            },
        },
    },
}


@dataclass
class Input:
    path: Path
    language: str
    role: str
    name: str
    extra: dict = field(default_factory=dict)


def _yaml_error(e: yaml.YAMLError) -> str:
    mark = getattr(e, "problem_mark", None)
    problem = getattr(e, "problem", None) or str(e).splitlines()[0]
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    return f"manifest is not valid YAML: {where}{problem}"


def _where(path) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the top level"


def _schema_error(manifest: object) -> str | None:
    from jsonschema import Draft202012Validator  # heavy: loaded only when a manifest is checked
    from jsonschema.exceptions import best_match  # heavy: loaded only when a manifest is checked

    err = best_match(Draft202012Validator(SCHEMA).iter_errors(manifest))
    if err is None:
        return None
    msg = err.message if len(err.message) <= 160 else err.message[:157] + "…"
    return f"manifest does not fit its schema at {_where(err.absolute_path)}: {msg}"


def check_url(url: str, hosts=ALLOWED_HOSTS) -> str | None:
    """Why ``url`` may not be downloaded, or None when it may."""
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return f"reference.url {url[:80]!r} is not a URL"
    if parts.scheme != "https":
        return f"reference.url must be https (got {parts.scheme or 'no scheme'!r})"
    if host not in hosts:
        return f"reference.url host {host or '(none)'!r} is not one we download from ({', '.join(sorted(hosts))})"
    if parts.username or parts.password or (parts.port not in (None, 443)):
        return "reference.url may not carry credentials or another port"
    return None


def confined(corpus: Path, rel: str, where: str, mpath: Path) -> Path:
    """``corpus / rel``, refused unless it stays inside ``corpus`` (symbolic links followed)."""
    pure = PurePosixPath(rel.replace("\\", "/"))
    if pure.is_absolute() or Path(rel).is_absolute() or (rel[1:3] == ":/" or rel[1:3] == ":\\"):
        raise InputError(f"{where}: {rel[:120]!r} is an absolute path; paths are relative to the corpus folder", mpath)
    if ".." in pure.parts:
        raise InputError(f"{where}: {rel[:120]!r} leaves the corpus folder ('..')", mpath)
    p = corpus / pure
    root = corpus.resolve()
    if not p.resolve().is_relative_to(root):
        raise InputError(f"{where}: {rel[:120]!r} leads outside the corpus folder (a symbolic link)", mpath)
    return p


def load_manifest(corpus: Path, hosts=ALLOWED_HOSTS) -> tuple[dict, list[Input]]:
    """The manifest of ``corpus`` (a dict, checked) and its inputs."""
    corpus = Path(corpus)
    mpath = corpus / "manifest.yaml"
    if not mpath.is_file():
        raise InputError("no manifest.yaml in the corpus folder", corpus)
    data = read_bounded(mpath, MAX_MANIFEST_BYTES, what="manifest", env=None)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"manifest is not UTF-8 (byte {e.start})", mpath) from None
    try:
        manifest = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise InputError(_yaml_error(e), mpath) from None
    except RecursionError:
        raise InputError("manifest is nested too deeply", mpath) from None
    if manifest is None:
        manifest = {}
    why = _schema_error(manifest)
    if why:
        raise InputError(why, mpath)
    ref = manifest.get("reference") or {}
    if ref.get("url"):
        why = check_url(ref["url"], hosts)
        if why:
            raise InputError(why, mpath)
    inputs = []
    for i, item in enumerate(manifest.get("inputs") or []):
        p = confined(corpus, item["path"], f"inputs[{i}].path", mpath)
        inputs.append(Input(p, item.get("language", "en"), item["role"], p.stem,
                            {k: v for k, v in item.items() if k not in ("path", "language", "role")}))
    return manifest, inputs


def mirror_file(mirror: Path, name: str) -> Path:
    """``mirror / name`` for a plain file name (the schema already refuses separators)."""
    if "/" in name or "\\" in name or name in (".", ".."):
        raise InputError(f"reference.mirror_name {name[:120]!r} is not a plain file name", mirror)
    return mirror / name
