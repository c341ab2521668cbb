"""Regenerate the torch-mlir corpus in ``tests/data/torch_mlir/`` (needs torch and torch-mlir).

Run it with an interpreter that has ``torch==2.13`` and ``torch-mlir`` (a separate venv: see
``LATTICECAST_TORCH_PYTHON`` in docs/ir_guide.rst)::

    /work/venv-torch/bin/python tools/torch_mlir_corpus.py [OUT_DIR]

For every program below it writes

- ``NAME.mlir``: ``torch_mlir.fx.export_and_import(module, *inputs, output_type="stablehlo")``,
  printed as torch-mlir prints it (``dense_resource`` weights and ``arith.constant`` included);
- ``reference.npz``: the fixed inputs and the outputs of PyTorch eager (``NAME/in0``, ...,
  ``NAME/out0``, ...; bfloat16 is stored as its ``uint16`` bits);
- ``manifest.json``: per program the dtypes of the inputs and outputs, the *oracle* (every
  ``torch.result_type`` of the operands of a binary op, ``torch.where`` or comparison that mixes
  dtypes, Python scalars or ranks, recorded while PyTorch eager runs the program), and where
  torch-mlir's lowering is known to disagree with PyTorch eager, why.

The tests (``tests/test_torch_mlir.py``) read only these files: they run everywhere, without torch.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import torch
from torch.overrides import TorchFunctionMode

warnings.filterwarnings("ignore")

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "torch_mlir"

T = torch.tensor
F16, BF16, F32, F64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
I8, U8, I16, I32, I64, B = torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool


def t(values, dtype):
    return T(values, dtype=dtype)


def floats(dtype, n=4):
    return t([0.1, -1.5, 2.25, 3.0, -0.75, 7.5][:n], dtype)


def ints(dtype, n=4):
    values = [7, -7, 5, 100, -3, 2] if dtype not in (U8, B) else [7, 200, 5, 100, 3, 2]
    return t(values[:n], dtype) if dtype is not B else t([True, False, True, True, False, True][:n], B)


def zero_d(value, dtype):
    return t(value, dtype)


MASK = t([True, False, True, False], B)

# Where torch-mlir's lowering disagrees with PyTorch eager (checked by the tests: these modules
# must still disagree, and every other module must agree).
TORCH_MLIR_WRONG = {
    "rem_i32_scalar": "integer % lowered as stablehlo.remainder, a truncating remainder; PyTorch's % "
                      "takes the sign of the divisor",
    "rem_i32_i32": "integer % lowered as stablehlo.remainder, a truncating remainder",
    "eq_u8_i8": "uint8 == int8 compared in int8 (the uint8 operand wraps); PyTorch compares in int16",
    "eq_u8_zero_d_i64_300": "a 0-d int64 tensor (300) against uint8 compared in int64; PyTorch's 0-d rule "
                            "compares in uint8 (300 wraps to 44)",
    "rsub_scalar_f64": "0.1 - float64: the Python scalar made a float32 constant, then converted; "
                       "PyTorch uses 0.1 as a double",
    "gt_bool_scalar": "bool > 0 written as a SIGNED compare of i1 (true is -1), which XLA's verifier "
                      "rejects (\"Expected comparison type UNSIGNED\"); PyTorch compares in int64",
    "eq_bool_scalar": "bool == 0 written as a SIGNED compare of i1, which XLA's verifier rejects; PyTorch "
                      "compares in int64",
    "lt_i8_u8": "int8 < uint8 compared as ui8 with a SIGNED compare, which XLA's verifier rejects; PyTorch "
                "compares in int16",
    "eq_f16_zero_d_f32": "a 0-d float32 against float16 compared in float32; PyTorch's 0-d rule compares "
                         "in float16",
    "eq_f32_zero_d_f64": "a 0-d float64 against float32 compared in float64; PyTorch compares in float32",
    "ne_f32_zero_d_f64_big": "a 0-d float64 against float32 compared in float64; PyTorch compares in float32",
    "gt_f32_zero_d_f64": "a 0-d float64 against float32 compared in float64; PyTorch compares in float32",
    "lt_zero_d_f64_f32": "a 0-d float64 against float32 compared in float64; PyTorch compares in float32",
    "eq_i8_zero_d_i64_300": "a 0-d int64 (300) against int8 compared in int64; PyTorch compares in int8 "
                            "(300 wraps to 44)",
}


class Oracle(TorchFunctionMode):
    """Records, while PyTorch eager runs a program, what its promoting ops did:

    - ``types``: ``torch.result_type`` of the operands of every binary op, ``torch.where`` or comparison
      that mixes dtypes, Python scalars or ranks (the manifest's ``oracle``);
    - ``compare_pairs``: the dtypes of the operands of every comparison of two dtypes, as the IR spells
      them (a Python float is the float64 constant torch-mlir writes, an int the int64 one);
    - ``sites``: every promoting op (binary ops, comparisons, ``where``, ``clamp``) that meets a 0-d
      tensor or a Python scalar beside a dimensioned tensor: the op, each operand's kind (``nd``,
      ``0d``, ``py``) and dtype, and the dtype PyTorch promotes them to;
    - ``explicit_conversions``: whether the program converts a tensor's dtype itself (``x.to(...)``,
      ``x.double()``, ``type_as``), whose converts the IR does not tell from promotion's.
    """

    BINARY = {"add", "sub", "mul", "div", "true_divide", "floor_divide", "remainder", "pow", "maximum",
              "minimum", "eq", "ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or", "bitwise_xor",
              "rsub", "radd", "rmul", "truediv", "rtruediv", "floordiv", "rfloordiv", "mod", "rmod", "rpow",
              "and", "or", "xor", "greater", "less", "greater_equal", "less_equal", "not_equal", "fmod",
              "atan2"}
    COMPARISONS = {"eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal",
                   "not_equal"}
    CLAMPS = {"clamp", "clip", "clamp_min", "clamp_max"}
    CONVERSIONS = {"to", "type", "double", "float", "half", "bfloat16", "int", "long", "short", "char", "byte",
                   "bool", "type_as", "_to_copy"}

    def __init__(self) -> None:
        super().__init__()
        self.types: set[str] = set()
        self.compare_pairs: set[tuple[str, str]] = set()
        self.sites: list[dict] = []
        self.explicit_conversions = False

    @staticmethod
    def op_name(func) -> str:
        """``torch.gt``, ``Tensor.__gt__`` and ``torch.ops.aten.gt.Scalar`` are all ``gt``."""
        name = getattr(func, "__name__", "").split(".")[0]
        return name.strip("_") if name.startswith("__") else name

    @staticmethod
    def ir_dtype(x) -> str:
        """The dtype of ``x`` as torch-mlir's IR holds it (a Python scalar is an int64/float64 constant)."""
        if isinstance(x, torch.Tensor):
            return str(x.dtype).removeprefix("torch.")
        return {bool: "bool", int: "int64", float: "float64", complex: "complex128"}[type(x)]

    @staticmethod
    def kind(x) -> str:
        return ("nd" if x.dim() else "0d") if isinstance(x, torch.Tensor) else "py"

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = self.op_name(func)
        operands = None
        if name in self.BINARY and len(args) >= 2:
            operands = args[0], args[1]
        elif name == "where" and len(args) == 3:
            operands = args[1], args[2]
        elif name in self.CLAMPS and args:
            bounds = list(args[1:3]) + [kwargs.get("min"), kwargs.get("max")]
            operands = (args[0], *(b for b in bounds if b is not None))
        result = func(*args, **kwargs)
        numbers = (torch.Tensor, bool, int, float, complex)
        if operands is None or not all(isinstance(o, numbers) for o in operands):
            if (name in self.CONVERSIONS and args and isinstance(args[0], torch.Tensor)
                    and isinstance(result, torch.Tensor) and result.dtype != args[0].dtype):
                self.explicit_conversions = True
            return result
        kinds = [self.kind(o) for o in operands]
        dtypes = [self.ir_dtype(o) for o in operands]
        tensors = [o for o in operands if isinstance(o, torch.Tensor)]
        if not tensors:
            return result
        mixed = len(tensors) < len(operands) or len({(o.dtype, o.dim()) for o in tensors}) > 1
        promoted = (str(torch.result_type(*operands)).removeprefix("torch.") if len(operands) == 2
                    else self.ir_dtype(result))
        if mixed:
            self.types.add(promoted)
        if name in self.COMPARISONS and len(set(dtypes)) > 1:
            self.compare_pairs.add(tuple(sorted(dtypes)))
        if "nd" in kinds and ("0d" in kinds or "py" in kinds):
            self.sites.append({"op": name, "kinds": kinds, "dtypes": dtypes, "promoted": promoted})
        return result


def programs():
    """(name, fn or nn.Module, inputs)."""
    torch.manual_seed(0)
    P = []

    def add(name, fn, *inputs):
        P.append((name, fn, inputs))

    # -- mixed-dtype arithmetic, tensors of one rank ------------------------------------------------
    add("add_i8_u8", lambda a, b: a + b, ints(I8), ints(U8))
    add("add_i32_f16", lambda a, b: a + b, ints(I32), floats(F16))
    add("mul_u8_i16", lambda a, b: a * b, ints(U8), ints(I16))
    add("sub_f16_bf16", lambda a, b: a - b, floats(F16), floats(BF16))
    add("add_i64_f32", lambda a, b: a + b, ints(I64), floats(F32))
    add("mul_bool_i32", lambda a, b: a * b, ints(B), ints(I32))
    add("add_bool_f16", lambda a, b: a + b, ints(B), floats(F16))
    add("maximum_i16_f32", lambda a, b: torch.maximum(a, b), ints(I16), floats(F32))
    add("minimum_u8_i8", lambda a, b: torch.minimum(a, b), ints(U8), ints(I8))
    add("sub_i8_i64", lambda a, b: a - b, ints(I8), ints(I64))
    add("add_f32_f64", lambda a, b: a + b, floats(F32), floats(F64))
    add("mul_bf16_i32", lambda a, b: a * b, floats(BF16), ints(I32))
    add("add_u8_bool", lambda a, b: a + b, ints(U8), ints(B))
    add("chain_i8_f16_f32", lambda a, b, c: (a + b) * c, ints(I8), floats(F16), floats(F32))
    add("and_u8_i8", lambda a, b: a & b, ints(U8), ints(I8))
    add("broadcast_rows_f16_f32", lambda a, b: a + b, t([[0.5, 1.5, -2.0], [1.0, 2.0, 3.0]], F16),
        t([0.25, -1.0, 4.0], F32))
    # -- Python scalars on either side -----------------------------------------------------------
    add("add_i32_float_scalar", lambda a: a + 2.5, ints(I32))
    add("rmul_float_scalar_i8", lambda a: 2.5 * a, ints(I8))
    add("sub_u8_int_scalar", lambda a: a - 1, ints(U8))
    add("rsub_int_scalar_i16", lambda a: 3 - a, ints(I16))
    add("mul_f16_float_scalar", lambda a: a * 1.5, floats(F16))
    add("rsub_int_scalar_bf16", lambda a: 10 - a, floats(BF16))
    add("add_bool_int_scalar", lambda a: a + 1, ints(B))
    add("mul_bool_float_scalar", lambda a: a * 2.5, ints(B))
    add("add_i64_bool_scalar", lambda a: a + True, ints(I64))
    add("add_f16_int_scalar", lambda a: a + 1000, floats(F16))
    add("rsub_scalar_f64", lambda a: 0.1 - a, floats(F64))
    add("add_u8_scalar_300", lambda a: a + 300, ints(U8))
    add("pow_f16_int_scalar", lambda a: a ** 2, floats(F16))
    add("mul_i32_float_scalar_chain", lambda a: (a * 0.5 + 1) * 3, ints(I32))
    # -- 0-d tensors against n-d ones ----------------------------------------------------------------
    add("add_f16_zero_d_f32", lambda h, f: h + f, floats(F16), zero_d(0.1, F32))
    add("add_zero_d_f32_f16", lambda f, h: f + h, zero_d(0.1, F32), floats(F16))
    add("add_i8_zero_d_i64", lambda a, z: a + z, ints(I8), zero_d(5, I64))
    add("mul_i16_zero_d_f32", lambda a, z: a * z, ints(I16), zero_d(0.5, F32))
    add("sub_bf16_zero_d_f64", lambda a, z: a - z, floats(BF16), zero_d(0.3, F64))
    add("add_u8_zero_d_i32", lambda a, z: a + z, ints(U8), zero_d(3, I32))
    add("add_zero_d_f16_zero_d_f32", lambda a, b: a + b, zero_d(0.1, F16), zero_d(0.2, F32))
    add("add_i32_zero_d_bool", lambda a, z: a + z, ints(I32), zero_d(True, B))
    add("add_bool_zero_d_i64", lambda a, z: a + z, ints(B), zero_d(4, I64))
    add("max_f16_zero_d_f64", lambda a, z: torch.maximum(a, z), floats(F16), zero_d(1.0, F64))
    # -- expand: a 0-d tensor made dimensioned --------------------------------------------------------
    add("add_f16_expand_f32", lambda h, f: h + f.expand(4), floats(F16), zero_d(0.1, F32))
    add("eq_f16_expand_f32", lambda h, f: h == f.expand(4), t([0.1] * 4, F16), zero_d(0.1, F32))
    add("add_i8_expand_i64", lambda a, z: a + z.expand(4), ints(I8), zero_d(5, I64))
    add("mul_bf16_expand_f64", lambda a, z: a * z.expand(2, 4), floats(BF16), zero_d(0.3, F64))
    add("lt_i8_expand_i32", lambda a, z: a < z.expand(4), ints(I8), zero_d(6, I32))
    # -- integer true division --------------------------------------------------------------------
    add("div_i32_i32", lambda a, b: a / b, ints(I32), t([2, 4, -3, 8], I32))
    add("div_i64_int_scalar", lambda a: a / 2, ints(I64))
    # 7 / int16 (Tensor.__rtruediv__) is not here: torch-mlir cannot lower it ("only floating-point
    # datatype legalization supported for AtenReciprocalOp")
    add("rdiv_float_scalar_i16", lambda a: 7.0 / a.to(F32), ints(I16))
    add("div_u8_i8", lambda a, b: a / b, ints(U8), t([2, 4, -3, 8], I8))
    add("div_i32_f16", lambda a, b: a / b, ints(I32), t([2.0, 4.0, -3.0, 8.0], F16))
    add("floordiv_i16_scalar", lambda a: a // 3, ints(I16))
    add("rem_i32_scalar", lambda a: a % 3, ints(I32))
    add("rem_i32_i32", lambda a, b: a % b, ints(I32), t([2, 2, -3, 8], I32))
    # -- comparisons ----------------------------------------------------------------------------------
    add("lt_i8_u8", lambda a, b: a < b, ints(I8), ints(U8))
    add("eq_u8_i8", lambda a, b: a == b, t([200, 1, 7, 9], U8), t([-56, 1, 7, 8], I8))
    add("gt_f16_float_scalar", lambda a: a > 0.5, floats(F16))
    add("ge_i32_float_scalar", lambda a: a >= 2.5, ints(I32))
    add("eq_f16_zero_d_f32", lambda h, f: h == f, t([0.1] * 4, F16), zero_d(0.1, F32))
    add("eq_u8_zero_d_i64_300", lambda a, z: a == z, t([44, 1, 2, 3], U8), zero_d(300, I64))
    add("gt_bool_scalar", lambda a: a > 0, ints(B))
    add("eq_bool_scalar", lambda a: a == 0, ints(B))
    add("ne_i16_f32", lambda a, b: a != b, ints(I16), t([7.0, 1.0, 5.5, 100.0], F32))
    add("le_bf16_f16", lambda a, b: a <= b, floats(BF16), t([0.1, -2.0, 2.25, 4.0], F16))
    # -- comparisons against a 0-d value (issue 30), with values that tell the compared dtypes apart -------
    tell = t([0.1, 1 / 3, 2.0 ** 24 + 1], F32)
    add("eq_f32_zero_d_f64", lambda x, z: x == z, tell, zero_d(0.1, F64))
    add("eq_f32_expand_f64", lambda x, z: x == z.expand(3), tell, zero_d(0.1, F64))
    add("ne_f32_zero_d_f64_big", lambda x, z: x != z, tell, zero_d(2.0 ** 24 + 1, F64))
    add("gt_f32_zero_d_f64", lambda x, z: x > z, tell, zero_d(0.1, F64))
    add("lt_zero_d_f64_f32", lambda z, x: z < x, zero_d(1 / 3, F64), tell)
    add("eq_f32_float_scalar", lambda x: x == 0.1, tell)
    add("eq_i8_zero_d_i64_300", lambda x, z: x == z, t([44, 1, -3], I8), zero_d(300, I64))
    add("eq_i8_expand_i64_300", lambda x, z: x == z.expand(3), t([44, 1, -3], I8), zero_d(300, I64))
    add("where_f32_zero_d_f64", lambda c, x, z: torch.where(c, x, z), t([True, False, True], B), tell,
        zero_d(1 / 3, F64))
    add("where_f32_expand_f64", lambda c, x, z: torch.where(c, x, z.expand(3)), t([True, False, True], B), tell,
        zero_d(1 / 3, F64))
    add("clamp_f32_zero_d_f64", lambda x, z: torch.clamp(x, min=z), tell, zero_d(1 / 3, F64))
    add("clamp_f32_float_scalar", lambda x: torch.clamp(x, 1 / 3, 2.0 ** 24 + 1), tell)
    # -- where ------------------------------------------------------------------------------------------
    add("where_i32_float_scalar", lambda c, a: torch.where(c, a, 2.5), MASK, ints(I32))
    add("where_f16_f32", lambda c, a, b: torch.where(c, a, b), MASK, floats(F16), floats(F32))
    add("where_u8_i8", lambda c, a, b: torch.where(c, a, b), MASK, ints(U8), ints(I8))
    add("where_f16_zero_d_f32", lambda c, a, z: torch.where(c, a, z), MASK, floats(F16), zero_d(0.1, F32))
    add("where_i8_int_scalar", lambda c, a: torch.where(c, a, 0), MASK, ints(I8))
    # -- small nn modules in float16 / bfloat16 -------------------------------------------------------
    add("nn_linear_bf16", torch.nn.Linear(4, 3).to(BF16), floats(BF16).reshape(1, 4))
    add("nn_linear_relu_f16", torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU()).to(F16),
        floats(F16).reshape(1, 4))
    add("nn_mlp_bf16", torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2)).to(BF16),
        floats(BF16).reshape(1, 4))
    add("nn_embedding_bf16", torch.nn.Embedding(10, 4).to(BF16), t([[1, 3, 9]], I64))

    class Scaled(torch.nn.Module):
        def __init__(self, dtype):
            super().__init__()
            self.lin = torch.nn.Linear(4, 4).to(dtype)

        def forward(self, x, s):
            return self.lin(x) * 0.5 + s  # s: a 0-d float32 tensor

    add("nn_scaled_linear_f16_zero_d_f32", Scaled(F16), floats(F16).reshape(1, 4), zero_d(0.25, F32))

    class Mixed(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(4, 2).to(BF16)

        def forward(self, x, bias32):
            return self.lin(x) + bias32  # bf16 activations, float32 bias: float32

    add("nn_linear_bf16_plus_f32", Mixed(), floats(BF16).reshape(1, 4), t([0.5, -0.25], F32))
    add("nn_conv1d_f16", torch.nn.Conv1d(2, 2, 3).to(F16), t([[[0.1, 0.2, 0.3, 0.4, 0.5], [1.0, -1.0, 0.5, 0.25, 2.0]]], F16))
    return P


def _to_numpy(x: torch.Tensor) -> tuple[np.ndarray, str]:
    name = str(x.dtype).removeprefix("torch.")
    x = x.detach()
    if x.dtype == BF16:
        return x.view(torch.int16).numpy().view(np.uint16), name
    return x.numpy(), name


def record(arrays: dict[str, np.ndarray], name: str, inputs, outputs, entry: dict) -> None:
    """Put a program's inputs and eager's outputs in ``arrays`` (``NAME/in0``, ..., ``NAME/out0``, ...) and
    their dtypes in ``entry["inputs"]`` and ``entry["outputs"]``."""
    for which, values in (("in", inputs), ("out", outputs)):
        for i, x in enumerate(values):
            arrays[f"{name}/{which}{i}"], dtype = _to_numpy(x)
            entry[f"{which}puts"].append(dtype)


def main(out: Path) -> int:
    from torch_mlir import fx

    out.mkdir(parents=True, exist_ok=True)
    manifest = {"generator": "tools/torch_mlir_corpus.py", "torch": torch.__version__, "programs": {}}
    arrays: dict[str, np.ndarray] = {}
    failed = []
    for name, fn, inputs in programs():
        module = fn if isinstance(fn, torch.nn.Module) else _Wrap(fn)
        module.eval()
        oracle = Oracle()
        with torch.no_grad(), oracle:
            outputs = module(*inputs)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        try:
            with torch.no_grad():
                mlir = str(fx.export_and_import(module, *inputs, output_type="stablehlo"))
        except Exception as e:  # noqa: BLE001 - reported, and the program left out
            failed.append((name, f"{type(e).__name__}: {e}"))
            continue
        (out / f"{name}.mlir").write_text(mlir)
        entry = {"inputs": [], "outputs": [], "oracle": sorted(oracle.types),
                 "compare_pairs": sorted(list(pair) for pair in oracle.compare_pairs)}
        if oracle.explicit_conversions:
            entry["explicit_conversions"] = True
        record(arrays, name, inputs, outputs, entry)
        if name in TORCH_MLIR_WRONG:
            entry["torch_mlir_wrong"] = TORCH_MLIR_WRONG[name]
        manifest["programs"][name] = entry
    np.savez_compressed(out / "reference.npz", **arrays)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"{len(manifest['programs'])} programs written to {out}")
    for name, why in failed:
        print(f"not exported: {name}: {why}", file=sys.stderr)
    return 0


class _Wrap(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
