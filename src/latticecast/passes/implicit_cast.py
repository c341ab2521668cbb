"""The ``implicit-cast`` pass: join operand types on a policy's lattice, insert ``stablehlo.convert``.

For every op whose operands must share an element type (``dialect_utils.op_table``)
the pass joins the operands' types under the policy, converts the operands that
differ, and checks the declared result type. Weakly typed values (marked
``latticecast.weak``) take part as the policy's weak types; weakness flows through
elementwise and data-movement ops, and a weak *constant* is rebuilt at its target
type rather than converted. One conversion is made per (value, target type),
placed right after the value's definition so that it dominates every use.

Illegal programs get an MLIR error at the op's location and the pass fails; it
does not leave invalid IR behind it on success. A module that is already legal is
left exactly as it is, so running the pass twice gives what running it once gives.

The walk is iterative (``Operation.walk`` drives it from C++), and the common case,
an op whose operands already agree, costs a few pointer comparisons.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

import numpy as np
from jaxlib.mlir import ir

from ..dtypes import DType
from ..errors import PromotionError
from ..policies import Policy, policy as get_policy
from ..policies.base import literal_problem
from ..weak import PType, Weak
from ..dialect_utils.constants import constant_values
from ..dialect_utils.op_table import PROMOTABLE, RETYPABLE, WEAK_ATTR, WEAK_TRANSPARENT, PromotableOp
from ..dialect_utils.types import TypeCache, type_cache
from .diagnostics import Diagnostic, format_location
from .lower_dtypes import lower_dtypes, refresh_function_type
from .options import ImplicitCastOptions

__all__ = ["ImplicitCastPass", "run_implicit_cast", "ImplicitCastResult"]


@dataclass
class ImplicitCastResult:
    """What one run did: ``ok`` is False when it emitted errors."""

    ok: bool = True
    converts: int = 0
    retyped_constants: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)


class ImplicitCastPass:
    """The pass as the callable jaxlib's ``PassManager.add`` takes.

    ``pm.add(ImplicitCastPass(policy="max"), name="ImplicitCastPass", argument="implicit-cast")``
    or :meth:`add_to`. After a run, :attr:`diagnostics` holds every diagnostic,
    including the remarks and warnings MLIR's Python bindings cannot emit.
    """

    argument = "implicit-cast"
    name = "ImplicitCastPass"
    description = "Join operand types on a promotion lattice and insert stablehlo.convert"

    def __init__(self, options: ImplicitCastOptions | None = None, **kwargs: object) -> None:
        if options is None:
            options = ImplicitCastOptions(**{k.replace("-", "_"): v for k, v in kwargs.items()})  # type: ignore[arg-type]
        elif kwargs:
            raise TypeError("pass either options or keyword options, not both")
        self.options = options
        self.diagnostics: list[Diagnostic] = []
        self.results: list[ImplicitCastResult] = []

    def __call__(self, op: ir.Operation, pass_: object) -> None:
        try:
            result = run_implicit_cast(op, self.options)
        except Exception as e:  # a bug in the pass: fail the pipeline with a diagnostic, not a crash
            op.location.emit_error(f"implicit-cast: internal error: {type(e).__name__}: {e}")
            pass_.signal_pass_failure()  # type: ignore[attr-defined]
            return
        self.results.append(result)
        self.diagnostics.extend(result.diagnostics)
        if not result.ok:
            pass_.signal_pass_failure()  # type: ignore[attr-defined]

    def add_to(self, pm: object) -> None:
        pm.add(self, name=self.name, argument=self.argument, description=self.description)  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"implicit-cast{{{self.options}}}"


def run_implicit_cast(root: ir.Operation, options: ImplicitCastOptions | None = None) -> ImplicitCastResult:
    """Run the pass's work on ``root`` (a module, or any op) directly, outside a PassManager.

    Errors are emitted as MLIR diagnostics at the ops' locations (an enclosing
    PassManager or diagnostic handler sees them) and recorded in the result.
    """
    options = options or ImplicitCastOptions()
    root = root.operation if hasattr(root, "operation") else root
    run = _Run(root, get_policy(options.policy), options)
    run.run()
    return run.result


class _Run:
    """One application of the pass to one root op."""

    def __init__(self, root: ir.Operation, policy: Policy, options: ImplicitCastOptions) -> None:
        self.root = root
        self.policy = policy
        self.options = options
        self.context = root.context
        self.tc: TypeCache = type_cache(self.context)
        self.result = ImplicitCastResult()
        self.weak: set[ir.Value] = set()  # values that are weakly typed (marked or propagated)
        self.cache: dict[tuple[ir.Value, DType], ir.Value] = {}  # (value, target) -> converted value
        self.replaced: list[ir.Operation] = []  # weak defining ops that may now be dead
        self.marked: list[ir.Operation] = []
        self.funcs: list[ir.Operation] = []
        self._join_cache: dict[tuple[PType, PType], PType | PromotionError] = {}
        self._plans: dict[tuple, "_Plan | str"] = {}
        self.materialized_escapes = 0
        self._bool_types: dict[ir.Type, bool] = {}

    # -- driver -------------------------------------------------------------------------

    def run(self) -> None:
        # Weak function arguments first: they are defined before every op that uses them.
        for f in self._functions():
            self._weak_arguments(f)
        promotable, transparent = PROMOTABLE, WEAK_TRANSPARENT
        marked = self.marked
        weak = self.weak
        promote = self._promote
        propagate = self._propagate

        # One pre-order walk does everything: definitions come before their uses, and the
        # rewrites only insert ops before the op being visited (right after a definition),
        # which MLIR's early-increment walk tolerates.
        failure: list[BaseException] = []

        def visit(op: ir.Operation) -> ir.WalkResult:
            try:
                name = op.name
                spec = promotable.get(name)
                if WEAK_ATTR in op.attributes:
                    marked.append(op)
                    if spec is None:
                        for r in op.results:
                            weak.add(r)
                if spec is not None:
                    promote(op, spec)
                elif weak and name in transparent:
                    propagate(op)
            except Exception as e:  # re-raised below as itself, not as the binding's RuntimeError
                failure.append(e)
                return ir.WalkResult.INTERRUPT
            return ir.WalkResult.ADVANCE

        with self.context, ir.Location.unknown():
            self.root.walk(visit, ir.WalkOrder.PRE_ORDER)
            if failure:
                raise failure[0]
            self._materialize_escaping_weak_values()
            self._cleanup()
            if self.result.ok and self.options.lower_dtypes and _has_host_only_dtypes(self.policy):
                lower_dtypes(self.root, self.tc)

    def _functions(self) -> list[ir.Operation]:
        """The ``func.func`` ops directly in the root (a module) or the root itself."""
        if self.root.name == "func.func":
            return [self.root]
        out = []
        for region in self.root.regions:
            for block in region.blocks:
                for op in block.operations:
                    op = op.operation  # an OpView's .name may be its symbol (func.func's is)
                    if op.name == "func.func":
                        out.append(op)
        self.funcs = [f.operation if hasattr(f, "operation") else f for f in out]
        return self.funcs

    # -- weak values ----------------------------------------------------------------------

    def _weak_arguments(self, func: ir.Operation) -> None:
        if "arg_attrs" not in func.attributes or not func.regions or not func.regions[0].blocks:
            return
        args = func.regions[0].blocks[0].arguments
        for i, attrs in enumerate(ir.ArrayAttr(func.attributes["arg_attrs"])):
            if WEAK_ATTR in ir.DictAttr(attrs):
                self.weak.add(args[i])

    def _propagate(self, op: ir.Operation) -> None:
        """Elementwise and data-movement ops keep their operands' weakness (all operands for
        multi-operand ops such as concatenate)."""
        operands = op.operands
        if len(operands) and all(v in self.weak for v in operands):
            for r in op.results:
                self.weak.add(r)

    def _ptype(self, value: ir.Value, dtype: DType) -> PType:
        return Weak(dtype) if value in self.weak else dtype

    # -- promotion ------------------------------------------------------------------------

    def _join(self, a: PType, b: PType) -> PType:
        key = (a, b)
        found = self._join_cache.get(key)
        if found is None:
            try:
                found = self.policy.promote_types(a, b)
            except PromotionError as e:
                found = e
            self._join_cache[key] = found
        if isinstance(found, PromotionError):
            raise found
        return found

    def _promote(self, op: ir.Operation, spec: PromotableOp) -> None:
        operands = op.operands
        values = tuple(operands) if spec.values is None else tuple(operands[i] for i in spec.values)
        result = op.result
        rtype = result.type
        weak = self.weak
        flags = tuple([v in weak for v in values]) if weak else None
        if len(values) == 2:  # the common case, without generators
            a, b = values
            types = (a.type, b.type)
            same = types[0] == types[1]
        else:
            types = tuple([v.type for v in values])
            same = all(t == types[0] for t in types)
        if same and (flags is None or not any(flags)):
            kind = spec.result
            if (rtype == types[0]) if kind == "same" else (kind == "accumulate" or (
                    kind == "bool" and self._is_bool_tensor(rtype))):
                return  # already legal: the common case costs these comparisons only
        key = (spec.name, types, rtype, flags)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = self._plan(spec, types, rtype, flags)
        if isinstance(plan, str):
            self._error(op, plan)
            return
        for i, target, dtype, shape in plan.converts:
            v = values[i]
            new = self._materialize(v, target, dtype, shape, op)
            if new is None:
                return
            operands[i if spec.values is None else spec.values[i]] = new
        if plan.compare_type is not None and "compare_type" in op.attributes:
            # SIGNED/UNSIGNED/FLOAT follow the promoted type; a float TOTALORDER stays one
            if not (plan.float_target and "TOTALORDER" in str(op.attributes["compare_type"])):
                op.attributes["compare_type"] = plan.compare_type
        if plan.weak_result:
            weak.add(result)

    def _is_bool_tensor(self, t: ir.Type) -> bool:
        found = self._bool_types.get(t)
        if found is None:
            try:
                found = self.tc.tensor_info(t)[0] is DType.bool
            except TypeError:
                found = False
            self._bool_types[t] = found
        return found

    def _plan(self, spec: PromotableOp, types: tuple[ir.Type, ...], rtype: ir.Type,
              flags: tuple[bool, ...] | None) -> "_Plan | str":
        """What to do with every op of this shape: which operands to convert, or the error."""
        try:
            infos = [self.tc.tensor_info(t) for t in types]
            res_dtype, res_shape = self.tc.tensor_info(rtype)
        except TypeError as e:
            return str(e)
        ptypes = [Weak(d) if flags and f else d for (d, _), f in zip(infos, flags or [False] * len(infos))]
        try:
            join = ptypes[0]
            for t in ptypes[1:]:
                join = self._join(join, t)
        except PromotionError as e:
            return str(e)
        target = self.policy.materialize(join)
        if not spec.admits(target):
            return (f"needs {spec.requirement}, but its operands {self._names(ptypes)} promote to "
                    f"{target.mlir_name} under policy '{self.policy.name}'; cast them explicitly "
                    f"to a type the op accepts")
        expected = {"same": target, "bool": DType.bool, "accumulate": target,
                    "complex": DType.complex64 if target is DType.float32 else DType.complex128}[spec.result]
        weak_result = isinstance(join, Weak) and spec.result in ("same", "accumulate")
        if res_dtype is not expected and not (
                spec.result == "accumulate" and self.policy.try_promote(target, res_dtype) == res_dtype):
            return (f"declares result type {rtype}, which contradicts the promotion of "
                    f"{self._names(ptypes)} to {target.mlir_name} under policy "
                    f"'{self.policy.name}'; declare {self.tc.tensor(expected, res_shape)}")
        converts = tuple((i, target, d, shape) for i, (d, shape) in enumerate(infos) if d is not target)
        compare_type = _comparison_type(target) if spec.name == "stablehlo.compare" and converts else None
        return _Plan(converts, compare_type, weak_result and res_dtype is target, target.is_inexact)

    def _names(self, ptypes: Iterable[PType]) -> str:
        return " and ".join(self.policy.type_name(t) for t in ptypes)

    # -- materialisation ----------------------------------------------------------------

    def _materialize(self, value: ir.Value, target: DType, dtype: DType, shape: tuple[int, ...],
                     user: ir.Operation) -> ir.Value | None:
        """``value`` as ``target``: a rebuilt weak constant, or one convert per (value, target)."""
        key = (value, target)
        found = self.cache.get(key)
        if found is not None:
            return found
        new: ir.Value | None
        if value in self.weak and self._is_weak_constant_chain(value):
            new = self._retype_constant_chain(value, target, user)
        else:
            self._check_lossy(dtype, target, user)
            new = self._convert(value, target, shape)
        if new is not None:
            self.cache[key] = new
        return new

    def _convert(self, value: ir.Value, target: DType, shape: tuple[int, ...]) -> ir.Value:
        owner = value.owner
        if isinstance(owner, ir.Block):
            ops = owner.operations
            ip = ir.InsertionPoint(ops[0]) if len(ops) else ir.InsertionPoint(owner)
            loc = value.location if hasattr(value, "location") else ir.Location.unknown()
        else:
            ip = ir.InsertionPoint.after(owner)
            loc = owner.location
        op = ir.Operation.create("stablehlo.convert", results=[self.tc.tensor(target, shape)],
                                 operands=[value], loc=loc, ip=ip)
        self.result.converts += 1
        return op.result

    def _is_weak_constant_chain(self, value: ir.Value) -> bool:
        v = value
        while True:
            owner = v.owner
            if isinstance(owner, ir.Block):
                return False
            name = owner.name
            if name == "stablehlo.constant":
                return True
            if name not in RETYPABLE or len(owner.operands) != 1 or owner.operands[0] not in self.weak:
                return False
            v = owner.operands[0]

    def _retype_constant_chain(self, value: ir.Value, target: DType, user: ir.Operation) -> ir.Value | None:
        """Rebuild a weak constant (and the reshapes/broadcasts between it and its use) at ``target``."""
        chain: list[ir.Operation] = []
        v = value
        while v.owner.name != "stablehlo.constant":
            chain.append(v.owner)
            v = v.owner.operands[0]
        const = v.owner
        const_dtype, const_shape = self.tc.tensor_info(v.type)
        base = self.cache.get((v, target))
        if base is None:
            values = constant_values(const, const_dtype, const_shape)
            problem = _values_problem(values, target)
            if problem:
                self._error(user, f"Unsafe cast: a weakly typed constant (at {format_location(const.location)}) "
                                  f"does not fit the promoted type: {problem}; cast the other operand to a "
                                  f"wider dtype first, or give the constant an explicit dtype")
                return None
            # MLIR has no dense tf32 or address constants: build those in their storage type
            # and convert (the dtype lowering then rounds to TF32 / drops the no-op convert)
            stored = {DType.tensor_float32: DType.float32, DType.address: DType.uint64}.get(target, target)
            host = _convert_values(values, stored)
            op = ir.Operation.create("stablehlo.constant", results=[self.tc.tensor(stored, const_shape)],
                                     attributes={"value": self.tc.dense_attr(host, stored, const_shape)},
                                     loc=const.location, ip=ir.InsertionPoint.after(const))
            if stored is not target:
                op = ir.Operation.create("stablehlo.convert", results=[self.tc.tensor(target, const_shape)],
                                         operands=[op.result], loc=const.location,
                                         ip=ir.InsertionPoint.after(op))
            base = op.result
            self.cache[(v, target)] = base
            self.replaced.append(const)
            self.result.retyped_constants += 1
        for link in reversed(chain):
            key = (link.results[0], target)
            cached = self.cache.get(key)
            if cached is None:
                _, shape = self.tc.tensor_info(link.results[0].type)
                attrs = {name: link.attributes[name] for name in link.attributes if name != WEAK_ATTR}
                op = ir.Operation.create(link.name, results=[self.tc.tensor(target, shape)], operands=[base],
                                         attributes=attrs, loc=link.location,
                                         ip=ir.InsertionPoint.after(link))
                cached = op.result
                self.cache[key] = cached
                self.replaced.append(link)
            base = cached
        return base

    def _materialize_escaping_weak_values(self) -> None:
        """A weak value consumed by an op that does not promote takes the policy's default
        type for it (JAX: a Python scalar returned from a function is an int64/float64)."""
        for value in list(self.weak):
            try:
                dtype, shape = self.tc.tensor_info(value.type)
            except TypeError:
                continue
            try:
                default = self.policy.materialize(Weak(dtype))
            except PromotionError:
                continue
            if default is dtype:
                continue
            for use in list(value.uses):
                owner = use.owner
                name = owner.name
                if name in WEAK_TRANSPARENT:
                    continue  # its result is weak too and is handled on its own
                if name in PROMOTABLE:
                    continue  # already promoted: its operand types agree
                new = self._materialize(value, default, dtype, shape, owner)
                if new is not None and new != value:
                    owner.operands[use.operand_number] = new
                    self.materialized_escapes += 1

    # -- diagnostics --------------------------------------------------------------------

    def _check_lossy(self, source: DType, target: DType, user: ir.Operation) -> None:
        level = self.options.diagnose_lossy
        if level == "off":
            return
        why = _magnitude_loss(source, target)
        if why is None:
            return
        message = f"'{user.name}' op implicit promotion of {source.mlir_name} to {target.mlir_name} {why}"
        if level == "error":
            self._error(user, message.split(" op ", 1)[1])
            return
        diag = Diagnostic(level, format_location(user.location), message)
        self.result.diagnostics.append(diag)

    def _error(self, op: ir.Operation, message: str) -> None:
        text = f"'{op.name}' op {message}"
        op.location.emit_error(text)
        self.result.ok = False
        self.result.diagnostics.append(Diagnostic("error", format_location(op.location), text))

    # -- cleanup ------------------------------------------------------------------------

    def _cleanup(self) -> None:
        for op in self.marked:
            if WEAK_ATTR in op.attributes:
                del op.attributes[WEAK_ATTR]
        for func in self.funcs:
            if WEAK_ATTR in func.attributes:
                del func.attributes[WEAK_ATTR]
            if "arg_attrs" in func.attributes:
                cleaned = []
                for attrs in ir.ArrayAttr(func.attributes["arg_attrs"]):
                    d = ir.DictAttr(attrs)
                    cleaned.append(ir.DictAttr.get({k.name: k.attr for k in (d[i] for i in range(len(d)))
                                                    if k.name != WEAK_ATTR}))
                if all(len(ir.DictAttr(a)) == 0 for a in cleaned):
                    del func.attributes["arg_attrs"]
                else:
                    func.attributes["arg_attrs"] = ir.ArrayAttr.get(cleaned)
        # Weak constants (and the reshapes over them) that every user now sees re-typed are dead.
        for op in reversed(self.replaced):
            if all(not list(r.uses) for r in op.results):
                op.erase()
        if self.materialized_escapes:
            for func in self.funcs:
                refresh_function_type(func)


@dataclass(frozen=True)
class _Plan:
    """The rewrite shared by every op with the same name, operand types and weakness."""

    converts: tuple[tuple[int, DType, DType, tuple[int, ...]], ...]  # (operand, target, from, shape)
    compare_type: ir.Attribute | None  # the comparison type a converted compare needs
    weak_result: bool
    float_target: bool


def _comparison_type(dtype: DType) -> ir.Attribute:
    from jaxlib.mlir.dialects import stablehlo
    kind = "FLOAT" if dtype.is_inexact else "SIGNED" if dtype.kind.value == "signed" else "UNSIGNED"
    return stablehlo.ComparisonTypeAttr.get(kind)


def _has_host_only_dtypes(policy: Policy) -> bool:
    return bool({DType.index, DType.address, DType.tensor_float32} & set(policy.dtypes))


def _magnitude_loss(source: DType, target: DType) -> str | None:
    """Why converting ``source`` to ``target`` can lose magnitude, or ``None``."""
    if source.is_complex and not target.is_complex:
        return "drops the imaginary part"
    lo, hi = source.min_value, source.max_value
    tlo, thi = target.min_value, target.max_value
    if source.is_complex:
        lo, hi = -source.info.max_finite, source.info.max_finite
    if target.is_complex:
        tlo, thi = -target.info.max_finite, target.info.max_finite
    if hi > thi or lo < tlo:
        if target.is_inexact:
            return (f"can lose magnitude: {source.mlir_name} values up to {float(hi):.3g} exceed "
                    f"{target.mlir_name}'s largest finite value {float(thi):.5g} (they become inf)")
        return (f"can lose magnitude: {source.mlir_name} values in [{lo}, {hi}] do not fit "
                f"{target.mlir_name} [{tlo}, {thi}]")
    return None


def _values_problem(values: np.ndarray, target: DType) -> str | None:
    """The first element of a constant that ``target`` cannot represent, as a message."""
    for v in np.unique(values.reshape(-1)) if values.size < 4096 else _extremes(values):
        item = v.item() if hasattr(v, "item") else v
        if isinstance(item, bool):
            item = int(item)
        problem = literal_problem(item, target)
        if problem:
            return problem
    return None


def _extremes(values: np.ndarray) -> list[object]:
    if values.dtype.kind == "c":
        return [values.reshape(-1)[np.argmax(np.abs(values))]]
    return [values.min(), values.max()]


def _convert_values(values: np.ndarray, target: DType) -> np.ndarray:
    if target.is_bool:
        return values != 0
    if not target.is_complex and values.dtype.kind == "c":
        values = values.real
    return values.astype(target.np_dtype)
