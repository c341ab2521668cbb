"""``Graph``: build a StableHLO function the way Modular's MAX ``Graph`` API does.

MAX's names mean what MAX 26.7 means: ``Graph(name, forward=None, input_types=())``,
``Graph.current``, ``graph.inputs``, ``graph.output(...)``; latticecast's own options
(``policy=``, ``diagnose_lossy=``, ...) are keywords, and ``g.mlir()``/``g.compile()``
are its own. Input types may name symbolic dimensions (``["batch", 10]``): ``@main``
then has dynamic dimensions, and inputs sharing a name are asserted equal when it runs.

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

import os
import sys
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any, Callable, Generic, Hashable, Iterable, Iterator, Mapping, Sequence, TypeVar, Union, cast

import numpy as np
import numpy.typing as npt
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..promotion.device_ref import CPU, DeviceRef, DeviceRefLike
from ..dialect_utils.context import default_context
from ..dialect_utils.printing import asm
from ..dialect_utils.types import TypeCache, type_cache
from ..promotion.dims import AlgebraicDim, Dim, Shape, SymbolicDim
from ..promotion.dtypes import DType, DTypeLike
from ..errors import MAX_COMPILE_FAILURE, GraphError, LatticecastError, PassFailure
from ..promotion.op_rules import WEAK_ARRAY, WEAK_ATTR, OpPromotion, decisions_of
from ..passes.options import ImplicitCastOptions, LossyLevel, LowerDTypesOptions, PassOptions
from ..passes.pipeline import Pipeline
from ..passes.runner import PipelineRunner
from ..passes.infer_types import Comparison
from ..passes.value_sharding import SDY_SHARDING
from ..policies import Policy, policy as get_policy
from ..promotion.tensor_type import BufferType, TensorType, as_tensor_type
from ..promotion.weak import PType
from . import current
from .current import current_graph
from .ops.operands import as_value, constant_value
from .mesh_layout import MeshLayout
from .value import BufferValue, ChainValue, TensorValueLike, Value
from .weight import Weight

if TYPE_CHECKING:
    import jax

    from ..runtime import Model, PolymorphicModel
    from ..runtime.devices import DeviceList

__all__ = ["Graph", "KernelLibrary", "PassFailure", "current_graph", "InputType"]

InputType = Union[TensorType, BufferType, Sequence[object]]
"""A graph input's type: a :class:`~latticecast.TensorType`, MAX's ``BufferType`` (a signal buffer), or a
``(dtype, shape[, device])`` tuple."""

Mesh = Union["jax.sharding.Mesh", "jax.sharding.AbstractMesh"]
"""A graph's mesh (``Graph(..., mesh=...)``): concrete, or abstract (devices chosen when it compiles)."""


class _ScalarFactory:
    """``g.scalar[DType.int16](1)`` (the MAX/Mojo spelling) and ``g.scalar(1, DType.int16)``."""

    def __init__(self, graph: "Graph") -> None:
        self._graph = graph

    def __getitem__(self, dtype: DTypeLike) -> Callable[[npt.ArrayLike], Value]:
        d = DType.parse(dtype)
        return lambda value: self._graph.constant(value, d)

    def __call__(self, value: npt.ArrayLike, dtype: DTypeLike | None = None) -> Value:
        return self._graph.constant(value, None if dtype is None else DType.parse(dtype))


_T = TypeVar("_T")


class _ClassProperty(Generic[_T]):
    """A read-only property of the class itself (``Graph.current``, as MAX spells it)."""

    def __init__(self, fget: Callable[[Any], _T]) -> None:  # Any: a method's function, called with the class
        self.fget = fget
        self.__doc__ = fget.__doc__

    def __get__(self, obj: object, owner: type) -> _T:
        return self.fget(owner)


_MAX_ONLY = {
    "custom_extensions": "loads Mojo kernels into MAX's compiler",
    "kernel_library": "is a library of MAX's Mojo kernels",
    "module": "wraps an existing MAX MLIR module",
    "is_device_graph": "marks a MAX device graph",
}
"""``Graph`` arguments that only MAX's compiler can honour, and what each does there."""


class KernelLibrary:
    """MAX's ``KernelLibrary``, the Mojo kernels a graph's custom ops may call: latticecast's is empty.

    ``Graph(..., kernel_library=KernelLibrary())`` builds as in MAX (every op here is StableHLO, and
    custom ops are refused), so MAX code that passes one runs unchanged.

    Args:
        paths: Mojo kernel packages to load; latticecast loads none, so any is refused.

    Raises:
        GraphError: ``paths`` is not empty.

    Example:
        >>> from latticecast.max import DType, Graph, KernelLibrary, TensorType
        >>> Graph("g", input_types=[TensorType(DType.float32, [2])], kernel_library=KernelLibrary()).name
        'g'
    """

    def __init__(self, paths: Iterable[str | os.PathLike[str]] = ()) -> None:
        if list(paths):
            raise GraphError(f"KernelLibrary({list(paths)!r}): latticecast builds StableHLO and loads no Mojo "
                             "kernels; leave the paths out (custom ops have no StableHLO form)")


def _refuse_max_only_arguments(name: str, forward: object, path: object, *, custom_extensions: list[object],
                               kernel_library: object, module: object, is_device_graph: bool,
                               extra: list[str]) -> None:
    """Refuse what ``Graph(...)`` takes from MAX and cannot honour: a ``forward`` that is not callable,
    MAX's ``path``, its compiler's arguments, and extra arguments without a ``forward`` to take them."""
    if forward is not None and not callable(forward):
        raise GraphError(f"Graph({name!r}, ...): the second positional argument is forward, the callable that "
                         f"builds the graph (as in MAX), not {type(forward).__name__}; pass the input types by "
                         "name: Graph(name, input_types=[...])")
    if path is not None:
        raise GraphError(f"Graph({name!r}, ...): path={path!r} loads a graph MAX saved, which latticecast does "
                         "not read; build the graph in Python (latticecast's options are keywords: "
                         "policy='max')")
    for arg, value in (("custom_extensions", custom_extensions), ("kernel_library", kernel_library),
                       ("module", module), ("is_device_graph", is_device_graph)):
        if value and not isinstance(value, KernelLibrary):  # MAX's empty library is what latticecast has
            raise GraphError(f"Graph({name!r}, ...): {arg}= {_MAX_ONLY[arg]}; latticecast builds StableHLO "
                             f"for PJRT and has no equivalent: leave it out")
    if forward is None and extra:
        raise GraphError(f"Graph({name!r}, ...): unexpected argument(s) {', '.join(extra)}: without forward "
                         "there is nothing to pass them to (latticecast's options are policy=, input_names=, "
                         "debug_locations=, diagnose_lossy=, context=)")


class Graph:
    """A StableHLO function under construction, with a promotion policy.

    ``Graph(name, forward=None, input_types=[TensorType(...), ...], policy="jax")`` takes
    MAX's arguments in MAX's order: use it as a context manager (ops on its values find
    it, as in MAX) or pass ``forward``, a callable that receives the inputs (then ``*args``
    and ``**kwargs``) and returns the outputs. ``input_types`` may name symbolic
    dimensions (``["batch", 10]``): the function then has dynamic dimensions
    (``tensor<?x10xf32>``), and inputs that share a name are asserted equal when the
    graph runs.

    latticecast's own arguments are keywords: ``policy`` is a name or any
    :class:`~latticecast.Policy` object, registered or not. ``diagnose_lossy``
    (``"remark"``, ``"warning"``, ``"error"``) reports implicit promotions that can
    lose magnitude (``int64 -> float16``) in :attr:`diagnostics`; warnings are also
    issued as :class:`~latticecast.passes.LossyPromotionWarning`, errors fail the pass.
    ``report_promotions=True`` adds a remark to :attr:`diagnostics` for every convert the pass
    inserts and every weak literal it retypes (operand, from -> to, and the kind), and a summary.
    ``input_names`` names the compiled model's inputs; ``debug_locations`` gives each
    op the user's source line; ``context`` is the MLIR context to build in.

    MAX's ``path``, ``custom_extensions``, ``kernel_library`` (but for latticecast's empty
    :class:`KernelLibrary`), ``module`` and ``is_device_graph`` drive MAX's own compiler and are
    refused with the reason;
    ``strict_device_placement`` is accepted and has nothing to decide (MAX's CPU-only ops that
    would move a value to the host run on any device here).

    As in MAX, input types (and ``ops.transfer_to``, ``device=`` arguments, collectives) may name
    several devices: each value lives on one (``value.device``), ops check that their operands
    agree (:meth:`device_of`), and :attr:`devices` lists them; see :meth:`compile` for running such
    a graph. MAX's ``BufferType`` inputs (the signal buffers of its collectives) name a device and
    are not arguments of ``@main``.

    ``mesh`` (a ``jax.sharding.Mesh``, or an ``AbstractMesh``) makes the graph a program for
    ``mesh.size`` devices: inputs take ``TensorType(..., sharding=PartitionSpec(...))``, values
    ``ops.shard(value, PartitionSpec(...))``, outputs ``g.output(..., shardings=[...])``; what is
    not given is replicated. The module carries Shardy shardings and ``mhlo.num_partitions``, and
    :meth:`compile` runs it on the mesh's devices (see :mod:`latticecast.graph.mesh_layout`).
    """

    defers_refusals_to_compile: bool = False
    """Whether what MAX builds and its compiler then refuses builds here too and makes :meth:`compile` refuse
    the graph (``latticecast.max.graph.Graph``): arithmetic StableHLO does not define for bool (``x - y``,
    ``x * y``, ``@``, conv of two bools), and a symbolic dimension no input gives a size. Otherwise
    (``latticecast.Graph``) the op raises where it is written."""

    def __init__(self, name: str, forward: Callable[..., object] | None = None,
                 input_types: Iterable[InputType] = (), path: object = None, *args: object,
                 policy: "str | Policy" = "jax", context: ir.Context | None = None,
                 input_names: Sequence[str] | None = None, debug_locations: bool = False,
                 diagnose_lossy: "str | LossyLevel" = "off", report_promotions: bool = False,
                 custom_extensions: Iterable[object] = (),
                 kernel_library: KernelLibrary | None = None, module: object = None,
                 strict_device_placement: object = None, is_device_graph: bool = False, mesh: Mesh | None = None,
                 **kwargs: object) -> None:
        _refuse_max_only_arguments(name, forward, path, custom_extensions=list(custom_extensions),
                                   kernel_library=kernel_library, module=module, is_device_graph=is_device_graph,
                                   extra=[repr(a) for a in args] + [f"{k}=..." for k in kwargs])
        self.name = name
        self.policy: Policy = get_policy(policy)
        self.options = ImplicitCastOptions(policy=self.policy, diagnose_lossy=diagnose_lossy,
                                           report_promotions=report_promotions)
        self.context = context or default_context()
        self.tc: TypeCache = type_cache(self.context)
        self.debug_locations = debug_locations
        given = list(input_types)
        self._set_inputs([as_tensor_type(t) for t in given if not isinstance(t, BufferType)], input_names, mesh)
        self.buffer_types: tuple[BufferType, ...] = tuple(t for t in given if isinstance(t, BufferType))
        """The inputs of MAX's ``BufferType`` (signal buffers): named devices, not arguments of ``@main``."""
        for b in self.buffer_types:
            self._add_device(b.device)
        self._start_state()
        self._create_module()
        arguments = list(self._block.arguments)[self._first_input:]
        tensors = iter([Value(self, arg, t.dtype, t.shape) for arg, t in zip(arguments, self.input_types)])
        # typed as MAX types them, one value class (``Sequence[Value]``): a BufferType's entry is a
        # BufferValue, which has Value's faces (.tensor, .buffer, .dtype, .shape, .device) but no arithmetic
        self.inputs: tuple[Value, ...] = cast("tuple[Value, ...]", tuple(
            BufferValue(self, t) if isinstance(t, BufferType) else next(tensors) for t in given))
        """The graph's input values, one per input type: a :class:`Value` each (a ``BufferType`` input's is
        a :class:`~latticecast.graph.value.BufferValue`: ``g.inputs[i].buffer``)."""
        self._bind_symbols()
        if forward is not None:
            self._build_with(forward, args, kwargs)

    def _set_inputs(self, types: list[TensorType], input_names: Sequence[str] | None, mesh: Mesh | None) -> None:
        """Check the input types against the policy, the device, the names and the mesh, and keep them."""
        for t in types:
            self.policy.canonical(t.dtype)  # a dtype the policy does not know is an error now
        self.input_types: tuple[TensorType, ...] = tuple(types)
        self.device: DeviceRef = types[0].device if types else CPU
        """The graph's first device: its first input's (the CPU without inputs). A value computed from
        constants alone is on it, and a one-device graph compiles for it."""
        self.devices: list[DeviceRef] = list(dict.fromkeys(t.device for t in types)) or [CPU]
        """Every device the graph names, in order of appearance (inputs, weights, ``device=`` arguments,
        transfers); more than one makes it a multi-device graph (see :meth:`device_of`)."""
        self._placed: dict[ir.Value[ir.Type], DeviceRef | None] = {}
        if input_names is not None and len(input_names) != len(types):
            raise GraphError(f"{len(input_names)} input names for {len(types)} inputs")
        self.input_names = tuple(input_names) if input_names is not None else None
        self.layout: MeshLayout | None = MeshLayout(mesh) if mesh is not None else None
        self.mesh: Mesh | None = mesh  # as given (a jax.sharding.Mesh or AbstractMesh)
        if self.layout is None:
            for i, t in enumerate(types):
                if t.sharding is not None:
                    raise GraphError(f"input {i} has sharding {t.sharding}, but graph {self.name!r} has no mesh; "
                                     f"pass Graph(..., mesh=jax.sharding.Mesh(...)) to shard it")

    def _start_state(self) -> None:
        """The graph's state before its first op: open, not yet passed, nothing decided."""
        self._closed = False
        self._compile_refusals: list[str] = []
        self._ops_beyond_stablehlo = False  # refuse_compile(..., ops_beyond_stablehlo=True): the IR does not verify
        self._weights: dict[str, tuple[Weight, Value]] = {}
        self._subgraphs: list[Graph] = []
        self.op_decisions = decisions_of(self.policy)
        """``op_rules``' memo of this graph's policy's op decisions (its owner is ``op_rules``; the graph
        only reads it on the builder's hot path)."""
        self.literal_types: dict[tuple[Hashable, ...], PType] = {}
        self.literal_constants: dict[tuple[Hashable, ...], Value] = {}
        # object: the key holds a Shape, a list that hashes
        self.literal_operands: dict[tuple[object, ...], tuple[OpPromotion, Value]] = {}
        self.checked_literals: set[tuple[Hashable, ...]] = set()
        """What the builder decided once per graph: each Python literal's type, each weak constant per
        (literal, type, shape), the decision and constant of a literal operand per (op, side, literal, other
        operand's type and shape), and the (literal, target) pairs found to fit (see
        ``ops.operands.fast_operands`` and ``emit_literal``). Op promotions are ``op_rules``' memo."""
        self._fast_types: tuple[Shape | None, dict[DType, ir.RankedTensorType]] = (None, {})
        """The result types of the builder's common binary ops (``ops.elementwise._binary``) at the shape
        the last one was built at, by dtype: a value's shape object, never changed in place, so that
        consecutive ops at one shape find their type by identity, not by hashing the shape."""
        self._passed = False
        self._before: ir.Operation | None = None
        self._failure: PassFailure | None = None
        self._output_types: tuple[TensorType, ...] | None = None
        self.diagnostics: list[str] = []
        # symbolic dimensions: where each name is first read, and its size once the IR needs it
        self._symbols: dict[SymbolicDim, tuple[int, int]] = {}
        self._dim_values: dict["SymbolicDim | AlgebraicDim", ir.Value[ir.Type]] = {}
        self._named: dict[SymbolicDim, None] = {}  # the names rebind gave a size (name_dim), in order
        self._first_input = 0  # the block argument of input 0 (a subgraph's dimension arguments lead)
        self._shape_values: dict[tuple[Hashable, ...], ir.Value[ir.Type]] = {}
        self.effect_token: ir.Value[ir.Type] | None = None
        self._chain_devices: list[DeviceRef] = []  # the devices device_chains was asked for, in that order
        """The ``!stablehlo.token`` the block's last host callback returned: the next one takes it, so
        XLA runs them in program order (``None`` before the block's first)."""
        self.host_callbacks: list[Callable[..., object]] = []
        """The Python functions the graph's host callbacks call (``ops.print``'s): the ``i``-th is the one
        whose ``stablehlo.custom_call`` has ``mhlo.backend_config = {index = i}``; :meth:`compile` gives
        them to PJRT."""

    def _create_module(self) -> None:
        """The module and its public ``@main`` with one block argument per input (and, with a mesh, the
        mesh and the inputs' shardings); :attr:`ip` is where ops go."""
        with self.context:
            self.loc = ir.Location.name(self.name) if self.name else ir.Location.unknown()
            self._unit = ir.UnitAttr.get()
            self._weak_array = ir.StringAttr.get(WEAK_ARRAY)
            self._module = ir.Module.create(self.loc)
            self._module.operation.attributes["sym_name"] = ir.StringAttr.get(self.name or "graph")
            arg_types = [self.tc.tensor(t.dtype, t.shape) for t in self.input_types]
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
                    for i, t in enumerate(self.input_types)])

    def _build_with(self, forward: Callable[..., object], args: tuple[object, ...],
                    kwargs: dict[str, object]) -> None:
        """Call ``forward`` on the inputs (then ``args`` and ``kwargs``) with this graph current, and
        make what it returns the outputs."""
        with self:
            result = forward(*self.inputs, *args, **kwargs)
        # as MAX: None is no output, an iterable several (a Value is not iterable), anything else one
        outputs = () if result is None else tuple(result) if isinstance(result, Iterable) else (result,)
        self.output(*outputs)

    # -- the current graph (ops find it, as in MAX) -------------------------------------------

    def __enter__(self) -> "Graph":
        current.enter(self)
        return self

    def __exit__(self, *exc: object) -> None:
        current.leave(self)

    @_ClassProperty
    def current(cls) -> "Graph":
        """The graph of the innermost ``with Graph(...)`` block (a property of the class, as in MAX:
        ``Graph.current``); outside every block a :class:`~latticecast.errors.NoCurrentGraphError`,
        which is a ``LookupError`` as MAX's."""
        return current_graph()

    # -- symbolic dimensions ------------------------------------------------------------------

    def _bind_symbols(self) -> None:
        """Record where each symbolic dimension is first read, and assert (when the graph runs) that
        every other input dimension of the same name has the same size, as MAX requires."""
        repeats: list[tuple[SymbolicDim, int, int]] = []
        for i, t in enumerate(self.input_types):
            for axis, d in enumerate(t.shape):
                if d.__class__ is SymbolicDim:
                    if d in self._symbols:
                        repeats.append((d, i, axis))
                    else:
                        self._symbols[d] = (i, axis)
        if not repeats:
            return
        with self.context:
            i32 = self.tc.tensor(DType.int32, ())
            for d, i, axis in repeats:
                first_input, first_axis = self._symbols[d]
                here = self._dimension_size(i, axis, i32)
                first = self._dimension_size(first_input, first_axis, i32)
                attrs = {"comparison_direction": stablehlo.ComparisonDirectionAttr.get("EQ")}
                same = self._add_op("stablehlo.compare", [self.tc.tensor(DType.bool, ())], [here, first], attrs)
                self.assert_when_run(same.result, [here, first], (
                    f"Input shapes do not match the symbolic dimensions of graph {self.name!r}: "
                    f"args[{i}].shape[{axis}] (= {{0}}) and args[{first_input}].shape[{first_axis}] (= {{1}}) are "
                    f"both {d.name!r}, so they must be equal"))

    def assert_when_run(self, predicate: ir.Value[ir.Type], values: Sequence[ir.Value[ir.Type]], message: str) -> None:
        """A shape assertion (JAX's ``shape_assertion`` custom call): ``predicate`` (a ``tensor<i1>``
        computed from sizes only) must hold when the graph runs. Refining the module to the call's
        shapes checks it and reports ``message`` with ``{0}``, ``{1}``... replaced by ``values``."""
        with self.context:
            self._add_op("stablehlo.custom_call", [], [predicate, *values], {
                "call_target_name": ir.StringAttr.get("shape_assertion"),
                "has_side_effect": ir.BoolAttr.get(True),
                "api_version": ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 2),
                "error_message": ir.StringAttr.get(message)},
                loc=ir.Location.name("shape_assertion"))  # JAX's location for it: errors quote the message alone

    def _dimension_size(self, input_index: int, axis: int, i32: ir.Type) -> ir.Value[ir.Type]:
        with self.context:
            attrs = {"dimension": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), axis)}
        return self._add_op("stablehlo.get_dimension_size", [i32],
                            [self._block.arguments[self._first_input + input_index]],
                            attrs).result

    def knows_dim(self, dim: "SymbolicDim | AlgebraicDim") -> bool:
        """Whether the graph has a size for ``dim`` (an input names it, or ``rebind`` named it)."""
        return dim in self._symbols or dim in self._dim_values

    def name_dim(self, dim: "SymbolicDim | AlgebraicDim", size: ir.Value[ir.Type]) -> None:
        """Give the new symbolic dimension ``dim`` the size ``size`` (a ``tensor<i64>``): ``x.rebind``
        naming a dimension no input has (or an expression over names that have no size alone)."""
        if self.knows_dim(dim):
            raise GraphError(f"graph {self.name!r} already has a symbolic dimension {str(dim)!r}")
        self._dim_values[dim] = size
        if dim.__class__ is SymbolicDim:
            self._named[dim] = None

    @property
    def parameters(self) -> tuple[SymbolicDim, ...]:
        """The symbolic dimensions the graph has a size for (MAX's graph parameters, its ``inputParameters``):
        its inputs' names, then for a subgraph its parent's (:meth:`add_subgraph`), then the names ``rebind``
        gave a size, in that order.

        Returns:
            The dimensions, each once.

        Example:
            >>> from latticecast import DType, Graph, TensorType, ops
            >>> with Graph("main", input_types=[TensorType(DType.float32, ["P"])]) as g:
            ...     with g.add_subgraph("sub", input_types=[TensorType(DType.float32, ["K"])]) as sub:
            ...         sub.output(sub.inputs[0])
            >>> g.parameters, sub.parameters
            ((Dim('P'),), (Dim('K'), Dim('P')))
        """
        return tuple(dict.fromkeys([*self._symbols, *self._inherited_parameters(), *self._named]))

    def _inherited_parameters(self) -> Sequence[SymbolicDim]:
        """The parameters the graph has from the graph it is a subgraph of (none for a graph)."""
        return ()

    def dim_value(self, dim: "SymbolicDim | AlgebraicDim") -> ir.Value[ir.Type]:
        """The size of the symbolic dimension ``dim`` when the graph runs, as a ``tensor<i64>`` (read
        from the first input that names it, once per graph). An algebraic dimension's size is computed
        from its names' sizes (``stablehlo.add``, ``multiply``, ``divide``: sizes divide rounding toward
        zero, as MAX's do); refining the module to a call's shapes folds it to a constant."""
        found = self._dim_values.get(dim)
        if found is not None:
            return found
        if dim.__class__ is AlgebraicDim:
            with self.context:
                found = self._expression_value(dim.to_mlir())
            self._dim_values[dim] = found
            return found
        where = self._symbols.get(dim)  # type: ignore[arg-type]  # a SymbolicDim here
        if where is None:
            known = ", ".join(repr(s.name) for s in self._symbols) or "none"
            problem = (f"graph {self.name!r} has no input with the symbolic dimension {str(dim)!r} (its "
                       f"symbolic dimensions: {known}); a new name has no size to take when the graph runs: "
                       "use one of those names or a static size")
            if not self.defers_refusals_to_compile:
                raise GraphError(problem)
            self.refuse_compile(f"{problem}. MAX: {MAX_COMPILE_FAILURE}", ops_beyond_stablehlo=True)
            found = self.constant(np.array(-1, np.int64), DType.int64).ir
            self._dim_values[dim] = found  # a stand-in: the module of a refused graph is never handed out
            return found
        with self.context:
            size = self._dimension_size(*where, self.tc.tensor(DType.int32, ()))
        found = self._add_op("stablehlo.convert", [self.tc.tensor(DType.int64, ())], [size]).result
        self._dim_values[dim] = found
        return found

    def _expression_value(self, attr: ir.Attribute) -> ir.Value[ir.Type]:
        """The size an algebraic dimension's attribute (:meth:`Dim.to_mlir`) describes, as a ``tensor<i64>``."""
        from .ops.dynamic import dim_value
        array = attr if isinstance(attr, ir.ArrayAttr) else None
        if array is None:
            return dim_value(self, Dim.from_mlir(attr))
        op = {"add": "stablehlo.add", "mul": "stablehlo.multiply",
              "floordiv": "stablehlo.divide"}[ir.StringAttr(array[0]).value]
        i64 = self.tc.tensor(DType.int64, ())
        operands = [self._expression_value(array[i]) for i in range(1, len(array))]
        out = operands[0]
        for operand in operands[1:]:
            out = self._add_op(op, [i64], [out, operand]).result
        return out
    # -- devices ---------------------------------------------------------------------------

    @property
    def multi_device(self) -> bool:
        """Whether the graph names more than one device (its values then carry their own).

        Example:
            >>> from latticecast import DType, Graph, TensorType
            >>> Graph("g", input_types=[TensorType(DType.float32, [2], "gpu:0")]).multi_device
            False
        """
        return len(self.devices) > 1

    def _add_device(self, device: DeviceRef) -> None:
        """Record that the graph uses ``device``."""
        if device not in self.devices:
            self.devices.append(device)

    def device_of(self, value: ir.Value[ir.Type]) -> DeviceRef | None:
        """The device ``value`` lives on, as MAX places it: an input's or weight's is its type's, a
        value placed by an op (``ops.transfer_to``, ``device=``, a collective) is where it was put,
        and any other op's result is on the device of its first operand that has one. ``None``: the
        value is made from constants alone (a literal goes to the device of the op that uses it).

        Resolved on demand and remembered, so building a graph costs nothing for it.

        Args:
            value: An IR value of this graph (``v.ir`` of a :class:`~latticecast.Value`).

        Returns:
            Its :class:`~latticecast.DeviceRef`, or ``None`` for a value of constants alone.

        Example:
            >>> from latticecast import DType, Graph, TensorType, ops
            >>> with Graph("g", input_types=[TensorType(DType.float32, [2], "gpu:1")]) as g:
            ...     y = g.inputs[0] * 2
            ...     c = ops.constant(1.0, DType.float32)
            >>> g.device_of(y.ir), g.device_of(c.ir)
            (gpu:1, None)
        """
        placed = self._placed
        found = placed.get(value, False)
        if found is not False:
            return found  # type: ignore[return-value]  # False is the sentinel, never stored
        stack: list[ir.Value[ir.Type]] = [value]
        while stack:
            v = stack[-1]
            if v in placed:
                stack.pop()
                continue
            if isinstance(v, ir.BlockArgument):
                owner_block = v.owner
                if owner_block == self._block:
                    placed[v] = self._argument_device(v.arg_number)
                    stack.pop()
                    continue
                parent = owner_block.owner  # a region's argument: on its op's first placed operand's device
                pending = [o for o in parent.operands if o not in placed]
                if pending:
                    stack.extend(pending)
                    continue
                placed[v] = next((placed[o] for o in parent.operands if placed[o] is not None), None)
                stack.pop()
                continue
            owner = ir.OpResult(v).owner
            if owner.name in _BRANCHING:  # a branch's result: where the first branch returns it from
                operands = [owner.regions[0].blocks[0].operations[-1].operands[ir.OpResult(v).result_number]]
            else:
                operands = list(owner.operands)
            pending = [o for o in operands if o not in placed]
            if pending:
                stack.extend(pending)
                continue
            placed[v] = next((placed[o] for o in operands if placed[o] is not None), None)
            stack.pop()
        return placed[value]

    def _argument_device(self, index: int) -> DeviceRef:
        if index < len(self.input_types):
            return self.input_types[index].device
        weights = list(self._weights.values())
        return weights[index - len(self.input_types)][0].device

    def value_device(self, value: "Value") -> DeviceRef:
        """``value.device``: :meth:`device_of` its IR, the graph's first device for a value made from
        constants alone (and for every value of a one-device graph).

        Args:
            value: A value of this graph.

        Returns:
            The :class:`~latticecast.DeviceRef` it lives on.

        Example:
            >>> from latticecast import DType, Graph, TensorType, ops
            >>> with Graph("g", input_types=[TensorType(DType.float32, [2], "gpu:1")]) as g:
            ...     c = ops.constant(1.0, DType.float32)
            >>> g.value_device(c), g.value_device(g.inputs[0])
            (gpu:1, gpu:1)
        """
        if len(self.devices) == 1:
            return self.device
        return self.device_of(value.ir) or self.device

    def place(self, value: "Value", device: DeviceRef) -> "Value":
        """``value`` on ``device``: the value itself when it is there (or is made from strong constants
        alone, which then go there), else a copy on ``device`` (a same-type ``stablehlo.convert``, which XLA
        folds away: where a value lives is the graph's bookkeeping, see :meth:`compile`).

        Args:
            value: A value of this graph.
            device: Where it is to live; the graph records the device (:attr:`devices`).

        Returns:
            ``value`` on ``device``.

        Example:
            >>> from latticecast import DType, DeviceRef, Graph, TensorType
            >>> with Graph("g", input_types=[TensorType(DType.float32, [2])]) as g:
            ...     x = g.inputs[0]
            ...     y = g.place(x, DeviceRef.GPU(0))
            >>> g.place(x, DeviceRef.CPU()) is x, y.device, x.device, g.devices
            (True, gpu:0, cpu:0, [cpu:0, gpu:0])
        """
        self._add_device(device)
        here = self.device_of(value.ir)
        if here == device:
            return value
        if here is None and not value.is_weak:  # a weak literal's constant may be shared: it is copied
            self._placed[value.ir] = device
            return value
        op = self._add_op("stablehlo.convert", [value.ir.type], [value.ir], weak=value.is_weak)
        self._placed[op.result] = device
        return Value(self, op.result, value.ptype, value.shape, storage=value.storage)

    # -- the door every op enters by ------------------------------------------------------------

    def _add_op(self, name: str, results: Sequence[ir.Type], operands: Sequence[ir.Value[ir.Type]] = (),
                attributes: Mapping[str, ir.Attribute] | None = None, *, regions: int = 0,
                weak: bool = False, weak_array: bool = False, loc: ir.Location | None = None) -> ir.Operation:
        """Append ``name`` to ``@main``: the one place ops are created, located, and marked weak
        (``weak_array``: a weakly typed array's constant, ``latticecast.weak = "array"``)."""
        if weak or weak_array:
            attributes = dict(attributes or {})
            attributes[WEAK_ATTR] = self._weak_array if weak_array else self._unit
        if loc is None:
            loc = self.location() if self.debug_locations else self.loc
        # positional: nanobind parses keyword arguments on a slower path (3% of the op's cost)
        return ir.Operation.create(name, results, operands,
                                   attributes,  # type: ignore[arg-type]  # callers pass dicts; Mapping: variance
                                   None, regions, loc, self.ip)

    @contextmanager
    def building_in(self, block: ir.Block) -> Iterator[ir.Block]:
        """Append the ops made inside the ``with`` to ``block`` (a region of a control-flow op), not
        to ``@main``'s body.

        What the graph reuses from before (weak constants, symbolic sizes, shape vectors) stays
        visible inside, since a value defined above a region dominates it; what is made inside is
        forgotten on the way out, since it does not dominate anything after the region. The region
        orders its own host callbacks (a token of its own, see :attr:`effect_token`).
        """
        saved = (self.ip, self.literal_constants, self.literal_operands, self._dim_values, self._shape_values,
                 self.effect_token)
        self.ip = ir.InsertionPoint(block)
        self.literal_constants = dict(self.literal_constants)
        self.literal_operands = dict(self.literal_operands)
        self._dim_values = dict(self._dim_values)
        self._shape_values = dict(self._shape_values)
        self.effect_token = None
        try:
            yield block
        finally:
            (self.ip, self.literal_constants, self.literal_operands, self._dim_values, self._shape_values,
             self.effect_token) = saved

    def location(self) -> ir.Location:
        """Where a new op comes from: the user's source line with ``debug_locations``."""
        if not self.debug_locations:
            return self.loc
        frame: FrameType | None = sys._getframe(1)
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

    def constant(self, value: npt.ArrayLike, dtype: DTypeLike | None = None) -> Value:
        """A strongly typed constant from a NumPy array, list or scalar.

        Without ``dtype`` the NumPy dtype decides (Python ints become the policy's
        default int, floats its default float); with ``dtype`` the values must fit
        it exactly (no silent wrap of 300 into uint8).
        """
        self.check_open()
        return constant_value(self, value, None if dtype is None else DType.parse(dtype))

    def add_weight(self, weight: Weight) -> Value:
        """``weight`` as a value of this graph: an argument of ``@main`` after the inputs (and the weights
        added before), whose value is supplied when the graph is loaded (see :mod:`.weight`). Adding the
        same weight again gives the same value, as in MAX; using a weight adds it.

        Args:
            weight: A :class:`~latticecast.graph.weight.Weight` on this graph's device.

        Returns:
            The weight's value in this graph.

        Raises:
            GraphError: Another weight of the same name is in the graph already, the weight is on
                another device than the graph, or the graph is closed.

        Example:
            >>> from latticecast import DType, Graph
            >>> from latticecast.graph.weight import Weight
            >>> w = Weight("bias", DType.float32, [3])
            >>> with Graph("g") as g:
            ...     v = g.add_weight(w)
            ...     g.output(v + 1)
            >>> v is g.add_weight(w), list(g.weights)
            (True, ['bias'])
        """
        if not isinstance(weight, Weight):
            raise GraphError(f"add_weight takes a Weight(name, dtype, shape, device), not {type(weight).__name__}")
        found = self._weights.get(weight.name)
        if found is not None:
            if found[0] is not weight:
                raise GraphError(f"Weight {weight.name!r} already exists in graph {self.name!r} ({found[0]!r}); "
                                 "weight names are the keys of weights_registry, so give each weight its own name")
            return found[1]
        self.check_open()
        self._add_device(weight.device)
        t = weight.type
        self.policy.canonical(t.dtype)  # a dtype the policy does not know is an error now, as for an input
        with self.context:
            arg = self._block.add_argument(self.tc.tensor(t.dtype, t.shape), self.loc)
            if self.layout is not None:  # replicated over the mesh, as MAX's weights without a strategy
                attrs = list(ir.ArrayAttr(self._func.attributes["arg_attrs"]))
                attrs.append(ir.DictAttr.get({SDY_SHARDING: self.layout.sharding(
                    None, t.shape, f"weight {weight.name!r}", boundary=True)}))
                self._func.attributes["arg_attrs"] = ir.ArrayAttr.get(attrs)
        value = Value(self, arg, t.dtype, t.shape)
        self._weights[weight.name] = (weight, value)
        if self.input_names is not None:
            self.input_names = self.input_names + (weight.name,)
        return value

    def add_subgraph(self, name: str, forward: Callable[..., object] | None = None,
                     input_types: Iterable[InputType] = (), path: object = None,
                     custom_extensions: Iterable[object] = (), devices: Iterable[DeviceRefLike] = (),
                     is_device_graph: bool = False) -> "Graph":
        """A subgraph of this graph (MAX's ``Graph.add_subgraph``): a function ``@name`` of this graph's module,
        built like a graph (``with g.add_subgraph(...) as sub: ... sub.output(...)``, or with ``forward``) and
        called with :func:`latticecast.ops.call` (``func.call``) as many times as needed.

        As in MAX, the subgraph's :attr:`parameters` are the union of its inputs' symbolic dimensions and this
        graph's (those it has now), so its body may use a dimension of this graph that its inputs do not name
        (``ops.broadcast_to(x, [P])``): the function takes that size as a leading argument and ``ops.call``
        passes the caller's. (MAX 26.7 builds such a subgraph too, but its compiler then fails, measured:
        ``unsupported attribute #kgen.param.decl.ref<"P">``; here the graph runs.)

        Args:
            name: The function's name: unique in the module (``main`` is the graph's).
            forward: As for :class:`Graph`: builds the subgraph from its inputs.
            input_types: The subgraph's argument types.
            path: MAX's saved graph; refused, as for :class:`Graph`.
            custom_extensions: MAX's kernel packages; refused if any.
            devices: MAX's device chains for the subgraph; nothing to decide here (one device per graph).
            is_device_graph: MAX's device graph marker; refused if set.

        Returns:
            The subgraph (a :class:`Graph` of this graph's policy and device).

        Raises:
            GraphError: The name is taken, or a MAX-only argument is given.

        Example:
            >>> import numpy as np
            >>> from latticecast.max import DType, Graph, TensorType, ops
            >>> t = TensorType(DType.float32, [2])
            >>> with Graph("main", input_types=[t]) as g:
            ...     with g.add_subgraph("add_one", input_types=[t]) as sub:
            ...         sub.output(sub.inputs[0] + 1)
            ...     (once,) = ops.call(sub, g.inputs[0])
            ...     g.output(*ops.call(sub, once))
            >>> g.compile()(np.array([1, 2], np.float32))[0].tolist()
            [3.0, 4.0]

            A subgraph that uses its parent's dimension ``P``:

            >>> with Graph("tile", input_types=[TensorType(DType.float32, ["P"]), TensorType(DType.float32, ["K"])]) as g:
            ...     with g.add_subgraph("total", input_types=[TensorType(DType.float32, ["K"])]) as sub:
            ...         sub.output(ops.broadcast_to(ops.sum(sub.inputs[0], axis=0), ["P"]))
            ...     g.output(*ops.call(sub, g.inputs[1]))
            >>> sub.parameters
            (Dim('K'), Dim('P'))
            >>> g.compile()(np.zeros(3, np.float32), np.array([1, 2], np.float32))[0].tolist()
            [3.0, 3.0, 3.0]
        """
        self.check_open()
        return _Subgraph(self, name, forward, input_types, path, custom_extensions=list(custom_extensions),
                         is_device_graph=is_device_graph)

    @property
    def device_chains(self) -> "DeviceChains":
        """MAX's ``Graph.device_chains``: each device's chain, the value that orders the graph's side effects
        there (MAX threads an ``!mo.chain`` through its effecting ops). Here a graph is one program, so every
        device's chain is the graph's ``!stablehlo.token`` (:attr:`effect_token`, made on first use), which
        ``ops.print`` advances; asking for a device's chain registers the device.

        Returns:
            A :class:`DeviceChains` mapping of devices to :class:`~latticecast.graph.value.ChainValue` s.

        Example:
            >>> from latticecast import DeviceRef, Graph, ops
            >>> with Graph("g") as g:
            ...     before = g.device_chains[DeviceRef.CPU()]
            ...     ops.print("hello")
            ...     after = g.device_chains[DeviceRef.CPU()]
            >>> before != after, list(g.device_chains)
            (True, [cpu:0])
        """
        return DeviceChains(self)

    def chain(self) -> ir.Value[ir.Type]:
        """The graph's effect token, made (``stablehlo.after_all``) if no effect made one yet.

        Returns:
            The ``!stablehlo.token`` value.
        """
        if self.effect_token is None:
            with self.context:
                token = ir.Type.parse("!stablehlo.token")
            self.effect_token = self._add_op("stablehlo.after_all", [token], []).result
        return self.effect_token

    def weight_named(self, name: str) -> "Weight | None":
        """The weight of this graph named ``name`` (``None``: there is none); ``add_weight`` of it gives
        its value."""
        found = self._weights.get(name)
        return None if found is None else found[0]

    @property
    def weights(self) -> dict[str, TensorType]:
        """The weights in the graph, by name, in the order of ``@main``'s arguments after the inputs."""
        return {name: w.type for name, (w, _) in self._weights.items()}

    def output(self, *values: TensorValueLike, shardings: "Sequence[jax.sharding.PartitionSpec | None] | None" = None) -> None:
        """Return ``values`` from the graph and close it; none is allowed, as in MAX (Python scalars
        and arrays become constants: MAX refuses them).

        ``shardings``: with a mesh, one ``PartitionSpec`` (or ``None``: replicated) per value, the
        layout of each output (``jax.jit``'s ``out_shardings``)."""
        self.check_open()
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
        self._output_types = tuple(TensorType(v.dtype, v.shape, v.device) for v in outs)
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
        for sub in _all_subgraphs(self):
            if not sub.closed:
                raise GraphError(f"subgraph {sub.name!r} of graph {self.name!r} has no output: call "
                                 "sub.output(value, ...) (a function of the module needs its return)")

    def _run_pass(self) -> None:
        if self._passed:
            return
        if self._failure is not None:
            raise self._failure  # the same answer every time; the half-passed IR is never handed out
        if self._ops_beyond_stablehlo:
            raise GraphError(f"graph {self.name!r} does not compile: {self._compile_refusals[0]}")
        self._require_output()
        self._before = self._module.operation.clone()
        passes: list[PassOptions] = [self.options]
        if self.options.lower_dtypes and any(d.needs_lowering for d in self.policy.dtypes):
            # the graph's own module: its index/address/tf32 values are MAX's dtypes however they
            # are used (an input returned as it is too), so every one is lowered
            passes.append(LowerDTypesOptions(everywhere=True))
        runner = PipelineRunner(Pipeline(tuple(passes)), self.context)
        try:
            reported = runner.run(self._module.operation)
        except PassFailure as e:
            from ..passes.readiness import escaping_uses

            hint = ""
            escaping = escaping_uses(self._module)  # read from the graph, not from MLIR's words
            if escaping:
                first = escaping[0]
                hint = (f"\n  a value made inside a region of cond, while_loop, fori_loop or switch ({first.made_by} "
                        f"in {first.inside}) is used after the region (by {first.used_by}); return it from the "
                        "branch or body and use the op's result instead")
            self._failure = PassFailure(f"implicit-cast rejected graph {self.name!r}:\n  "
                                        + "\n  ".join(e.diagnostics) + hint, e.diagnostics, e.located)
            raise self._failure from None
        self.diagnostics.extend(d.format() for d in reported)  # its warnings: issued by the pass
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
            return asm(op, generic=True, debug_info=debug_info)
        self._run_pass()
        return asm(self._module, generic=generic, debug_info=debug_info, assume_verified=True)

    def compare(self, policy: "str | Policy") -> "Comparison":
        """This program's dtypes under another policy: every op's result type inferred again under
        ``policy`` (:func:`~latticecast.passes.infer_types.compare`), against this graph's own.

        Args:
            policy: The policy to compare with (a registered name or a :class:`~latticecast.Policy`).

        Returns:
            A :class:`~latticecast.passes.infer_types.Comparison`; ``print(c.render())`` lists the ops
            whose dtype differs and the outputs that change.

        Raises:
            GraphError: The graph has no output yet.

        Example:
            >>> from latticecast import DType, Graph, TensorType
            >>> with Graph("mix", input_types=[TensorType(DType.int32, [2]), TensorType(DType.float16, [2])]) as g:
            ...     g.output(g.inputs[0] + g.inputs[1])
            >>> print(g.compare("numpy").render().splitlines()[-2])
            @main outputs: jax (f16), numpy (f64)
        """
        from ..passes.infer_types import compare

        self._require_output()
        built = self._before if self._before is not None else self._module.operation
        with self.context:
            return compare(built, self.policy, get_policy(policy))

    def __str__(self) -> str:
        return self.mlir(before_passes=not self._closed)

    def refuse_compile(self, reason: str, *, ops_beyond_stablehlo: bool = False) -> None:
        """Let the graph build, but make :meth:`compile` raise a :class:`GraphError` giving ``reason``:
        for what MAX builds and its compiler refuses (``ops.range(0, 2**63 - 1, 1)``).

        Args:
            reason: Why the graph cannot compile, and what to write instead.
            ops_beyond_stablehlo: The graph holds ops StableHLO does not define (MAX's bool arithmetic): then
                its IR (:attr:`module`, :meth:`mlir`) is refused with the same reason, as it would not verify.

        Example:
            >>> from latticecast import Graph, GraphError
            >>> with Graph("too_long", input_types=[]) as g:
            ...     g.refuse_compile("a range of 2**40 elements")
            ...     g.output(g.constant(1.0))
            >>> try:
            ...     g.compile()
            ... except GraphError as e:
            ...     print(e)
            graph 'too_long' does not compile: a range of 2**40 elements
        """
        self._compile_refusals.append(reason)
        self._ops_beyond_stablehlo = self._ops_beyond_stablehlo or ops_beyond_stablehlo

    @property
    def compile_refusals(self) -> tuple[str, ...]:
        """Why the graph does not compile (:meth:`refuse_compile`), first reason first; empty when it does."""
        return tuple(self._compile_refusals)

    def compile(self, device: "DeviceRefLike | jax.Device | None" = None, *,
                devices: "DeviceList | None" = None) -> "Model | PolymorphicModel":
        """Compile with PJRT; returns a ``Model`` (``model(*arrays)`` -> list of arrays), a
        ``PolymorphicModel`` for a graph with symbolic dimensions.

        The runtime compiles (:func:`latticecast.runtime.compiler.compile_graph`, as MAX's engine does);
        this is its shorthand. ``device`` defaults to the graph's device (:attr:`device`: the one its input
        types name, the CPU if none does). It may be a :class:`~latticecast.DeviceRef` (MAX's too),
        a runtime name (``"cpu"``, ``"gpu:1"``, ``"cuda"``) or a ``jax.Device``. A device that
        is not present raises the runtime's ``DeviceNotFoundError``, listing those that are.
        A graph over a concrete mesh runs on the mesh's devices unless ``device`` or
        ``devices`` says otherwise; over an ``AbstractMesh``, on the first ``mesh.size``
        devices of the graph's platform (see :func:`latticecast.compile`).

        A graph with weights (:meth:`add_weight`) compiles to a model that takes their values after
        the inputs, in the order of :attr:`weights`; ``latticecast.max.engine`` binds them by name.

        A multi-device graph (:attr:`devices` names several, no mesh) needs every device it names to be
        present, and then runs as one program on its first device (its first accelerator beside CPUs):
        a ``DeviceNotFoundError`` names the devices it needs and those present otherwise (see
        docs/sharding.rst, "Multi-device graphs").
        """
        from ..runtime.compiler import compile_graph

        return compile_graph(self, device, devices=devices)

    def __repr__(self) -> str:
        ins = ", ".join(str(t) for t in self.input_types)
        mesh = f" mesh={self.layout.describe()}" if self.layout is not None else ""
        return f"<Graph {self.name!r} ({ins}) policy={self.policy.name}{mesh}{' closed' if self._closed else ''}>"


class _Subgraph(Graph):
    """A graph built as a private function of its parent's module (see :meth:`Graph.add_subgraph`).

    Its parameters are its inputs' symbolic dimensions and its parent's, as MAX's ``add_subgraph`` unions them
    (:attr:`~Graph.parameters`). A parent's dimension the subgraph's inputs do not give reaches the function as a
    leading ``tensor<i64>`` argument marked ``{jax.global_constant = "P"}``, JAX's convention for a dimension
    variable passed to a private function, which shape refinement resolves per call; :func:`ops.call
    <latticecast.ops.call>` passes the caller's size. Only the dimensions the body uses keep their argument
    (the others are dropped when the subgraph's output is given)."""

    def __init__(self, parent: Graph, name: str, forward: Callable[..., object] | None,
                 input_types: Iterable[InputType], path: object, *, custom_extensions: list[object],
                 is_device_graph: bool) -> None:
        self.parent = parent
        root = parent
        while isinstance(root, _Subgraph):
            root = root.parent
        self.root: Graph = root
        if not isinstance(name, str) or not name or name == "main" or any(
                sub.name == name for sub in _all_subgraphs(root)):
            raise GraphError(f"add_subgraph({name!r}): the module of graph {root.name!r} already has a function of "
                             "that name (or it is no name); give each subgraph its own name")
        self.defers_refusals_to_compile = parent.defers_refusals_to_compile  # a MAX graph's subgraph builds as MAX's
        self._inherited: tuple[SymbolicDim, ...] = parent.parameters  # as MAX: the parent's, when the subgraph is made
        self.dimension_arguments: tuple[SymbolicDim, ...] = ()
        """The parent's dimensions the function takes as leading arguments, in order (fixed by :meth:`output`):
        ``ops.call`` passes the caller's sizes of them before the inputs."""
        super().__init__(name, forward, input_types, path, policy=parent.policy, context=parent.context,
                         custom_extensions=custom_extensions, is_device_graph=is_device_graph)
        parent._subgraphs.append(self)

    def _inherited_parameters(self) -> Sequence[SymbolicDim]:
        return self._inherited

    def _create_module(self) -> None:
        """A private ``func.func @name`` in the root graph's module (before ``@main``): one leading ``tensor<i64>``
        argument per parent dimension the inputs do not name, then the inputs."""
        from ..runtime.signature import DIM_VAR_ATTR

        own = {d for t in self.input_types for d in t.shape if d.__class__ is SymbolicDim}
        self.dimension_arguments = tuple(d for d in self._inherited if d not in own)
        with self.context:
            self.loc = ir.Location.name(self.name)
            self._unit = ir.UnitAttr.get()
            self._weak_array = ir.StringAttr.get(WEAK_ARRAY)
            self._module = self.root._module
            i64 = self.tc.tensor(DType.int64, ())
            arg_types = [i64] * len(self.dimension_arguments) + [self.tc.tensor(t.dtype, t.shape)
                                                                 for t in self.input_types]
            attributes = {"sym_name": ir.StringAttr.get(self.name),
                          "function_type": ir.TypeAttr.get(ir.FunctionType.get(arg_types, [])),
                          "sym_visibility": ir.StringAttr.get("private")}
            if self.dimension_arguments:
                attributes["arg_attrs"] = ir.ArrayAttr.get(
                    [ir.DictAttr.get({DIM_VAR_ATTR: ir.StringAttr.get(d.name)}) for d in self.dimension_arguments]
                    + [ir.DictAttr.get({})] * len(self.input_types))
            self._func = ir.Operation.create("func.func", attributes=attributes, regions=1, loc=self.loc,
                                             ip=ir.InsertionPoint.at_block_begin(self._module.body))
            self._block = ir.Block.create_at_start(self._func.regions[0], arg_types, [self.loc] * len(arg_types))
            self.ip = ir.InsertionPoint(self._block)
        self._first_input = len(self.dimension_arguments)
        for d, arg in zip(self.dimension_arguments, self._block.arguments):
            self._dim_values[d] = arg

    def output(self, *values: TensorValueLike, shardings: "Sequence[jax.sharding.PartitionSpec | None] | None" = None) -> None:
        """As :meth:`Graph.output`; then the dimension arguments the body does not use are dropped."""
        super().output(*values, shardings=shardings)
        unused = [i for i in range(self._first_input) if next(iter(self._block.arguments[i].uses), None) is None]
        if not unused:
            return
        for i in reversed(unused):
            self._block.erase_argument(i)
            del self._dim_values[self.dimension_arguments[i]]
        self.dimension_arguments = tuple(d for i, d in enumerate(self.dimension_arguments) if i not in unused)
        self._first_input = len(self.dimension_arguments)
        with self.context:
            results = ir.FunctionType(ir.TypeAttr(self._func.attributes["function_type"]).value).results
            self._func.attributes["function_type"] = ir.TypeAttr.get(
                ir.FunctionType.get([a.type for a in self._block.arguments], results))
            attrs = list(ir.ArrayAttr(self._func.attributes["arg_attrs"]))
            kept = [a for i, a in enumerate(attrs) if i not in unused]
            if self.dimension_arguments:
                self._func.attributes["arg_attrs"] = ir.ArrayAttr.get(kept)
            else:
                del self._func.attributes["arg_attrs"]

    def refuse_compile(self, reason: str, *, ops_beyond_stablehlo: bool = False) -> None:
        """As :meth:`Graph.refuse_compile`, for the root graph, which compiles this subgraph with it."""
        super().refuse_compile(reason, ops_beyond_stablehlo=ops_beyond_stablehlo)
        self.root.refuse_compile(f"subgraph {self.name!r}: {reason}", ops_beyond_stablehlo=ops_beyond_stablehlo)

    def add_weight(self, weight: Weight) -> Value:
        raise GraphError(f"weight {weight.name!r} used in subgraph {self.name!r}: a subgraph's weights are not "
                         "supported here; use the weight in the parent graph and pass its value to ops.call as an "
                         "argument (add an input type for it)")

    def compile(self, device: "DeviceRefLike | jax.Device | None" = None, *,
                devices: "DeviceList | None" = None) -> "Model | PolymorphicModel":
        raise GraphError(f"subgraph {self.name!r} is a function of graph {self.root.name!r}: compile that graph "
                         "(it calls the subgraph with ops.call)")

    def _run_pass(self) -> None:
        """The pass runs once, over the root graph's module (which holds this function)."""
        self.root._run_pass()

    def mlir(self, before_passes: bool = False, *, generic: bool = False, debug_info: bool = False) -> str:
        """The root graph's module, which holds this subgraph's function (see :meth:`Graph.mlir`)."""
        return self.root.mlir(before_passes=before_passes or not self.root.closed, generic=generic,
                              debug_info=debug_info)


class DeviceChains(Mapping[DeviceRef, "ChainValue"]):
    """A graph's chains by device (:attr:`Graph.device_chains`): ``chains[device]`` is the device's chain,
    registering the device; iteration gives the registered devices in MAX's order (by kind, then id)."""

    def __init__(self, graph: Graph) -> None:
        self._graph = graph

    def __getitem__(self, device: DeviceRefLike) -> "ChainValue":
        ref = DeviceRef.parse(device)
        if ref not in self._graph._chain_devices:
            self._graph._chain_devices.append(ref)
        return ChainValue(self._graph, self._graph.chain())

    def __iter__(self) -> Iterator[DeviceRef]:
        return iter(sorted(self._graph._chain_devices, key=lambda d: (str(d.device_type.value), d.id)))

    def __len__(self) -> int:
        return len(self._graph._chain_devices)

    def copy(self) -> dict[DeviceRef, "ChainValue"]:
        """The chains now, as a plain dict (later effects do not change it).

        Returns:
            A dict of devices to chains.
        """
        return {device: self[device] for device in self}

    def __repr__(self) -> str:
        return f"DeviceChains({list(self)})"


def _all_subgraphs(g: Graph) -> list[Graph]:
    out: list[Graph] = []
    for sub in g._subgraphs:
        out.append(sub)
        out.extend(_all_subgraphs(sub))
    return out


_BRANCHING = frozenset({"stablehlo.if", "stablehlo.case"})
"""Ops whose results come from a branch (a region's return), not from their operands (the predicate)."""
