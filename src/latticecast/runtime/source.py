"""Reading a module: MLIR text or bytecode in, an ``ir.Module`` (or a clear error) out.

Parse and verifier failures become :class:`MLIRParseError` whose message has the
parser's ``file:line:col`` for each diagnostic and the offending source line,
instead of jaxlib's ``MLIRError`` traceback. This module also computes the two
digests the compilation cache keys on (see :mod:`.cache`).
"""

from __future__ import annotations

import hashlib
import os
import io
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Union, cast

from ..dialect_utils.diagnostics import Diagnostic, MLIRParseError
from ..dialect_utils.parsing import decode_source, parse_module as parse_ir
from ..dialect_utils.context import default_context
from ..passes.readiness import (foreign_ops, mixed_ops, parse_leniently, unrunnable_element_types,
                                unrunnable_types_quoted)

__all__ = ["ModuleSource", "parse_runnable_module", "verify_module", "source_digest", "canonical_digest"]

#: What ``compile`` accepts: an ``ir.Module``, MLIR text / bytecode, or the path of a file of either.
if TYPE_CHECKING:
    from jaxlib.mlir import ir

ModuleSource = Union[str, bytes, bytearray, memoryview, "os.PathLike[str]", "ir.Module"]

def _with_context(err: MLIRParseError, what: str, text: str | None, source_name: str,
                  module: "ir.Module | None" = None) -> MLIRParseError:
    """``err`` with what the runtime was doing, the source line under each error, and a hint for each
    fix the module needs (:mod:`latticecast.passes.readiness`, read from ``module``, or from ``text``
    parsed leniently): implicit-cast for mixed-dtype ops and MAX's dtypes, a lowering for another
    dialect."""
    diags = list(err.diagnostics)
    out: list[str] = []
    for d in diags:  # each with its source line and a caret, as every latticecast error prints them
        out.extend(d.source_lines(text, source_name) if text is not None else d.lines())
    message = f"{what}:\n" + ("\n".join(out) if out else str(err))
    if module is None and text is not None:
        module = parse_leniently(text, source_name)
    if module is None:  # not even the builder's lenient parser reads it: only the types MLIR quotes
        unrunnable = unrunnable_types_quoted([d.message for d in diags], default_context())
        return MLIRParseError(message + (_unrunnable_hint(unrunnable) if unrunnable else ""), diags)
    mixed = mixed_ops(module)
    if mixed:
        message += (f"\nhint: the runtime takes legal StableHLO, and '{mixed[0].name}' mixes element types "
                    f"({', '.join(mixed[0].element_types)}). A module with mixed-dtype ops must go through "
                    "latticecast's implicit-cast pass first (Graph.mlir() or `latticecast-opt --implicit-cast`).")
    unrunnable = unrunnable_element_types(module)
    if unrunnable:
        message += _unrunnable_hint(unrunnable)
    foreign = foreign_ops(module)
    if foreign:
        message += (f"\nhint: the runtime runs StableHLO (with the func, chlo, sdy and mhlo dialects); "
                    f"other dialects ({', '.join(foreign[:3])}{', ...' if len(foreign) > 3 else ''}) must be "
                    "lowered to StableHLO first.")
    return MLIRParseError(message, diags)


def _unrunnable_hint(element_types: list[str]) -> str:
    return (f"\nhint: PJRT has no {', '.join(element_types)} buffers. latticecast's implicit-cast pass lowers "
            "index and !latticecast.address to ui64 and tf32 to f32; run it first (Graph.mlir() or "
            "`latticecast-opt --implicit-cast`).")


def parse_runnable_module(source: "str | bytes", *, context: "ir.Context | None" = None,
                          source_name: str = "<input>") -> "ir.Module":
    """Parse MLIR text (or bytecode) that is to run into an ``ir.Module``, in a strict context.

    What differs from :func:`latticecast.dialect_utils.parsing.parse_module` (which it calls): the
    input must be a program to run, so empty text is refused, and a failure's message adds the
    runtime's hints (what PJRT cannot run, and the pass that would make it runnable). Parse and
    verifier errors raise :class:`MLIRParseError` naming ``source_name:line:col``, with the
    offending source line.
    """
    if not isinstance(source, (str, bytes, bytearray, memoryview)):
        raise TypeError(f"expected an ir.Module or MLIR text (str or bytes); got {type(source).__name__}")
    data = decode_source(source, source_name)
    text = data if isinstance(data, str) else None
    if text is not None and not text.strip():  # an empty module for latticecast-opt, as for mlir-opt; nothing to run
        message = "the input is empty; expected an MLIR module with a func.func @main to run"
        raise MLIRParseError(f"{source_name}:1:1: error: {message}", [Diagnostic("error", message, source_name, 1, 1)])
    try:
        return parse_ir(data, context, source_name=source_name)
    except MLIRParseError as e:
        raise _with_context(e, f"cannot parse {source_name} as MLIR", text, source_name) from None


def verify_module(module: "ir.Module", *, source_name: str = "<module>") -> None:
    """Run the MLIR verifier on ``module``; failures raise :class:`MLIRParseError`."""
    from jaxlib.mlir import ir

    try:
        module.operation.verify()
    except ir.MLIRError as err:
        raise _with_context(MLIRParseError.from_mlir(err, source_name), f"{source_name} does not verify as StableHLO",
                            None, source_name, module) from None


_MEMO_MIN = 1 << 16  # texts at least this long have their digest remembered
_MEMO_SIZE = 8
_memo: "OrderedDict[str | bytes, str]" = OrderedDict()
_memo_lock = threading.Lock()


def source_digest(source: "str | bytes | bytearray | memoryview | ir.Module") -> str:
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


def _source_digest(source: "str | bytes | bytearray | memoryview | ir.Module") -> str:
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


def canonical_digest(module: "ir.Module") -> str:
    """The digest of the module's canonical text: printed by MLIR without locations.

    This is the fingerprint of the *program*: the persistent cache keys on it, so
    it does not change with formatting, comments, SSA names or source locations.
    """
    text = cast(bytes, module.operation.get_asm(enable_debug_info=False, binary=True))  # object in the stubs
    return hashlib.sha256(b"module\0" + text).hexdigest()
