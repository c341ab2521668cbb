"""Evidence for ``tensorflow``: the 2021 ``tf.add`` table, and the 20 cells where ``tf.add`` is not promotion.

The appendix table was measured with ``tf.add``, which differs from every other op,
and TensorFlow 2.21 still does: ``tf.add`` converts its first argument on its own
before looking at the second, so ``tf.add(0, uint8 tensor)`` fails, while
``tf.multiply``, ``tf.subtract``, ``tf.where`` and the ``+`` operator give ``uint8``;
and ``tf.add`` has no bool kernel, which is its domain, not promotion (``tf.where``
and ``tf.equal`` take two bool tensors).
"""

from __future__ import annotations

from ..promotion.dtypes import DType, Kind
from ..policies.lattices import TF_DTYPES
from ..policies.tensorflow import CONVERTS_TO as _CONVERTS_TO, default_of
from ..promotion.weak import PType, Weak
from . import Evidence, measured
from .seeds import seed_table

__all__ = ["PUBLISHED_TABLE_ERRATA", "evidence"]

_D = DType
_PY = {Kind.SIGNED: "int", Kind.FLOAT: "float", Kind.COMPLEX: "complex"}


def _errata() -> dict[tuple[PType, PType], tuple[PType | None, PType, str]]:
    seed_i, seed_f, seed_c = Weak(_D.int64), Weak(_D.float64), Weak(_D.complex128)  # the seed's labels
    cells: dict[tuple[PType, PType], tuple[PType | None, PType, str]] = {
        (_D.bool, _D.bool): (None, _D.bool,
                             "the table was made with tf.add, which has no bool kernel; that is add's "
                             "domain, not promotion: tf.where and tf.equal take two bool tensors"),
    }
    for w in (seed_i, seed_f, seed_c):
        alone = default_of(w.dtype.kind)
        for d in TF_DTYPES:  # the seed table's dtypes: TensorFlow's low-precision ones convert no scalar
            if d.is_low_precision:
                continue
            if d.kind in _CONVERTS_TO[w.dtype.kind] and d != alone:
                cells[(w, d)] = (None, d, (
                    f"tf.add converts a Python {_PY[w.dtype.kind]} first argument on its own (to {alone.name}) "
                    f"before it looks at the tensor; every other op (tf.multiply, tf.where, the + operator) "
                    f"converts it to the tensor's dtype, {d.name}, as tf.add does with a scalar second "
                    "(TensorFlow 2.21)"))
    return cells


PUBLISHED_TABLE_ERRATA: dict[tuple[PType, PType], tuple[PType | None, PType, str]] = _errata()
"""(row, column) in the seed table's labels -> (published, the policy's answer, why): the cells
where the tf.add table is not TensorFlow's promotion."""


def evidence(policy_name: str = "torch") -> Evidence:
    return Evidence("tensorflow", {"seed table design_tensorflow": seed_table("design_tensorflow")},
                    {cell: why for cell, (_, _, why) in PUBLISHED_TABLE_ERRATA.items()},
                    measured=measured("tensorflow_lowp_multiply"))
