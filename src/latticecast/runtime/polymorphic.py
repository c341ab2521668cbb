"""Modules with dynamic or symbolic dimensions: refined to the shapes of each call, compiled once per shape.

PJRT compiles static shapes only, and a module JAX exports with symbolic shapes
(``jax.export`` of ``ShapeDtypeStruct(export.symbolic_shape("b, 4"), ...)``) has
``tensor<?x4xf32>`` in ``@main``, ``stablehlo.dynamic_*`` ops and ``@shape_assertion``
custom calls that check the input shapes against the specification. JAX runs such a
module by *refining* it to the shapes of the actual arguments first; so does
:class:`PolymorphicModel`, with the function JAX uses, ``jax.extend.mlir.refine_polymorphic_shapes``:

1. check each argument's dtype, rank and static dimensions against ``@main`` (refinement
   would otherwise convert an ``f64`` argument to ``f32`` without a word);
2. give ``@main`` the static argument types, each converted back to its dynamic type
   inside (as JAX does where it calls an exported function), and bind the inputs that
   carry a dimension variable's value (``{jax.global_constant = "b"}``) to constants;
3. refine: shapes propagate through the module, the shape assertions are checked
   and removed, and what remains must be static;
4. compile the refined module with :func:`~latticecast.runtime.compile` (so the
   compilation cache applies) and remember the model for that *shape signature*:
   the shapes of the arguments and the values of the dimension variables.

Shapes that contradict the specification are an :class:`InputShapeError` naming the
input, what ``@main`` expects and what was given. When refinement fails inside the
body, the shape assertions alone are refined again so that the error is JAX's own
("Found inconsistency between dimension size args[1].shape[0] (= 5) and the
specification 'b' (= 3)") rather than the op where the mismatch surfaced.
"""

from __future__ import annotations

import io
import re
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Callable, Literal, Sequence, overload

import numpy as np

from ..dialect_utils.types import dense_elements
from ..promotion.tensor_type import TensorType
from .runtime_errors import InputShapeError
from .inputs import convert_input, describe_input

if TYPE_CHECKING:
    import jax
    from jaxlib.mlir import ir

    from .model import Model
    from .pjrt import Argument

_Key = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]  # (the inputs' shapes, the dimensions' sizes)
from .partitioning import uses_shardy
from .signature import DIM_VAR_ATTR, PolymorphicSignature, TensorPattern, find_main

__all__ = ["PolymorphicModel", "refine_module", "MAX_SPECIALIZATIONS"]

MAX_SPECIALIZATIONS = 64
"""Shape signatures whose compiled model a :class:`PolymorphicModel` keeps (least recently used
first out; the executables stay in the compilation cache)."""

_SHAPE_ASSERTION = "shape_assertion"
_ARG_INDEX = re.compile(r"args\[(\d+)\]")


def _bytecode(module: "ir.Module") -> bytes:
    buf = io.BytesIO()
    module.operation.write_bytecode(buf)
    return buf.getvalue()


class PolymorphicModel:
    """A module with dynamic dimensions, called like a :class:`~latticecast.runtime.Model`.

    ``input_types``/``output_types`` are :class:`~latticecast.runtime.signature.TensorPattern`
    (``float32[?, 4]``). Each call refines the module to its argument shapes and runs the
    model compiled for them; ``specializations`` counts the shape signatures compiled so far.
    """

    def __init__(self, module: "ir.Module", signature: PolymorphicSignature,
                 compile_static: Callable[["ir.Module", Sequence[str] | None], Model],
                 name: str, input_names: Sequence[str] | None = None) -> None:
        self._bytecode = _bytecode(module)
        self._signature = signature
        self._compile_static = compile_static
        self._name = name
        self._shardy = uses_shardy(module)
        self.input_names: tuple[str, ...] | None = tuple(input_names) if input_names else None
        self._models: "OrderedDict[_Key, Model]" = OrderedDict()
        self._lock = threading.Lock()
        self.cache_source = "refined per shape"

    @property
    def input_types(self) -> tuple[TensorPattern, ...]:
        return self._signature.inputs

    @property
    def output_types(self) -> tuple[TensorPattern, ...]:
        return self._signature.outputs

    @property
    def specializations(self) -> int:
        return len(self._models)

    def __repr__(self) -> str:
        names = self.input_names or tuple(f"%arg{i}" for i in range(len(self.input_types)))
        ins = ", ".join(f"{n}: {t}" for n, t in zip(names, self.input_types))
        return f"<PolymorphicModel main({ins}) -> ({', '.join(map(str, self.output_types))})>"

    # -- calls ---------------------------------------------------------------------------

    @overload
    def __call__(self, *args: "Argument", return_arrays: Literal[False] = False,
                 **kwargs: "Argument") -> list[np.ndarray]: ...
    @overload
    def __call__(self, *args: "Argument", return_arrays: Literal[True], **kwargs: "Argument") -> "list[jax.Array]": ...
    @overload
    def __call__(self, *args: "Argument", return_arrays: bool,
                 **kwargs: "Argument") -> "list[np.ndarray] | list[jax.Array]": ...

    def __call__(self, *args: "Argument", return_arrays: bool = False,
                 **kwargs: "Argument") -> "list[np.ndarray] | list[jax.Array]":
        """As :meth:`Model.__call__ <latticecast.runtime.Model.__call__>`: NumPy arrays out, or
        ``jax.Array`` s with ``return_arrays=True``."""
        from .model import bind_arguments

        patterns = self.input_types
        if kwargs or len(args) != len(patterns):
            args = bind_arguments(args, kwargs, self.input_names, patterns)
        arrays: list[np.ndarray] = []
        dims: list[int] = []
        for i, (value, pattern) in enumerate(zip(args, patterns)):
            name = self.input_names[i] if self.input_names else None
            if pattern.dim_var is not None:
                dims.append(self._dimension_value(value, pattern, i, name))
            else:
                arrays.append(self._array(value, pattern, i, name))
        key = (tuple(a.shape for a in arrays), tuple(dims))
        with self._lock:
            model = self._models.get(key)
            if model is not None:
                self._models.move_to_end(key)
        if model is None:
            model = self._specialize(key, [a.shape for a in arrays], dims)
        return model(*arrays, return_arrays=return_arrays)

    def _array(self, value: "Argument", pattern: TensorPattern, index: int, name: str | None) -> np.ndarray:
        """``value`` checked against the pattern: its rank and static dimensions, then (at its own
        shape) its dtype and values, by the rules every input follows."""
        shape = _shape_of(value)
        if shape is None or not pattern.fits(shape):
            got = "a value of unknown shape" if shape is None else f"shape [{', '.join(map(str, shape))}]"
            raise InputShapeError(
                f"{describe_input(index, name)}: expected {pattern}, got {got}; @main takes any size where "
                f"it says '?' and exactly the size it names elsewhere.",
                index=index, name=name, expected=pattern, got=shape)
        array, _ = convert_input(value, TensorType(pattern.dtype, shape), index, name)
        return array

    def _dimension_value(self, value: "Argument", pattern: TensorPattern, index: int, name: str | None) -> int:
        array, _ = convert_input(value, TensorType(pattern.dtype, ()), index, name)
        size = int(array)
        if size < 0:
            raise InputShapeError(
                f"{describe_input(index, name)}: the dimension variable {pattern.dim_var!r} must be a size "
                f"(0 or more), got {size}.", index=index, name=name, expected=pattern, got=size)
        return size

    def _specialize(self, key: _Key, shapes: list[tuple[int, ...]], dims: list[int]) -> Model:
        with self._lock:
            model = self._models.get(key)
            if model is not None:
                return model
            inputs = [p for p in self.input_types if p.dim_var is None]
            arg_types = [TensorType(p.dtype, s) for p, s in zip(inputs, shapes)]
            refined = refine_module(self._bytecode, self.input_types, arg_types, dims, self._shardy,
                                    self.input_names)
            names = None
            if self.input_names:
                names = [n for n, p in zip(self.input_names, self.input_types) if p.dim_var is None]
            model = self._compile_static(refined, names)
            self._models[key] = model
            while len(self._models) > MAX_SPECIALIZATIONS:
                self._models.popitem(last=False)
            return model


def _shape_of(value: "Argument") -> tuple[int, ...] | None:
    shape = getattr(value, "shape", None)
    if shape is not None:
        try:
            return tuple(int(d) for d in shape)
        except (TypeError, ValueError):
            return None
    try:
        return tuple(np.shape(value))
    except (ValueError, TypeError):
        return None


# -- refinement ----------------------------------------------------------------------------


def refine_module(bytecode: bytes, patterns: Sequence[TensorPattern], arg_types: Sequence[TensorType],
                  dim_values: Sequence[int], shardy: bool = False,
                  input_names: Sequence[str] | None = None) -> "ir.Module":
    """The module (as bytecode) refined to static ``arg_types`` for its tensor inputs and
    ``dim_values`` for its dimension-variable inputs, as a new ``ir.Module``; a failure is an
    :class:`InputShapeError`."""
    import jax.errors
    import jax.extend.mlir
    from jaxlib.mlir import ir

    from ..dialect_utils.context import strict_context

    ctx = strict_context()
    module = ir.Module.parse(bytecode, context=ctx)
    with ctx, ir.Location.unknown():
        _bind_dimension_variables(module, dim_values)
        _set_static_arguments(module, arg_types)
    prepared = _bytecode(module)
    try:
        refined = jax.extend.mlir.refine_polymorphic_shapes(
            prepared, enable_shape_assertions=True, validate_static_shapes=True, enable_shardy=shardy)
    except (jax.errors.JaxRuntimeError, ValueError, RuntimeError) as e:
        reason = _assertion_failure(module, shardy) or _first_error(str(e))
        raise _shape_error(reason, patterns, arg_types, dim_values, input_names) from None
    return ir.Module.parse(refined, context=ctx)


def _bind_dimension_variables(module: "ir.Module", values: Sequence[int]) -> None:
    """Replace each ``jax.global_constant`` input of ``@main`` by a constant of its value."""
    from jaxlib.mlir import ir

    main = find_main(module)
    if "arg_attrs" not in main.attributes:
        return
    attrs = list(ir.ArrayAttr(main.attributes["arg_attrs"]))
    block = main.regions[0].blocks[0]
    bound = [i for i, a in enumerate(attrs) if DIM_VAR_ATTR in ir.DictAttr(a)]
    if not bound:
        return
    for i, value in zip(bound, values):
        arg = block.arguments[i]
        dtype = np.dtype(np.int64) if "i64" in str(ir.RankedTensorType(arg.type).element_type) else np.dtype(np.int32)
        const = ir.Operation.create("stablehlo.constant", results=[arg.type], attributes={
            "value": dense_elements(np.array(value, dtype=dtype), type=arg.type)},
            ip=ir.InsertionPoint.at_block_begin(block))
        arg.replace_all_uses_with(const.result)
    for i in reversed(bound):
        block.erase_argument(i)
        del attrs[i]
    ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
    inputs = [t for i, t in enumerate(ftype.inputs) if i not in bound]
    main.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, ftype.results))
    main.attributes["arg_attrs"] = ir.ArrayAttr.get(attrs)


def _set_static_arguments(module: "ir.Module", arg_types: Sequence[TensorType]) -> None:
    """Give ``@main`` static argument types; each argument is converted back to its dynamic type
    for the body (the convert is an identity that refinement folds away)."""
    from jaxlib.mlir import ir

    from ..dialect_utils.types import type_cache

    tc = type_cache(module.context)
    main = find_main(module)
    block = main.regions[0].blocks[0]
    ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
    new_types = []
    for arg, old, want in zip(block.arguments, ftype.inputs, arg_types):
        t = tc.tensor(want.dtype, want.shape)
        new_types.append(t)
        if old == t:
            continue
        arg.set_type(t)
        convert = ir.Operation.create("stablehlo.convert", results=[old], operands=[arg],
                                      ip=ir.InsertionPoint.at_block_begin(block))
        arg.replace_all_uses_except(convert.result, convert)
    main.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(new_types, ftype.results))


def _assertion_failure(module: "ir.Module", shardy: bool) -> str | None:
    """The message of the first failing shape assertion of ``@main`` (``None`` if none fails), found
    by refining ``@main`` cut after its last assertion: the body, where an inconsistent shape
    surfaces first as some op's type error, is not refined at all."""
    import jax.extend.mlir
    from jaxlib.mlir import ir

    main = find_main(module)
    block = main.regions[0].blocks[0]
    ops = [op.operation for op in block.operations]
    last = max((i for i, op in enumerate(ops) if op.name == "stablehlo.custom_call"
                and ir.StringAttr(op.attributes["call_target_name"]).value == _SHAPE_ASSERTION), default=None)
    if last is None:
        return None
    with module.context, ir.Location.unknown():
        ir.Operation.create("func.return", operands=[], ip=ir.InsertionPoint(ops[last + 1]))
        for op in reversed(ops[last + 1:]):
            op.erase()
        ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        main.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(ftype.inputs, []))
        if "res_attrs" in main.attributes:
            del main.attributes["res_attrs"]
    try:
        jax.extend.mlir.refine_polymorphic_shapes(_bytecode(module), enable_shape_assertions=True,
                                                  validate_static_shapes=False, enable_shardy=shardy)
    except Exception as e:  # noqa: BLE001 - any failure here is the assertion we look for
        text = str(e)
        if _SHAPE_ASSERTION in text:
            return _first_error(text)
    return None


def _first_error(text: str) -> str:
    """The first ``error:`` line of a refinement failure, without its location prefix."""
    for line in text.splitlines():
        if "error: " in line:
            message = line.split("error: ", 1)[1].strip()
            return re.sub(r'^loc\("shape_assertion"\):\s*', "", message)
    return " ".join(text.split())


def _shape_error(reason: str, patterns: Sequence[TensorPattern], arg_types: Sequence[TensorType],
                 dim_values: Sequence[int], input_names: Sequence[str] | None) -> InputShapeError:
    tensor_inputs = [i for i, p in enumerate(patterns) if p.dim_var is None]
    names = list(input_names) if input_names else [None] * len(patterns)
    given = {i: t for i, t in zip(tensor_inputs, arg_types)}
    dim_inputs = [i for i, p in enumerate(patterns) if p.dim_var is not None]
    m = _ARG_INDEX.search(reason) if reason.startswith("Input shapes do not match") else None
    if m and int(m.group(1)) in given:
        i = int(m.group(1))
        return InputShapeError(
            f"{describe_input(i, names[i])}: shape [{', '.join(map(str, given[i].shape))}] does not fit @main's {patterns[i]}: "
            f"{reason}", index=i, name=names[i], expected=patterns[i], got=given[i].shape)
    shown = {i: f"{describe_input(i, names[i])}: {given[i]}" for i in tensor_inputs}
    shown.update({i: f"{describe_input(i, names[i])} ({patterns[i].dim_var}) = {v}"
                  for i, v in zip(dim_inputs, dim_values)})
    expected = ", ".join(str(p) for p in patterns)
    return InputShapeError(
        f"the inputs ({'; '.join(shown[i] for i in sorted(shown))}) do not fit @main's dynamic shapes ({expected}): {reason}. Pass inputs "
        f"whose sizes agree where @main's dimensions must be equal.",
        expected=tuple(patterns), got=tuple(t.shape for t in arg_types))
