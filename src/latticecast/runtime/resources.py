"""``dense_resource`` constants written out as ``dense<"0x...">`` before XLA sees them.

torch-mlir writes a module's weights, and ``jax.export`` its large constants, as
``dense_resource<name>`` attributes whose bytes live in the file's ``dialect_resources``
section. MLIR parses and prints them (``latticecast-opt`` passes them through), but XLA
compiles only dense elements attributes: it answers ``UNIMPLEMENTED: Only dense elements
attr are supported``. :func:`inline_dense_resources` rewrites every such attribute as the
dense attribute of the same bytes, in a new module of the same context; a module without one
is returned as it is, and the caller's module is never changed.

A blob is MLIR's: four bytes of alignment, then the elements as they lie in memory (one byte
per ``i1``), which is exactly what a hex ``dense<"0x...">`` attribute holds.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

from ..promotion.op_rules import CONSTANT_LIKE
from .runtime_errors import UnsupportedModuleError

if TYPE_CHECKING:
    from jaxlib.mlir import ir

__all__ = ["inline_dense_resources"]

_SECTION = re.compile(r"\{-#\s*dialect_resources:\s*\{(.*)\}\s*#-\}\s*\Z", re.S)
_BLOB = re.compile(r'([A-Za-z_][\w.$-]*|"(?:[^"\\]|\\.)*")\s*:\s*"0x([0-9A-Fa-f]*)"')
_USE = re.compile(r'dense_resource<([A-Za-z_][\w.$-]*|"(?:[^"\\]|\\.)*")>')


def _has_resources(module: "ir.Module") -> bool:
    from jaxlib.mlir import ir

    found: list[bool] = []
    plain = ir.Attribute  # jaxlib's bindings hand dense_resource out as a plain Attribute (no typeid to test)

    def visit(op: "ir.Operation") -> "ir.WalkResult":
        # only constants' values are read: printing an arbitrary attribute of a lenient context
        # can abort the process, and XLA reads elements attributes only from constants
        if op.name in CONSTANT_LIKE and "value" in op.attributes:
            try:
                attr = op.attributes["value"]
            except (TypeError, ValueError):  # a dense attribute the bindings cannot hand out (complex)
                return ir.WalkResult.ADVANCE
            if attr.__class__ is plain and str(attr).startswith("dense_resource<"):
                found.append(True)
                return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return bool(found)


def inline_dense_resources(module: "ir.Module", source_name: str = "<module>") -> "ir.Module":
    """``module``, or a new module in its context where every ``dense_resource`` attribute is
    the ``dense`` attribute of its bytes. A blob that is not in the module (``__elided__``, or
    printed without its resources) is refused with :class:`UnsupportedModuleError`."""
    if not _has_resources(module):
        return module
    from .source import parse_runnable_module

    text = cast(str, module.operation.get_asm(enable_debug_info=True))  # object in the stubs
    section = _SECTION.search(text)
    blobs: dict[str, str] = {}
    if section is not None:
        for key, hexed in _BLOB.findall(section.group(1)):
            blobs[key.strip('"')] = hexed[8:]  # the first four bytes are the blob's alignment
        text = text[:section.start()]
    missing: list[str] = []

    def dense(m: "re.Match[str]") -> str:
        key = m.group(1).strip('"')
        hexed = blobs.get(key)
        if hexed is None:
            missing.append(key)
            return m.group(0)
        return f'dense<"0x{hexed}">' if hexed else "dense<[]>"  # a tensor with no elements

    text = _USE.sub(dense, text)
    if missing:
        raise UnsupportedModuleError(
            f"{source_name} has dense_resource constants whose bytes it does not hold ({', '.join(sorted(set(missing)))}"
            "): the weights were elided or printed without the module's dialect_resources section; write the "
            "module again with its resources (MLIR's printer elides none unless asked to)")
    return parse_runnable_module(text, context=module.context, source_name=source_name)
