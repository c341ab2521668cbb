"""Measure live JAX's promotion of every pair of its dtypes and Python scalars, as package data.

Run from the project root with the project's environment (JAX installed):

    .venv/bin/python tools/measure_jax_promotion.py [OUT_DIR]

Writes, to ``src/latticecast/evidence/measured/`` (or OUT_DIR):

* ``jax_x64_add.csv``: ``jnp.add`` with ``jax_enable_x64`` (policy ``jax``);
* ``jax_x32_add.csv``: ``jnp.add`` with x64 off, JAX's default (policy ``jax-x32``);
* ``jax_strict_add.csv``: ``jnp.add`` with ``jax_numpy_dtype_promotion='strict'`` (``jax-strict``);
* ``jax_lax_add.csv``: ``lax.add`` (``jax-lax``);
* ``jax_x64_true_divide.csv``, ``jax_x32_true_divide.csv``: ``jnp.true_divide``.

Nothing executes: each cell is ``jax.eval_shape`` of the op on ``ShapeDtypeStruct((2,), dtype)``
operands, a Python scalar operand (0, 0.0, 0j) being a constant of the traced function, so even the
dtypes XLA:CPU cannot run (float6) are measured. Each mode runs in a fresh process, so that the
configuration is set before JAX is imported. Adapted from /work/research/lowp/measure_jax.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measured_tables import OUT, PY_SCALARS, write_matrix  # noqa: E402

MODES = {  # name: (JAX_ENABLE_X64, JAX_NUMPY_DTYPE_PROMOTION, {file: op})
    "x64": ("1", "standard", {"jax_x64_add": "jnp.add", "jax_lax_add": "lax.add",
                              "jax_x64_true_divide": "jnp.true_divide"}),
    "x32": ("0", "standard", {"jax_x32_add": "jnp.add", "jax_x32_true_divide": "jnp.true_divide"}),
    "strict": ("1", "strict", {"jax_strict_add": "jnp.add"}),
}
SCALARS = ("i*", "f*", "c*")


def dtype_names() -> list[str]:
    """Every dtype of ``jax.numpy``, in the order of JAX's lattice."""
    import jax.numpy as jnp

    names = ["bool", "uint1", "uint2", "uint4", "uint8", "uint16", "uint32", "uint64",
             "int1", "int2", "int4", "int8", "int16", "int32", "int64",
             "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn", "float8_e3m4", "float8_e4m3", "float8_e8m0fnu",
             "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
             "bfloat16", "float16", "float32", "float64", "complex64", "complex128"]
    return [n for n in names if n == "bool" or hasattr(jnp, n)]


def worker(mode: str) -> None:
    import warnings

    import jax
    import jax.numpy as jnp
    from jax import lax

    ops = {"jnp.add": jnp.add, "lax.add": lax.add, "jnp.true_divide": jnp.true_divide}
    labels = dtype_names() + list(SCALARS)

    def cell(fn, a: str, b: str) -> str | None:
        args, spec = [], []
        for n in (a, b):
            if n in SCALARS:
                spec.append(("const", PY_SCALARS[n]))
            else:
                spec.append(("arg", len(args)))
                args.append(jax.ShapeDtypeStruct((2,), jnp.dtype(bool if n == "bool" else getattr(jnp, n))))

        def f(*xs):
            return fn(*(v if k == "const" else xs[v] for k, v in spec))

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # x64-off truncation warnings are part of what we measure
            try:
                out = jax.eval_shape(f, *args)
            except (TypeError, jax.dtypes.TypePromotionError):
                return None
        return out.dtype.name + ("*" if out.weak_type else "")

    result = {file: {f"{a},{b}": cell(ops[op], a, b) for a in labels for b in labels}
              for file, op in MODES[mode][2].items()}
    json.dump({"labels": labels, "jax": jax.__version__, "tables": result}, sys.stdout)


def main(out: Path) -> None:
    for mode, (x64, promotion, files) in MODES.items():
        env = dict(os.environ, JAX_ENABLE_X64=x64, JAX_NUMPY_DTYPE_PROMOTION=promotion, JAX_PLATFORMS="cpu")
        proc = subprocess.run([sys.executable, __file__, "--worker", mode], env=env, capture_output=True,
                              text=True, check=False)
        if proc.returncode:
            sys.stderr.write(proc.stderr)
            raise SystemExit(f"measuring JAX in mode {mode} failed")
        data = json.loads(proc.stdout)
        labels = data["labels"]
        for file, op in files.items():
            cells = data["tables"][file]
            comment = (f"notation: names (Python scalars b* i* f* c*; a trailing * on a result: weakly typed)\n"
                       f"measured: {op} in jax {data['jax']} (jax_enable_x64={x64}, "
                       f"jax_numpy_dtype_promotion={promotion}) via jax.eval_shape\n"
                       f"tool: tools/measure_jax_promotion.py (rows: lhs, columns: rhs; '-': JAX refused)")
            write_matrix(file, labels, labels, lambda a, b: cells[f"{a},{b}"], comment, out)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
