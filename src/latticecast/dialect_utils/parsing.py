"""Reading a module: MLIR text or bytecode in, an ``ir.Module`` or one located error out.

:func:`parse_module` is the one door through which every layer reads IR (the
runtime, ``latticecast-opt``, tests). It

* detects the format from its first bytes: MLIR bytecode (``ML\\xefR``) or UTF-8 text;
  anything else is an error that says which byte is not UTF-8. Bytecode whose producer
  (the string after the magic and the version) is ``StableHLO_v...`` is a *portable
  artifact*: VHLO, as ``jax.export`` writes it (``exported.mlir_module_serialized``) and
  ``stablehlo.serialize_portable_artifact`` does. It is read with StableHLO's own
  ``deserialize_portable_artifact``, which upgrades VHLO to the StableHLO this jaxlib
  speaks; parsed as plain bytecode it would be a module of ``vhlo.*`` ops that nothing
  else understands. Plain bytecode (``MLIR...``, ``write_bytecode``) is parsed as is;
* refuses nesting deeper than :data:`MAX_NESTING` regions up front (MLIR's parser,
  verifier and printer recurse per region and would overflow the C stack);
* with ``lenient=True``, accepts the mixed-dtype ops that only ``implicit-cast`` can
  legalise (below);
* names the source file in every location, as ``mlir-opt`` does;
* turns parse and verifier failures into :class:`~.diagnostics.MLIRParseError`, whose
  message is ``file:line:col: error: ...``.

Lenient parsing. StableHLO's verifier rejects ``"stablehlo.add"(%a, %b) : (tensor<i16>,
tensor<f32>) -> tensor<f32>`` while the module is parsed, so such text could never
reach the pass. The generic form of every op the pass legalises is renamed to an
unregistered placeholder dialect whose name has the same length (so columns in
diagnostics stay right) and occurs nowhere in the input (so a user's own dialect is
never rewritten), the text is parsed, and the real StableHLO ops are recreated
unverified, with their operands, results, attributes and location. Those ops take no
regions or successors; a placeholder that has some is reported as the verifier
would report the real op.
"""

from __future__ import annotations

import itertools
import os
import re
from typing import NamedTuple, TypeVar, cast, overload
from dataclasses import replace

from jaxlib.mlir import ir

from ..errors import LatticecastError
from ..promotion.op_rules import MARKER_PREFIX, STABLEHLO, UNARY_STABLEHLO
from .context import default_context, strict_context
from .diagnostics import Diagnostic, MLIRParseError

__all__ = ["parse", "parse_module", "parse_checked", "Parsed", "read_source", "is_source_path", "SourceFileError", "SOURCE_SUFFIXES", "SourceText", "generic_form", "decode_source", "is_bytecode", "bytecode_producer", "is_portable_artifact",
           "BYTECODE_MAGIC", "PORTABLE_PRODUCER", "MAX_NESTING"]

BYTECODE_MAGIC = b"ML\xefR"
PORTABLE_PRODUCER = "StableHLO_v"
"""How the producer string of a StableHLO portable artifact starts (``StableHLO_v1.15.0``)."""
MAX_NESTING = 1000
"""The deepest region nesting accepted. MLIR recurses per region level in its parser, verifier
and printer; about 2,500 levels overflow an 8 MB stack. JAX's deepest modules nest tens of levels."""

_DIALECT = "stablehlo"
_SUFFIXES = sorted((name.split(".", 1)[1] for name in (*STABLEHLO, *UNARY_STABLEHLO)), key=len, reverse=True)
_GENERIC_OP = re.compile(r'"stablehlo\.(' + "|".join(map(re.escape, _SUFFIXES)) + r')"(?=\s*\()')
_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}


SOURCE_SUFFIXES = (".mlir", ".mlirbc")
"""How a ``str`` that names a file ends (:func:`is_source_path`)."""


class SourceFileError(LatticecastError, OSError):
    """A file of MLIR that cannot be read (it does not exist, or is not readable)."""


_Source = TypeVar("_Source")
"""What :func:`read_source` reads: a path, or text (or a module) it gives back as it is."""


def is_source_path(source: object) -> bool:
    """Whether ``source`` names a file rather than holding MLIR: an ``os.PathLike``, or a ``str``
    of one line ending in ``.mlir`` or ``.mlirbc`` (MLIR text never ends so: a module ends with
    ``}``, and a file name has no newline). ``bytes`` are always the contents.

    Example:
        >>> is_source_path("model.mlir"), is_source_path("func.func @f() { return }"), is_source_path(b"x.mlir")
        (True, False, False)
    """
    if isinstance(source, os.PathLike):
        return True
    return isinstance(source, str) and "\n" not in source and source.endswith(SOURCE_SUFFIXES)


@overload
def read_source(source: "str | bytes | os.PathLike[str]", source_name: str | None = None) -> "tuple[str | bytes, str | None]": ...
@overload
def read_source(source: _Source, source_name: str | None = None) -> "tuple[_Source | bytes, str | None]": ...


def read_source(source: object, source_name: str | None = None) -> "tuple[object, str | None]":
    """``(contents, name)``: the file's bytes and its name when ``source`` is a path
    (:func:`is_source_path`; ``source_name`` still wins as the name), else ``source`` as it is.

    Raises:
        SourceFileError: The file cannot be read; the message names it and says how a path is told
            from text.
    """
    if not is_source_path(source):
        return source, source_name
    path = str(os.fspath(cast("str | os.PathLike[str]", source)))  # what is_source_path holds
    try:
        with open(path, "rb") as f:
            return f.read(), source_name or path
    except OSError as e:
        raise SourceFileError(f"cannot read {path}: {e.strerror or e} (a str of one line ending in .mlir or "
                              f".mlirbc, or an os.PathLike, is read as a file; pass MLIR text or bytes "
                              f"to parse them instead)") from None


def is_bytecode(data: "str | bytes") -> bool:
    return isinstance(data, (bytes, bytearray, memoryview)) and bytes(data[:4]) == BYTECODE_MAGIC


def bytecode_producer(data: bytes) -> str | None:
    """The producer string of MLIR bytecode (``MLIR23.0.0git``, ``StableHLO_v1.15.0``), or ``None``.

    The header is the magic, the bytecode version as a prefix varint (the number of
    trailing zero bits of its first byte, plus one, is its length in bytes; a zero
    first byte means nine bytes), then the producer, NUL-terminated.
    """
    if not is_bytecode(data):
        return None
    raw = bytes(data[:64])
    pos = len(BYTECODE_MAGIC)
    if pos >= len(raw):
        return None
    first = raw[pos]
    width = 9 if first == 0 else ((first & -first).bit_length())
    start = pos + width
    end = raw.find(b"\0", start)
    if end < 0:
        return None
    return raw[start:end].decode("utf-8", "replace")


def is_portable_artifact(data: "str | bytes") -> bool:
    """Whether ``data`` is a StableHLO portable artifact (VHLO bytecode, as ``jax.export`` writes)."""
    producer = bytecode_producer(data) if not isinstance(data, str) else None
    return producer is not None and producer.startswith(PORTABLE_PRODUCER)


def decode_source(data: "str | bytes | bytearray | memoryview", source_name: str) -> "str | bytes":
    """Text as ``str`` or bytecode as ``bytes``; raises :class:`MLIRParseError` for anything else."""
    if isinstance(data, str):
        return data
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"expected MLIR text (str) or bytes, not {type(data).__name__}")
    raw = bytes(data)
    if raw.startswith(BYTECODE_MAGIC):
        return raw
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        message = (f"the input is neither UTF-8 text nor MLIR bytecode: byte 0x{raw[e.start]:02x} at offset "
                   f"{e.start} is not UTF-8; MLIR text must be UTF-8 (or pass MLIR bytecode)")
        raise MLIRParseError(f"{source_name}:{line}:{col}: error: {message}",
                             [Diagnostic("error", message, source_name, line, col)]) from None


def parse(text: "str | bytes | os.PathLike[str]", lenient: bool = True, context: ir.Context | None = None, *,
          source_name: str | None = None) -> ir.Module:
    """Parse MLIR text (or bytecode, or a file of either) into an ``ir.Module``, mixed-dtype ops included.

    The public door to :func:`parse_module`: StableHLO's verifier rejects an op whose operands
    disagree in element type, so such a program could never reach ``implicit-cast``; with
    ``lenient`` (the default) the ops the pass legalises are accepted in the generic form
    (``"stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>``), unverified.

    Args:
        text: MLIR text, or MLIR bytecode / a StableHLO portable artifact as ``bytes``, or the path of
            a file of either: an ``os.PathLike``, or a ``str`` of one line ending in ``.mlir`` or
            ``.mlirbc`` (:func:`is_source_path`; MLIR text never ends so).
        lenient: Accept mixed-dtype ops in the generic form (``False``: the verifier's rules only).
        context: The ``ir.Context`` to parse into; default: this thread's shared latticecast context
            (lenient or strict, as ``lenient`` says). A context of your own (JAX's) must allow
            unregistered dialects for ``lenient`` parsing.
        source_name: The file name that locations and errors give the text (default: the path of
            a file, else ``-``, as MLIR names a buffer).

    Returns:
        The module (not yet verified when it holds mixed-dtype ops: run ``implicit-cast`` on it,
        e.g. with :func:`latticecast.run_pipeline`).

    Raises:
        MLIRParseError: The text does not parse or does not verify; the message is
            ``file:line:col: error: ...``.
        SourceFileError: A path was given and the file cannot be read.

    Example:
        >>> import latticecast as lc
        >>> module = lc.parse('''
        ... func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {
        ...   %0 = "stablehlo.add"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>
        ...   return %0 : tensor<4xf32>
        ... }''')
        >>> _ = lc.run_pipeline(module, "implicit-cast")
        >>> "stablehlo.convert %arg0 : (tensor<4xi16>) -> tensor<4xf32>" in str(module)
        True
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "m.mlir"
        >>> _ = path.write_text("func.func @g() { return }")
        >>> "func.func @g()" in str(lc.parse(path)) and "func.func @g()" in str(lc.parse(str(path)))
        True
    """
    data, name = read_source(text, source_name)
    return parse_module(data, context, lenient=lenient, source_name=name or "-")


def parse_module(source: "str | bytes", context: ir.Context | None = None, *, lenient: bool = False,
                 source_name: str = "-", first_line: int = 1) -> ir.Module:
    """Parse MLIR text or bytecode into a module of ``context``.

    ``context`` defaults to this thread's lenient context with ``lenient=True`` and to
    its strict one otherwise. ``source_name`` names the input in locations and errors;
    ``first_line`` is the line of that file where the text starts (a chunk of a split
    file), so locations and errors count lines of the whole file.
    """
    return parse_checked(source, context, lenient=lenient, source_name=source_name, first_line=first_line).module


class Parsed(NamedTuple):
    """A parsed module, and whether MLIR's parser verified it as it is."""

    module: ir.Module
    verified: bool
    """The parser verified the module (text or bytecode): no op was parsed as a placeholder (a
    mixed-dtype op in the generic form, which :meth:`SourceText.parse` restores unverified)."""
    unmarked: bool = False
    """The text carries no latticecast marker (:data:`~latticecast.promotion.op_rules.MARKER_PREFIX`):
    it never names the prefix, and has no backslash, with which a quoted name could spell it in escapes.
    ``False`` for bytecode, whose names are not read here."""


def parse_checked(source: "str | bytes", context: ir.Context | None = None, *, lenient: bool = False,
                  source_name: str = "-", first_line: int = 1) -> Parsed:
    """:func:`parse_module`, saying whether the parser verified the module it returns: a runner that
    is told so verifies a module that a pass left as it was no second time
    (:meth:`~latticecast.passes.runner.PipelineRunner.run`).

    Args:
        source: MLIR text or bytecode.
        context: The context (by default this thread's lenient or strict one).
        lenient: Accept mixed-dtype ops in the generic form (parsed unverified).
        source_name: The file name locations and errors give the input.
        first_line: The line of that file where ``source`` starts.

    Returns:
        The module, whether MLIR's verifier accepted it as it is, and whether its text carries no
        latticecast marker.

    Example:
        >>> from latticecast.dialect_utils.parsing import parse_checked
        >>> mixed = '''func.func @f(%a: tensor<2xi8>, %b: tensor<2xf32>) -> tensor<2xf32> {
        ...   %0 = "stablehlo.add"(%a, %b) : (tensor<2xi8>, tensor<2xf32>) -> tensor<2xf32>
        ...   return %0 : tensor<2xf32>
        ... }'''
        >>> parse_checked(mixed, lenient=True).verified     # a mixed op: parsed, not verified
        False
        >>> parse_checked("func.func @g(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> }").verified
        True
    """
    shift = first_line - 1
    data = decode_source(source, source_name)
    ctx = context or (default_context() if lenient else strict_context())
    if isinstance(data, str):
        _check_nesting(data, source_name)
        _check_verifier_crashes(data, source_name, shift)
        if not ctx.allow_unregistered_dialects:
            _check_unknown_element_types(data, ctx, source_name, shift)
        with ctx:
            text = SourceText(data, source_name, first_line, lenient)
            return Parsed(text.parse(), not text.placeholder, MARKER_PREFIX not in data and "\\" not in data)
    if _CRASH_OP_BYTES in data and not os.environ.get(_CHILD):
        _verify_bytecode_apart(data, source_name)
    if is_portable_artifact(data):
        return Parsed(_deserialize_portable(data, ctx, source_name), False)
    with ctx:
        try:
            return Parsed(ir.Module.parse(data), True)
        except ir.MLIRError as e:
            raise MLIRParseError.from_mlir(e, source_name) from None


class SourceText:
    """The user's MLIR text on its way to a module, and every way back to it: the one owner of
    the text path.

    With ``lenient``, the generic form of each op implicit-cast legalises is renamed to an
    unregistered placeholder dialect (:meth:`parse` restores the real ops); :meth:`error`
    turns what the parser says about the rewritten text into diagnostics about the user's
    text (real op names, the file's name and lines, the generic-form hint for a pretty-form
    mixed op). The rewrite moves no character, so lines and columns need no mapping.

    Args:
        text: The MLIR text as the user wrote it.
        source_name: The file name that locations and errors give it.
        first_line: The line of that file where ``text`` starts (a chunk of a split file).
        lenient: Accept mixed-dtype ops in the generic form.
    """

    def __init__(self, text: str, source_name: str = "-", first_line: int = 1, lenient: bool = False) -> None:
        self.text = text
        self.source_name = source_name
        self.shift = first_line - 1
        self.placeholder = ""
        self.parser_text = text
        if lenient:
            self.parser_text, self.placeholder = _rename_mixed_ops(text)

    def parse(self) -> ir.Module:
        """The module (in the current context), its placeholders restored; raises :class:`MLIRParseError`.

        ``Operation.parse`` takes the buffer's name (``Module.parse`` calls every buffer ``"-"``),
        and ``shift`` blank lines in front move every line down, so the parser writes the right
        locations itself; the module op it returns becomes an ``ir.Module`` by moving its few
        top-level ops. Text of several top-level ops without a ``module`` (which ``Module.parse``
        wraps in one) takes ``Module.parse`` and a walk that names the file in each location.
        """
        shifted = "\n" * self.shift + self.parser_text
        # resources (dense_resource blobs) are the context's: a second parse of the same text would
        # rename them (bias -> bias_1), so text with resources takes Module.parse at once
        op = None if "{-#" in shifted else self._parse_one(shifted)
        if op is None:
            try:
                module = ir.Module.parse(shifted)
            except ir.MLIRError as e2:
                raise self.error(e2) from None
            if self.source_name != "-":
                _relocate(module.operation, self.source_name)
        else:
            module = _as_module(op)
        if self.placeholder:
            self.restore(module.operation)
        return module

    def _parse_one(self, shifted: str) -> "ir.Operation | None":
        """The text's one top-level op, named by the file; ``None`` when it has several (a module
        wraps them)."""
        try:
            return ir.Operation.parse(shifted, source_name=self.source_name).operation
        except ir.MLIRError as e:
            if "source must contain a single top-level operation" not in str(e):
                raise self.error(e) from None
            return None

    def error(self, err: ir.MLIRError) -> MLIRParseError:
        """What the parser said about the text the parser read, said about the user's text."""
        diags = [self.diagnostic(d) for d in err.error_diagnostics]
        if not diags:  # an MLIRError without diagnostics: keep jaxlib's text, which has the position
            return MLIRParseError.from_mlir(err, self.source_name)
        return MLIRParseError("\n".join(line for d in diags for line in d.lines()), diags)

    def diagnostic(self, d: "ir.DiagnosticInfo") -> Diagnostic:
        """One diagnostic of the parser, with the real op names and the generic-form hint."""
        return self._translated(Diagnostic.from_mlir(d, self.source_name))

    def _translated(self, d: Diagnostic) -> Diagnostic:
        message = d.message
        if self.placeholder:
            for quote in "'\"":
                message = message.replace(f"{quote}{self.placeholder}.", f"{quote}{_DIALECT}.")
        hint = self._generic_form_hint(d)
        return replace(d, message=message + hint, notes=tuple(self._translated(n) for n in d.notes))

    def _generic_form_hint(self, d: Diagnostic) -> str:
        """For an error about a type at a pretty-form promotable op: how to write it in the generic form."""
        rows = self.text.splitlines()
        index = d.line - 1 - self.shift
        if d.severity != "error" or d.file != self.source_name or "type" not in d.message \
                or not 0 <= index < len(rows):
            return ""
        example = generic_form(rows[index])
        if example is None:
            return ""
        name = example.split('"')[1]
        return (f"; a '{name}' whose operands' element types differ must be written in the generic form, which "
                f"latticecast's lenient parser accepts and implicit-cast legalises: {example}")

    def restore(self, root: ir.Operation) -> None:
        """Replace every placeholder op under ``root`` by the StableHLO op it stands for."""
        found: list[ir.Operation] = []
        prefix = self.placeholder + "."

        def collect(op: ir.Operation) -> ir.WalkResult:
            if op.name.startswith(prefix):
                found.append(op)
            return ir.WalkResult.ADVANCE

        root.walk(collect)
        for op in found:
            real = _DIALECT + "." + op.name[len(prefix):]
            if len(op.regions) or len(op.successors):
                what = "regions" if len(op.regions) else "successors"
                d = Diagnostic.at(op.location, "error", f"'{real}' op requires zero {what}",
                                  source_name=self.source_name)
                raise MLIRParseError(d.format(), [d])
            attrs = {name: op.attributes[name] for name in op.attributes}
            new = ir.Operation.create(real, results=[r.type for r in op.results], operands=list(op.operands),
                                      attributes=attrs, loc=op.location, ip=ir.InsertionPoint(op))
            for old, fresh in zip(op.results, new.results):
                old.replace_all_uses_with(fresh)
            op.erase()


def _as_module(op: ir.Operation) -> ir.Module:
    """The op ``Operation.parse`` returned as an ``ir.Module``: a ``builtin.module``'s contents and
    attributes moved into a new one, or any other single op wrapped, as ``Module.parse`` does."""
    module = ir.Module.create(loc=op.location)
    if op.name != "builtin.module":
        ir.InsertionPoint(module.body).insert(op)
        return module
    target = module.operation.attributes
    attributes = op.attributes
    for name in attributes:
        target[name] = attributes[name]
    insert = ir.InsertionPoint(module.body)
    for inner in list(op.regions[0].blocks[0].operations):
        inner = inner.operation
        inner.detach_from_parent()
        insert.insert(inner)
    op.erase()
    return module


def _deserialize_portable(data: bytes, ctx: ir.Context, source_name: str) -> ir.Module:
    """A portable artifact as a StableHLO module of ``ctx``; what goes wrong is one located error.

    ``deserialize_portable_artifact`` reports its problems to the context's diagnostic
    handler (by default, standard error) and raises a bare ``ValueError``, so the
    diagnostics are caught here while it runs and become the error's text.
    """
    from jaxlib.mlir.dialects import stablehlo

    caught: list[Diagnostic] = []

    def handler(d: "ir.Diagnostic") -> bool:
        caught.append(Diagnostic.from_mlir(d, source_name))
        return True

    handle = ctx.attach_diagnostic_handler(handler)
    assert isinstance(handle, ir.DiagnosticHandler)  # object in jaxlib's stubs
    try:
        module = stablehlo.deserialize_portable_artifact(ctx, data)
    except (ValueError, ir.MLIRError) as e:
        producer = bytecode_producer(data)
        errors = [d for d in caught if d.severity == "error"] or [
            Diagnostic("error", str(e) or "failed to deserialize module", source_name)]
        message = (f"cannot read the StableHLO portable artifact (written by {producer}; this jaxlib reads "
                   f"StableHLO {stablehlo.get_minimum_version()} to {stablehlo.get_current_version()}): "
                   + "; ".join(d.message for d in errors)
                   + ". The file is damaged or from an unsupported version: export it again with jax.export "
                     "(or stablehlo.serialize_portable_artifact) for a version in that range, or pass MLIR text")
        raise MLIRParseError(f"{source_name}: error: {message}",
                             [Diagnostic("error", message, source_name)]) from None
    finally:
        handle.detach()
    return module


def _check_nesting(text: str, source_name: str) -> None:
    """Refuse text whose braces nest deeper than :data:`MAX_NESTING` (strings skipped), cheaply:
    only texts with that many braces at all are scanned."""
    if text.count("{") <= MAX_NESTING:
        return
    depth = deepest = 0
    in_string = False
    line = 1
    where = (1, 1)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if in_string:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if depth > MAX_NESTING:
                    where = (line, i - text.rfind("\n", 0, i))
                    break
        elif ch == "}":
            depth -= 1
        elif ch == "\n":
            line += 1
        i += 1
    if deepest > MAX_NESTING:
        message = (f"regions nest more than {MAX_NESTING} levels deep; MLIR's parser and verifier recurse "
                   f"per level and would overflow the stack: flatten the program (or split it into functions)")
        raise MLIRParseError(f"{source_name}:{where[0]}:{where[1]}: error: {message}",
                             [Diagnostic("error", message, source_name, *where)])


# -- inputs that crash jaxlib's verifier -----------------------------------------------------

_CRASH_OP = re.compile(r'"(?:stablehlo|mhlo)\.all_to_all"(?=\s*\()')
_CRASH_OP_BYTES = b"all_to_all"
_CHILD = "LATTICECAST_PARSING_IN_CHILD"
_EMPTY_GROUPS = re.compile(r"replica_groups\s*=\s*dense<[^>]*>\s*:\s*tensor<0x\d+x\w+>")
_SPLIT_COUNT = re.compile(r"split_count\s*=\s*(-?\d+)")


def _check_verifier_crashes(text: str, source_name: str, shift: int) -> None:
    """Refuse, with the op's location, what kills the process inside jaxlib's verifier.

    The one known case: ``stablehlo.all_to_all`` whose ``replica_groups`` holds no group
    (``dense<...> : tensor<0xNxi64>``) makes the verifier of the StableHLO that jaxlib ships
    divide by zero (SIGFPE), which no ``try`` can catch; newer StableHLO rejects it with
    "group size of replica_groups must be N". That is said here, before the verifier sees
    it. Costs one substring search for text without ``all_to_all``.
    """
    if "all_to_all" not in text:
        return
    for m in _CRASH_OP.finditer(text):
        i = text.find("(", m.end())
        operands_end = text.find(")", i) if i >= 0 else -1
        if operands_end < 0:
            continue
        j = operands_end + 1
        segment_parts: list[str] = []
        for opener in ("<{", "{"):
            while j < len(text) and text[j] in " \t\r\n":
                j += 1
            if text.startswith(opener, j):
                end = _balanced_end(text, j)
                if end is None:
                    break
                segment_parts.append(text[j:end])
                j = end
        segment = " ".join(segment_parts)
        groups = _EMPTY_GROUPS.search(segment)
        if groups is None:
            continue
        count = _SPLIT_COUNT.search(segment)
        line = text.count("\n", 0, m.start()) + 1 + shift
        col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        name = m.group(0).strip('"')
        shape = groups.group(0).split(":")[-1].strip()
        first = (f"group size of replica_groups must be {count.group(1) if count else 'split_count'}: "
                 f"'{name}' has no replica group ({shape}); refused before verification, since the "
                 f"verifier of the StableHLO in this jaxlib divides by zero (SIGFPE) on it")
        second = f"'{name}' op failed to infer returned types"
        diags = [Diagnostic("error", first, source_name, line, col), Diagnostic("error", second, source_name, line, col)]
        raise MLIRParseError("\n".join(d.format() for d in diags), diags)


_TENSOR_OF_DIALECT_TYPE = re.compile(r"tensor<(?:[\d?]+x)*!([A-Za-z_]\w*)\.")


def _check_unknown_element_types(text: str, ctx: ir.Context, source_name: str, shift: int) -> None:
    """Refuse a tensor whose element type belongs to a dialect ``ctx`` does not register and
    which has an encoding (``tensor<4x!quant.uniform<...>, #stablehlo.bounds<4>>``): jaxlib's
    parser dies (SIGSEGV) on it in a context without unregistered dialects (the runtime's),
    where without the encoding it reports the unregistered dialect. Reported as it would be."""
    if "!" not in text:
        return
    known: dict[str, bool] = {}
    for m in _TENSOR_OF_DIALECT_TYPE.finditer(text):
        dialect = m.group(1)
        if dialect not in known:
            try:
                ctx.dialects[dialect]
                known[dialect] = True
            except (IndexError, KeyError, ValueError):
                known[dialect] = False
        if known[dialect]:
            continue
        i = m.end()
        while i < len(text) and (text[i].isalnum() or text[i] in "_."):
            i += 1
        if text.startswith("<", i):
            end = _balanced_end(text, i)
            if end is None:
                continue
            i = end
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if not (text.startswith(",", i) and text[i + 1:].lstrip().startswith("#")):
            continue
        start = m.start() + m.group(0).index("!")
        line = text.count("\n", 0, start) + 1 + shift
        col = start - (text.rfind("\n", 0, start) + 1) + 1
        message = (f"type '{text[start:i].rstrip(' ,')}' created with unregistered dialect '{dialect}' (in a tensor "
                   f"with an encoding, which jaxlib's parser crashes on, so it is refused before parsing); "
                   f"this context registers the dialects JAX uses")
        raise MLIRParseError(f"{source_name}:{line}:{col}: error: {message}",
                             [Diagnostic("error", message, source_name, line, col)])


def _verify_bytecode_apart(data: bytes, source_name: str) -> None:
    """Parse bytecode (a portable artifact too) that names ``all_to_all`` in a child process
    first: the text check above cannot read bytecode, and a verifier that divides by zero must
    not kill this process. About a second, for such bytecode only."""
    import subprocess
    import sys

    code = ("import sys\nfrom latticecast.dialect_utils.parsing import parse_module\n"
            "try:\n    parse_module(sys.stdin.buffer.read(), lenient=True)\nexcept Exception:\n    pass\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), **{_CHILD: "1"})
    child = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, env=env)
    if child.returncode < 0:
        import signal

        try:
            sig = signal.Signals(-child.returncode).name
        except ValueError:
            sig = f"signal {-child.returncode}"
        message = (f"jaxlib's verifier crashes ({sig}) on this bytecode, which holds an all_to_all; the usual "
                   f"cause is an all_to_all whose replica_groups holds no group: give it groups of split_count "
                   f"replicas")
        raise MLIRParseError(f"{source_name}: error: {message}", [Diagnostic("error", message, source_name)])


# -- lenient parsing -------------------------------------------------------------------------


def _placeholder(text: str) -> str:
    """A dialect name as long as ``stablehlo`` that the text never mentions."""
    for name in itertools.chain(["unchecked"], (f"lcmixed{i:02d}" for i in range(100))):
        if f"{name}." not in text:
            return name
    raise AssertionError("unreachable: 101 placeholder names all occur in the input")


def _rename_mixed_ops(text: str) -> tuple[str, str]:
    """Rename the generic form of the ops implicit-cast legalises: the text renamed and the placeholder dialect
    named, or ``(text, "")`` if there are none."""
    # text in the pretty form (JAX's, torch-mlir's) has no quoted op name: one substring search, not the regex
    if f'"{_DIALECT}.' not in text or not _GENERIC_OP.search(text):
        return text, ""
    name = _placeholder(text)
    assert len(name) == len(_DIALECT)
    renamed = _GENERIC_OP.sub(lambda m: f'"{name}.{m.group(1)}"', text)
    return _inline_properties(renamed, name), name


def _inline_properties(text: str, placeholder: str) -> str:
    """Move the properties of placeholder ops (``<{comparison_direction = ...}>``, as MLIR
    prints inherent attributes in the generic form) into their attribute dictionary: an
    unregistered op keeps properties where Python cannot read them back, while attributes
    given to ``Operation.create`` become the real op's properties again.

    Every character keeps its line and column: ``<{`` becomes `` {`` and ``}>`` becomes
    ``} ``; where an attribute dictionary follows, ``}>`` becomes ``, `` (or two blanks when
    either dictionary is empty) and its ``{`` a blank, and everything in between (newlines
    included) stays where it was. So a diagnostic inside a property that spans lines
    (``#stablehlo.dot_algorithm<`` written over nine lines) lands on the user's own line.
    """
    out: list[str] = []
    pos = 0
    for m in re.finditer(r'"' + placeholder + r'\.\w+"\s*\(', text):
        if m.start() < pos:
            continue
        operands_end = text.find(")", m.end())
        if operands_end < 0:
            break
        i = operands_end + 1
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if not text.startswith("<{", i):
            continue
        end = _balanced_end(text, i)
        if end is None:
            break
        props = text[i + 2:end - 2]
        j = end
        while j < len(text) and text[j] in " \t\r\n":
            j += 1
        if j < len(text) and text[j] == "{":
            attrs_end = _balanced_end(text, j)
            if attrs_end is None:
                break
            attrs = text[j + 1:attrs_end - 1]
            joint = ", " if props.strip() and attrs.strip() else "  "
            out += [text[pos:i], " {", props, joint, text[end:j], " ", attrs, "}"]
            pos = attrs_end
        else:
            out += [text[pos:i], " {", props, "} "]
            pos = end
    out.append(text[pos:])
    return "".join(out)


def _balanced_end(text: str, start: int) -> int | None:
    """The index just past the bracket that closes the one at ``start`` (strings skipped)."""
    stack: list[str] = []
    i = start
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif ch in _CLOSE:
            if not (ch == "<" and text.startswith("<=", i)):
                stack.append(_CLOSE[ch])
        elif stack and ch == stack[-1] and not (ch == ">" and text[i - 1] == "-"):
            stack.pop()
            if not stack:
                return i + 1
        i += 1
    return None


def _relocate(root: ir.Operation, source_name: str) -> None:
    """Name the real file in every location the parser gave ``"-"``: ops and block arguments."""
    file_loc = ir.FileLineColLoc.static_typeid

    def moved(loc: ir.Location) -> ir.Location | None:
        if loc.typeid != file_loc:
            return None
        flc = loc if isinstance(loc, ir.FileLineColLoc) else ir.FileLineColLoc(loc)
        if flc.filename != "-":
            return None
        return ir.Location.file(source_name, flc.start_line, flc.start_col)

    def fix(op: ir.Operation) -> ir.WalkResult:
        new = moved(op.location)
        if new is not None:
            op.location = new
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    new = moved(arg.location)
                    if new is not None:
                        arg.set_location(new)
        return ir.WalkResult.ADVANCE

    with root.context:
        root.walk(fix)


# -- the generic-form hint -------------------------------------------------------------------

_PRETTY_OP = re.compile(r'(?<!["\w.])stablehlo\.(?P<op>' + "|".join(map(re.escape, _SUFFIXES)) + r')\b(?!")'
                        r'\s+(?P<operands>[^:]*?)\s*:\s*(?P<types>.*?)\s*(?:loc\(.*)?$')
_RESULTS = re.compile(r'^\s*(?P<results>%[\w.$-]+(?::\d+)?(?:\s*,\s*%[\w.$-]+(?::\d+)?)*)\s*=\s*')


def generic_form(line: str) -> str | None:
    """The generic form of the pretty-form promotable op on ``line``, for an error's hint; ``None``
    when the line holds none. The types are the user's when written as ``(A, B) -> R``; a short
    form (one type for all) says which operand's type goes where.

    Args:
        line: One line of MLIR text.

    Returns:
        The op in the generic form, or ``None``.

    Example:
        >>> generic_form("  %2 = stablehlo.add %0, %1 : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>")
        '%2 = "stablehlo.add"(%0, %1) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>'
        >>> generic_form("%c = stablehlo.compare LT, %a, %b : (tensor<2xi8>, tensor<2xf32>) -> tensor<2xi1>")
        '%c = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2xi8>, tensor<2xf32>) -> tensor<2xi1>'
    """
    m = _PRETTY_OP.search(line)
    if m is None:
        return None
    name = f"{_DIALECT}.{m['op']}"
    parts = [p.strip() for p in m["operands"].split(",") if p.strip()]
    operands = [p for p in parts if p.startswith("%")]
    words = [p for p in parts if not p.startswith("%")]
    attributes = ""
    if name == "stablehlo.compare" and words:
        attributes = f" {{comparison_direction = #stablehlo<comparison_direction {words[0]}>"
        if len(words) > 1:
            attributes += f", compare_type = #stablehlo<comparison_type {words[1]}>"
        attributes += "}"
    elif words:
        attributes = " {...}"  # the op's attributes, spelled as --mlir-print-op-generic prints them
    types = m["types"]
    if "->" not in types:
        types = f"({', '.join(f'<type of {o}>' for o in operands)}) -> {types}"
    results = _RESULTS.match(line[:m.start()] + "\0")
    lhs = f"{results['results']} = " if results else ""
    return f'{lhs}"{name}"({", ".join(operands)}){attributes} : {types}'


def strip_locations(text: str) -> str:
    """``text`` with every ``loc(...)`` it spells out removed, and the location alias definitions
    (``#loc3 = loc(...)``) emptied, line for line: the same ops on the same lines, where the parser
    then gives each op its own ``file:line:col`` (MLIR keeps only one location per op, so a module
    printed with JAX's Python locations says nothing about its own lines until they are stripped).

    Args:
        text: MLIR text, possibly printed with debug info.

    Returns:
        The text without locations, with as many lines.

    Example:
        >>> print(strip_locations('#loc1 = loc("f.py":3:4)\\n%0 = stablehlo.abs %a : tensor<f32> loc(#loc1)'))
        <BLANKLINE>
        %0 = stablehlo.abs %a : tensor<f32>
    """
    out: list[str] = []
    for line in text.split("\n"):
        if line.startswith("#loc"):
            out.append("")
            continue
        out.append(_strip_loc_calls(line))
    return "\n".join(out)


def _strip_loc_calls(line: str) -> str:
    """One line without its ``loc(...)`` calls (strings and nested parentheses respected)."""
    if "loc(" not in line:
        return line
    pieces: list[str] = []
    i, n = 0, len(line)
    quoted = False
    while i < n:
        ch = line[i]
        if quoted:
            pieces.append(ch)
            if ch == "\\" and i + 1 < n:
                pieces.append(line[i + 1])
                i += 2
                continue
            if ch == '"':
                quoted = False
            i += 1
            continue
        if ch == '"':
            quoted = True
            pieces.append(ch)
            i += 1
            continue
        if line.startswith("loc(", i) and (i == 0 or not (line[i - 1].isalnum() or line[i - 1] in "_.")):
            end = _balanced_end(line, i + 3)
            if end is None:
                pieces.append(line[i:])
                break
            while pieces and pieces[-1] == " ":
                pieces.pop()
            i = end
            continue
        pieces.append(ch)
        i += 1
    return "".join(pieces)
