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
}


class Oracle(TorchFunctionMode):
    """Records ``torch.result_type`` of the operands of every promoting binary op eager runs."""

    BINARY = {"add", "sub", "mul", "div", "true_divide", "floor_divide", "remainder", "pow", "maximum",
              "minimum", "eq", "ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or", "bitwise_xor",
              "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
              "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__",
              "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__and__", "__or__", "__xor__"}

    def __init__(self) -> None:
        super().__init__()
        self.types: set[str] = set()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        operands = None
        if name in self.BINARY and len(args) >= 2:
            operands = args[0], args[1]
        elif name == "where" and len(args) == 3:
            operands = args[1], args[2]
        if operands is not None and all(isinstance(o, (torch.Tensor, bool, int, float)) for o in operands):
            a, b = operands
            mixed = not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a.dtype == b.dtype
                         and a.dim() == b.dim())
            if mixed:
                self.types.add(str(torch.result_type(a, b)).removeprefix("torch."))
        return func(*args, **(kwargs or {}))


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
        entry = {"inputs": [], "outputs": [], "oracle": sorted(oracle.types)}
        for i, x in enumerate(inputs):
            arrays[f"{name}/in{i}"], dtype = _to_numpy(x)
            entry["inputs"].append(dtype)
        for i, y in enumerate(outputs):
            arrays[f"{name}/out{i}"], dtype = _to_numpy(y)
            entry["outputs"].append(dtype)
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
