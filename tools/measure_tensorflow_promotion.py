"""Measure live TensorFlow on its low-precision dtypes, as package data.

Run with an interpreter that has TensorFlow (it needs nothing from latticecast):

    TF_CPP_MIN_LOG_LEVEL=3 /work/venvs/tf/bin/python tools/measure_tensorflow_promotion.py [OUT_DIR]

Writes ``tensorflow_lowp_multiply.csv`` to ``src/latticecast/evidence/measured/`` (or OUT_DIR): rows are
TensorFlow's low-precision dtypes (``tf.dtypes.experimental``: float8, float4, int4, int2 and their
unsigned forms) and Python scalars (``i*`` 0, ``f*`` 0.0, ``c*`` 0j); columns are every TensorFlow dtype
latticecast has and the Python scalars; a cell is the dtype of ``tf.math.multiply(lhs, rhs)`` (2-element
tensors built from ml_dtypes arrays), ``-`` where TensorFlow raises. The classic dtypes' promotion is the
seed's table (see latticecast.evidence.tensorflow); this measures what the seed could not: the new types.
Adapted from /work/research/lowp/measure_tf.py.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measured_tables import OUT, PY_SCALARS, write_matrix  # noqa: E402

CLASSIC = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "bfloat16", "float16",
           "float32", "float64", "complex64", "complex128"]
LOW = ["float8_e3m4", "float8_e4m3", "float8_e8m0fnu", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
       "float8_e5m2", "float8_e5m2fnuz", "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn",
       "int1", "int2", "int4", "uint1", "uint2", "uint4"]
SCALARS = ("i*", "f*", "c*")


def low_dtypes() -> list[str]:
    """The low-precision dtypes this TensorFlow has (as ``tf.dtypes.experimental.<name>``)."""
    return [n for n in LOW if hasattr(tf.dtypes.experimental, n)]


def _operand(label: str):
    if label in SCALARS:
        return PY_SCALARS[label]
    if label in CLASSIC:
        return tf.zeros(2, dtype=getattr(tf, label))
    return tf.constant(np.zeros(2, getattr(ml_dtypes, label)))


def multiply(a: str, b: str) -> str | None:
    try:
        return tf.math.multiply(_operand(a), _operand(b)).dtype.name
    except (TypeError, ValueError, tf.errors.InvalidArgumentError, tf.errors.NotFoundError,
            tf.errors.UnimplementedError):
        return None


def main(out: Path) -> None:
    low = low_dtypes()
    write_matrix("tensorflow_lowp_multiply", low + list(SCALARS), CLASSIC + low + list(SCALARS), multiply,
                 "notation: names (Python scalars i* f* c*)\n"
                 f"measured: tf.math.multiply in tensorflow {tf.__version__} (eager, CPU); TensorFlow lacks "
                 f"{', '.join(n for n in LOW if n not in low)}\n"
                 "tool: tools/measure_tensorflow_promotion.py (rows: lhs, columns: rhs; '-': TensorFlow refused)", out)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
