"""Evidence for ``jax-lax``: the design note's ``jax.lax`` table and its one erratum."""

from __future__ import annotations

from ..dtypes import DType
from . import Evidence
from .seeds import seed_table


def evidence() -> Evidence:
    return Evidence(
        "jax-lax", {"seed table design_jax_lax": seed_table("design_jax_lax")},
        {(DType.bool, DType.bool): "the seed table was made with lax.add, which rejects bool operands; that is "
                                   "add's domain, not promotion: bool with bool is bool (lax.max, "
                                   "lax.bitwise_and accept it)"})
