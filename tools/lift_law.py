#!/usr/bin/env python3
"""The lift's law, ``implicit-cast(lift(M, p), p) == M``, counted over a directory of modules or the
JAX corpus.

Usage::

    python tools/lift_law.py DIR [--policy torch]     # every DIR/*.mlir (e.g. tests/data/torch_mlir, or
                                                      # tools/torch_mlir_e2e.py's --keep DIR)
    python tools/lift_law.py jax                      # tests/jax_corpus.py's programs, with and without locations

Prints JSON: the modules, how many the law holds for (and the first that fail), the ones refused with
a latticecast error, and what was lifted (converts, weak literals, modules with anything lifted).
Each module is compared with itself parsed and printed (so the printer's spelling is not a difference).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def modules(which: str, policy: str) -> list[tuple[str, str, str, bool]]:
    """(name, text, policy, with locations) for each module."""
    if which == "jax":
        sys.path.insert(0, str(ROOT / "tests"))
        import jax_corpus as jc

        out = []
        for p in jc.programs():
            for mode in p.modes:
                low = jc.lower(p, mode)
                out.append((f"{p.name}[{mode}]", low.text, low.policy, False))
                out.append((f"{p.name}[{mode}]+loc", low.text_debug, low.policy, True))
        return out
    return [(f.stem, f.read_text(), policy, False) for f in sorted(Path(which).glob("*.mlir"))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("which", help="a directory of .mlir files, or 'jax' for the JAX corpus")
    ap.add_argument("--policy", default="torch", help="the policy that wrote the directory's modules")
    args = ap.parse_args()
    from latticecast.dialect_utils.context import make_context
    from latticecast.dialect_utils.parsing import parse_module
    from latticecast.errors import LatticecastError
    from latticecast.passes import LiftOptions, run_lift, run_pipeline

    holds, fails, refused = 0, [], []
    lifted = literals = with_lifts = 0
    items = modules(args.which, args.policy)
    for name, text, pol, debug in items:
        try:
            module = parse_module(text, make_context(lenient=True), lenient=True)
            original = str(module.operation.get_asm(enable_debug_info=debug))
            result = run_lift(module, LiftOptions(policy=pol))
            run_pipeline(module, f"builtin.module(implicit-cast{{policy={pol}}})")
            again = str(module.operation.get_asm(enable_debug_info=debug))
        except LatticecastError as e:
            refused.append((name, str(e)[:300]))
            continue
        lifted += result.lifted
        literals += result.literals
        with_lifts += bool(result.lifted or result.literals)
        if again == original:
            holds += 1
        else:
            fails.append(name)
    print(json.dumps({"modules": len(items), "law holds": holds, "law fails": len(fails), "first failing": fails[:15],
                      "refused": len(refused), "first refused": refused[:5], "converts lifted": lifted,
                      "weak literals": literals, "modules with something lifted": with_lifts}, indent=1))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
