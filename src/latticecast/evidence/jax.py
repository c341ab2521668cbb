"""Evidence for the JAX policies: the design note's tables, the ``jax.lax`` erratum, and live JAX.

The seeds predate JAX's low-precision dtypes, so the measured tables carry them:
``tools/measure_jax_promotion.py`` asks JAX 0.10 (``jax.eval_shape``, nothing runs)
for every pair of its 32 dtypes and 3 Python scalars in each mode.
"""

from __future__ import annotations

from ..promotion.dtypes import DType
from . import Evidence, measured
from .seeds import seed_table

_MEASURED = {"jax": "jax_x64_add", "jax-x32": "jax_x32_add", "jax-strict": "jax_strict_add",
             "jax-lax": "jax_lax_add"}


def evidence(policy_name: str = "jax") -> Evidence:
    live = measured(_MEASURED[policy_name])
    if policy_name == "jax":
        return Evidence("jax", {"seed table design_jax_numpy": seed_table("design_jax_numpy")}, measured=live)
    if policy_name == "jax-lax":
        return Evidence(
            "jax-lax", {"seed table design_jax_lax": seed_table("design_jax_lax")},
            {(DType.bool, DType.bool): "the seed table was made with lax.add, which rejects bool operands; that "
                                       "is add's domain, not promotion: bool with bool is bool (lax.max, "
                                       "lax.bitwise_and accept it)"},
            measured=live, known_gaps={(DType.bool, DType.bool): "lax.add rejects bool operands (its domain, not "
                                                                 "promotion; see the erratum)"})
    return Evidence(policy_name, measured=live)
