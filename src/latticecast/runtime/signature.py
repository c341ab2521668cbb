"""The signature of a module's ``@main``: what a :class:`Model` takes and returns.

The runtime reads it from the function type of the public ``func.func @main``
and checks it once, at compile time, so that a call can be checked against it
in a few hundred nanoseconds and nothing that PJRT cannot hold ever reaches it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Sequence, cast


from ..promotion.dtypes import DType, UnknownDTypeError
from ..promotion.tensor_type import TensorType
from .runtime_errors import UnsupportedModuleError

if TYPE_CHECKING:
    from jaxlib.mlir import ir

__all__ = ["TensorSpec", "Signature", "PJRT_DTYPES", "read_signature", "find_main", "TensorPattern",
           "PolymorphicSignature", "read_polymorphic_signature", "DIM_VAR_ATTR", "platform_problem",
           "donated_inputs", "DONATION_ATTRS", "RESERVED_KEYWORD"]

#: The element types PJRT has buffers for, i.e. the dtypes a model can take and return: every
#: dtype but those the ``lower-dtypes`` pass rewrites (the dtype table's ``needs_lowering``) and
#: those StableHLO cannot hold (``int1``, ``uint1``). A platform may lack some of these
#: (:func:`platform_problem`).
PJRT_DTYPES: frozenset[DType] = frozenset(d for d in DType if not d.needs_lowering and d.in_stablehlo)


def platform_problem(dtype: DType, platform: str) -> str | None:
    """Why ``platform``'s XLA compiler cannot run ``dtype`` (``None``: it can, as far as measured).

    XLA:CPU in jaxlib 0.10.2 lowers every float8 type, float4, int2/uint2 and int4/uint4,
    but not the 6-bit floats: compiling any op on ``f6E2M3FN``/``f6E3M2FN`` fails deep in
    its LLVM emitter ("Invalid bitcast i6 to i8", an INTERNAL error, measured by
    /work/research/lowp/measure_xla.py). The runtime asks before compiling, so the user
    sees this instead.
    """
    if platform == "cpu" and dtype.is_float() and dtype.bitwidth == 6:
        return (f"XLA:CPU cannot compile {dtype.name} ({dtype.mlir_name}): its LLVM emitter has no 6-bit "
                f"floats (jaxlib 0.10.2 fails with an INTERNAL error); convert to a type it runs, such as "
                f"float8_e4m3fn or float16, before the program reaches PJRT, or run on a platform that has "
                f"{dtype.name}")
    return None

_LOWERED_BY_PASS = {d.mlir_name: d.stored_as.mlir_name for d in DType if d.needs_lowering}


TensorSpec = TensorType
"""A model's input or output type: the graph builder's :class:`~latticecast.TensorType`
(dtype and static shape), so a graph's declared types and its model's compare equal."""


class Signature(NamedTuple):
    inputs: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]


def _unsupported_type_message(what: str, mlir_type: str, element: str) -> str:
    lowered = _LOWERED_BY_PASS.get(element)
    if lowered is not None:
        return (f"{what} has type {mlir_type}: PJRT has no {element} buffers. latticecast's "
                f"implicit-cast pass lowers index and !latticecast.address to ui64 and tf32 "
                f"to f32; run it first (Graph.mlir() or `latticecast-opt --implicit-cast`), "
                f"or declare the value as {lowered}.")
    supported = ", ".join(sorted(d.mlir_name for d in PJRT_DTYPES))
    try:
        gap = DType.from_mlir(element).stablehlo_gap
    except UnknownDTypeError:
        gap = ""
    if gap:
        return f"{what} has type {mlir_type}: {gap}."
    return (f"{what} has type {mlir_type}, whose element type {element} the runtime does not "
            f"run. Supported element types: {supported}.")


def _element_dtype(what: str, mlir_type: "ir.Type") -> DType:
    """The dtype of a ranked tensor type PJRT can hold; anything else raises."""
    from jaxlib.mlir import ir

    text = str(mlir_type)
    if not isinstance(mlir_type, ir.RankedTensorType):
        raise UnsupportedModuleError(
            f"{what} has type {text}; the runtime runs functions whose arguments and results "
            f"are ranked tensors (tensor<4xf32>), not tuples, tokens or unranked tensors.")
    element = str(mlir_type.element_type)
    try:
        dtype = DType.from_mlir(element)
    except UnknownDTypeError:
        dtype = None
    if dtype is None or dtype not in PJRT_DTYPES:
        raise UnsupportedModuleError(_unsupported_type_message(what, text, element))
    return dtype


def _spec(what: str, type_: "ir.Type") -> TensorSpec:
    dtype = _element_dtype(what, type_)
    mlir_type = cast("ir.RankedTensorType", type_)  # _element_dtype refuses any other type
    if not mlir_type.has_static_shape:
        raise UnsupportedModuleError(
            f"{what} has type {mlir_type}, with a dynamic dimension; PJRT needs static shapes. "
            f"latticecast.compile refines such a module to the shapes of each call (a PolymorphicModel).")
    return TensorSpec(dtype, tuple(int(d) for d in mlir_type.shape))


class TensorPattern(NamedTuple):
    """An input or output of a ``@main`` with dynamic dimensions: ``shape`` has ``None`` where
    the dimension is ``?``. ``dim_var`` names a rank-0 integer input that carries the value of a
    dimension variable (``{jax.global_constant = "b"}``, as ``jax.jit(f).lower`` writes for
    symbolic shapes): a call passes that dimension's value there."""

    dtype: DType
    shape: tuple["int | None", ...]
    dim_var: str | None = None

    @property
    def is_static(self) -> bool:
        return self.dim_var is None and all(d is not None for d in self.shape)

    def fits(self, shape: tuple[int, ...]) -> bool:
        """Whether a concrete ``shape`` has this rank and these static dimensions."""
        return len(shape) == len(self.shape) and all(p is None or p == d for p, d in zip(self.shape, shape))

    def __str__(self) -> str:
        text = f"{self.dtype.name}[{', '.join('?' if d is None else str(d) for d in self.shape)}]"
        return f"{text} (the value of dimension variable {self.dim_var!r})" if self.dim_var else text


class PolymorphicSignature(NamedTuple):
    inputs: tuple[TensorPattern, ...]
    outputs: tuple[TensorPattern, ...]


DIM_VAR_ATTR = "jax.global_constant"
"""The argument attribute by which JAX marks an input of ``@main`` that holds a dimension variable's
value (or ``_platform_index`` in a multi-platform export)."""


def _pattern(what: str, type_: "ir.Type", dim_var: str | None) -> TensorPattern:
    dtype = _element_dtype(what, type_)
    mlir_type = cast("ir.RankedTensorType", type_)  # _element_dtype refuses any other type
    shape = tuple(None if mlir_type.is_dynamic_dim(i) else int(mlir_type.get_dim_size(i))
                  for i in range(mlir_type.rank))
    if dim_var is not None and (shape or not dtype.is_integral()):
        raise UnsupportedModuleError(
            f"{what} is marked {DIM_VAR_ATTR} = {dim_var!r} but has type {mlir_type}; a dimension variable's "
            f"value is a rank-0 integer (tensor<i32> or tensor<i64>).")
    return TensorPattern(dtype, shape, dim_var)


def read_polymorphic_signature(module: "ir.Module") -> PolymorphicSignature | None:
    """``@main``'s types with their dynamic dimensions, or ``None`` when every input and output has a
    static shape and no input is a dimension variable (the module compiles as it is)."""
    from jaxlib.mlir import ir

    main = find_main(module)
    ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
    dim_vars: list[str | None] = [None] * len(ftype.inputs)
    if "arg_attrs" in main.attributes:
        for i, attrs in enumerate(ir.ArrayAttr(main.attributes["arg_attrs"])):
            d = ir.DictAttr(attrs)
            if i < len(dim_vars) and DIM_VAR_ATTR in d:
                dim_vars[i] = ir.StringAttr(d[DIM_VAR_ATTR]).value
    types = list(ftype.inputs) + list(ftype.results)
    if all(isinstance(t, ir.RankedTensorType) and t.has_static_shape for t in types) and not any(dim_vars):
        return None
    inputs = tuple(_pattern(f"input {i} of @main", t, v) for i, (t, v) in enumerate(zip(ftype.inputs, dim_vars)))
    outputs = tuple(_pattern(f"output {i} of @main", t, None) for i, t in enumerate(ftype.results))
    return PolymorphicSignature(inputs, outputs)


def find_main(module: "ir.Module") -> "ir.Operation":
    """The public ``func.func @main`` of ``module`` (the entry point PJRT runs)."""
    from jaxlib.mlir import ir

    names = []
    for view in module.body.operations:
        op = view.operation
        if op.name != "func.func" or "sym_name" not in op.attributes:
            continue
        name = ir.StringAttr(op.attributes["sym_name"]).value
        names.append(name)
        if name != "main":
            continue
        if "sym_visibility" in op.attributes:
            visibility = ir.StringAttr(op.attributes["sym_visibility"]).value
            if visibility != "public":
                raise UnsupportedModuleError(
                    f"@main is {visibility}; PJRT runs the public @main. Write "
                    f"`func.func public @main(...)` (or drop the visibility).")
        return op
    found = f" (it defines {', '.join('@' + n for n in names)})" if names else ""
    raise UnsupportedModuleError(
        f"the module has no func.func @main{found}; PJRT runs the public function named "
        f"main. Rename the entry function to @main.")


def read_signature(module: "ir.Module") -> Signature:
    """Read and check ``@main``'s argument and result types.

    Raises :class:`UnsupportedModuleError` for a missing ``@main``, a type that is
    not a statically shaped ranked tensor, or an element type PJRT cannot hold.
    """
    from jaxlib.mlir import ir

    main = find_main(module)
    ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
    inputs = tuple(_spec(f"input {i} of @main", t) for i, t in enumerate(ftype.inputs))
    outputs = tuple(_spec(f"output {i} of @main", t) for i, t in enumerate(ftype.results))
    return Signature(inputs, outputs)


DONATION_ATTRS = ("tf.aliasing_output", "jax.buffer_donor")
"""The argument attributes by which a module donates an input's buffer (``jax.jit(..., donate_argnums=...)``
writes the first when an output can reuse the buffer, the second when none can)."""


def donated_inputs(module: "ir.Module") -> tuple[int, ...]:
    """The inputs of ``@main`` whose buffers the executable may take over (donation): a ``jax.Array``
    passed there is deleted by the call."""
    from jaxlib.mlir import ir

    main = find_main(module)
    if "arg_attrs" not in main.attributes:
        return ()
    return tuple(i for i, attrs in enumerate(ir.ArrayAttr(main.attributes["arg_attrs"]))
                 if any(name in ir.DictAttr(attrs) for name in DONATION_ATTRS))


RESERVED_KEYWORD = "return_arrays"
"""The keyword a model call takes for itself (``model(x, return_arrays=True)``), so no input can be named so."""


def check_input_names(names: Sequence[str] | None,
                      signature: Signature | PolymorphicSignature) -> tuple[str, ...] | None:
    """Validate ``compile(..., input_names=...)`` against the signature."""
    if names is None:
        return None
    if isinstance(names, str):
        raise TypeError("input_names must be a sequence of strings, one per input, not a string")
    names = tuple(names)
    if len(names) != len(signature.inputs):
        raise ValueError(f"input_names has {len(names)} name(s) but @main takes "
                         f"{len(signature.inputs)} input(s)")
    for n in names:
        if not isinstance(n, str):
            raise TypeError(f"input_names must be strings; got {n!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"input_names must be distinct; got {list(names)}")
    if RESERVED_KEYWORD in names:
        raise ValueError(f"input_names cannot include {RESERVED_KEYWORD!r}: a model call takes "
                         f"{RESERVED_KEYWORD}=True to return jax.Arrays; rename that input")
    return names
