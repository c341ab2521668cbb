"""Where new ops go: right after the definition of the value they read."""

from __future__ import annotations

from jaxlib.mlir import ir

__all__ = ["after_definition"]


def after_definition(value: ir.Value[ir.Type]) -> tuple[ir.InsertionPoint, ir.Location]:
    """The insertion point right after ``value`` is defined, and the location a new op reading it takes.

    A block argument's is the start of its block, at the argument's location; an op result's
    is right after its op, at the op's location (so a convert of ``%0`` points at the line that
    wrote ``%0``).

    Args:
        value: an SSA value: an op's result or a block argument.

    Returns:
        ``(insertion_point, location)``.

    Example::

        ip, loc = after_definition(op.operands[0])
        ir.Operation.create("stablehlo.convert", results=[t], operands=[value], loc=loc, ip=ip)
    """
    owner = value.owner
    if isinstance(owner, ir.Block):
        return ir.InsertionPoint.at_block_begin(owner), value.location
    return ir.InsertionPoint.after(owner), owner.location
