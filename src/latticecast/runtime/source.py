"""Reading a module: MLIR text or bytecode in, an ``ir.Module`` (or a clear error) out.

Parse and verifier failures become :class:`MLIRParseError` whose message has the
parser's ``file:line:col`` for each diagnostic and the offending source line,
instead of jaxlib's ``MLIRError`` traceback. This module also computes the two
digests the compilation cache keys on (see :mod:`.cache`).
"""

from __future__ import annotations

import hashlib
import io
import re
import threading
from collections import OrderedDict
from typing import Any, Union

from .errors import Diagnostic, MLIRParseError

__all__ = ["ModuleSource", "parse_module", "verify_module", "source_digest", "canonical_digest"]

#: What ``compile`` accepts: an ``ir.Module``, or MLIR text / bytecode.
ModuleSource = Union[str, bytes, bytearray, memoryview, Any]

_LOC = re.compile(r'loc\("(?P<file>(?:[^"\\]|\\.)*)":(?P<line>\d+):(?P<col>\d+)')
_MLIR_BYTECODE_MAGIC = b"ML\xefR"

_LOWERED_TYPES = ("xindex>", "xtf32>", "<index>", "<tf32>", "latticecast")
_MIXED_DTYPE_HINTS = ("same type", "same element type", "different type", "compatible",
                      "all of {", "must be statically shaped tensor")


def _diagnostic(diag: Any, source_name: str, severity: str | None = None) -> Diagnostic:
    loc = str(diag.location)
    match = _LOC.search(loc)
    if match is None:
        return Diagnostic(severity or _severity(diag), diag.message, loc, None, None)
    file = match.group("file")
    if file == "-":
        file = source_name
    return Diagnostic(severity or _severity(diag), diag.message, file,
                      int(match.group("line")), int(match.group("col")))


def _severity(diag: Any) -> str:
    name = str(getattr(diag, "severity", "error")).rsplit(".", 1)[-1].lower()
    return name or "error"


def _render(diags: list[Diagnostic], lines: list[str] | None, source_name: str) -> str:
    out: list[str] = []
    for d in diags:
        out.append(str(d))
        if lines is not None and d.file == source_name and d.line and 0 < d.line <= len(lines):
            src = lines[d.line - 1].rstrip("\n")
            out.append("    " + src)
            if d.column:
                out.append("    " + " " * (d.column - 1) + "^")
    return "\n".join(out)


def _mlir_error_diagnostics(err: Any, source_name: str) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for d in getattr(err, "error_diagnostics", ()) or ():
        diags.append(_diagnostic(d, source_name))
        for note in getattr(d, "notes", ()) or ():
            diags.append(_diagnostic(note, source_name, "note"))
    return diags


def _raise_from_mlir(err: Exception, *, what: str, text: str | None, source_name: str) -> None:
    diags = _mlir_error_diagnostics(err, source_name)
    lines = text.splitlines() if text is not None else None
    if diags:
        body = _render(diags, lines, source_name)
    else:  # an MLIRError without diagnostics: keep jaxlib's text, which has the position
        body = str(err).replace('"-":', f"{source_name}:")
    message = f"{what}:\n{body}"
    if any(h in d.message for d in diags for h in _MIXED_DTYPE_HINTS):
        message += ("\nhint: the runtime takes legal StableHLO. A module with mixed-dtype ops "
                    "must go through latticecast's implicit-cast pass first "
                    "(Graph.mlir() or `latticecast-opt --implicit-cast`).")
    if any(t in d.message for d in diags for t in _LOWERED_TYPES):
        message += ("\nhint: PJRT has no index, address or tf32 buffers. latticecast's "
                    "implicit-cast pass lowers index and !latticecast.address to ui64 and tf32 "
                    "to f32; run it first (Graph.mlir() or `latticecast-opt --implicit-cast`).")
    if any("unregistered dialect" in d.message for d in diags) and "latticecast" not in body:
        message += ("\nhint: the runtime runs StableHLO (with the func and chlo dialects); "
                    "other dialects must be lowered to StableHLO first.")
    raise MLIRParseError(message, diags) from None


_local = threading.local()


def runtime_context() -> Any:
    """This thread's context for parsing runtime input: jaxlib's dialects, and *no*
    unregistered ones (the builder's context allows them for lenient parsing; here an
    unknown op or ``!latticecast.address`` must be a parse error, not an XLA failure)."""
    ctx = getattr(_local, "context", None)
    if ctx is None:
        from ..dialect_utils.context import make_context

        ctx = make_context()
        ctx.allow_unregistered_dialects = False
        _local.context = ctx
    return ctx


def parse_module(source: str | bytes, *, context: Any = None,
                 source_name: str = "<input>") -> Any:
    """Parse MLIR text (or bytecode) into an ``ir.Module`` in ``context``.

    ``context`` defaults to :func:`runtime_context`. Parse and verifier errors
    raise :class:`MLIRParseError` naming ``source_name:line:col``.
    """
    from jaxlib.mlir import ir

    if isinstance(source, (bytearray, memoryview)):
        source = bytes(source)
    if not isinstance(source, (str, bytes)):
        raise TypeError(f"expected an ir.Module or MLIR text (str or bytes); got "
                        f"{type(source).__name__}")
    is_bytecode = isinstance(source, bytes) and source.startswith(_MLIR_BYTECODE_MAGIC)
    text: str | None = None
    if not is_bytecode:
        if isinstance(source, bytes):
            try:
                text = source.decode("utf-8")
            except UnicodeDecodeError as e:
                raise MLIRParseError(f"MLIR text is not UTF-8 ({e}); pass text or MLIR bytecode") from None
        else:
            text = source
        if not text.strip():
            raise MLIRParseError(f"{source_name}: the MLIR text is empty")
    ctx = context or runtime_context()
    try:
        with ctx:
            return ir.Module.parse(source if is_bytecode else text)
    except ir.MLIRError as err:
        _raise_from_mlir(err, what=f"cannot parse {source_name} as MLIR", text=text,
                         source_name=source_name)
    raise AssertionError("unreachable")


def verify_module(module: Any, *, source_name: str = "<module>") -> None:
    """Run the MLIR verifier on ``module``; failures raise :class:`MLIRParseError`."""
    from jaxlib.mlir import ir

    try:
        module.operation.verify()
    except ir.MLIRError as err:
        _raise_from_mlir(err, what=f"{source_name} does not verify as StableHLO", text=None,
                         source_name=source_name)


_MEMO_MIN = 1 << 16  # texts at least this long have their digest remembered
_MEMO_SIZE = 8
_memo: "OrderedDict[str | bytes, str]" = OrderedDict()
_memo_lock = threading.Lock()


def source_digest(source: Any) -> str:
    """A cheap digest of the module *as given*: the bytes of text, or the bytecode of a module.

    Identical input gives an identical digest; the in-memory cache answers a
    repeated ``compile`` from this digest alone, without parsing. Two texts that
    differ only in whitespace or locations get different digests here (and the
    same :func:`canonical_digest`).

    SHA-256 runs at about 2 MB/ms here, so the digests of the last few large texts
    are remembered, keyed by the text itself: compiling the same (or an equal)
    large text again costs a dict lookup (Python caches a string's hash on the
    object; an equal new string is hashed and compared, still 3x cheaper).
    """
    if isinstance(source, (str, bytes)) and len(source) >= _MEMO_MIN:
        with _memo_lock:
            digest = _memo.get(source)
            if digest is not None:
                _memo.move_to_end(source)
                return digest
        digest = _source_digest(source)
        with _memo_lock:
            _memo[source] = digest
            while len(_memo) > _MEMO_SIZE:
                _memo.popitem(last=False)
        return digest
    return _source_digest(source)


def _source_digest(source: Any) -> str:
    h = hashlib.sha256()
    if isinstance(source, str):
        h.update(b"text\0")
        h.update(source.encode("utf-8", "surrogatepass"))
    elif isinstance(source, (bytes, bytearray, memoryview)):
        h.update(b"bytes\0")
        h.update(source)
    else:
        buf = io.BytesIO()
        source.operation.write_bytecode(buf)
        h.update(b"bytecode\0")
        h.update(buf.getvalue())
    return h.hexdigest()


def canonical_digest(module: Any) -> str:
    """The digest of the module's canonical text: printed by MLIR without locations.

    This is the fingerprint of the *program*: the persistent cache keys on it, so
    it does not change with formatting, comments, SSA names or source locations.
    """
    text = module.operation.get_asm(enable_debug_info=False, binary=True)
    return hashlib.sha256(b"module\0" + text).hexdigest()
