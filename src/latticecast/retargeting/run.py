"""Running a program as written and as retargeted, on the same inputs, through PJRT.

Both versions are compiled with :func:`latticecast.compile` and called with the same NumPy arrays
(drawn from a seed, or given). Each output is compared after widening both sides to one NumPy type
(``float64``, ``complex128``, ``int64``), so a ``float64`` result and a ``float32`` one compare value
for value. To find the first op where the values start to differ, both versions are compiled again
returning, besides their outputs, the value of every op of ``@main``'s body in program order (the
two have the same ops in the same order but for their converts, which are left out); the first pair
that differs names the op. Nothing is sampled: every element of every value is compared.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np
from jaxlib.mlir import ir

from ..dialect_utils.context import make_context
from ..dialect_utils.parsing import parse_module
from ..dialect_utils.printing import asm
from ..dialect_utils.types import type_cache
from ..promotion.dims import is_static
from ..errors import LatticecastError
from ..passes.lower_dtypes import refresh_function_type
from ..promotion.tensor_type import TensorType

if TYPE_CHECKING:
    from . import Retargeted

__all__ = ["OutputDiff", "FirstDifference", "RunComparison", "run_both", "draw_inputs", "read_inputs", "differences"]

_SKIP = frozenset({"stablehlo.convert", "func.return"})
_CHUNK = 1024
"""Values per instrumented compilation: a module of thousands of ops is compared in chunks, in order,
until one differs."""


@dataclass(frozen=True)
class OutputDiff:
    """One value under both policies: ``name`` (an output's, or the op's), ``source`` and ``target``
    types; over its elements the largest absolute and relative difference (``None`` when the shapes
    differ) and how many differ."""

    name: str
    source: TensorType
    target: TensorType
    max_abs: float | None
    max_rel: float | None
    differing: int
    total: int


@dataclass(frozen=True)
class FirstDifference(OutputDiff):
    """The first op of ``@main``, in program order, whose values differ between the two versions:
    ``op`` is the op of the lifted program (:attr:`Retargeted.lifted`), ``index`` its place among the
    ops compared; ``name`` is the op's name."""

    op: ir.Operation | None = None
    index: int = 0


@dataclass(frozen=True)
class RunComparison:
    """What :meth:`Retargeted.run` found: the inputs, per output the difference, and where values
    first differ (``None`` when no value differs; ``unpaired`` says why no op could be named)."""

    inputs: list[np.ndarray]
    input_source: str
    outputs: list[OutputDiff]
    first: FirstDifference | None
    compared: int
    unpaired: str | None = None

    @property
    def identical(self) -> bool:
        return all(o.differing == 0 and o.source == o.target for o in self.outputs)


def run_both(retargeted: "Retargeted", inputs: "Sequence[np.ndarray] | Mapping[str, np.ndarray] | None", *,
             seed: int = 0, device: str = "cpu") -> RunComparison:
    """Compile and run both versions of ``retargeted`` on the same inputs; see :class:`RunComparison`."""
    from ..runtime import compile as compile_module

    source_text = asm(retargeted.source, debug_info=True)
    target_text = asm(retargeted.module, debug_info=True)
    source_model = compile_module(str(source_text), device, source_name=retargeted.source_name)
    target_model = compile_module(str(target_text), device, source_name=retargeted.source_name)
    specs = tuple(getattr(source_model, "input_types", ()))
    if inputs is None:
        if not hasattr(source_model, "input_types"):
            raise LatticecastError("@main has dynamic dimensions: give its inputs (an .npz file, or arrays) to run it")
        arrays, how = draw_inputs(specs, seed), f"drawn from seed {seed}"
    else:
        arrays, how = _ordered(inputs, specs, getattr(source_model, "input_names", None)), "given"
    mine = source_model(*arrays)
    theirs = target_model(*arrays)
    names = _output_names(retargeted.source)
    outputs = []
    for i, (a, b) in enumerate(zip(mine, theirs)):
        outputs.append(OutputDiff(names[i] if i < len(names) else f"#{i}", _spec(a), _spec(b), *differences(a, b)))
    first, compared, unpaired = _first_difference(retargeted, source_text, target_text, arrays, device)
    return RunComparison(list(arrays), how, outputs, first, compared, unpaired)


def draw_inputs(specs: Sequence[TensorType], seed: int = 0) -> list[np.ndarray]:
    """Inputs of ``specs`` drawn from ``seed``: floats from a standard normal, integers from [-8, 8)
    ([0, 16) unsigned), bools evenly, complex numbers with normal parts.

    Args:
        specs: The input types (a compiled model's ``input_types``).
        seed: The seed.

    Returns:
        One array per input.

    Example:
        >>> from latticecast import DType, TensorType
        >>> [a.dtype.name for a in draw_inputs([TensorType(DType.int32, [2]), TensorType(DType.bfloat16, [2])])]
        ['int32', 'bfloat16']
    """
    rng = np.random.default_rng(seed)
    out = []
    for i, spec in enumerate(specs):
        if not is_static(spec.shape):
            raise LatticecastError(
                f"input #{i} ({spec}) has a dynamic dimension, so no inputs can be drawn for it: give the arrays "
                f"(Retargeted.run(inputs), or retarget --run --inputs FILE.npz)")
        shape = tuple(int(d) for d in spec.shape)
        dtype = spec.dtype
        host = dtype.np_dtype
        if dtype.is_bool:
            a = rng.integers(0, 2, shape).astype(bool)
        elif dtype.is_complex:
            a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(host)
        elif dtype.is_inexact:
            a = rng.standard_normal(shape).astype(host)
        elif dtype.is_unsigned:
            a = rng.integers(0, 16, shape).astype(host)
        else:
            a = rng.integers(-8, 8, shape).astype(host)
        out.append(np.asarray(a))
    return out


def read_inputs(path: str) -> dict[str, np.ndarray]:
    """The arrays of an ``.npz`` file, by name (``np.savez(f, x, y)`` names them ``arr_0``, ``arr_1``).

    Args:
        path: The file.

    Returns:
        The arrays.

    Raises:
        LatticecastError: The file cannot be read as ``.npz``.

    Example::

        inputs = read_inputs("inputs.npz")
    """
    try:
        with np.load(Path(path), allow_pickle=False) as data:
            return {k: np.asarray(data[k]) for k in data.files}
    except (OSError, ValueError) as e:
        raise LatticecastError(f"cannot read inputs from {path}: {e}; write them with numpy.savez(path, *arrays)") \
            from None


def _ordered(inputs: "Sequence[np.ndarray] | Mapping[str, np.ndarray]", specs: Sequence[TensorType],
             names: "Sequence[str] | None") -> list[np.ndarray]:
    """The given inputs in ``@main``'s order: a sequence as it is; a mapping by ``arr_i``, ``argI`` or the
    input's name (every input named, none left over)."""
    if not isinstance(inputs, Mapping):
        return [_typed(np.asarray(a), spec) for a, spec in zip(inputs, specs)] + \
            [np.asarray(a) for a in list(inputs)[len(specs):]]
    out = []
    keys = dict(inputs)
    for i in range(len(specs)):
        for key in (f"arr_{i}", f"arg{i}", *(names[i:i + 1] if names else ())):
            if key in keys:
                out.append(_typed(np.asarray(keys.pop(key)), specs[i]))
                break
        else:
            raise LatticecastError(f"no input {i} among {', '.join(sorted(inputs)) or 'none'}: name it arr_{i} or "
                                   f"arg{i} (numpy.savez(path, *arrays) does)")
    if keys:
        raise LatticecastError(f"inputs {', '.join(sorted(keys))} are not inputs of @main, which takes {len(specs)}")
    return out


def _typed(a: np.ndarray, spec: TensorType) -> np.ndarray:
    """``a`` as ``spec``'s dtype where ``.npz`` lost it: NumPy stores ``bfloat16`` and the other ml_dtypes
    as raw bytes (``|V2``), read back as the input's dtype of the same width."""
    host = spec.dtype.np_dtype
    if a.dtype.kind == "V" and a.dtype.itemsize == host.itemsize and host.kind == "V":
        return a.view(host)
    return a


def _spec(a: np.ndarray) -> TensorType:
    from ..promotion.dtypes import DType

    return TensorType(DType.from_numpy(a.dtype), list(a.shape))


def _wide(a: np.ndarray) -> np.ndarray:
    kind = a.dtype.kind
    if kind == "c":
        return a.astype(np.complex128)
    if kind == "b":
        return a.astype(np.int64)
    if kind in "iu":
        return a.astype(np.uint64 if a.dtype == np.uint64 else np.int64)
    return a.astype(np.float64)  # floats, and ml_dtypes' (kind 'V')


def differences(a: np.ndarray, b: np.ndarray) -> tuple[float | None, float | None, int, int]:
    """Over the elements of ``a`` (as written) and ``b`` (retargeted): the largest absolute difference,
    the largest relative one (to ``|a|``; infinite where ``a`` is 0 and ``b`` is not), how many
    differ (two NaNs agree), and how many there are. ``None`` differences when the shapes differ.

    Args:
        a: The value as the program was written.
        b: The value as retargeted.

    Returns:
        ``(max_abs, max_rel, differing, total)``.

    Example:
        >>> import numpy as np
        >>> differences(np.array([0.1, 2.0]), np.array([0.1, 2.0], np.float32))[2]
        1
    """
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return None, None, max(a.size, b.size), max(a.size, b.size)
    x, y = _wide(a), _wide(b)
    if x.dtype == np.uint64 or y.dtype == np.uint64:
        x, y = x.astype(object), y.astype(object)
        differ = x != y
        diff = np.abs(np.array(x - y, dtype=object).astype(np.float64)) if x.size else np.zeros(0)
        base = np.abs(x.astype(np.float64))
    else:
        with np.errstate(all="ignore"):
            both_nan = np.isnan(x) & np.isnan(y) if x.dtype.kind in "fc" or y.dtype.kind in "fc" else False
            differ = (x != y) & np.logical_not(both_nan)
            diff = np.where(differ, np.abs(x - y), 0.0).astype(np.float64)
            base = np.abs(x).astype(np.float64)
    count = int(np.count_nonzero(differ))
    if a.size == 0:
        return 0.0, 0.0, 0, 0
    with np.errstate(all="ignore"):
        rel = np.where(differ, np.where(base > 0, diff / np.where(base > 0, base, 1), np.inf), 0.0)
    max_abs = float(np.nanmax(diff)) if diff.size else 0.0
    max_rel = float(np.nanmax(rel)) if rel.size else 0.0
    return max_abs, max_rel, count, int(a.size)


def _output_names(module: ir.Module) -> list[str]:
    """``@main``'s outputs as JAX names them (``jax.result_info``), else ``#i``."""
    from ..runtime.signature import find_main

    main = find_main(module)
    names: list[str] = []
    if "res_attrs" in main.attributes:
        for i, attrs in enumerate(ir.ArrayAttr(main.attributes["res_attrs"])):
            d = ir.DictAttr(attrs)
            names.append(ir.StringAttr(d["jax.result_info"]).value if "jax.result_info" in d else f"#{i}")
    return names


# -- the first op where values differ -------------------------------------------------------------


def _body_values(main: ir.Operation) -> list[tuple[ir.Operation, list[ir.Value[ir.Type]]]]:
    """The ops of ``@main``'s body in program order (converts left out), each with its tensor results."""
    tc = type_cache(main.context)
    out = []
    for view in main.regions[0].blocks[0].operations:
        op = view.operation
        if op.name in _SKIP:
            continue
        values = []
        for r in op.results:
            try:
                tc.tensor_info(r.type)
            except (TypeError, LatticecastError):
                continue
            values.append(r)
        out.append((op, values))
    return out


def _instrumented(text: str, chunk: range) -> str:
    """``text`` with ``@main`` returning, after its outputs, the values of the body's ops in ``chunk``
    (positions among :func:`_body_values`)."""
    from ..runtime.signature import find_main

    module = parse_module(text, make_context(lenient=True))
    main = find_main(module)
    ops = _body_values(main)
    values = [v for i in chunk for v in ops[i][1]]
    block = main.regions[0].blocks[0]
    terminator = ir.InsertionPoint.at_block_terminator(block).ref_operation
    assert terminator is not None  # a function's body ends in its return
    with module.context, terminator.location:
        ir.Operation.create("func.return", operands=list(terminator.operands) + values,
                            ip=ir.InsertionPoint(terminator))
    terminator.erase()
    if "res_attrs" in main.attributes:
        with module.context:
            old = list(ir.ArrayAttr(main.attributes["res_attrs"]))
            main.attributes["res_attrs"] = ir.ArrayAttr.get(old + [ir.DictAttr.get({})] * len(values))
    with module.context:
        refresh_function_type(main)
    return asm(module, debug_info=True)


def _first_difference(retargeted: "Retargeted", source_text: str, target_text: str, arrays: list[np.ndarray],
                      device: str) -> tuple[FirstDifference | None, int, str | None]:
    """The first op of ``@main`` whose values differ between the two versions, the number of ops
    compared, and why no op could be named (``None`` when one was, or none differs)."""
    from ..runtime import compile as compile_module
    from ..runtime.signature import find_main

    modules = [parse_module(t, make_context(lenient=True)) for t in (source_text, target_text)]  # kept alive
    source_ops, target_ops = (_body_values(find_main(m)) for m in modules)
    lifted_ops = _body_values(find_main(retargeted.lifted))
    if [op.name for op, _ in source_ops] != [op.name for op, _ in target_ops] or \
            [len(v) for _, v in source_ops] != [len(v) for _, v in target_ops] or len(lifted_ops) != len(source_ops):
        return None, 0, "the two versions' ops do not pair up one for one, so no op is named"
    compared = 0
    for start in range(0, len(source_ops), _CHUNK):
        chunk = range(start, min(start + _CHUNK, len(source_ops)))
        if not any(source_ops[i][1] for i in chunk):
            continue
        mine = compile_module(_instrumented(source_text, chunk), device)(*arrays)
        theirs = compile_module(_instrumented(target_text, chunk), device)(*arrays)
        skip = len(mine) - sum(len(source_ops[i][1]) for i in chunk)
        k = skip
        for i in chunk:
            compared += 1
            for _ in source_ops[i][1]:
                a, b = mine[k], theirs[k]
                k += 1
                max_abs, max_rel, differing, total = differences(a, b)
                if differing:
                    op = lifted_ops[i][0]
                    return FirstDifference(op.name, _spec(a), _spec(b), max_abs, max_rel, differing, total, op,
                                           i), compared, None
    return None, compared, None
