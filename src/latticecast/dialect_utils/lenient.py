"""Parse MLIR text whose binary ops may mix element types (before ``implicit-cast``).

StableHLO's verifier rejects ``"stablehlo.add"(%a, %b) : (tensor<i16>, tensor<f32>) -> tensor<f32>``
while the module is parsed, so such text could never reach the pass. The lenient
parser renames the generic form of the ops the pass legalises to an unregistered
dialect of the same length (``unchecked.add``: columns in diagnostics stay right),
parses with unregistered dialects allowed, and recreates the real StableHLO ops
unverified. Everything else is parsed and verified as usual. Locations name the
source file, as ``mlir-opt`` does.
"""

from __future__ import annotations

import re

from jaxlib.mlir import ir

from .op_table import PROMOTABLE

__all__ = ["parse_module", "MLIRParseError", "restore_unchecked_ops"]

_PLACEHOLDER = "unchecked"  # as long as "stablehlo"
assert len(_PLACEHOLDER) == len("stablehlo")
_SUFFIXES = sorted((name.split(".", 1)[1] for name in PROMOTABLE), key=len, reverse=True)
_GENERIC_OP = re.compile(r'"stablehlo\.(' + "|".join(map(re.escape, _SUFFIXES)) + r')"(?=\s*\()')


class MLIRParseError(ValueError):
    """Text that is not valid MLIR. ``diagnostics`` holds ``(file, line, col, message)`` tuples."""

    def __init__(self, message: str, diagnostics: list[tuple[str, int, int, str]]) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics


def parse_module(text: str, context: ir.Context, *, source_name: str = "-") -> ir.Module:
    """Parse ``text`` into a module, accepting mixed-dtype binary ops in the generic form."""
    renamed = _inline_properties(_GENERIC_OP.sub(lambda m: f'"{_PLACEHOLDER}.{m.group(1)}"', text))
    with context:
        try:
            module = ir.Module.parse(renamed)
        except ir.MLIRError as e:
            raise _parse_error(e, source_name) from None
        restore_unchecked_ops(module.operation)
        if source_name != "-":
            _relocate(module.operation, source_name)
    return module


_PLACEHOLDER_OP = re.compile(r'"' + _PLACEHOLDER + r'\.\w+"\s*\(')
_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}


def _inline_properties(text: str) -> str:
    """Move the properties of placeholder ops (``<{comparison_direction = ...}>``, as MLIR
    prints inherent attributes in the generic form) into their attribute dictionary: an
    unregistered op keeps properties where Python cannot read them back, while attributes
    given to ``Operation.create`` become the real op's properties again."""
    out: list[str] = []
    pos = 0
    for m in _PLACEHOLDER_OP.finditer(text):
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
        props = text[i + 2:end - 2].strip()
        j = end
        while j < len(text) and text[j] in " \t":
            j += 1
        if j < len(text) and text[j] == "{":
            attrs_end = _balanced_end(text, j)
            if attrs_end is None:
                break
            attrs = text[j + 1:attrs_end - 1].strip()
            merged = "{" + props + (", " + attrs if attrs else "") + "}"
            out += [text[pos:i], merged]
            pos = attrs_end
        else:
            out += [text[pos:i], "{" + props + "}"]
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
            if ch == "<" and text.startswith("<=", i):
                pass
            else:
                stack.append(_CLOSE[ch])
        elif stack and ch == stack[-1] and not (ch == ">" and text[i - 1] == "-"):
            stack.pop()
            if not stack:
                return i + 1
        i += 1
    return None


def restore_unchecked_ops(root: ir.Operation) -> int:
    """Replace every ``unchecked.*`` op under ``root`` by the StableHLO op it stands for."""
    found: list[ir.Operation] = []

    def collect(op: ir.Operation) -> ir.WalkResult:
        if op.name.startswith(_PLACEHOLDER + "."):
            found.append(op)
        return ir.WalkResult.ADVANCE

    root.walk(collect)
    for op in found:
        attrs = {name: op.attributes[name] for name in op.attributes}
        new = ir.Operation.create("stablehlo." + op.name.split(".", 1)[1],
                                  results=[r.type for r in op.results], operands=list(op.operands),
                                  attributes=attrs, loc=op.location, ip=ir.InsertionPoint(op))
        for old, fresh in zip(op.results, new.results):
            old.replace_all_uses_with(fresh)
        op.erase()
    return len(found)


def _relocate(root: ir.Operation, source_name: str) -> None:
    """Give every location the real file name (``Module.parse`` calls every source "-")."""

    def fix(op: ir.Operation) -> ir.WalkResult:
        loc = op.location
        if loc.typeid == ir.FileLineColLoc.static_typeid:
            flc = loc if isinstance(loc, ir.FileLineColLoc) else ir.FileLineColLoc(loc)
            if flc.filename == "-":
                op.location = ir.Location.file(source_name, flc.start_line, flc.start_col)
        return ir.WalkResult.ADVANCE

    root.walk(fix)


_LOC = re.compile(r'loc\("(?P<file>[^"]*)":(?P<line>\d+):(?P<col>\d+)\)')


def _parse_error(e: ir.MLIRError, source_name: str) -> MLIRParseError:
    diags: list[tuple[str, int, int, str]] = []
    for d in e.error_diagnostics:
        m = _LOC.search(str(d.location))
        message = d.message.replace(f"'{_PLACEHOLDER}.", "'stablehlo.").replace(f'"{_PLACEHOLDER}.', '"stablehlo.')
        if m:
            file = source_name if m["file"] == "-" else m["file"]
            diags.append((file, int(m["line"]), int(m["col"]), message))
        else:
            diags.append((source_name, 0, 0, message))
    first = diags[0] if diags else (source_name, 0, 0, str(e))
    return MLIRParseError(f"{first[0]}:{first[1]}:{first[2]}: error: {first[3]}", diags)
