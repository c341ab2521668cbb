"""Where new ops go: right after the definition of the value they read, or right before the op that uses it.

``implicit-cast`` puts a convert right after the definition of the value it converts
(:func:`after_definition`), shared by every op that needs it. A frontend writes a convert of
its own at each op that promotes, right before that op and the broadcasts and literals the
op's lowering made for it (:func:`before_prologue`): that is where JAX and torch-mlir put
theirs, and where the pass puts a convert for an op marked ``latticecast.convert_at_use``.
"""

from __future__ import annotations

from typing import Iterable

from jaxlib.mlir import ir

from ..promotion.op_rules import CONSTANT_LIKE, EXPLICIT_BROADCAST_ATTR

__all__ = ["after_definition", "before_prologue", "prologue", "PROLOGUE_OPS"]

PROLOGUE_OPS = frozenset({"stablehlo.broadcast_in_dim"}) | CONSTANT_LIKE
"""The ops that can belong to an op's prologue: the broadcasts of its operands and the literals its
lowering made (JAX writes ``x * 0.5`` as a constant, a ``broadcast_in_dim`` and the multiply). A
broadcast marked ``latticecast.explicit_broadcast`` (the program's own, as torch-mlir writes ``expand``)
never does."""


def after_definition(value: ir.Value[ir.Type],
                     owner: "ir.Block | ir.OpView | ir.Operation | None" = None) -> tuple[ir.InsertionPoint, ir.Location]:
    """The insertion point right after ``value`` is defined, and the location a new op reading it takes.

    A block argument's is the start of its block, at the argument's location; an op result's
    is right after its op, at the op's location (so a convert of ``%0`` points at the line that
    wrote ``%0``).

    Args:
        value: an SSA value: an op's result or a block argument.
        owner: ``value.owner``, where the caller has read it already (each read makes a Python
            object of the defining op: a few microseconds).

    Returns:
        ``(insertion_point, location)``.

    Example::

        ip, loc = after_definition(op.operands[0])
        ir.Operation.create("stablehlo.convert", results=[t], operands=[value], loc=loc, ip=ip)
    """
    if owner is None:
        owner = value.owner
    if isinstance(owner, ir.Block):
        return ir.InsertionPoint.at_block_begin(owner), value.location
    return ir.InsertionPoint.after(owner), owner.location


def prologue(user: ir.Operation, stops: Iterable[ir.Value[ir.Type]] = ()) -> list[ir.Operation]:
    """The ops of ``user``'s prologue: the broadcasts and constants (:data:`PROLOGUE_OPS`) in ``user``'s
    block that exist only to feed it, found backwards from its operands.

    An op belongs when every use of its results is ``user`` or another op of the prologue. The
    search stops at the definitions of ``stops`` (the values about to be converted for ``user``:
    a convert must come after them).

    Args:
        user: The op.
        stops: Values whose defining ops end the search.

    Returns:
        The prologue's ops, nearest to ``user`` first.

    Example::

        before = prologue(op, [op.operands[0]])   # JAX's x * 0.5: [broadcast_in_dim, constant]
    """
    block = user.block
    stopped = {owner for owner in (v.owner for v in stops) if not isinstance(owner, ir.Block)}
    members: list[ir.Operation] = []
    inside = {user}
    frontier = [user]
    while frontier:
        op = frontier.pop()
        for value in op.operands:
            owner = value.owner
            if isinstance(owner, ir.Block):
                continue
            candidate = owner.operation
            if candidate in inside or candidate in stopped or candidate.name not in PROLOGUE_OPS \
                    or candidate.block != block or EXPLICIT_BROADCAST_ATTR in candidate.attributes:
                continue
            if any(use.owner.operation not in inside for r in candidate.results for use in r.uses):
                continue
            inside.add(candidate)
            members.append(candidate)
            frontier.append(candidate)
    return members


def before_prologue(user: ir.Operation, stops: Iterable[ir.Value[ir.Type]] = ()) -> ir.InsertionPoint:
    """Where a frontend puts a convert that ``user`` needs: right before ``user``'s :func:`prologue`,
    but after the definitions of ``stops`` (the values converted for it) in ``user``'s block.

    Args:
        user: The op that needs the convert.
        stops: The values converted for ``user`` (each convert must follow its value's definition).

    Returns:
        The insertion point.

    Example::

        ip = before_prologue(op, [x])          # before JAX's constant and broadcast of x * 0.5
    """
    stops = list(stops)
    first = user
    for op in prologue(user, stops):
        if op.is_before_in_block(first):
            first = op
    block = user.block
    latest: ir.Operation | None = None
    for v in stops:
        owner = v.owner
        if isinstance(owner, ir.Block):
            continue
        op = owner.operation
        if op.block == block and first.is_before_in_block(op) and (latest is None or latest.is_before_in_block(op)):
            latest = op
    return ir.InsertionPoint.after(latest) if latest is not None else ir.InsertionPoint(first)
