"""The main job of the README: ``latticecast demo``.

Shows the promotion layer at work: MAX's question from its docs (what is
``int16 + float32``?) answered under several policies, the cells where they
disagree, and the JAX lattice that generates JAX's table.
"""

from __future__ import annotations

import argparse

from . import policy
from .dtypes import DType
from .errors import PromotionError

__all__ = ["main"]

_QUESTIONS = [(DType.int16, DType.float32), (DType.int8, DType.uint64), (DType.int32, DType.float16),
              (DType.bfloat16, DType.float16), (DType.uint32, DType.int32)]
_POLICIES = ["jax", "jax-x32", "max", "numpy", "torch", "array-api", "jax-strict"]


def _answer(policy_name: str, a: DType, b: DType) -> str:
    p = policy(policy_name)
    try:
        return p.type_name(p.promote_types(a, b))
    except PromotionError:
        return "error"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="latticecast demo", description=__doc__)
    parser.parse_args(argv)
    names = [n for n in _POLICIES]
    print("What dtype does x + y have?  (one row per pair, one column per policy)\n")
    width = 11
    print(" " * 22 + "".join(n.rjust(width) for n in names))
    for a, b in _QUESTIONS:
        print(f"{a.name:>9} + {b.name:<10}" + "".join(_answer(n, a, b).rjust(width) for n in names))
    jax = policy("jax")
    print("\nJAX's lattice (the DAG that generates its 18x18 table):")
    for src, dsts in jax.lattice.hasse_edges().items():
        if dsts:
            print(f"  {jax.type_name(src):>5} -> {', '.join(jax.type_name(d) for d in dsts)}")
    print("\n" + jax.explain(DType.int8, DType.uint64))
    return 0
