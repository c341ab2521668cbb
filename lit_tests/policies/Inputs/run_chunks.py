"""Run each chunk of a lit test's output on the CPU and print its results, for FileCheck.

    %python run_chunks.py SOURCE.mlir PASSED.mlir

``SOURCE.mlir`` is the test file (cut at ``// -----``): each chunk names its function's arguments in
``// ARG: NAME DTYPE VALUES`` lines (``VALUES`` a Python literal, a number for a 0-d argument).
``PASSED.mlir`` is what ``latticecast-opt --split-input-file`` printed for it, chunk for chunk. Each
chunk's function is compiled with ``latticecast.compile`` and called with those arguments; the
printed line is ``@NAME: RESULTS`` (each result as a Python list, or a scalar).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import numpy as np

import latticecast as lc
from latticecast import DType

SEPARATOR = re.compile(r"^// -----\s*$", re.M)
ARG = re.compile(r"^\s*// ARG: (\w+) (\w+) (.+)$", re.M)
FUNC = re.compile(r"func\.func (?:public )?@(\w+)")


def arguments(chunk: str) -> list[np.ndarray]:
    return [np.asarray(ast.literal_eval(values), DType.parse(dtype).np_dtype)
            for _, dtype, values in ARG.findall(chunk)]


def main(source: Path, passed: Path) -> int:
    sources = SEPARATOR.split(source.read_text())
    modules = SEPARATOR.split(passed.read_text())
    if len(sources) != len(modules):
        print(f"{source} has {len(sources)} chunks, {passed} {len(modules)}", file=sys.stderr)
        return 1
    for text, module in zip(sources, modules):
        name = FUNC.search(module)
        if name is None:
            continue
        renamed = module.replace(f"@{name[1]}(", "@main(", 1)
        results = lc.compile(renamed)(*arguments(text))
        shown = ", ".join(str(np.asarray(r).tolist()) for r in results)
        print(f"@{name[1]}: {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
