"""Measure what NumPy and ``ml_dtypes`` say about each host dtype, and write it as data.

    python tools/measure_dtype_facts.py            # print src/latticecast/promotion/dtype_facts.py as measured now
    python tools/measure_dtype_facts.py --write    # rewrite that file
    python tools/measure_dtype_facts.py --check    # exit 1, naming each cell, where the file and the live libraries differ

latticecast's dtype table (:mod:`latticecast.promotion.dtypes`) needs, for every dtype, the width,
range and precision its host dtype has, and what converting an infinity or a NaN into it gives. They
used to be read from ``ml_dtypes.finfo`` each time the table was built, which loaded ``ml_dtypes`` (and
took a fifth of a small ``latticecast-opt`` run's start-up over importing jaxlib's MLIR). They are now
data, measured here and nowhere else: ``tests/test_dtype_facts.py`` calls :func:`measure` and compares
every cell with the file, so an ``ml_dtypes`` that changes a fact fails a test instead of going unseen.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import ml_dtypes
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "src" / "latticecast" / "promotion" / "dtype_facts.py"
sys.path.insert(0, str(ROOT / "src"))

from latticecast.promotion.dtype_facts import HostFacts  # noqa: E402  (the record's one home)
from latticecast.promotion.dtypes import DType, host_dtype  # noqa: E402  (how a name becomes a dtype: one home)

HOSTS = tuple(dict.fromkeys(d.info.host_name for d in DType))
"""Every host dtype latticecast's dtypes are stored as, by NumPy's (or ml_dtypes') name, in the dtype
table's order (the table names them; this script measures them)."""


def _converted(value: float, host: np.dtype) -> float:
    with warnings.catch_warnings(), np.errstate(over="ignore", invalid="ignore"):
        warnings.simplefilter("ignore")  # complex -> float drops the imaginary part
        return float(np.array(value).astype(host).astype(np.complex128).real)


def measure(name: str) -> HostFacts:
    """What the installed NumPy and ``ml_dtypes`` say about the host dtype ``name``.

    Args:
        name: One of :data:`HOSTS`.

    Returns:
        Its facts: ``finfo`` for floats (of the real part, for complex), ``iinfo`` for integers, and for
        floats what converting an infinity gives (``"inf"``, ``"nan"``, or ``"max"`` for a type that
        saturates) and whether converting a NaN gives one.

    Example:
        >>> measure("float8_e4m3fn").max_finite
        448.0
    """
    host = host_dtype(name)
    if host.kind == "b":
        return HostFacts(bits=1, itemsize=host.itemsize, max_finite=1, min_finite=0)
    if host.kind in "iu" or name.startswith(("int", "uint")):
        iinfo = ml_dtypes.iinfo(host)
        return HostFacts(bits=int(iinfo.bits), itemsize=host.itemsize, max_finite=int(iinfo.max),
                         min_finite=int(iinfo.min))
    finfo = ml_dtypes.finfo(host) if host.kind != "c" else np.finfo(host)
    inf = _converted(np.inf, host)
    return HostFacts(bits=8 * host.itemsize if host.kind == "c" else int(finfo.bits), itemsize=host.itemsize,
                     mantissa_bits=int(finfo.nmant), exponent_bits=int(finfo.nexp), max_finite=float(finfo.max),
                     min_finite=float(finfo.min), smallest_subnormal=float(finfo.smallest_subnormal),
                     overflow="inf" if np.isinf(inf) else "nan" if np.isnan(inf) else "max",
                     has_nan=bool(np.isnan(_converted(np.nan, host))))


def render() -> str:
    """The text of ``dtype_facts.py`` as the installed libraries give it."""
    current = TARGET.read_text(encoding="utf-8")
    head = current[:current.index(_START) + len(_START)]
    rows = "".join(f"    {name!r}: {measure(name)!r},\n" for name in HOSTS)
    versions = f"MEASURED_WITH = {{'numpy': {np.__version__!r}, 'ml_dtypes': {ml_dtypes.__version__!r}}}\n"
    return head + "\n" + versions + "\nFACTS: dict[str, HostFacts] = {\n" + rows + "}\n"


_START = "# -- measured by tools/measure_dtype_facts.py; do not edit below --"


def differences() -> list[str]:
    """Each cell where the file and the installed libraries differ, named."""
    from latticecast.promotion.dtype_facts import FACTS

    found = []
    for name in HOSTS:
        live, kept = measure(name), FACTS.get(name)
        if kept is None:
            found.append(f"{name}: missing from the file")
            continue
        for field in HostFacts._fields:
            if getattr(live, field) != getattr(kept, field):
                found.append(f"{name}.{field}: the file says {getattr(kept, field)!r}, "
                             f"the installed libraries {getattr(live, field)!r}")
    found += [f"{name}: in the file, not measured" for name in FACTS if name not in HOSTS]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help=f"rewrite {TARGET.relative_to(ROOT)}")
    group.add_argument("--check", action="store_true", help="exit 1 where the file and the libraries differ")
    args = parser.parse_args(argv)
    if args.check:
        found = differences()
        for line in found:
            print(line)
        return 1 if found else 0
    text = render()
    if args.write:
        TARGET.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
