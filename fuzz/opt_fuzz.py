"""A mutation fuzzer for ``latticecast-opt``, seeded from ``lit_tests/``.

    python -m fuzz.opt_fuzz --seed 1 --iterations 2000 --time-limit 600 --jobs 2 --out fuzz-out

Every input runs in a process of its own (``latticecast-opt`` through
``subprocess``), so a crash or a hang is observed, not suffered. Inputs are made
from the lit tests by stacking one to four mutations (byte flips, type and op
swaps, number changes, line edits, splices of two seeds, injected constructs:
deep region nesting, ``// -----`` markers, ``latticecast.weak`` markers,
``expected-*`` comments, bytes that are not UTF-8, very long lines, unregistered
ops, ``func.func`` nested in ops) or synthesised from scratch (mixed-dtype
programs with weak constants). The command line gets random flags.

Oracles (each a class of finding, see ``fuzz/README.md``):

``signal``          the tool died by a signal (SIGSEGV, SIGABRT, ...)
``traceback``       a Python traceback on stderr
``timeout``         no answer within ``--timeout`` seconds (SIGABRT is then sent, so that
                    the faulthandler prints where it was)
``accepts-invalid`` exit 0, no implicit-cast in the pipeline, but MLIR's own parser and
                    verifier (jaxlib, unregistered dialects *not* allowed) reject the input
                    for a reason other than an unregistered dialect
``unverified-output`` exit 0 but the printed output does not parse and verify with jaxlib
``diagnostic-format`` a stderr line that is not one diagnostic (``file:line:col: severity:``
                    or ``latticecast-opt: error:``): unlocated errors, multi-line errors,
                    stray output, a line number past the end of the input
``rejects-valid``   exit 1 without implicit-cast although jaxlib parses, verifies (and runs
                    the same upstream pipeline on) the input
``roundtrip-mismatch`` exit 0 without implicit-cast, but the output differs from what
                    jaxlib prints after parsing the input (and running the same pipeline)
``accepts-invalid-pipeline`` exit 0 with a ``--pass-pipeline`` (without implicit-cast) that
                    jaxlib's ``PassManager.parse`` rejects
``internal-error``  a diagnostic that reports an internal error (an exception caught
                    inside the tool and printed as "internal error: ...")
``pass-broke-ir``   exit 1 with implicit-cast, and the error is one that only IR the pass
                    made can have (a dominance error at a convert or reduce_precision; a
                    verifier error at such an op when the input has none)

The run is deterministic for a fixed seed: input ``i`` depends only on the seed, ``i``
and the corpus, which grows between fixed batches of inputs in iteration order (so
``--jobs`` does not change what runs). Findings are deduplicated by (oracle, pattern
of the first relevant stderr line), minimised (line-level delta debugging that keeps
brackets balanced, then flag removal) and saved to ``--out``.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import random
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

__all__ = ["Finding", "RunResult", "Case", "run", "main", "generate_case", "load_seeds", "execute"]

ROOT = Path(__file__).resolve().parent.parent
LIT_DIR = ROOT / "lit_tests"
DEFAULT_TIMEOUT = 20.0
BATCH = 8  # corpus updates happen between batches of this many inputs, whatever --jobs is
MAX_CORPUS_ADDITIONS = 400
MAX_CORPUS_INPUT = 64 * 1024


def _opt_command() -> list[str]:
    """How to start ``latticecast-opt``: $LATTICECAST_OPT, the console script next to this
    Python, the project's venv, else ``python -m latticecast.cli.opt``."""
    env = os.environ.get("LATTICECAST_OPT")
    if env:
        return shlex.split(env)
    for candidate in (Path(sys.executable).parent / "latticecast-opt", ROOT / ".venv" / "bin" / "latticecast-opt"):
        if candidate.exists():
            return [str(candidate)]
    found = shutil.which("latticecast-opt")
    if found:
        return [found]
    return [sys.executable, "-m", "latticecast.cli.opt"]


def _worker_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"JAX_PLATFORMS": "cpu", "TF_CPP_MIN_LOG_LEVEL": "1", "PYTHONFAULTHANDLER": "1",
                "PYTHONDONTWRITEBYTECODE": "1"})
    return env


# --------------------------------------------------------------------------------------
# Seeds
# --------------------------------------------------------------------------------------

_DIRECTIVE = re.compile(r"^\s*//\s*(RUN|[A-Z][A-Z0-9_]*(-[A-Z]+)*)\s*:")
_SPLIT_LINE = re.compile(r"^\s*// -----")


def load_seeds(lit_dir: Path = LIT_DIR) -> list[bytes]:
    """The lit tests without their RUN and CHECK lines (``expected-*`` comments and ``// -----``
    stay), whole and chunk by chunk, deduplicated, in a fixed order."""
    seeds: list[bytes] = []
    seen: set[bytes] = set()

    def add(text: str) -> None:
        data = text.strip("\n").encode() + b"\n"
        if data.strip() and data not in seen:
            seen.add(data)
            seeds.append(data)

    for path in sorted(lit_dir.rglob("*.mlir")):
        lines = [line for line in path.read_text(encoding="utf-8").split("\n") if not _DIRECTIVE.match(line)]
        add("\n".join(lines))
        chunk: list[str] = []
        for line in lines + ["// -----"]:
            if _SPLIT_LINE.match(line):
                if any(l.strip() and not l.strip().startswith("//") for l in chunk):
                    add("\n".join(chunk))
                chunk = []
            else:
                chunk.append(line)
    if not seeds:
        seeds.append(b"func.func @f(%a: tensor<4xi16>, %b: tensor<4xf32>) -> tensor<4xf32> {\n"
                     b"  %0 = \"stablehlo.add\"(%a, %b) : (tensor<4xi16>, tensor<4xf32>) -> tensor<4xf32>\n"
                     b"  return %0 : tensor<4xf32>\n}\n")
    return seeds


# --------------------------------------------------------------------------------------
# Mutations (on text: bytes decoded with surrogateescape, so that bytes that are not UTF-8 survive)
# --------------------------------------------------------------------------------------

ELEMENT_TYPES = ["i8", "ui8", "i16", "f16", "bf16", "f32", "f64", "complex<f32>", "i1", "index", "tf32",
                 "tensor<?xf32>", "i32", "i64", "ui16", "ui32", "ui64", "complex<f64>", "f8E4M3FN", "si8",
                 "!latticecast.address", "none", "i4", "i128"]
WHOLE_TYPES = ["tensor<?xf32>", "tensor<4xi8>", "tensor<i1>", "tensor<*xf32>", "tensor<0xf16>",
               "tensor<2x3xcomplex<f32>>", "tensor<4xindex>", "tensor<4xtf32>", "tensor<4x!latticecast.address>",
               "tensor<18446744073709551615xi8>", "tensor<4xbf16>", "tensor<f64>", "i32", "f32", "index",
               "tensor<4xui64>", "tuple<tensor<4xf32>>", "!stablehlo.token", "memref<4xf32>", "vector<4xf32>"]
OP_NAMES = ["add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "atan2", "and",
            "or", "xor", "not", "shift_left", "shift_right_arithmetic", "shift_right_logical", "compare", "select",
            "clamp", "dot", "dot_general", "complex", "convert", "constant", "negate", "abs", "exponential", "log",
            "sqrt", "rsqrt", "tanh", "reshape", "broadcast_in_dim", "transpose", "reduce", "while", "if", "case",
            "return", "concatenate", "slice", "iota", "real", "imag", "bitcast_convert", "reduce_precision",
            "custom_call", "tuple", "get_tuple_element", "sort", "floor", "ceil", "sign", "round_nearest_even"]
FULL_OP_NAMES = ([f"stablehlo.{n}" for n in OP_NAMES]
                 + ["unchecked.add", "unchecked.compare", "chlo.broadcast_add", "func.return", "func.call",
                    "foo.bar", "scf.yield", "arith.addi", "builtin.module", "func.func", "latticecast.weak"])
NUMBERS = ["0", "-1", "1", "-0.0", "2147483648", "9223372036854775807", "9223372036854775808",
           "18446744073709551616", "-9223372036854775809", "100000000000000000000000000000000000000",
           "1e308", "1e400", "-1e400", "3.5", "0x7FFFFFFF", "0xFFFFFFFFFFFFFFFFFF", "65504", "65520", "256",
           "255", "-129", "1.0e-45", "nan", "inf", "4294967296", "999999999999"]
INT_LITERALS = ["0", "1", "-1", "3", "7", "127", "128", "255", "256", "1000", "-129", "32767", "65535", "65536",
                "2147483647", "2147483648", "4294967296", "9223372036854775807", "-9223372036854775808",
                "18446744073709551615"]
FLOAT_LITERALS = ["0.5", "0.25", "1.5", "-2.5", "1.0e+30", "6.550400e+04", "65520.0", "1.0e-08", "3.4028235e+38",
                  "1.0e+300", "0x7FF0000000000000", "0x7FF8000000000000", "-0.0"]

_TYPE_TOKEN = re.compile(
    r"(?:(?<=\dx)|(?<=\?x)|(?<=<)|(?<![\w.%@#!^$]))"
    r"(complex<f(?:32|64)>|ui(?:8|16|32|64)|si(?:8|16|32|64)|i(?:1|8|16|32|64)|f(?:16|32|64)|bf16|tf32|index)(?!\w)")
_WHOLE_TYPE = re.compile(r"tensor<[^<>\n]*(?:<[^<>\n]*>)?[^<>\n]*>")
_OP_TOKEN = re.compile(r"(?<=[\"\s])(?:stablehlo|chlo|unchecked|func)\.\w+")
_NUMBER = re.compile(r"(?<![\w#%@^.$-])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\w.])")
_SSA_NUMBER = re.compile(r"%\d+")
_GENERIC_SIG = re.compile(r"\)\s*(<\{.*\}>\s*)?:\s*\(")
_RETURN_LINE = re.compile(r"^\s*(return|func\.return|\"func\.return\"|stablehlo\.return)\b")
_FUNC_ARGS = re.compile(r"func\.func\s+(?:public\s+|private\s+)?@[\w$.]+\((.*?)\)\s*(?:->|\{|attributes)")


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _pick_match(rng: random.Random, pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    matches = list(pattern.finditer(text))
    return rng.choice(matches) if matches else None


def _replace_match(text: str, m: re.Match[str], new: str) -> str:
    return text[:m.start()] + new + text[m.end():]


def m_byte_flip(rng: random.Random, data: bytes, ctx: "GenContext") -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


def m_byte_insert(rng: random.Random, data: bytes, ctx: "GenContext") -> bytes:
    i = rng.randint(0, len(data))
    ins = rng.choice([bytes([rng.randrange(256)]), b"{", b"}", b"(", b")", b"<", b">", b"\"", b"%", b"@", b"^",
                      b":", b",", b"\n", b"#", b"!", b"loc(", b"dense<", b"0x", b"\\", b"//"])
    return data[:i] + ins + data[i:]


def m_byte_delete(rng: random.Random, data: bytes, ctx: "GenContext") -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    n = rng.choice([1, 1, 1, 2, 4, 16])
    return data[:i] + data[i + n:]


def m_swap_type(rng: random.Random, text: str, ctx: "GenContext") -> str:
    if rng.random() < 0.25:
        m = _pick_match(rng, _WHOLE_TYPE, text)
        return _replace_match(text, m, rng.choice(WHOLE_TYPES)) if m else text
    m = _pick_match(rng, _TYPE_TOKEN, text)
    if not m:
        return text
    new = rng.choice(ELEMENT_TYPES)
    if rng.random() < 0.3:  # the same type everywhere it is written
        old = m.group(0)
        return re.sub(r"(?:(?<=\dx)|(?<=\?x)|(?<=<)|(?<![\w.%@#!^$]))" + re.escape(old) + r"(?!\w)", new, text)
    return _replace_match(text, m, new)


def m_swap_op(rng: random.Random, text: str, ctx: "GenContext") -> str:
    m = _pick_match(rng, _OP_TOKEN, text)
    return _replace_match(text, m, rng.choice(FULL_OP_NAMES)) if m else text


def m_number(rng: random.Random, text: str, ctx: "GenContext") -> str:
    pattern = _SSA_NUMBER if rng.random() < 0.05 else _NUMBER
    m = _pick_match(rng, pattern, text)
    if not m:
        return text
    new = rng.choice(NUMBERS)
    if pattern is _SSA_NUMBER:
        new = "%" + str(rng.choice([0, 99, 2 ** 31, 2 ** 64]))
    return _replace_match(text, m, new)


def m_dup_line(rng: random.Random, text: str, ctx: "GenContext") -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    n = rng.choice([1, 1, 2, 5, 50])
    lines[i:i] = [lines[i]] * n
    return "\n".join(lines)


def m_del_line(rng: random.Random, text: str, ctx: "GenContext") -> str:
    lines = _lines(text)
    if len(lines) <= 1:
        return text
    i = rng.randrange(len(lines))
    del lines[i:i + rng.choice([1, 1, 1, 2, 3])]
    return "\n".join(lines)


def m_swap_lines(rng: random.Random, text: str, ctx: "GenContext") -> str:
    lines = _lines(text)
    if len(lines) < 2:
        return text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def m_splice(rng: random.Random, text: str, ctx: "GenContext") -> str:
    other = _lines(ctx.other_seed(rng).decode("utf-8", "surrogateescape"))
    lines = _lines(text)
    if rng.random() < 0.5:  # prefix of one, suffix of the other
        return "\n".join(lines[:rng.randint(0, len(lines))] + other[rng.randint(0, len(other)):])
    # insert a slice of the other
    a = rng.randrange(len(other))
    b = min(len(other), a + rng.randint(1, 12))
    i = rng.randint(0, len(lines))
    return "\n".join(lines[:i] + other[a:b] + lines[i:])


def m_append_seed(rng: random.Random, text: str, ctx: "GenContext") -> str:
    other = ctx.other_seed(rng).decode("utf-8", "surrogateescape")
    sep = rng.choice(["\n", "\n// -----\n"])
    return text.rstrip("\n") + sep + other


def _insert_before_return(rng: random.Random, text: str, snippet: str) -> str:
    lines = _lines(text)
    spots = [i for i, line in enumerate(lines) if _RETURN_LINE.match(line)]
    i = rng.choice(spots) if spots else rng.randint(0, len(lines))
    lines[i:i] = snippet.split("\n")
    return "\n".join(lines)


_DEF_USE = re.compile(r"^(\s*)(%[\w$.-]+) = (\"[\w.]+\"\()(%[\w$.-]+)", re.M)


def m_self_reference(rng: random.Random, text: str, ctx: "GenContext") -> str:
    """An op that uses its own result (or a later value): a forward reference the parser accepts
    and only the verifier's dominance check rejects, so the pass sees it first."""
    m = _pick_match(rng, _DEF_USE, text)
    if not m:
        return text
    return text[:m.start(4)] + m.group(2) + text[m.end(4):]


def m_split_markers(rng: random.Random, text: str, ctx: "GenContext") -> str:
    lines = _lines(text)
    for _ in range(rng.choice([1, 1, 2, 5])):
        lines.insert(rng.randint(0, len(lines)), rng.choice(["// -----", "  // -----", "// ------", "// -----x",
                                                               "//-----", "// ----- // -----"]))
    return "\n".join(lines)


def m_many_split_markers(rng: random.Random, text: str, ctx: "GenContext") -> str:
    """Many chunks (--split-input-file's cost per chunk)."""
    n = rng.choice([200, 1000, 4000, 12000, 32000])
    unit = rng.choice(["func.func @f() {\n  return\n}", "", "// comment"])
    return text.rstrip("\n") + "\n" + "\n// -----\n".join([unit] * n) + "\n"


_WEAK_CONST = re.compile(r"stablehlo\.constant(?=\s+dense)")


def m_weak(rng: random.Random, text: str, ctx: "GenContext") -> str:
    """``latticecast.weak`` on a random op (generic form: in its attribute dictionary;
    a pretty constant: before its value) or on a function argument."""
    choice = rng.random()
    if choice < 0.4:
        m = _pick_match(rng, _WEAK_CONST, text)
        if m:
            return text[:m.end()] + " {latticecast.weak}" + text[m.end():]
    if choice < 0.8:
        m = _pick_match(rng, _GENERIC_SIG, text)
        if m:
            attr = rng.choice(["{latticecast.weak}", "{latticecast.weak = 1 : i32}", "{latticecast.weak = unit}",
                               "{latticecast.weak, latticecast.weak}", "{\"latticecast.weak\"}"])
            colon = text.index(":", m.start())
            return text[:colon] + attr + " " + text[colon:]
    m = _pick_match(rng, re.compile(r"%\w+: tensor<[^>]*>(?=[,)])"), text)
    if m:
        return text[:m.end()] + " {latticecast.weak}" + text[m.end():]
    return text


EXPECTATIONS = ["// expected-error {{op}}", "// expected-error@+1 {{no implicit promotion}}",
                "// expected-error@-1 {{}}", "// expected-warning@above {{x}}", "// expected-remark-re {{[[}}",
                "// expected-error@+99999999999999999999 {{x}}", "// expected-note@below {{",
                "// expected-error-re {{.*}}", "// expected-error@+1 {{{{[}}}}", "// expected-error-re {{(}}",
                "// expected-error@-100 {{a}}", "// expected-warning {{lossy}}", "// expected-error@#tag {{x}}",
                "// expected-error@+0 {{'stablehlo.add' op}}", "// expected-error@ {{x}}", "// expected-error {{",
                "// expected-remark@+1 {{promot}}", "// expected-error@+1 {{use of undeclared SSA value name}}"]


def m_expected(rng: random.Random, text: str, ctx: "GenContext") -> str:
    lines = _lines(text)
    for _ in range(rng.choice([1, 1, 2, 3])):
        lines.insert(rng.randint(0, len(lines)), "  " + rng.choice(EXPECTATIONS))
    return "\n".join(lines)


NON_UTF8 = [b"\xff", b"\xfe\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\x80", b"\x00", b"\xf4\x90\x80\x80",
            b"\xc0\x80", b"\r", b"\r\n", b"\x0b", b"\x0c", "\u00e9".encode(), "\u2028".encode(), b"\xef\xbb\xbf"]


def m_non_utf8(rng: random.Random, data: bytes, ctx: "GenContext") -> bytes:
    i = rng.randint(0, len(data))
    if rng.random() < 0.3 and b'"' in data:  # inside a string (a function name, a location)
        i = data.index(b'"') + 1
    return data[:i] + rng.choice(NON_UTF8) + data[i:]


def m_long_line(rng: random.Random, text: str, ctx: "GenContext") -> str:
    n = rng.choice([5000, 100_000, 400_000])
    kind = rng.randrange(4)
    if kind == 0:
        snippet = "// " + "x" * n
    elif kind == 1:
        k = n // 8
        snippet = (f"%long_c = stablehlo.constant {{latticecast.weak}} dense<[{', '.join(['7'] * k)}]> : tensor<{k}xi64>")
    elif kind == 2:
        snippet = f'"foo.bar"() {{s = "{"y" * n}"}} : () -> ()'
    else:
        snippet = f"%{'a' * n} = stablehlo.constant dense<1.0> : tensor<f32>"
    return _insert_before_return(rng, text, snippet)


def m_unregistered(rng: random.Random, text: str, ctx: "GenContext") -> str:
    snippet = rng.choice([
        '"foo.bar"() : () -> ()',
        '%u = "foo.bar"() : () -> tensor<4xf32>',
        '"foo.bar"() ({\n^bb0:\n  "foo.baz"() : () -> ()\n}) : () -> ()',
        '"test.unregistered"() {latticecast.weak} : () -> ()',
        '%u = "foo.bar"() : () -> (tensor<4xi8>, tensor<4xf32>)',
        '"unchecked.add"() : () -> ()',
        '"stablehlo.unknown_op"() : () -> ()',
    ])
    return _insert_before_return(rng, text, snippet)


def m_nested_func(rng: random.Random, text: str, ctx: "GenContext") -> str:
    inner = rng.choice([
        "func.func @inner_{n}(%x: tensor<4xi8>, %y: tensor<4xf32>) -> tensor<4xf32> {{\n"
        '  %s = "stablehlo.add"(%x, %y) : (tensor<4xi8>, tensor<4xf32>) -> tensor<4xf32>\n'
        "  return %s : tensor<4xf32>\n}}",
        "func.func @inner_{n}() {{\n  return\n}}",
        "func.func private @inner_{n}(tensor<4xf32>) -> tensor<4xf32>",
    ]).format(n=rng.randrange(1000))
    wrapper = rng.choice(['"foo.wrap"() ({{\n{f}\n}}) : () -> ()', "builtin.module {{\n{f}\n}}",
                          '"foo.wrap"() ({{\n{f}\n"foo.bar"() : () -> ()\n}}) : () -> ()', "{f}"])
    return _insert_before_return(rng, text, wrapper.format(f=inner))


def m_nesting(rng: random.Random, text: str, ctx: "GenContext") -> str:
    depth = rng.choice([2, 10, 100, 1000, 2000, 2600, 3000])
    kind = rng.choice(["while", "execute_region", "unregistered", "module", "func-in-op", "if"])
    deep = nested_program(depth, kind, rng)
    if rng.random() < 0.3:
        return deep
    return text.rstrip("\n") + "\n" + deep


def m_synth(rng: random.Random, text: str, ctx: "GenContext") -> str:
    prog = synth_program(rng)
    r = rng.random()
    if r < 0.6:
        return prog
    if r < 0.8:
        return text.rstrip("\n") + "\n" + prog
    return text.rstrip("\n") + "\n// -----\n" + prog


BYTE_MUTATIONS: dict[str, Callable] = {"byte-flip": m_byte_flip, "byte-insert": m_byte_insert,
                                       "byte-delete": m_byte_delete, "non-utf8": m_non_utf8}
TEXT_MUTATIONS: dict[str, Callable] = {
    "swap-type": m_swap_type, "swap-op": m_swap_op, "number": m_number, "dup-line": m_dup_line,
    "del-line": m_del_line, "swap-lines": m_swap_lines, "splice": m_splice, "append-seed": m_append_seed,
    "split-markers": m_split_markers, "many-split-markers": m_many_split_markers, "weak": m_weak,
    "expected": m_expected, "long-line": m_long_line, "unregistered": m_unregistered,
    "nested-func": m_nested_func, "nesting": m_nesting, "synth": m_synth, "self-reference": m_self_reference,
}
# Relative weights: cheap, local mutations most often; the expensive constructs (deep nesting,
# thousands of chunks, very long lines) rarely.
WEIGHTS = {"byte-flip": 6, "byte-insert": 4, "byte-delete": 4, "non-utf8": 2, "swap-type": 12, "swap-op": 10,
           "number": 8, "dup-line": 4, "del-line": 5, "swap-lines": 2, "splice": 5, "append-seed": 3,
           "split-markers": 3, "many-split-markers": 0.6, "weak": 10, "expected": 3, "long-line": 1,
           "unregistered": 5, "nested-func": 4, "nesting": 1.6, "synth": 14, "self-reference": 2}


GENTLE = {"weak", "split-markers", "unregistered", "nested-func", "expected", "append-seed", "synth", "nesting",
          "many-split-markers", "self-reference"}


# --------------------------------------------------------------------------------------
# Synthesised programs
# --------------------------------------------------------------------------------------

_MLIR_ELEM = {"bool": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "ui8",
              "uint16": "ui16", "uint32": "ui32", "uint64": "ui64", "float16": "f16", "bfloat16": "bf16",
              "float32": "f32", "tensor_float32": "tf32", "float64": "f64", "complex64": "complex<f32>",
              "complex128": "complex<f64>", "index": "index", "address": "!latticecast.address"}
_SYNTH_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                 "bfloat16", "float32", "float64", "complex64", "complex128", "tensor_float32", "index"]
_BINARY = ["add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "atan2", "and",
           "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical", "compare"]
_WEAK_THROUGH = ["negate", "abs", "reshape", "convert", "sign", "transpose"]
_POLICIES = ["jax", "max", "numpy", "torch", "tensorflow", "anvil", "array-api", "jax-lax"]


def _promote(a: tuple[str, bool], b: tuple[str, bool], policy: str) -> str | None:
    """The dtype name ``implicit-cast`` should give ``a`` joined with ``b`` (via the public API), or
    ``None`` when the promotion is undefined or latticecast is not importable."""
    try:
        import latticecast as lc
        pa = lc.weak(lc.DType[a[0]]) if a[1] else lc.DType[a[0]]
        pb = lc.weak(lc.DType[b[0]]) if b[1] else lc.DType[b[0]]
        r = lc.promote_types(pa, pb, policy=policy)
        name = getattr(r, "name", None) or str(r)
        dtype = getattr(r, "dtype", None)
        if dtype is not None and not isinstance(r, lc.DType):
            name = dtype.name
        return name if name in _MLIR_ELEM else None
    except Exception:  # noqa: BLE001 - any refusal means "no expectation"
        return None


_KIND = {"bool": "b", "int8": "i", "int16": "i", "int32": "i", "int64": "i", "uint8": "u", "uint16": "u",
         "uint32": "u", "uint64": "u", "index": "u", "float16": "f", "bfloat16": "f", "float32": "f",
         "tensor_float32": "f", "float64": "f", "complex64": "c", "complex128": "c"}
_OPS_FOR = {"b": ["and", "or", "xor", "maximum", "minimum", "compare", "add", "multiply"],
            "i": ["add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "and", "or",
                  "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical", "compare"],
            "f": ["add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "atan2",
                  "compare"],
            "c": ["add", "subtract", "multiply", "divide", "power", "compare"]}
_OPS_FOR["u"] = _OPS_FOR["i"]


def _policy_dtypes(policy: str) -> list[str]:
    common = [d for d in _SYNTH_DTYPES if d not in ("tensor_float32", "index")]
    return _SYNTH_DTYPES if policy == "max" else common


def synth_program(rng: random.Random, policy: str | None = None) -> str:
    """A function of mixed-dtype binary ops in the generic form, with weak constants used
    at one or several types, weakness through unary ops, select and clamp. Mostly legal
    (result types are the promotion the public API computes, ops fit their operands),
    with a little chaos (``chaos``: any op, any declared type)."""
    policy = policy or rng.choice(_POLICIES)
    chaos = rng.random() < 0.15
    dtypes = _SYNTH_DTYPES if chaos else _policy_dtypes(policy)
    shape = rng.choice(["", "4x", "4x", "4x", "2x3x", "0x"])
    n_args = rng.randint(1, 4)
    lines: list[str] = []
    pool: list[tuple[str, str, bool]] = []  # (ssa, dtype, weak)
    args = []
    for i in range(n_args):
        d = rng.choice(dtypes)
        w = rng.random() < 0.1
        args.append(f"%a{i}: tensor<{shape}{_MLIR_ELEM[d]}>" + (" {latticecast.weak}" if w else ""))
        pool.append((f"%a{i}", d, w))

    def ty(d: str, s: str = shape) -> str:
        return f"tensor<{s}{_MLIR_ELEM[d]}>"

    zero_d: list[tuple[str, str, bool]] = []  # 0-d values, broadcast to the shape by the steps below
    if shape and rng.random() < 0.4:
        for i in range(rng.randint(1, 2)):
            d = rng.choice(dtypes)
            args.append(f"%z{i}: tensor<{_MLIR_ELEM[d]}>")
            zero_d.append((f"%z{i}", d, False))

    for step in range(rng.randint(2, 10)):
        r = rng.random()
        name = f"%v{step}"
        if zero_d and r < 0.15:
            # a 0-d value broadcast as torch-mlir writes it (no marker) or as the builder marks it: what a
            # rank-sensitive policy reads as the 0-d value, or as the dimensioned tensor its type says
            src = rng.choice(zero_d)
            marker = rng.choice(["", "", " {latticecast.implicit_broadcast}", " {latticecast.explicit_broadcast}"])
            lines.append(f'  {name} = "stablehlo.broadcast_in_dim"({src[0]}) <{{broadcast_dimensions = array<i64>}}>'
                         f"{marker} : (tensor<{_MLIR_ELEM[src[1]]}>) -> {ty(src[1])}")
            pool.append((name, src[1], False))
            continue
        if r < 0.25:
            kind = rng.choice(["int", "int", "float", "float", "bool", "complex"])
            if kind == "int":
                d, lit = "int64", rng.choice(INT_LITERALS[:8] if rng.random() < 0.7 else INT_LITERALS)
            elif kind == "float":
                d, lit = "float64", rng.choice(FLOAT_LITERALS[:4] if rng.random() < 0.7 else FLOAT_LITERALS)
            elif kind == "bool":
                d, lit = "bool", rng.choice(["true", "false"])
            else:
                d, lit = "complex128", "(1.500000e+00,-2.000000e+00)"
            s = shape if rng.random() < 0.9 else ""
            if s == "4x" and rng.random() < 0.2:
                lit = "[" + ", ".join([lit] * 4) + "]"
            attr = "{latticecast.weak} " if rng.random() < 0.9 else ""
            lines.append(f"  {name} = stablehlo.constant {attr}dense<{lit}> : {ty(d, s)}")
            if s == shape or chaos:
                pool.append((name, d, bool(attr)))
            continue
        if r < 0.37:
            src = rng.choice(pool)
            k = _KIND[src[1]]
            ops = ["reshape", "convert", "negate"] if k in "ifc" else ["reshape", "convert"]
            if k in "if":
                ops += ["abs", "sign"]
            op = rng.choice(_WEAK_THROUGH if chaos else ops)
            d = src[1]
            if op == "convert":
                d = rng.choice(dtypes)
            if op == "transpose" and shape.count("x") >= 1:
                perm = ", ".join(str(i) for i in range(shape.count("x")))
                lines.append(f'  {name} = "stablehlo.transpose"({src[0]}) <{{permutation = array<i64: {perm}>}}> : '
                             f"({ty(src[1])}) -> {ty(d)}")
            elif op == "transpose":
                continue
            else:
                lines.append(f'  {name} = "stablehlo.{op}"({src[0]}) : ({ty(src[1])}) -> {ty(d)}')
            pool.append((name, d, src[2] and op != "convert"))
            continue
        for _attempt in range(4):
            x, y = rng.choice(pool), rng.choice(pool)
            joined = _promote(x[1:], y[1:], policy)
            if joined is not None:
                break
        if r < 0.47:
            preds = [p for p in pool if p[1] == "bool" and not p[2]]
            if preds and joined is not None:
                p = rng.choice(preds)
                if rng.random() < 0.5:
                    lines.append(f'  {name} = "stablehlo.select"({p[0]}, {x[0]}, {y[0]}) : '
                                 f"({ty(p[1])}, {ty(x[1])}, {ty(y[1])}) -> {ty(joined)}")
                else:
                    lo = rng.choice(pool)
                    j3 = _promote((joined, False), lo[1:], policy) or joined
                    lines.append(f'  {name} = "stablehlo.clamp"({lo[0]}, {x[0]}, {y[0]}) : '
                                 f"({ty(lo[1])}, {ty(x[1])}, {ty(y[1])}) -> {ty(j3)}")
                    joined = j3
                pool.append((name, joined, False))
                continue
        if joined is None or (chaos and rng.random() < 0.3):
            joined = rng.choice(dtypes)
        op = rng.choice(_BINARY if chaos else _OPS_FOR[_KIND[joined]])
        weak = bool(x[2] and y[2])
        if op == "compare":
            direction = rng.choice(["LT", "EQ", "GE", "NE"]) if _KIND[joined] != "c" else rng.choice(["EQ", "NE"])
            lines.append(f'  {name} = "stablehlo.compare"({x[0]}, {y[0]}) <{{comparison_direction = '
                         f"#stablehlo<comparison_direction {direction}>}}> : ({ty(x[1])}, {ty(y[1])}) -> {ty('bool')}")
            pool.append((name, "bool", False))
        else:
            lines.append(f'  {name} = "stablehlo.{op}"({x[0]}, {y[0]}) : ({ty(x[1])}, {ty(y[1])}) -> {ty(joined)}')
            pool.append((name, joined, weak))
    outs = rng.sample(pool, k=min(len(pool), rng.randint(1, 3)))
    ret_types = ", ".join(ty(o[1]) for o in outs)
    head = f"func.func @synth({', '.join(args)}) -> ({ret_types}) {{"
    body = "\n".join(lines)
    ret = f"  return {', '.join(o[0] for o in outs)} : {ret_types}"
    return f"{head}\n{body}\n{ret}\n}}\n"


def nested_program(depth: int, kind: str, rng: random.Random | None = None) -> str:
    """A function whose body nests ``depth`` regions of ``kind``; the innermost holds a mixed-dtype
    add with a weak constant (so that implicit-cast has work to do at the bottom)."""
    mixed = ('"stablehlo.add"(%x, %k) : (tensor<4xi8>, tensor<4xi64>) -> tensor<4xi8>',
             '"stablehlo.multiply"(%x, %y) : (tensor<4xi8>, tensor<4xf32>) -> tensor<4xf32>')
    out: list[str] = ["func.func @deep(%x: tensor<4xi8>, %y: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xi8> {",
                      "  %k = stablehlo.constant {latticecast.weak} dense<3> : tensor<4xi64>"]
    if kind == "while":
        for d in range(depth):
            src = "%n" if d == 0 else f"%i{d - 1}"
            out.append(f"  %w{d} = stablehlo.while(%i{d} = {src}) : tensor<i32>")
            out.append("  cond {")
            out.append(f"    %c{d} = stablehlo.compare LT, %i{d}, %i{d} : (tensor<i32>, tensor<i32>) -> tensor<i1>")
            out.append(f"    stablehlo.return %c{d} : tensor<i1>")
            out.append("  } do {")
        out.append(f"  %m0 = {mixed[0]}")
        out.append(f"  %m1 = {mixed[1]}")
        for d in reversed(range(depth)):
            out.append(f"    stablehlo.return %i{d} : tensor<i32>")
            out.append("  }")
    elif kind == "if":
        for d in range(depth):
            out.append(f'  %p{d} = stablehlo.constant dense<true> : tensor<i1>')
            out.append(f'  %r{d} = "stablehlo.if"(%p{d}) ({{')
        out.append(f"  %m0 = {mixed[0]}")
        out.append(f"  %m1 = {mixed[1]}")
        out.append('  "stablehlo.return"(%m0) : (tensor<4xi8>) -> ()')
        for d in reversed(range(depth)):
            out.append("  }, {")
            out.append('    "stablehlo.return"(%x) : (tensor<4xi8>) -> ()')
            out.append("  }) : (tensor<i1>) -> tensor<4xi8>")
            if d > 0:
                out.append(f'  "stablehlo.return"(%r{d}) : (tensor<4xi8>) -> ()')
    else:
        open_, close = {
            "execute_region": ('  "scf.execute_region"() ({', '    "scf.yield"() : () -> ()\n  }) : () -> ()'),
            "unregistered": ('  "foo.region"() ({', "  }) : () -> ()"),
            "module": ("  builtin.module {", "  }"),
            "func-in-op": ('  "foo.wrap"() ({\n  func.func @nested_{d}(%x_{d}: tensor<4xi8>, %y_{d}: tensor<4xf32>) {\n'
                           '  %k_{d} = stablehlo.constant {latticecast.weak} dense<3> : tensor<4xi64>',
                           "  return\n  }\n  }) : () -> ()"),
        }[kind]
        if kind == "module":
            out = ["module {"]
            for d in range(depth):
                out.append(open_)
            out.append("  func.func @deep(%x: tensor<4xi8>, %y: tensor<4xf32>) -> tensor<4xf32> {")
            out.append("  %k = stablehlo.constant {latticecast.weak} dense<3> : tensor<4xi64>")
            out.append(f"  %m0 = {mixed[0]}")
            out.append(f"  %m1 = {mixed[1]}")
            out.append("  return %m1 : tensor<4xf32>\n  }")
            out.extend([close] * depth)
            out.append("}")
            return "\n".join(out) + "\n"
        for d in range(depth):
            out.append(open_.replace("{d}", str(d)))
        inner = mixed
        if kind == "func-in-op" and depth:
            inner = tuple(re.sub(r"%([xyk])\b", rf"%\1_{depth - 1}", m) for m in mixed)
        out.append(f"  %m0 = {inner[0]}")
        out.append(f"  %m1 = {inner[1]}")
        out.extend([close] * depth)
    out.append("  return %x : tensor<4xi8>")
    out.append("}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------
# Command lines
# --------------------------------------------------------------------------------------

GOOD_PIPELINES = ["builtin.module(implicit-cast,canonicalize)", "builtin.module(implicit-cast{policy=max},cse)",
                  "builtin.module(implicit-cast{policy=numpy diagnose-lossy=warning},canonicalize,cse)",
                  "builtin.module(canonicalize)", "builtin.module(cse)", "builtin.module(canonicalize,cse)",
                  "builtin.module(func.func(canonicalize),implicit-cast)", "builtin.module()",
                  "builtin.module(implicit-cast{lower-dtypes=false})", "implicit-cast,canonicalize",
                  "builtin.module(implicit-cast,implicit-cast{policy=torch})"]


def _mutate_string(rng: random.Random, s: str) -> str:
    b = list(s)
    if rng.random() < 0.5:  # one bracket for another (often the last: how unbalanced pipelines end)
        spots = [i for i, ch in enumerate(b) if ch in "(){}"]
        if spots:
            b[spots[-1] if rng.random() < 0.5 else rng.choice(spots)] = rng.choice("(){}")
            return "".join(b)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(3)
        i = rng.randrange(len(b) + 1)
        if op == 0 and b:
            del b[min(i, len(b) - 1)]
        elif op == 1:
            b.insert(i, rng.choice("(){},=\"' \\é-x"))
        elif b:
            b[min(i, len(b) - 1)] = rng.choice("(){},= ")
    return "".join(b)


def random_flags(rng: random.Random) -> list[str]:
    """Random flags of ``latticecast-opt``: a pipeline (none, pass flags or --pass-pipeline), the
    implicit-cast options, splitting, diagnostics checking and printing."""
    flags: list[str] = []
    r = rng.random()
    if r < 0.12:
        pass  # no pipeline: parse, verify, print
    elif r < 0.16:
        # lift-implicit-casts: the law (implicit-cast under P, lifted under P, legalised under P again:
        # the law oracle checks the output is the first implicit-cast's), a retargeting, or lift alone
        # (its output mixed, printed in the generic form)
        p = rng.choice(_POLICIES)
        kind = rng.random()
        if kind < 0.5:
            flags += ["--implicit-cast", f"--lift-implicit-casts=policy={p}", "--implicit-cast", f"--policy={p}"]
        elif kind < 0.75:
            flags += [f"--lift-implicit-casts=policy={p}", "--implicit-cast", f"--policy={rng.choice(_POLICIES)}"]
        else:
            flags.append(f"--lift-implicit-casts=policy={p}")
    elif r < 0.72:
        passes = ["--implicit-cast"]
        if rng.random() < 0.3:
            passes.append(rng.choice(["--canonicalize", "--cse"]))
        if rng.random() < 0.1:
            passes.insert(0, rng.choice(["--canonicalize", "--cse"]))
        flags += passes
        if rng.random() < 0.6:
            flags.append(f"--policy={rng.choice(_POLICIES)}")
        if rng.random() < 0.25:
            flags.append("--diagnose-lossy=warning")
        if rng.random() < 0.05:
            flags.append("--lower-dtypes=false")
    elif r < 0.82:
        flags.append(rng.choice(["--canonicalize", "--cse", "--canonicalize --cse"]))
        flags = flags[0].split()
    elif r < 0.92:
        flags.append("--pass-pipeline=" + rng.choice(GOOD_PIPELINES))
    else:
        flags.append("--pass-pipeline=" + _mutate_string(rng, rng.choice(GOOD_PIPELINES)))
    if rng.random() < 0.3:
        flags.append("--split-input-file")
    if rng.random() < 0.15:
        flags.append("--verify-diagnostics")
    if rng.random() < 0.3:
        flags.append("--mlir-print-op-generic")
    if rng.random() < 0.02:
        flags.append("--emit-bytecode")
    if rng.random() < 0.03:
        flags.append(rng.choice(["--mlir-print-debuginfo", "--mlir-print-local-scope", "--mlir-disable-threading"]))
    passes = [f for f in flags if f in ("--implicit-cast", "--canonicalize", "--cse")  # in pipeline order
              or f.startswith("--lift-implicit-casts")]
    others = [f for f in flags if f not in passes]
    rng.shuffle(others)
    return passes + others


# --------------------------------------------------------------------------------------
# Cases, runs, results
# --------------------------------------------------------------------------------------

@dataclass
class Case:
    """One input and its command line (``flags`` without the tool and the input path)."""

    data: bytes
    flags: list[str]
    stdin: bool = False
    mutations: list[str] = field(default_factory=list)
    iteration: int = -1


@dataclass
class RunResult:
    returncode: int | None
    stdout: bytes
    stderr: str
    timed_out: bool
    seconds: float


@dataclass
class Finding:
    """One distinct finding: the oracle, its deduplication key, the (minimised) reproducer."""

    oracle: str
    key: str
    detail: str
    input: bytes
    flags: list[str]
    stdin: bool
    returncode: int | None
    stderr: str
    stdout: str
    iteration: int
    mutations: list[str]
    hits: int = 1
    original_size: int = 0

    def command(self, input_name: str = "input.mlir") -> str:
        tool = "latticecast-opt"
        if self.stdin:
            return f"{tool} {' '.join(shlex.quote(f) for f in self.flags)} < {input_name}".replace("  ", " ")
        return " ".join([tool, input_name] + [shlex.quote(f) for f in self.flags])

    def summary(self) -> str:
        return f"[{self.oracle}] {self.key}  ({self.hits} hit(s), first at iteration {self.iteration})"


class GenContext:
    def __init__(self, seeds: list[bytes], corpus: list[bytes]) -> None:
        self.seeds = seeds
        self.corpus = corpus

    def other_seed(self, rng: random.Random) -> bytes:
        pool = self.seeds if rng.random() < 0.7 or not self.corpus else self.corpus
        return rng.choice(pool)


def generate_case(seed: int, iteration: int, ctx: GenContext) -> Case:
    """Input ``iteration`` of run ``seed``: a seed (or corpus entry) under 1-4 mutations, and flags."""
    rng = random.Random(f"latticecast-opt-fuzz:{seed}:{iteration}")
    base = ctx.other_seed(rng)
    data = base
    names = list(WEIGHTS)
    weights = [WEIGHTS[n] for n in names]
    applied: list[str] = []
    gentle = rng.random() < 0.4  # constructive edits only, so that many inputs stay valid
    if gentle:
        names = [n for n in names if n in GENTLE]
        weights = [WEIGHTS[n] for n in names]
    for _ in range(rng.choice([1, 1, 2] if gentle else [1, 1, 2, 2, 3, 4])):
        name = rng.choices(names, weights)[0]
        if name in ("nesting", "many-split-markers", "long-line") and any(
                a in ("nesting", "many-split-markers", "long-line") for a in applied):
            continue  # one expensive construct per input
        applied.append(name)
        if name in BYTE_MUTATIONS:
            data = BYTE_MUTATIONS[name](rng, data, ctx)
        else:
            text = data.decode("utf-8", "surrogateescape")
            data = TEXT_MUTATIONS[name](rng, text, ctx).encode("utf-8", "surrogateescape")
    flags = random_flags(rng)
    if "many-split-markers" in applied and "--split-input-file" not in flags and rng.random() < 0.8:
        flags.append("--split-input-file")
    return Case(data=data, flags=flags, stdin=rng.random() < 0.12, mutations=applied, iteration=iteration)


_tls = threading.local()


def _workdir() -> Path:
    d = getattr(_tls, "workdir", None)
    if d is None:
        d = _tls.workdir = Path(tempfile.mkdtemp(prefix="latticecast-opt-fuzz-"))
    return d


def execute(case: Case, timeout: float = DEFAULT_TIMEOUT) -> RunResult:
    """Run ``latticecast-opt`` on ``case`` in a fresh process. On a timeout the process gets
    SIGABRT (its faulthandler prints the Python stack), then SIGKILL."""
    path = _workdir() / "input.mlir"
    path.write_bytes(case.data)
    cmd = _opt_command() + ([] if case.stdin else [str(path)]) + list(case.flags)
    start = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE if case.stdin else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_worker_env(),
                                cwd=str(_workdir()), start_new_session=True)
    except (OSError, ValueError) as e:  # an argument the OS cannot pass (a NUL byte): not a run
        return RunResult(None, b"", f"<not run: {e}>", False, 0.0)
    timed_out = False
    try:
        out, err = proc.communicate(input=case.data if case.stdin else None, timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            proc.send_signal(signal.SIGABRT)
            out, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
    seconds = time.monotonic() - start
    stderr = err.decode("utf-8", "replace").replace(str(path), "input.mlir")
    return RunResult(proc.returncode, out, stderr, timed_out, seconds)


# --------------------------------------------------------------------------------------
# The reference: jaxlib's own parser, verifier, passes and printer, in a helper process
# --------------------------------------------------------------------------------------

def _reference_server() -> None:  # pragma: no cover - runs in the helper process
    """Answer requests on stdin (4-byte length, JSON) with JSON replies, until EOF."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    from jaxlib.mlir import ir, passmanager
    from jaxlib.mlir._mlir_libs import _chlo, _jax_mlir_ext, _stablehlo

    def make(allow_unregistered: bool) -> "ir.Context":
        registry = ir.DialectRegistry()
        _jax_mlir_ext.register_dialects(registry)
        ctx = ir.Context()
        ctx.append_dialect_registry(registry)
        ctx.load_all_available_dialects()
        _stablehlo.register_dialect(ctx)
        _chlo.register_dialect(ctx)
        ctx.allow_unregistered_dialects = allow_unregistered
        return ctx

    contexts = {"strict": make(False), "permissive": make(True)}
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        head = stdin.read(4)
        if len(head) < 4:
            return
        (n,) = struct.unpack("<I", head)
        req = json.loads(stdin.read(n))
        replies = []
        if req.get("pipeline_only") is not None:
            try:
                with contexts["strict"]:
                    passmanager.PassManager.parse(req["pipeline_only"])
                replies.append({"ok": True, "error": "", "printed": None})
            except Exception as e:  # noqa: BLE001
                replies.append({"ok": False, "error": f"{type(e).__name__}: {e}", "printed": None})
            req["chunks"] = []
        for chunk_b64 in req["chunks"]:
            raw = base64.b64decode(chunk_b64)
            reply: dict = {"ok": False, "error": "", "printed": None}
            try:  # MLIR bytecode (--emit-bytecode) parses as bytes; text must be UTF-8
                text = raw if raw.startswith(b"ML\xefR") else raw.decode("utf-8")
            except UnicodeDecodeError as e:
                reply["error"] = f"not UTF-8: {e}"
                replies.append(reply)
                continue
            ctx = contexts[req["mode"]]
            if isinstance(text, bytes) or "{-#" in text:
                # resources are the context's (a second parse renames bias to bias_1): mlir-opt parses each
                # file in a context of its own, so text that carries resources gets a fresh one
                ctx = make(req["mode"] == "permissive")
            try:
                with ctx, ir.Location.unknown():
                    module = ir.Module.parse(text)
                    module.operation.verify()
                    if req.get("pipeline"):
                        pm = passmanager.PassManager.parse(req["pipeline"])
                        pm.enable_verifier(True)
                        pm.run(module.operation)
                    if req.get("print"):
                        reply["printed"] = str(module.operation.get_asm(
                            print_generic_op_form=bool(req.get("generic")), assume_verified=True))
                reply["ok"] = True
            except Exception as e:  # noqa: BLE001 - every refusal is an answer
                reply["error"] = f"{type(e).__name__}: {e}"
            replies.append(reply)
        body = json.dumps({"results": replies}).encode()
        stdout.write(struct.pack("<I", len(body)) + body)
        stdout.flush()


class Reference:
    """A helper process running :func:`_reference_server`; restarted when it dies or stalls."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.proc: subprocess.Popen | None = None
        self.failures = 0

    def _start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--reference-server"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env=_worker_env(), start_new_session=True)

    def close(self) -> None:
        if self.proc is not None:
            try:
                self.proc.kill()
                self.proc.wait(timeout=5)
            except Exception:  # noqa: BLE001
                pass
            self.proc = None

    def check(self, chunks: Sequence[bytes], mode: str, *, pipeline: str | None = None, print_: bool = False,
              generic: bool = False, pipeline_only: str | None = None) -> list[dict] | None:
        """Per chunk: ``{"ok", "error", "printed"}``; ``None`` when the reference itself failed."""
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        req = json.dumps({"chunks": [base64.b64encode(c).decode() for c in chunks], "mode": mode,
                          "pipeline": pipeline, "print": print_, "generic": generic,
                          "pipeline_only": pipeline_only}).encode()
        result: list = []

        def talk() -> None:
            try:
                assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
                self.proc.stdin.write(struct.pack("<I", len(req)) + req)
                self.proc.stdin.flush()
                head = self.proc.stdout.read(4)
                if len(head) == 4:
                    body = self.proc.stdout.read(struct.unpack("<I", head)[0])
                    result.append(json.loads(body)["results"])
            except Exception:  # noqa: BLE001 - a dead helper
                pass

        t = threading.Thread(target=talk, daemon=True)
        t.start()
        t.join(self.timeout)
        if not result:
            self.failures += 1
            self.close()
            return None
        return result[0]


def _reference() -> Reference:
    ref = getattr(_tls, "reference", None)
    if ref is None:
        ref = _tls.reference = Reference(timeout=60)
        _all_references.append(ref)
    return ref


_all_references: list[Reference] = []


# --------------------------------------------------------------------------------------
# Oracles
# --------------------------------------------------------------------------------------

_LOCATED = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|remark|note): (?P<msg>.*)$")
_TOOL_LINE = re.compile(r"^latticecast-opt: error: (?P<msg>.*)$")
_UNLOCATED = re.compile(r"^(?P<sev>error|warning|remark|note): (?P<msg>.*)$")
_HINT = re.compile(r"^hint: '[\w$.]+|^hint: 'the op'")  # the tool's one-line hint after a mixed-dtype error
_TOOL_MESSAGES = re.compile(r"^(invalid pass pipeline|cannot open input file|cannot write output file|input file .* is "
                            r"not UTF-8|standard input is not UTF-8|unrecognized|--|unknown policy|argument|the "
                            r"following arguments|unrecognized arguments|input .*not UTF-8|.*\(see 'latticecast-opt --help'\)$)")


def _norm(line: str) -> str:
    """A pattern of a message: no file positions, numbers, SSA names, quoted names or type shapes."""
    s = line.strip()
    s = re.sub(r"^.*?:\d+:\d+: ", "", s)
    s = re.sub(r"^(error: )?unexpected (error|warning|remark|note): ", r"\1", s)  # --verify-diagnostics' form
    s = re.sub(r"/[^\s:'\"]+", "PATH", s)
    s = re.sub(r"%[\w$.-]+", "%V", s)
    s = re.sub(r"@[\w$.-]+", "@S", s)
    s = re.sub(r"'[^']{0,200}'", "'Q'", s)
    s = re.sub(r'"[^"]{0,200}"', '"Q"', s)
    s = re.sub(r"tensor<[^<>]*(<[^<>]*>)?[^<>]*>", "TYPE", s)
    s = re.sub(r"\b(complex<f(32|64)>|ui?\d+|si\d+|i\d+|f\d+|bf16|tf32|index)\b", "ELT", s)
    s = re.sub(r"0x[0-9a-fA-F]+|\d+(\.\d+)?(e[+-]?\d+)?", "N", s)
    return s[:160]


def _innermost_frame(stderr: str) -> str:
    """The innermost latticecast (else any) Python frame in a traceback or faulthandler dump."""
    frames = re.findall(r"File \"([^\"]+)\", line \d+,? in (\S+)", stderr)
    if not frames:
        return "?"
    if "Traceback (most recent call last)" in stderr:
        frames = list(reversed(frames))  # tracebacks print the innermost frame last
    for path, fn in frames:
        if "latticecast" in path:
            return f"{Path(path).name}:{fn}"
    path, fn = frames[0]
    return f"{Path(path).name}:{fn}"


def _exception_line(stderr: str) -> str:
    lines = [l for l in stderr.splitlines() if l.strip()]
    tb = max(i for i, l in enumerate(lines) if l.startswith("Traceback (most recent call last)"))
    for line in lines[tb + 1:]:
        if not line.startswith(" ") and re.match(r"^[\w.]+(Error|Exception|Exit|Interrupt|Warning)?\b", line):
            return line
    return lines[-1] if lines else ""


def _has_implicit_cast(flags: Sequence[str]) -> bool:
    return any("implicit-cast" in f and not f.startswith("--lift-implicit-casts") for f in flags)


def _lifted_last(flags: Sequence[str]) -> bool:
    """Whether ``lift-implicit-casts`` runs after the last ``implicit-cast``: the output may be mixed
    (printed in the generic form), which MLIR's verifier rejects by design."""
    order = [f for f in flags if f == "--implicit-cast" or f.startswith("--lift-implicit-casts")]
    return bool(order) and order[-1].startswith("--lift-implicit-casts")


def _law_flags(flags: Sequence[str]) -> tuple[list[str], str] | None:
    """For a run of the law (``--implicit-cast --lift-implicit-casts=policy=P --implicit-cast
    --policy=P``): the flags of the same run without the lift and the second implicit-cast, and P."""
    order = [f for f in flags if f == "--implicit-cast" or f.startswith("--lift-implicit-casts")
             or f in ("--canonicalize", "--cse") or f.startswith("--pass-pipeline")]
    policy = next((f.split("=", 1)[1] for f in flags if f.startswith("--policy=")), None)
    if len(order) != 3 or order[0] != "--implicit-cast" or order[2] != "--implicit-cast" \
            or policy is None or order[1] != f"--lift-implicit-casts=policy={policy}":
        return None
    plain = list(flags)
    plain.remove(order[1])
    plain.reverse()
    plain.remove("--implicit-cast")  # the second one
    plain.reverse()
    return plain, policy


def _law(case: Case, res: RunResult) -> list[tuple[str, str, str]]:
    """The law: ``implicit-cast(lift(M, P), P)`` prints ``M`` when ``P`` wrote ``M``. ``M`` is what
    ``implicit-cast`` under ``P`` makes of the input, so the run must print what that run prints."""
    law = _law_flags(case.flags)
    if law is None or "--verify-diagnostics" in case.flags or res.timed_out or res.returncode is None:
        return []
    plain_flags, policy = law
    plain = execute(Case(case.data, plain_flags, case.stdin, list(case.mutations), case.iteration))
    if plain.returncode != 0 or plain.timed_out:
        return []  # P's implicit-cast refuses the input: there is no M
    if res.returncode != 0:
        first = next((l for l in res.stderr.splitlines() if l.strip()), "")
        return [("lift-law", f"lift then implicit-cast failed under {policy}: " + _norm(first)[:100], first[:300])]
    if res.stdout != plain.stdout:
        mine = res.stdout.decode("utf-8", "replace").splitlines()
        theirs = plain.stdout.decode("utf-8", "replace").splitlines()
        j = next((k for k, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
        a = mine[j] if j < len(mine) else "<end>"
        b = theirs[j] if j < len(theirs) else "<end>"
        return [("lift-law", f"under {policy}: " + _norm(a)[:60] + " VS " + _norm(b)[:60],
                 f"line {j + 1}: after lift and implicit-cast {a!r}, implicit-cast alone {b!r}")]
    return []


def _pipeline(flags: Sequence[str]) -> str | None:
    """The upstream-only pipeline of a run (for the reference), or None when there is none.
    Returns "" for a run with no passes; ``None`` when the pipeline is not one the reference can run."""
    passes = [f[2:] for f in flags if f in ("--canonicalize", "--cse")]
    explicit = [f.split("=", 1)[1] for f in flags if f.startswith("--pass-pipeline=")]
    if explicit:
        return explicit[0] if explicit[0] in GOOD_PIPELINES and "implicit-cast" not in explicit[0] else None
    others = [f for f in flags if f.startswith("--") and f not in (
        "--canonicalize", "--cse", "--split-input-file", "--verify-diagnostics", "--mlir-print-op-generic")]
    if others:
        return None
    return f"builtin.module({','.join(passes)})" if passes else ""


def split_chunks(data: bytes, split: bool) -> list[bytes]:
    if not split:
        return [data]
    out, cur = [], []
    for line in data.split(b"\n"):
        if re.match(rb"^\s*// -----", line):
            out.append(b"\n".join(cur))
            cur = []
        else:
            cur.append(line)
    out.append(b"\n".join(cur))
    return out


def _pass_broke_ir(case: Case, err: str) -> str | None:
    """An error that only IR made by implicit-cast can have: a dominance error, or a verifier
    error at a ``stablehlo.convert``/``reduce_precision`` when the input has none."""
    text = case.data.decode("utf-8", "replace")
    lines = err.splitlines()
    for i, line in enumerate(lines):
        if "does not dominate" in line:
            # the pass's doing only when the op is one it makes (an input can hold a forward
            # reference of its own: the verifier, not the parser, rejects it)
            shown = next((l for l in lines[i + 1:i + 3] if "see current operation" in l), "")
            if any(f'"{op}"' in shown for op in ("stablehlo.convert", "stablehlo.reduce_precision")):
                return line
            continue
        for op in ("stablehlo.convert", "stablehlo.reduce_precision"):
            if f"'{op}' op" in line and op not in text and f'"{op}"' not in text:
                return line
    return None


def judge(case: Case, res: RunResult, reference: Reference | None) -> list[tuple[str, str, str]]:
    """The findings of one run, as (oracle, key, detail)."""
    found: list[tuple[str, str, str]] = []
    err = res.stderr
    if res.returncode is None and not res.timed_out:
        return []  # the command could not be started
    if res.timed_out:
        return [("timeout", f"timeout in {_innermost_frame(err)}", f"no answer in time ({res.seconds:.1f} s)")]
    if res.returncode is not None and res.returncode < 0:
        try:
            name = signal.Signals(-res.returncode).name
        except ValueError:
            name = f"signal {-res.returncode}"
        return [("signal", f"{name} in {_innermost_frame(err)}", f"killed by {name}")]
    if "Traceback (most recent call last)" in err:
        exc = _exception_line(err)
        return [("traceback", f"{_norm(exc.split(':', 1)[0])}: {_norm(exc.split(':', 1)[-1])[:80]} "
                              f"in {_innermost_frame(err)}", exc)]
    internal = next((l for l in err.splitlines() if "internal error" in l.lower()), None)
    if internal:
        found.append(("internal-error", _norm(internal)[:120], internal[:300]))
    n_lines = case.data.count(b"\n") + 1
    source_rows = case.data.decode("utf-8", "replace").splitlines()
    quoted: list[str] = []  # the source line and caret expected after a diagnostic located in the input
    for line in err.splitlines():
        if quoted:
            expected = quoted.pop(0)
            if line == expected or (expected == "^" and re.fullmatch(r" *\^", line)):
                continue
            quoted.clear()
        if not line.strip():
            continue
        m = _LOCATED.match(line)
        if m:
            row = int(m.group("line"))
            if m.group("file") in ("input.mlir", "<stdin>") and 0 < row <= len(source_rows):
                quoted = [source_rows[row - 1].expandtabs(8), "^"]  # as mlir-opt's source manager quotes it
            if m.group("file") in ("input.mlir", "<stdin>") and int(m.group("line")) == 0:
                found.append(("diagnostic-format", "diagnostic at line 0: " + _norm(m.group("msg")), line[:300]))
            elif m.group("file") in ("input.mlir", "<stdin>") and int(m.group("line")) > n_lines:
                found.append(("diagnostic-format", "line number past the end of the input: " + _norm(m.group("msg")),
                              line[:300]))
            continue
        m = _TOOL_LINE.match(line)
        if m:
            if not _TOOL_MESSAGES.match(m.group("msg")):
                found.append(("diagnostic-format", "tool error about the input without file:line:col: "
                              + _norm(m.group("msg")), line[:300]))
            continue
        if _HINT.match(line) and "--implicit-cast" in line and "--implicit-cast" not in " ".join(case.flags):
            continue
        m = _UNLOCATED.match(line)
        if m:
            if m.group("sev") in ("error", "warning"):
                found.append(("diagnostic-format", "diagnostic without file:line:col: " + _norm(line), line[:300]))
            continue
        found.append(("diagnostic-format", "stderr line that is not a diagnostic: " + _norm(line), line[:300]))
        break  # one per run: a multi-line message gives one finding
    if reference is None:
        return found
    split = "--split-input-file" in case.flags
    verify = "--verify-diagnostics" in case.flags
    generic = "--mlir-print-op-generic" in case.flags
    cast = _has_implicit_cast(case.flags)
    upstream = None if cast else _pipeline(case.flags)
    explicit = [f.split("=", 1)[1] for f in case.flags if f.startswith("--pass-pipeline=")]
    if res.returncode == 0 and explicit and "implicit-cast" not in explicit[0]:
        text = explicit[0].strip()
        if not text.startswith("builtin.module"):
            text = f"builtin.module({text})"
        r = reference.check([], "strict", pipeline_only=text)
        if r and not r[0]["ok"]:
            lines = [l for l in r[0]["error"].splitlines() if "error" in l]
            found.append(("accepts-invalid-pipeline", _norm(lines[0] if lines else r[0]["error"]),
                          f"--pass-pipeline={explicit[0]!r}: jaxlib says {r[0]['error'][:300]}"))
    found += _law(case, res)
    if res.returncode == 0:
        out_chunks = re.split(rb"\n// -----\n", res.stdout) if split else [res.stdout]
        # lift-implicit-casts last: the output is mixed by design (the verifier rejects it)
        results = None if _lifted_last(case.flags) else reference.check(out_chunks, "permissive")
        if results is not None:
            for i, r in enumerate(results):
                if not r["ok"]:
                    first = r["error"].splitlines()[1:2] or r["error"].splitlines()[:1]
                    found.append(("unverified-output", _norm(first[0] if first else r["error"]),
                                  f"output chunk {i}: {r['error'][:400]}"))
                    break
        if not cast and not verify:
            chunks = split_chunks(case.data, split)
            strict = reference.check(chunks, "strict")
            if strict is not None:
                bad = [(i, r) for i, r in enumerate(strict) if not r["ok"]]
                if bad:
                    perm = reference.check([chunks[i] for i, _ in bad], "permissive")
                    if perm is not None:
                        for (i, r), p in zip(bad, perm):
                            if not p["ok"]:  # not only an unregistered dialect
                                lines = p["error"].splitlines()
                                first = next((l for l in lines[1:] if "error" in l), lines[0] if lines else "")
                                found.append(("accepts-invalid", _norm(first), f"chunk {i}: {p['error'][:400]}"))
                                break
            if upstream is not None and not any(o == "accepts-invalid" for o, _, _ in found):
                printed = reference.check(chunks, "permissive", pipeline=upstream or None, print_=True,
                                          generic=generic)
                if printed is not None:
                    for i, (r, out) in enumerate(zip(printed, out_chunks)):
                        if not r["ok"]:
                            continue
                        mine = out.decode("utf-8", "replace").rstrip("\n").splitlines()
                        theirs = (r["printed"] or "").rstrip("\n").splitlines()
                        if mine != theirs:
                            j = next((k for k, (a, b) in enumerate(zip(mine, theirs)) if a != b),
                                     min(len(mine), len(theirs)))
                            a = mine[j] if j < len(mine) else "<end>"
                            b = theirs[j] if j < len(theirs) else "<end>"
                            found.append(("roundtrip-mismatch", _norm(a) + " VS " + _norm(b),
                                          f"chunk {i}, line {j + 1}: latticecast-opt printed {a!r}, jaxlib {b!r}"))
                            break
    elif res.returncode == 1 and cast and not verify:
        broken = _pass_broke_ir(case, err)
        if broken:
            found.append(("pass-broke-ir", _norm(broken), broken[:300]))
    if res.returncode == 1 and not cast and not verify and upstream is not None \
            and "invalid pass pipeline" not in err:
        chunks = split_chunks(case.data, split)
        strict = reference.check(chunks, "strict", pipeline=upstream or None)
        if strict is not None and all(r["ok"] for r in strict):
            first = next((l for l in err.splitlines() if l.strip()), "")
            found.append(("rejects-valid", _norm(first), first[:300]))
    return found


# --------------------------------------------------------------------------------------
# Minimisation
# --------------------------------------------------------------------------------------

def _units(lines: list[str]) -> list[list[int]]:
    """Groups of line indices that go together: a line that opens a region (more openers than
    closers) with the line that closes it, so that removing a unit keeps brackets balanced."""
    units: list[list[int]] = []
    stack: list[int] = []
    for i, line in enumerate(lines):
        code = line.split("//", 1)[0]
        delta = code.count("{") + code.count("(") - code.count("}") - code.count(")")
        if delta > 0:
            stack.append(len(units))
            units.append([i])
        elif delta < 0 and stack:
            units[stack.pop()].append(i)
        else:
            units.append([i])
    return units


def minimize(case: Case, still: Callable[[Case], bool], budget_runs: int, deadline: float) -> Case:
    """Delta debugging over line units, then over flags, while ``still`` holds."""
    runs = 0

    def test(c: Case) -> bool:
        nonlocal runs
        runs += 1
        return still(c)

    text = case.data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    units = _units(lines)
    keep = list(range(len(units)))
    n = 2
    while len(keep) >= 2 and runs < budget_runs and time.monotonic() < deadline:
        size = max(1, len(keep) // n)
        reduced = False
        for start in range(0, len(keep), size):
            if runs >= budget_runs or time.monotonic() >= deadline:
                break
            trial = keep[:start] + keep[start + size:]
            idx = sorted(i for u in trial for i in units[u])
            cand = Case("\n".join(lines[i] for i in idx).encode("utf-8", "surrogateescape"), case.flags,
                        case.stdin, case.mutations, case.iteration)
            if test(cand):
                keep = trial
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if size == 1:
                break
            n = min(len(keep), n * 2)
    idx = sorted(i for u in keep for i in units[u])
    best = Case("\n".join(lines[i] for i in idx).encode("utf-8", "surrogateescape"), list(case.flags), case.stdin,
                case.mutations, case.iteration)
    for flag in list(best.flags):
        if runs >= budget_runs or time.monotonic() >= deadline:
            break
        cand = Case(best.data, [f for f in best.flags if f != flag], best.stdin, best.mutations, best.iteration)
        if test(cand):
            best = cand
    if best.stdin and runs < budget_runs and time.monotonic() < deadline:
        cand = Case(best.data, best.flags, False, best.mutations, best.iteration)
        if test(cand):
            best = cand
    return best


# --------------------------------------------------------------------------------------
# The campaign
# --------------------------------------------------------------------------------------

def _signature(res: RunResult) -> tuple:
    first = next((l for l in res.stderr.splitlines() if l.strip()), "")
    return (res.returncode, _norm(first)[:60])


def run(seed: int = 0, iterations: int = 200, time_limit: float = 120.0, *, jobs: int = 2,
        timeout: float = DEFAULT_TIMEOUT, out: str | Path | None = None, minimize_findings: bool = True,
        log: Callable[[str], None] | None = None, seeds_dir: str | Path | None = None,
        show_progress: bool = False) -> list[Finding]:
    """Run ``iterations`` inputs (stopping early after ``time_limit`` seconds); returns the
    distinct findings. With ``out``, each finding is saved there (see ``fuzz/README.md``).
    ``show_progress`` draws a tqdm bar of the runs on standard error, with the findings so far
    and the ETA (the earlier of the runs' pace and the time limit); ``log`` lines go above it."""
    from tqdm import tqdm

    bar = tqdm(total=iterations, desc="opt_fuzz", unit="run", file=sys.stderr, disable=not show_progress,
               dynamic_ncols=True, mininterval=0.5 if sys.stderr.isatty() else 15.0)
    user_log = log or (lambda s: None)

    def log(message: str) -> None:
        if show_progress:
            bar.write(message, file=sys.stderr)
        else:
            user_log(message)

    start = time.monotonic()
    deadline = start + time_limit
    seeds = load_seeds(Path(seeds_dir) if seeds_dir else LIT_DIR)
    corpus: list[bytes] = []
    ctx = GenContext(seeds, corpus)
    signatures: set[tuple] = set()
    findings: dict[tuple[str, str], Finding] = {}
    runs = 0
    stats = {"runs": 0, "exit": {}, "reference_failures": 0}

    def one(case: Case) -> tuple[Case, RunResult, list[tuple[str, str, str]]]:
        res = execute(case, timeout)
        return case, res, judge(case, res, _reference())

    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        i = 0
        while i < iterations and time.monotonic() < deadline:
            batch = [generate_case(seed, k, ctx) for k in range(i, min(i + BATCH, iterations))]
            i += len(batch)
            results = list(pool.map(one, batch))
            for case, res, found in results:
                runs += 1
                rc = "timeout" if res.timed_out else str(res.returncode)
                stats["exit"][rc] = stats["exit"].get(rc, 0) + 1
                sig = _signature(res)
                if sig not in signatures and len(corpus) < MAX_CORPUS_ADDITIONS and len(case.data) <= MAX_CORPUS_INPUT:
                    signatures.add(sig)
                    corpus.append(case.data)
                for oracle, key, detail in found:
                    fkey = (oracle, key)
                    if fkey in findings:
                        findings[fkey].hits += 1
                        continue
                    log(f"[{runs}] new finding [{oracle}] {key}")
                    best, best_res = case, res
                    if minimize_findings:
                        budget = 3 if oracle == "timeout" else 60
                        mdeadline = max(deadline, time.monotonic() + 20) if oracle != "timeout" else \
                            time.monotonic() + 3 * timeout + 5

                        def still(c: Case, _key=fkey) -> bool:
                            r = execute(c, timeout)
                            return any((o, k) == _key for o, k, _ in judge(c, r, _reference()))

                        best = minimize(case, still, budget, mdeadline)
                        if best is not case:
                            best_res = execute(best, timeout)
                            if not any((o, k) == fkey for o, k, _ in judge(best, best_res, _reference())):
                                best, best_res = case, res  # flaky: keep the original
                    f = Finding(oracle, key, detail, best.data, best.flags, best.stdin, best_res.returncode,
                                best_res.stderr[-8000:], best_res.stdout.decode("utf-8", "replace")[:4000],
                                case.iteration, case.mutations, 1, len(case.data))
                    findings[fkey] = f
                    if out is not None:
                        save_finding(Path(out), f)
            bar.update(len(results))
            left = deadline - time.monotonic()
            bar.set_postfix_str(f"{len(findings)} findings, time limit in {max(left, 0):.0f} s", refresh=False)
    finally:
        bar.close()
        pool.shutdown(wait=True)
        for ref in _all_references:
            stats["reference_failures"] += ref.failures
            ref.close()
        _all_references.clear()
    stats["runs"] = runs
    stats["seconds"] = round(time.monotonic() - start, 1)
    result = list(findings.values())
    if out is not None:
        save_summary(Path(out), result, stats, seed)
    run.last_stats = stats  # type: ignore[attr-defined]
    return result


def _slug(f: Finding) -> str:
    return f"{f.oracle}-{hashlib.sha1(f.key.encode()).hexdigest()[:10]}"


def save_finding(out: Path, f: Finding) -> Path:
    d = out / _slug(f)
    d.mkdir(parents=True, exist_ok=True)
    (d / "input.mlir").write_bytes(f.input)
    (d / "command.txt").write_text(f.command() + "\n", encoding="utf-8")
    (d / "stderr.txt").write_text(f.stderr, encoding="utf-8", errors="replace")
    (d / "stdout.txt").write_text(f.stdout, encoding="utf-8", errors="replace")
    meta = {"oracle": f.oracle, "key": f.key, "detail": f.detail, "returncode": f.returncode, "flags": f.flags,
            "stdin": f.stdin, "iteration": f.iteration, "mutations": f.mutations, "hits": f.hits,
            "original_size": f.original_size, "minimized_size": len(f.input)}
    (d / "finding.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return d


def save_summary(out: Path, findings: list[Finding], stats: dict, seed: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for f in findings:  # hit counts are final now
        save_finding(out, f)
    summary = {"seed": seed, "stats": stats,
               "findings": [{"dir": _slug(f), "oracle": f.oracle, "key": f.key, "hits": f.hits,
                             "command": f.command()} for f in findings]}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m fuzz.opt_fuzz", description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--iterations", type=int, default=1000)
    p.add_argument("--time-limit", type=float, default=600.0, help="stop starting new inputs after this (s)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="a run longer than this is a hang (s)")
    p.add_argument("--out", default="fuzz-findings", help="directory for findings")
    p.add_argument("--no-minimize", action="store_true")
    p.add_argument("--seeds", default=None, help="seed directory of .mlir files (default: lit_tests/)")
    p.add_argument("--quiet", action="store_true", help="no progress bar and no log of findings as they come")
    p.add_argument("--reference-server", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.reference_server:
        _reference_server()
        return 0
    log = (lambda s: None) if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    findings = run(args.seed, args.iterations, args.time_limit, jobs=args.jobs, timeout=args.timeout, out=args.out,
                   minimize_findings=not args.no_minimize, log=log, seeds_dir=args.seeds, show_progress=not args.quiet)
    stats = getattr(run, "last_stats", {})
    for f in findings:
        print(f.summary())
        print(f"    {f.command(str(Path(args.out) / _slug(f) / 'input.mlir'))}")
    print(f"{len(findings)} findings in {stats.get('runs', '?')} runs ({stats.get('seconds', '?')} s; exit codes "
          f"{stats.get('exit', {})}; findings in {args.out})")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
