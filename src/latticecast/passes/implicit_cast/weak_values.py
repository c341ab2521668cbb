"""Weak values in the IR: which values are weakly typed, and what becomes of them.

A value is weak when its defining op carries ``latticecast.weak`` (a Python literal,
as the builder writes it), when it is a function argument marked so in ``arg_attrs``,
or when every operand of an elementwise or data-movement op producing it is weak
(:data:`latticecast.promotion.op_rules.WEAK_TRANSPARENT`: ``-k`` is as weak as ``k``). A constant
marked ``latticecast.weak = "array"`` is a weakly typed *array* (a NumPy array under MAX
26.7), and so is what is computed from one: it promotes as ``policy.numpy_values.array_type``
says and is checked by ``policy.numpy_values.array_problem`` instead of element by element as
literals.

Where a weak value meets a promoted op, the policy decides its type (see
:mod:`.planning`). A weak *constant* (and the broadcasts and reshapes between it and
its use) is then rebuilt at that type, once per (constant, type) however many uses
ask, rather than converted, after checking that its values fit with the policy's
literal rules. What is still weak where it leaves the promoted ops (returned, or fed
to an op that does not promote) takes the policy's default type for it. Finally every
marker is removed and the constants that nothing uses any more are erased, each once.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from jaxlib.mlir import ir

from ...dialect_utils.constants import constant_values
from ...dialect_utils.diagnostics import Diagnostic
from ...dialect_utils.types import TypeCache, static_shape
from ...promotion.dtypes import DType
from ...errors import PromotionError
from ...promotion.op_rules import (CONSTANT_LIKE, EXPLICIT_BROADCAST_ATTR, IMPLICIT_BROADCAST_ATTR, RETYPABLE, STABLEHLO,
                         WEAK_ARRAY, WEAK_ATTR, WEAK_TRANSPARENT)
from ...policies import Policy
from ...promotion.value_fit import convert_array
from ...promotion.weak import Weak
from ..base import PassResult

__all__ = ["WeakValues"]

Materialize = Callable[[ir.Value[ir.Type], DType, ir.Operation], "ir.Value[ir.Type] | None"]


class WeakValues:
    """The weak values of one pass run, and the ops to clean up after it."""

    def __init__(self, policy: Policy, tc: TypeCache, result: PassResult) -> None:
        self.policy = policy
        self.tc = tc
        self.result = result
        self.values: set[ir.Value[ir.Type]] = set()
        self.arrays: set[ir.Value[ir.Type]] = set()
        """The weak values that are weakly typed arrays (a subset of :attr:`values`)."""
        self.marked: list[ir.Operation] = []
        self._replaced: dict[ir.Value[ir.Type], ir.Operation] = {}
        """The ops replaced, to be erased once unused, by their one result, in the order met: an op hashes
        by what it holds (operands, attributes), which may change between two meetings; its result does not."""
        self.escapes = 0

    # -- finding them ------------------------------------------------------------------------

    def mark_arguments(self, func: ir.Operation) -> None:
        """Weak function arguments (``arg_attrs`` with ``latticecast.weak``)."""
        if "arg_attrs" not in func.attributes or not func.regions or not func.regions[0].blocks:
            return
        args = func.regions[0].blocks[0].arguments
        for i, attrs in enumerate(ir.ArrayAttr(func.attributes["arg_attrs"])):
            if i < len(args) and WEAK_ATTR in ir.DictAttr(attrs):
                self.values.add(args[i])

    def mark(self, op: ir.Operation, defines: bool) -> None:
        """``op`` carries the marker; its results are weak unless it is a promoted op (``defines``
        is false), whose result weakness its plan decides. They are weak arrays where the marker
        says ``"array"``, or where the op moves a weak array (the builder marks a broadcast of one
        as it marks any weak value's)."""
        self.marked.append(op)
        if defines:
            results = op.results
            for r in results:
                self.values.add(r)
            if _marks_array(op.attributes[WEAK_ATTR]) or (self.arrays and any(v in self.arrays for v in op.operands)):
                self.arrays.update(results)

    def propagate(self, op: ir.Operation) -> None:
        """Elementwise and data-movement ops keep their operands' weakness (all operands, for
        multi-operand ops such as concatenate); computed from a weak array, the result is one."""
        operands = op.operands
        values = self.values
        if len(operands) and all(v in values for v in operands):
            for r in op.results:
                values.add(r)
            if self.arrays and any(v in self.arrays for v in operands):
                self.arrays.update(op.results)

    def flag(self, value: ir.Value[ir.Type]) -> "bool | str":
        """How ``value`` takes part in a promotion: ``False`` strongly typed, ``True`` weak (a
        literal), :data:`~latticecast.promotion.op_rules.WEAK_ARRAY` a weak array."""
        if value not in self.values:
            return False
        return WEAK_ARRAY if value in self.arrays else True

    # -- weak constants ----------------------------------------------------------------------

    def is_constant_chain(self, value: ir.Value[ir.Type]) -> bool:
        """A weak constant (any constant-like op: ``stablehlo.constant``, ``arith.constant``, ...),
        possibly seen through single-operand data movement of weak values."""
        v = value
        while True:
            owner = v.owner
            if isinstance(owner, ir.Block):
                return False
            op = owner.operation  # an OpView's .name may be one of its attributes
            name = op.name
            if name in CONSTANT_LIKE:
                return "value" in op.attributes
            if name not in RETYPABLE or len(op.operands) != 1 or op.operands[0] not in self.values:
                return False
            v = op.operands[0]

    def retype_constant_chain(self, value: ir.Value[ir.Type], target: DType, user: ir.Operation,
                              cache: dict[tuple[ir.Value[ir.Type], DType], ir.Value[ir.Type]]) -> ir.Value[ir.Type] | None:
        """Rebuild a weak constant (and the data movement between it and its use) at ``target``.
        ``cache`` holds what was already rebuilt: each (value, type) is built once."""
        chain, v = self._chain(value)
        const = _op(v)
        base = cache.get((v, target))
        if base is None:
            base = self._retyped_constant(const, v, target, user)
            if base is None:
                return None
            cache[(v, target)] = base
        return self._retype_links(chain, base, target, cache)

    def convert_constant_chain(self, value: ir.Value[ir.Type], target: DType, user: ir.Operation,
                               cache: dict[tuple[ir.Value[ir.Type], DType], ir.Value[ir.Type]],
                               convert: Callable[[ir.Value[ir.Type], DType, ir.InsertionPoint], ir.Value[ir.Type]],
                               at_user: Callable[[], ir.InsertionPoint]) -> ir.Value[ir.Type] | None:
        """A weak constant converted where it is read, as a frontend converts a Python scalar it wrote
        in its own dtype (torch-mlir: a ``tensor<1xf64>`` converted, reshaped and broadcast): the
        constant stays, a convert to ``target`` goes right before the first op of the chain that reads
        it (``at_user()`` when ``user`` reads it directly), and the data movement after it is retyped.
        Checked as a literal first; each (value, type) is converted once (``cache``)."""
        chain, v = self._chain(value)
        const = _op(v)
        base = cache.get((v, target))
        if base is None:
            dtype, dims = self.tc.tensor_info(v.type)
            shape = static_shape(dims)
            if shape is None or self._literal_problem(const, v, constant_values(const, dtype, shape), target, user):
                return None
            base = cache[(v, target)] = convert(v, target, ir.InsertionPoint(chain[-1]) if chain else at_user())
        return self._retype_links(chain, base, target, cache)

    def _chain(self, value: ir.Value[ir.Type]) -> tuple[list[ir.Operation], ir.Value[ir.Type]]:
        """The data movement from a weak constant to ``value`` (nearest ``value`` first), and the
        constant's value (:meth:`is_constant_chain` holds)."""
        chain: list[ir.Operation] = []
        v = value
        while _op(v).name not in CONSTANT_LIKE:
            chain.append(_op(v))
            v = _op(v).operands[0]
        return chain, v

    def _retype_links(self, chain: list[ir.Operation], base: ir.Value[ir.Type], target: DType,
                      cache: dict[tuple[ir.Value[ir.Type], DType], ir.Value[ir.Type]]) -> ir.Value[ir.Type]:
        """The ops of ``chain`` again, from ``base`` and at ``target``, each right after the one it
        replaces (which cleanup erases once nothing uses it); each (link, type) is made once."""
        for link in reversed(chain):
            key = (link.results[0], target)
            cached = cache.get(key)
            if cached is None:
                attrs = {name: link.attributes[name] for name in link.attributes
                         if name not in (WEAK_ATTR, IMPLICIT_BROADCAST_ATTR, EXPLICIT_BROADCAST_ATTR)}
                op = ir.Operation.create(link.name, results=[self.tc.with_element(link.results[0].type, target)],
                                         operands=[base], attributes=attrs, loc=link.location,
                                         ip=ir.InsertionPoint.after(link))
                cached = cache[key] = op.result
                self._replaced[link.results[0]] = link.operation
            base = cached
        return base

    def _literal_problem(self, const: ir.Operation, value: ir.Value[ir.Type], values: np.ndarray, target: DType,
                         user: ir.Operation) -> bool:
        """Report (at ``user``) and return whether the weak constant's ``values`` do not fit ``target``."""
        if value in self.arrays:
            problem = self.policy.numpy_values.array_problem(values, target)
            what, fix = "weakly typed array", "make it a constant of the dtype you mean"
        else:
            problem = self.policy.literals.constant_problem(values, target)
            what, fix = "weakly typed constant", "give the constant an explicit dtype"
        if problem:
            self.result.error(user, f"Unsafe cast: a {what} (at {_where(const.location)}) does not fit the promoted "
                                    f"type: {problem}; cast the other operand to a wider dtype first, or {fix}")
        return bool(problem)

    def _retyped_constant(self, const: ir.Operation, value: ir.Value[ir.Type], target: DType,
                          user: ir.Operation) -> ir.Value[ir.Type] | None:
        tc = self.tc
        const_dtype, dims = tc.tensor_info(value.type)
        shape = static_shape(dims)
        if shape is None:
            return None
        values = constant_values(const, const_dtype, shape)
        if self._literal_problem(const, value, values, target, user):
            return None
        # MLIR has no dense constants of some dtypes (tf32, address): build those in the dtype
        # that stores them and convert (lower-dtypes then rounds to TF32 / drops the no-op convert)
        stored = target if target.has_dense_constants else target.stored_as
        op = ir.Operation.create(_constant_op(const.name, stored), results=[tc.tensor(stored, shape)],
                                 attributes={"value": tc.dense_attr(convert_array(values, stored), stored, shape)},
                                 loc=const.location, ip=ir.InsertionPoint.after(const))
        if stored is not target:
            op = ir.Operation.create("stablehlo.convert", results=[tc.tensor(target, shape)], operands=[op.result],
                                     loc=const.location, ip=ir.InsertionPoint.after(op))
        self._replaced[value] = const.operation
        self.result.retyped_constants += 1
        return op.result

    # -- what is left weak -----------------------------------------------------------------------

    def materialize_escapes(self, materialize: Materialize, created: "set[ir.Value[ir.Type]]",
                            settled: Callable[[ir.Operation], bool] = lambda op: False) -> None:
        """A weak value consumed by an op that does not promote takes the policy's default type for
        it (JAX: a Python scalar returned from a function is an int64/float64). The conversions the
        pass made itself (``created``: their results) are not consumers: they already give the value a type, and
        neither are the users ``settled`` names (a region's terminator: the enclosing op's types
        decide, and were checked)."""
        for value in list(self.values):
            if value in self.arrays:
                continue  # an array no op promotes is the array it is, in its own dtype (MAX's TensorValue(array))
            try:
                dtype, _ = self.tc.tensor_info(value.type)
                default = self.policy.materialize(Weak(dtype))
            except (TypeError, PromotionError):
                continue
            if default is dtype or dtype.needs_lowering:
                continue  # index, address and tf32 have no stablehlo.convert: lower-dtypes gives them a type
            for use in list(value.uses):
                owner = use.owner.operation
                name = owner.name
                if name in WEAK_TRANSPARENT or name in STABLEHLO or settled(owner) or \
                        (name == "stablehlo.convert" and len(owner.results) == 1 and owner.result in created):
                    continue  # its result is weak too, or it was promoted already, or it is a conversion
                new = materialize(value, default, owner)
                if new is not None and new != value:
                    owner.operands[use.operand_number] = new
                    self.escapes += 1

    # -- cleanup ---------------------------------------------------------------------------

    def cleanup(self, funcs: list[ir.Operation]) -> bool:
        """Remove every marker and erase the weak constants (and data movement) nothing uses now;
        returns whether it changed anything."""
        changed = bool(self.marked or self._replaced)
        for op in self.marked:
            if WEAK_ATTR in op.attributes:
                del op.attributes[WEAK_ATTR]
        for func in funcs:
            if WEAK_ATTR in func.attributes:
                del func.attributes[WEAK_ATTR]
                changed = True
            if "arg_attrs" in func.attributes:
                cleaned = []
                weak_argument = False
                for attrs in ir.ArrayAttr(func.attributes["arg_attrs"]):
                    d = ir.DictAttr(attrs)
                    weak_argument = weak_argument or WEAK_ATTR in d
                    cleaned.append(ir.DictAttr.get({k.name: k.attr for k in (d[i] for i in range(len(d)))
                                                    if k.name != WEAK_ATTR}))
                if all(len(ir.DictAttr(a)) == 0 for a in cleaned):
                    del func.attributes["arg_attrs"]
                    changed = True
                elif weak_argument:
                    func.attributes["arg_attrs"] = ir.ArrayAttr.get(cleaned)
                    changed = True
        for op in self.marked:  # a convert to its own type marked weak (a weak loop-carried value): a no-op now
            if op.name == "stablehlo.convert" and len(op.operands) == 1 and len(op.results) == 1 \
                    and op.operands[0].type == op.results[0].type:
                op.results[0].replace_all_uses_with(op.operands[0])
                op.erase()
        # Users were added after their operands, so erasing in reverse order frees a chain from
        # its far end; each op is in the dict once, so none is erased twice.
        for op in reversed(list(self._replaced.values())):
            if all(not list(r.uses) for r in op.results):
                op.erase()
        self._replaced.clear()
        return changed


def _marks_array(marker: ir.Attribute) -> bool:
    """Whether a ``latticecast.weak`` marker says ``"array"`` (a unit marker says: a literal)."""
    return isinstance(marker, ir.StringAttr) and marker.value == WEAK_ARRAY


def _where(loc: ir.Location) -> str:
    return Diagnostic.at(loc, "note", "").where or "<unknown>"


def _op(value: ir.Value[ir.Type]) -> ir.Operation:
    """The op that defines ``value`` (a value of a constant chain: not a block argument)."""
    owner = value.owner
    assert not isinstance(owner, ir.Block)
    return owner.operation


def _constant_op(name: str, dtype: DType) -> str:
    """The op a weak constant is rebuilt with at ``dtype``: the op it was (arith stays arith), unless
    that op's dialect cannot hold ``dtype``: ``arith.constant`` holds signless integers and floats
    only (its verifier refuses ``ui8`` and complex values), so those become ``stablehlo.constant``."""
    if name == "arith.constant" and (dtype.is_unsigned or dtype.is_complex):
        return "stablehlo.constant"
    return name
