"""Shardings of values, as JAX writes them: where a pass that adds an op finds the sharding to keep.

A sharded module carries each value's layout in one of two spellings:

* Shardy (JAX's default partitioner): ``sdy.sharding`` on the defining op, a
  ``#sdy.sharding_per_value<[...]>`` with one sharding per result, or in a function's
  ``arg_attrs`` (``{sdy.sharding = #sdy.sharding<@mesh, [...]>}``) for an argument; the
  result of ``sdy.sharding_constraint`` and ``sdy.reshard`` (what
  ``jax.lax.with_sharding_constraint`` and ``jax.sharding.reshard`` write) has the
  sharding the op names in its own ``sharding`` attribute;
* GSPMD: ``mhlo.sharding`` on the defining op, or in the argument's attributes.

A ``stablehlo.convert`` that ``implicit-cast`` inserts for a value is elementwise, so
it keeps that value's sharding exactly; :func:`copy_sharding` writes it on the convert
in the same spelling. Without it the partitioner would still propagate a layout, but
not necessarily the one the program asked for.
"""

from __future__ import annotations

from jaxlib.mlir import ir

__all__ = ["arguments_may_be_sharded", "copy_sharding", "value_sharding", "SDY_SHARDING", "MHLO_SHARDING"]

SDY_SHARDING = "sdy.sharding"
MHLO_SHARDING = "mhlo.sharding"
_SHARDING_OPS = frozenset({"sdy.sharding_constraint", "sdy.reshard"})
"""Shardy ops whose one result has the sharding in their ``sharding`` attribute."""


def value_sharding(value: ir.Value[ir.Type],
                   owner: "ir.Block | ir.OpView | ir.Operation | None" = None) -> tuple[str, ir.Attribute] | None:
    """``(attribute name, sharding of this one value)`` as written in the module, or ``None``.

    For Shardy the sharding is a ``#sdy.sharding<...>``; for GSPMD the ``mhlo.sharding`` string.
    ``owner`` is ``value.owner`` where the caller has read it already.
    """
    if owner is None:
        owner = value.owner
    if isinstance(owner, ir.Block):
        if not arguments_may_be_sharded(owner):
            return None
        attrs = ir.ArrayAttr(owner.owner.operation.attributes["arg_attrs"])
        index = ir.BlockArgument(value).arg_number
        if index >= len(attrs):
            return None
        d = ir.DictAttr(attrs[index])
        for name in (SDY_SHARDING, MHLO_SHARDING):
            if name in d:
                return name, d[name]
        return None
    op = owner.operation  # an OpView's .name may be an attribute of the op (sdy.named_computation's)
    op_attrs = op.attributes
    if op.name in _SHARDING_OPS and "sharding" in op_attrs:
        return SDY_SHARDING, op_attrs["sharding"]
    if SDY_SHARDING in op_attrs:
        per_value = op_attrs[SDY_SHARDING]
        from jaxlib.mlir.dialects import sdy  # its op classes load only for a sharded program

        if sdy.TensorShardingPerValueAttr.isinstance(per_value):
            shardings = sdy.TensorShardingPerValueAttr(per_value).shardings
            index = ir.OpResult(value).result_number
            if index < len(shardings):
                return SDY_SHARDING, shardings[index]
        return None
    if MHLO_SHARDING in op_attrs and len(op.results) == 1:
        return MHLO_SHARDING, op_attrs[MHLO_SHARDING]
    return None


def arguments_may_be_sharded(block: ir.Block) -> bool:
    """Whether an argument of ``block`` can have a sharding written for it: ``block`` is the entry block of a
    ``func.func`` that has ``arg_attrs``. A pass that converts many arguments of one block asks once.

    Args:
        block: The block whose arguments are read.

    Returns:
        ``False`` when :func:`value_sharding` of each of its arguments is ``None``.

    Example:
        >>> import latticecast as lc
        >>> m = lc.parse("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> }")
        >>> arguments_may_be_sharded(m.body.operations[0].regions[0].blocks[0])
        False
    """
    view = block.owner
    if view is None:
        return False
    parent = view.operation  # the OpView of a func.func answers .name with its symbol
    return parent.name == "func.func" and "arg_attrs" in parent.attributes and parent.regions[0].blocks[0] == block


def copy_sharding(value: ir.Value[ir.Type], op: ir.Operation,
                  owner: "ir.Block | ir.OpView | ir.Operation | None" = None) -> None:
    """Give ``op`` (one result, elementwise in ``value``) the sharding of ``value``, if it has one
    (``owner``: ``value.owner``, where the caller has read it already)."""
    found = value_sharding(value, owner)
    if found is None:
        return
    name, sharding = found
    if name == SDY_SHARDING:
        from jaxlib.mlir.dialects import sdy  # loaded already: value_sharding read an sdy attribute

        op.attributes[SDY_SHARDING] = sdy.TensorShardingPerValueAttr.get([sharding])
    else:
        op.attributes[MHLO_SHARDING] = sharding
