"""``Graph``: build a StableHLO function the way Modular's MAX ``Graph`` API does.

A graph owns a module with one public function, ``@main``, whose arguments are the
graph's inputs. Every op enters through one door, :meth:`Graph._add_op`, which gives
it its location and, for a weakly typed value, the ``latticecast.weak`` marker. Ops
are appended with ``ir.Operation.create`` (much faster than the generated op classes)
and are *not* verified while building: a binary op may mix operand element types,
its result typed with the promoted type, as the design's IR conventions say.

:attr:`Graph.module` runs ``implicit-cast`` with the graph's policy object (once) and
verifies the result; ``Graph.mlir(before_passes=True)`` shows the IR as built.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Sequence

from jaxlib.mlir import ir, passmanager

from ..dialect_utils.context import default_context
from ..dialect_utils.diagnostics import Diagnostic
from ..dialect_utils.types import TypeCache, type_cache
from ..dtypes import DType, DTypeLike
from ..errors import GraphError
from ..op_rules import WEAK_ATTR
from ..passes import ImplicitCastOptions, ImplicitCastPass, LossyLevel
from ..passes.sharding import SDY_SHARDING
from ..policies import Policy, policy as get_policy
from ..tensor_type import TensorType
from . import current
from .current import current_graph
from .ops.promotion import as_value, constant_value
from .sharding import MeshLayout
from .value import Value

__all__ = ["Graph", "PassFailure", "current_graph"]


class PassFailure(RuntimeError):
    """``implicit-cast`` (or the verifier after it) rejected a graph; ``diagnostics`` has the details."""

    def __init__(self, message: str, diagnostics: list[str]) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics


class _ScalarFactory:
    """``g.scalar[DType.int16](1)`` (the MAX/Mojo spelling) and ``g.scalar(1, DType.int16)``."""

    def __init__(self, graph: "Graph") -> None:
        self._graph = graph

    def __getitem__(self, dtype: DTypeLike) -> Callable[[Any], Value]:
        d = DType.parse(dtype)
        return lambda value: self._graph.constant(value, d)

    def __call__(self, value: Any, dtype: DTypeLike | None = None) -> Value:
        return self._graph.constant(value, None if dtype is None else DType.parse(dtype))


class Graph:
    """A StableHLO function under construction, with a promotion policy.

    ``Graph(name, input_types=[TensorType(...), ...], policy="jax")``; use it as a
    context manager (ops on its values find it, as in MAX) or pass ``forward``, a
    callable that receives the inputs and returns the outputs. ``policy`` is a name
    or any :class:`~latticecast.Policy` object, registered or not. ``diagnose_lossy``
    (``"remark"``, ``"warning"``, ``"error"``) reports implicit promotions that can
    lose magnitude (``int64 -> float16``) in :attr:`diagnostics`; warnings are also
    issued as :class:`~latticecast.passes.LossyPromotionWarning`, errors fail the pass.

    ``mesh`` (a ``jax.sharding.Mesh``, or an ``AbstractMesh``) makes the graph a program for
    ``mesh.size`` devices: inputs take ``TensorType(..., sharding=PartitionSpec(...))``, values
    ``ops.shard(value, PartitionSpec(...))``, outputs ``g.output(..., shardings=[...])``; what is
    not given is replicated. The module carries Shardy shardings and ``mhlo.num_partitions``, and
    :meth:`compile` runs it on the mesh's devices (see :mod:`latticecast.graph.sharding`).
    """

    def __init__(self, name: str, input_types: Sequence[TensorType] = (), policy: "str | Policy" = "jax", *,
                 forward: Callable[..., Any] | None = None, context: ir.Context | None = None,
                 input_names: Sequence[str] | None = None, debug_locations: bool = False,
                 diagnose_lossy: "str | LossyLevel" = "off", mesh: Any = None) -> None:
        self.name = name
        self.policy: Policy = get_policy(policy)
        self.options = ImplicitCastOptions(policy=self.policy, diagnose_lossy=diagnose_lossy)
        self.context = context or default_context()
        self.tc: TypeCache = type_cache(self.context)
        self.debug_locations = debug_locations
        types = [t if isinstance(t, TensorType) else TensorType(*t) for t in input_types]
        for t in types:
            self.policy.canonical(t.dtype)  # a dtype the policy does not know is an error now
        self.input_types: tuple[TensorType, ...] = tuple(types)
        if input_names is not None and len(input_names) != len(types):
            raise GraphError(f"{len(input_names)} input names for {len(types)} inputs")
        self.input_names = tuple(input_names) if input_names is not None else None
        self._closed = False
        self._passed = False
        self._before: ir.Operation | None = None
        self._failure: PassFailure | None = None
        self._output_types: tuple[TensorType, ...] | None = None
        self.diagnostics: list[str] = []
        self.layout: MeshLayout | None = MeshLayout(mesh) if mesh is not None else None
        self.mesh = mesh
        if self.layout is None:
            for i, t in enumerate(types):
                if t.sharding is not None:
                    raise GraphError(f"input {i} has sharding {t.sharding}, but graph {name!r} has no mesh; pass "
                                     f"Graph(..., mesh=jax.sharding.Mesh(...)) to shard it")
        with self.context:
            self.loc = ir.Location.name(name) if name else ir.Location.unknown()
            self._unit = ir.UnitAttr.get()
            self._module = ir.Module.create(self.loc)
            self._module.operation.attributes["sym_name"] = ir.StringAttr.get(name or "graph")
            arg_types = [self.tc.tensor(t.dtype, t.shape) for t in types]
            self._func = ir.Operation.create(
                "func.func", attributes={"sym_name": ir.StringAttr.get("main"),
                                         "function_type": ir.TypeAttr.get(ir.FunctionType.get(arg_types, [])),
                                         "sym_visibility": ir.StringAttr.get("public")},
                regions=1, loc=self.loc, ip=ir.InsertionPoint(self._module.body))
            self._block = ir.Block.create_at_start(self._func.regions[0], arg_types, [self.loc] * len(arg_types))
            self.ip = ir.InsertionPoint(self._block)
            if self.layout is not None:
                self.layout.emit(self._module, self.loc)
                self._func.attributes["arg_attrs"] = ir.ArrayAttr.get([
                    ir.DictAttr.get({SDY_SHARDING: self.layout.sharding(t.sharding, t.shape, f"input {i}",
                                                                        boundary=True)})
                    for i, t in enumerate(types)])
        self.inputs: tuple[Value, ...] = tuple(
            Value(self, arg, t.dtype, t.shape) for arg, t in zip(self._block.arguments, types))
        if forward is not None:
            with self:
                outs = forward(*self.inputs)
            self.output(*(outs if isinstance(outs, (tuple, list)) else (outs,)))

    # -- the current graph (ops find it, as in MAX) -------------------------------------------

    def __enter__(self) -> "Graph":
        current.enter(self)
        return self

    def __exit__(self, *exc: object) -> None:
        current.leave(self)

    @staticmethod
    def current() -> "Graph":
        return current_graph()

    # -- the door every op enters by ------------------------------------------------------------

    def _add_op(self, name: str, results: Sequence[ir.Type], operands: Sequence[ir.Value] = (),
                attributes: dict[str, ir.Attribute] | None = None, *, regions: int = 0,
                weak: bool = False) -> ir.Operation:
        """Append ``name`` to ``@main``: the one place ops are created, located, and marked weak."""
        if weak:
            attributes = dict(attributes or {})
            attributes[WEAK_ATTR] = self._unit
        return ir.Operation.create(name, results=results, operands=operands, attributes=attributes,
                                   regions=regions, loc=self.location() if self.debug_locations else self.loc,
                                   ip=self.ip)

    def location(self) -> ir.Location:
        """Where a new op comes from: the user's source line with ``debug_locations``."""
        if not self.debug_locations:
            return self.loc
        frame = sys._getframe(1)
        while frame is not None and frame.f_globals.get("__name__", "").startswith("latticecast."):
            frame = frame.f_back
        if frame is None:
            return self.loc
        return ir.Location.file(frame.f_code.co_filename, frame.f_lineno, 1, context=self.context)

    # -- building -------------------------------------------------------------------------

    @property
    def scalar(self) -> _ScalarFactory:
        return _ScalarFactory(self)

    @property
    def closed(self) -> bool:
        return self._closed

    def check_open(self) -> None:
        if self._closed:
            raise GraphError(f"graph {self.name!r} is closed (g.output() was called); build a new "
                             "Graph to add more ops")

    def constant(self, value: Any, dtype: DTypeLike | None = None) -> Value:
        """A strongly typed constant from a NumPy array, list or scalar.

        Without ``dtype`` the NumPy dtype decides (Python ints become the policy's
        default int, floats its default float); with ``dtype`` the values must fit
        it exactly (no silent wrap of 300 into uint8).
        """
        self.check_open()
        return constant_value(self, value, None if dtype is None else DType.parse(dtype))

    def output(self, *values: Any, shardings: Sequence[Any] | None = None) -> None:
        """Return ``values`` from the graph (Python scalars and arrays become constants) and close it.

        ``shardings``: with a mesh, one ``PartitionSpec`` (or ``None``: replicated) per value, the
        layout of each output (``jax.jit``'s ``out_shardings``)."""
        self.check_open()
        if not values:
            raise GraphError(f"graph {self.name!r}: output() needs at least one value")
        if shardings is not None:
            if self.layout is None:
                raise GraphError(f"graph {self.name!r} has no mesh, so its outputs cannot be sharded; pass "
                                 f"Graph(..., mesh=jax.sharding.Mesh(...))")
            shardings = list(shardings)
            if len(shardings) != len(values):
                raise GraphError(f"graph {self.name!r}: output() got {len(values)} value(s) and {len(shardings)} "
                                 f"sharding(s); give one PartitionSpec (or None) per value")
        outs = [as_value(v, self, materialize=True) for v in values]
        with self.context:
            result_attrs = None
            if self.layout is not None:
                specs = shardings if shardings is not None else [None] * len(outs)
                result_attrs = ir.ArrayAttr.get([
                    ir.DictAttr.get({SDY_SHARDING: self.layout.sharding(spec, v.shape, f"output {i}", boundary=True)})
                    for i, (spec, v) in enumerate(zip(specs, outs))])
            self._add_op("func.return", [], [v.ir for v in outs])
            ftype = ir.FunctionType.get([a.type for a in self._block.arguments], [v.ir.type for v in outs])
            self._func.attributes["function_type"] = ir.TypeAttr.get(ftype)
            if result_attrs is not None:
                self._func.attributes["res_attrs"] = result_attrs
        self._output_types = tuple(TensorType(v.dtype, v.shape) for v in outs)
        self._closed = True

    @property
    def output_types(self) -> tuple[TensorType, ...]:
        if self._output_types is None:
            raise GraphError(f"graph {self.name!r} has no output yet: call g.output(...)")
        return self._output_types

    # -- the pass, text, compile ------------------------------------------------------------

    def _require_output(self) -> None:
        if not self._closed:
            raise GraphError(f"graph {self.name!r} has no output: call g.output(value, ...) before "
                             "asking for its module, its MLIR or compiling it")

    def _run_pass(self) -> None:
        if self._passed:
            return
        if self._failure is not None:
            raise self._failure  # the same answer every time; the half-passed IR is never handed out
        self._require_output()
        self._before = self._module.operation.clone()
        p = ImplicitCastPass(self.options)
        with self.context:
            pm = passmanager.PassManager("builtin.module")
            p.add_to(pm)
            try:
                pm.run(self._module.operation)
            except ir.MLIRError as e:
                diags = [Diagnostic.from_mlir(d).format() for d in e.error_diagnostics]
                self._failure = PassFailure(f"implicit-cast rejected graph {self.name!r}:\n  "
                                            + "\n  ".join(diags), diags)
                raise self._failure from None
        self.diagnostics.extend(d.format() for d in p.diagnostics)
        for d in p.diagnostics:
            if d.severity == "warning":
                d.warn()
        self._passed = True

    @property
    def module(self) -> ir.Module:
        """The ``ir.Module`` after ``implicit-cast``: legal, verified StableHLO."""
        self._run_pass()
        return self._module

    def mlir(self, before_passes: bool = False, *, generic: bool = False, debug_info: bool = False) -> str:
        """The module as text: after ``implicit-cast`` (default) or as built (``before_passes=True``,
        which prints the generic form: mixed-dtype ops do not verify)."""
        if before_passes:
            op = self._before if self._before is not None else self._module.operation
            return op.get_asm(print_generic_op_form=True, enable_debug_info=debug_info)
        self._run_pass()
        return self._module.operation.get_asm(print_generic_op_form=generic, enable_debug_info=debug_info,
                                              assume_verified=True)

    def __str__(self) -> str:
        return self.mlir(before_passes=not self._closed)

    def compile(self, device: Any = None, *, devices: Any = None) -> Any:
        """Compile with PJRT for ``device`` (default: the CPU) or ``devices``; returns a ``Model``
        (``model(*arrays)`` -> list of arrays). See :func:`latticecast.compile`. A graph over a
        concrete mesh runs on the mesh's devices unless told otherwise; over an ``AbstractMesh``, on
        the first ``mesh.size`` devices of ``device``'s platform."""
        from ..runtime import compile as compile_module
        if devices is None and device is None and self.layout is not None:
            devices = self.layout.devices
        return compile_module(self.module, device, devices=devices,
                              input_names=list(self.input_names or ()) or None)

    def __repr__(self) -> str:
        ins = ", ".join(str(t) for t in self.input_types)
        mesh = f" mesh={self.layout.describe()}" if self.layout is not None else ""
        return f"<Graph {self.name!r} ({ins}) policy={self.policy.name}{mesh}{' closed' if self._closed else ''}>"
