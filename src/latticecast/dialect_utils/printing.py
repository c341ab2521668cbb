"""Writing a module: an operation as MLIR text, the one door through which large modules are printed
(``Graph.mlir``, ``latticecast-opt``'s output, the retargeting report).

jaxlib's ``get_asm`` returns ``str`` by handing the printer's output to Python in pieces through a
text stream; asked for ``bytes`` (``binary=True``) it collects them in one buffer, which is decoded
here in one step. The text is the same character for character (MLIR's printer escapes every
byte outside printable ASCII in strings and locations; ``tests/test_printing.py`` compares the two
on IR that JAX wrote), and printing an 11,906-line JAX module took 10-25% less time on both
supported stacks (94-125 ms against 119-141 ms, jaxlib 0.10.2). The cost: the bytes and the text
are held together while it decodes, which at a million ops is 4% more peak memory for the whole
build, pass and print (688 against 658 MB; ``python3 dev.py bench --against``).
"""

from __future__ import annotations

from typing import cast

from jaxlib.mlir import ir

__all__ = ["asm"]


def asm(op: "ir.Operation | ir.OpView | ir.Module", *, generic: bool = False, debug_info: bool = False,
        pretty_debug_info: bool = False, local_scope: bool = False, assume_verified: bool = False,
        large_elements_limit: int | None = None) -> str:
    """``op`` as MLIR text, as ``op.get_asm`` prints it with the same options.

    Args:
        op: The operation (or module) to print.
        generic: Print every op in MLIR's generic form (``print_generic_op_form``).
        debug_info: Print locations (``enable_debug_info``).
        pretty_debug_info: Print locations in MLIR's pretty form.
        local_scope: Print ``op`` as if it stood alone (``use_local_scope``).
        assume_verified: Skip the printer's own verification: only for a module known to verify
            (the printer falls back to the generic form for one that does not).
        large_elements_limit: Elide elements attributes larger than this.

    Returns:
        The text, a ``str``.

    Example:
        >>> import latticecast as lc
        >>> from latticecast.dialect_utils.printing import asm
        >>> m = lc.parse("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> }")
        >>> print(asm(m).splitlines()[1].strip())
        func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    """
    operation = op.operation if isinstance(op, ir.Module) else op
    printed = operation.get_asm(binary=True, print_generic_op_form=generic, enable_debug_info=debug_info,
                                pretty_debug_info=pretty_debug_info, use_local_scope=local_scope,
                                assume_verified=assume_verified, large_elements_limit=large_elements_limit)
    return cast(bytes, printed).decode("utf-8", "replace")  # object in the stubs: bytes when binary
