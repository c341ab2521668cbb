"""A pytest plugin that runs a peer's own promotion tests with latticecast deciding the promotions.

``tools/peer_suites.py`` runs pytest on a peer's test files (read from its checkout, never copied
into the project) with ``-p peer_standins``. This plugin then

* replaces the peer library's promotion functions with **stand-ins** that ask latticecast, under the
  policy that models the library in its current configuration, and answer in the library's own types
  and exceptions (``jax._src.dtypes.lattice_result_type``, ``np.result_type``, ``torch.add``, ...).
  Where latticecast cannot express an argument (NumPy's ``longdouble``, a string dtype, PyTorch's
  ``complex32``), the stand-in lets the library answer and says why;
* makes the tests' assertions **soft**: each one is recorded and the test goes on, so that one
  disagreement does not hide the next. A plain ``assert`` in the peer's files is rewritten when the
  module is imported (pytest's own rewriting is off: ``--assert=plain``); ``unittest`` assertions,
  ``numpy.testing``'s and ``pytest.raises`` are replaced;
* counts a **cell** for every assertion made after the test asked a stand-in something (since the
  previous assertion): it agrees, disagrees, or is not expressible (a stand-in had to let the library
  answer). An assertion that compares two tables of equal shape counts one cell per entry.

The report (``$PEER_REPORT``, JSON) lists every test with its cells; ``peer_suites.py`` prints it.
"""

from __future__ import annotations

import ast
import builtins
import importlib.abc
import importlib.machinery
import json
import os
import re
import sys
import types
import unittest
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

SUITE = os.environ.get("PEER_SUITE", "")
ROOT = Path(os.environ.get("PEER_ROOT", "/nonexistent")).resolve()
REPORT = os.environ.get("PEER_REPORT")


# -- the recorder ----------------------------------------------------------------------------------


@dataclass
class TestRecord:
    nodeid: str
    agree: int = 0
    disagree: int = 0
    inexpressible: int = 0
    asked: int = 0
    other_failures: int = 0
    message_differs: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    outcome: str = ""
    error: str = ""


class Recorder:
    """What the stand-ins were asked since the last assertion, and the cells of the running test."""

    def __init__(self) -> None:
        self.tests: list[TestRecord] = []
        self.current: TestRecord | None = None
        self.asked_since = 0
        self.inexpressible_since: list[str] = []
        self.inside = False

    def start(self, nodeid: str) -> None:
        self.current = TestRecord(nodeid)
        self.tests.append(self.current)
        self.asked_since = 0
        self.inexpressible_since = []

    def asked(self, inexpressible: str | None = None) -> None:
        """A stand-in was called (from the peer's test); ``inexpressible`` says why latticecast could not
        answer, when it could not."""
        if self.current is None:
            return
        self.current.asked += 1
        self.asked_since += 1
        if inexpressible:
            self.inexpressible_since.append(inexpressible)

    def check(self, ok: bool, message: Callable[[], str], *, cells: int = 1, bad: int | None = None,
              message_only: bool = False) -> None:
        """One assertion: ``ok``, over ``cells`` cells (``bad`` of them wrong, for a table)."""
        t = self.current
        if t is None:
            return
        if self.asked_since == 0:
            if not ok:
                t.other_failures += 1
                if len(t.failures) < 5:
                    t.failures.append("(not a promotion) " + _safe(message))
            return
        if self.inexpressible_since:
            t.inexpressible += cells
            for why in set(self.inexpressible_since):
                t.reasons[why] = t.reasons.get(why, 0) + cells
        else:
            wrong = (0 if ok else cells) if bad is None else bad
            t.agree += cells - wrong
            t.disagree += wrong
            if message_only:
                t.message_differs += cells
            if wrong and len(t.failures) < 10:
                t.failures.append(_safe(message))
        self.asked_since = 0
        self.inexpressible_since = []


def _safe(message: Callable[[], str]) -> str:
    try:
        return str(message())[:600]
    except Exception as e:  # noqa: BLE001 - a message that cannot be made is still a failure
        return f"<message failed: {e!r}>"


RECORDER = Recorder()


class Inexpressible(Exception):
    """latticecast has no such type or value; the library answers instead."""


# -- soft assertions ---------------------------------------------------------------------------------


def _table_cells(a: Any, b: Any) -> tuple[int, int] | None:
    """(cells, wrong) when ``a`` and ``b`` are equal-shaped tables (lists of lists), else ``None``."""
    if isinstance(a, list) and isinstance(b, list) and a and len(a) == len(b) and \
            all(isinstance(r, list) for r in a + b) and all(len(x) == len(y) for x, y in zip(a, b)):
        cells = sum(len(r) for r in a)
        wrong = sum(x != y for ra, rb in zip(a, b) for x, y in zip(ra, rb))
        return cells, wrong
    return None


def peer_check(value: Any, message: Callable[[], Any] | None = None, where: str = "") -> None:
    """What a rewritten ``assert value, message`` calls."""
    ok = bool(value)
    RECORDER.check(ok, lambda: f"{where}: assert failed" + (f": {message()}" if message else ""))


class _AssertRewriter(ast.NodeTransformer):
    def __init__(self, filename: str) -> None:
        self.filename = filename

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        where = f"{Path(self.filename).name}:{node.lineno}: {ast.unparse(node.test)[:200]}"
        args: list[ast.expr] = [node.test]
        if node.msg is not None:
            args.append(ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                                                      defaults=[]), body=node.msg))
        else:
            args.append(ast.Constant(None))
        args.append(ast.Constant(where))
        call = ast.Expr(ast.Call(func=ast.Name("__peer_check__", ast.Load()), args=args, keywords=[]))
        return ast.copy_location(call, node)


class _RewritingLoader(importlib.machinery.SourceFileLoader):
    def source_to_code(self, data: Any, path: Any, *, _optimize: int = -1) -> Any:  # type: ignore[override]
        tree = ast.parse(data, filename=str(path))
        tree = ast.fix_missing_locations(_AssertRewriter(str(path)).visit(tree))
        return compile(tree, str(path), "exec", dont_inherit=True)


class _PeerFinder(importlib.abc.MetaPathFinder):
    """Imports the peer's files (under ``$PEER_ROOT``) with their asserts made soft."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
            return None
        try:
            Path(spec.origin).resolve().relative_to(ROOT)
        except ValueError:
            return None
        spec.loader = _RewritingLoader(fullname, spec.origin)
        return spec


def _from_peer(depth: int = 2) -> bool:
    """Whether the stand-in's caller is the peer's own code (not the library calling itself)."""
    frame = sys._getframe(depth)
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith(str(ROOT)):
            return True
        if "site-packages" not in filename and "peer_standins" not in filename:
            return False
        frame = frame.f_back  # type: ignore[assignment]
    return False


class _SoftRaises:
    """``with assertRaises(E):`` / ``pytest.raises(E, match=...)`` made soft: recorded, never raised."""

    def __init__(self, expected: Any, regex: str | None = None) -> None:
        self.expected = expected
        self.regex = regex
        self.exception: BaseException | None = None
        self.value: BaseException | None = None

    def __enter__(self) -> "_SoftRaises":
        return self

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> bool:
        if exc is None:
            RECORDER.check(False, lambda: f"expected {self.expected!r} to be raised; nothing was")
            return False
        if not isinstance(exc, self.expected):
            RECORDER.check(False, lambda: f"expected {self.expected!r}, got {type(exc).__name__}: {exc}")
            return True
        self.exception = self.value = exc
        if self.regex is not None and not re.search(self.regex, str(exc)):
            RECORDER.check(True, lambda: f"refused as expected, with latticecast's words: {exc}", message_only=True)
        else:
            RECORDER.check(True, lambda: "")
        return True


_ASSERTIONS = ("assertEqual", "assertEquals", "assertNotEqual", "assertTrue", "assertFalse", "assertIs",
               "assertIsNot", "assertIn", "assertIsInstance", "assertAlmostEqual")


def _soften(cls: type) -> None:
    """A unittest test case's assertions made soft, each by its own class's comparison (PyTorch's
    ``assertEqual`` compares dtypes too): a failing one is recorded, and the test goes on."""
    if cls.__dict__.get("_peer_softened"):
        return
    for name in _ASSERTIONS:
        original = getattr(cls, name, None)
        if original is None:
            continue

        def method(self: Any, *args: Any, __original: Callable[..., Any] = original, __name: str = name,
                   **kwargs: Any) -> None:
            if RECORDER.inside:  # an assertion the framework's own assertion makes: judged by the outer one
                return __original(self, *args, **kwargs)
            if __name == "assertEqual" and len(args) >= 2:
                table = _table_cells(args[0], args[1])
                if table is not None:
                    cells, wrong = table
                    RECORDER.check(wrong == 0, lambda: f"{wrong} of {cells} table cells differ", cells=cells,
                                   bad=wrong)
                    return
            RECORDER.inside = True
            try:
                __original(self, *args, **kwargs)
            except AssertionError as e:
                RECORDER.check(False, lambda e=e: f"{__name}: {e}")  # type: ignore[misc]
                return
            except Exception as e:  # noqa: BLE001 - a comparison that raises is a failed assertion
                RECORDER.check(False, lambda e=e: f"{__name} raised {type(e).__name__}: {e}")  # type: ignore[misc]
                return
            finally:
                RECORDER.inside = False
            RECORDER.check(True, lambda: "")
        setattr(cls, name, method)

    def fail(self: Any, msg: Any = None) -> None:
        RECORDER.check(False, lambda: f"fail: {msg}")

    def raises(self: Any, expected: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs.pop("msg", None)
        if not args:
            return _SoftRaises(expected)
        with _SoftRaises(expected):
            args[0](*args[1:], **kwargs)
        return None

    def raises_regex(self: Any, expected: Any, regex: str, *args: Any, **kwargs: Any) -> Any:
        kwargs.pop("msg", None)
        if not args:
            return _SoftRaises(expected, regex)
        with _SoftRaises(expected, regex):
            args[0](*args[1:], **kwargs)
        return None

    cls.fail = fail  # type: ignore[attr-defined]
    cls.assertRaises = raises  # type: ignore[attr-defined]
    cls.assertRaisesRegex = raises_regex  # type: ignore[attr-defined]
    cls._peer_softened = True  # type: ignore[attr-defined]


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) < 120 else text[:117] + "..."


def _soft_numpy_testing() -> None:
    import numpy.testing as npt

    def equal(actual: Any, desired: Any, err_msg: str = "", *a: Any, **k: Any) -> None:
        try:
            _ORIGINAL_ASSERT_EQUAL(actual, desired)
            ok = True
        except AssertionError:
            ok = False
        RECORDER.check(ok, lambda: f"assert_equal({_short(actual)}, {_short(desired)}) {err_msg}")

    def assert_(val: Any, msg: str = "") -> None:
        RECORDER.check(bool(val), lambda: f"assert_ failed {msg}")

    global _ORIGINAL_ASSERT_EQUAL
    _ORIGINAL_ASSERT_EQUAL = npt.assert_equal
    npt.assert_equal = equal
    npt.assert_ = assert_


_ORIGINAL_ASSERT_EQUAL: Callable[..., Any] = lambda *a: None  # noqa: E731 - set by _soft_numpy_testing


def _soft_pytest_raises() -> None:
    real = pytest.raises

    def raises(expected: Any, *args: Any, match: str | None = None, **kwargs: Any) -> Any:
        if args:
            return real(expected, *args, match=match, **kwargs)
        return _SoftRaises(expected, match)

    pytest.raises = raises  # type: ignore[assignment]


# -- stand-ins: latticecast answering for a library ---------------------------------------------------


def _lc() -> Any:
    import latticecast
    return latticecast


def jax_standins() -> None:
    """``jax._src.dtypes``' promotion functions answered by policy jax / jax-x32 / jax-strict."""
    import jax
    import numpy as np
    from jax._src import dtypes as jdt

    lc = _lc()
    from latticecast.promotion.weak import Weak

    real = {name: getattr(jdt, name) for name in ("promote_types", "lattice_result_type", "result_type")}

    def policy() -> Any:
        strict = str(jax.config.jax_numpy_dtype_promotion) == "strict"
        x64 = bool(jax.config.jax_enable_x64)
        if strict and not x64:
            raise Inexpressible("strict promotion with x64 off: latticecast's jax-strict is JAX's x64 lattice")
        return lc.policy("jax-strict" if strict else "jax" if x64 else "jax-x32")

    def ptype(x: Any, *, as_type: bool = False) -> Any:
        if x is None:
            x = float
        if isinstance(x, type) and x in (int, float, complex):
            return lc.weak({int: "int64", float: "float64", complex: "complex128"}[x])
        if isinstance(x, type) and x is bool:
            return lc.DType.bool
        if isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic):
            return policy().literals.type_of(x)
        try:
            d = lc.DType.parse(np.dtype(jdt.dtype(x)))
        except Exception as e:  # noqa: BLE001 - an extended dtype (PRNG keys, float0) or no dtype
            raise Inexpressible(f"an operand latticecast has no type for ({type(x).__name__})") from e
        return Weak(d) if not as_type and jdt.is_weakly_typed(x) else d

    def to_jax(t: Any) -> tuple[Any, bool]:
        weak = isinstance(t, Weak)
        return np.dtype((t.dtype if weak else t).np_dtype), weak

    def refuse(e: Exception) -> Exception:
        return jdt.TypePromotionError(f"latticecast: {e}")

    def answer(name: str, compute: Callable[[], Any], *args: Any, **kwargs: Any) -> Any:
        try:
            got = compute()
        except Inexpressible as e:
            RECORDER.asked(str(e))
            return real[name](*args, **kwargs)
        except lc.PromotionError as e:
            RECORDER.asked()
            raise refuse(e) from None
        RECORDER.asked()
        return got

    def promote_types(a: Any, b: Any) -> Any:
        """``jax.dtypes.promote_types``: the join on the lattice of the dtypes as given (not canonicalised:
        with x64 off, ``promote_types(int8, complex128)`` is complex128); a weak result is
        ``np.dtype(int)`` (or float, complex): the 64-bit default."""
        def compute() -> Any:
            strict = str(jax.config.jax_numpy_dtype_promotion) == "strict"
            pol = lc.policy("jax-strict" if strict else "jax" if jax.config.jax_enable_x64 else "jax-x32")

            def node(x: Any) -> Any:
                if isinstance(x, type) and x in (int, float, complex):
                    return pol.weak_nodes[{int: lc.Kind.SIGNED, float: lc.Kind.FLOAT, complex: lc.Kind.COMPLEX}[x]]
                try:
                    return lc.DType.parse(np.dtype(x))
                except Exception as e:  # noqa: BLE001 - an extended dtype
                    raise Inexpressible(f"a dtype latticecast does not have ({x!r})") from e
            found = pol.lattice.join(node(a), node(b))
            if found is None:
                raise lc.PromotionError(f"no type lies above {a} and {b} on the {pol.name} lattice")
            if isinstance(found, Weak):
                return np.dtype({"i": "int64", "u": "int64", "f": "float64", "c": "complex128"}[found.dtype.kind.code])
            return np.dtype(found.np_dtype)
        return answer("promote_types", compute, a, b)

    def lattice_result_type(*args: Any) -> Any:
        def compute() -> Any:
            pol = policy()
            return to_jax(pol.lattice_result_type(*(ptype(a) for a in args)))
        return answer("lattice_result_type", compute, *args)

    def result_type(*args: Any, return_weak_type_flag: bool = False) -> Any:
        def compute() -> Any:
            pol = policy()
            dtype, weak = to_jax(pol.result_type(*(ptype(a) for a in args)))
            return (dtype, weak) if return_weak_type_flag else dtype
        return answer("result_type", compute, *args, return_weak_type_flag=return_weak_type_flag)

    jdt.promote_types = promote_types
    jdt.lattice_result_type = lattice_result_type
    jdt.result_type = result_type
    import jax.numpy as jnp
    jnp.promote_types = promote_types
    jnp.result_type = result_type
    jax.dtypes.result_type = result_type  # type: ignore[attr-defined]


def numpy_standins() -> None:
    """``np.result_type`` and ``np.promote_types`` answered by policy numpy (called from the peer's
    tests; NumPy's own code calling them gets NumPy's answer)."""
    import numpy as np

    lc = _lc()
    real_result_type, real_promote_types = np.result_type, np.promote_types
    pol = lc.policy("numpy")

    def arg(x: Any) -> Any:
        if x is None:
            raise Inexpressible("np.result_type(None) (the default dtype, not a promotion)")
        if isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic):
            if isinstance(x, int) and not isinstance(x, bool) and not -2**63 <= x < 2**64:
                raise Inexpressible("a Python int beyond 64 bits (NumPy makes it an object array)")
            return x
        try:
            dtype = np.dtype(x.dtype if isinstance(x, (np.ndarray, np.generic)) else x)
        except TypeError as e:
            raise Inexpressible(f"no NumPy dtype ({type(x).__name__})") from e
        if dtype.kind not in "biufc" and getattr(dtype.type, "__module__", "") != "ml_dtypes":
            what = {"U": "strings (U)", "S": "bytes (S)", "O": "object", "m": "timedelta64", "M": "datetime64",
                    "V": "structured, void and user dtypes (rational)", "T": "StringDType"}.get(dtype.kind, dtype.kind)
            raise Inexpressible(f"NumPy's {what} dtypes: latticecast promotes numbers only")
        if dtype.kind in "fc" and dtype.itemsize * 8 > (64 if dtype.kind == "f" else 128):
            raise Inexpressible("longdouble and clongdouble: latticecast has no 80/128-bit float")
        if dtype.metadata:
            raise Inexpressible("dtype metadata (latticecast's types carry none)")
        if isinstance(x, (np.ndarray, np.generic)):
            return x
        return dtype

    def answer(real: Callable[..., Any], compute: Callable[[], Any], *args: Any) -> Any:
        if not _from_peer(3):
            return real(*args)
        try:
            got = compute()
        except Inexpressible as e:
            RECORDER.asked(str(e))
            return real(*args)
        except lc.PromotionError as e:
            RECORDER.asked()
            raise np.exceptions.DTypePromotionError(f"latticecast: {e}") from None
        except lc.UnknownDTypeError as e:
            RECORDER.asked(f"a dtype latticecast does not have ({e})")
            return real(*args)
        RECORDER.asked()
        return got

    def result_type(*args: Any) -> Any:
        return answer(real_result_type,
                      lambda: np.dtype(lc.result_type(*(arg(a) for a in args), policy=pol).np_dtype), *args)

    def promote_types(a: Any, b: Any) -> Any:
        def compute() -> Any:
            x, y = arg(np.dtype(a)), arg(np.dtype(b))
            return np.dtype(lc.promote_types(x, y, policy=pol).np_dtype)
        return answer(real_promote_types, compute, a, b)

    np.result_type = result_type  # type: ignore[assignment]
    np.promote_types = promote_types  # type: ignore[assignment]


def array_api_namespace_for_tests() -> types.ModuleType:
    """The array namespace array-api-tests runs on: NumPy's (NumPy 2 implements the standard), with
    ``result_type`` answered by policy array-api, which is what the promotion tests ask."""
    import numpy as np

    lc = _lc()
    ns = types.ModuleType("peer_array_api")
    for name in dir(np):
        if not name.startswith("__"):
            setattr(ns, name, getattr(np, name))
    ns.__array_api_version__ = "2024.12"  # type: ignore[attr-defined]
    ns.__version__ = np.__version__  # type: ignore[attr-defined]
    pol = lc.policy("array-api")

    def result_type(*arrays_and_dtypes: Any) -> Any:
        try:
            found = lc.result_type(*(a if isinstance(a, (np.ndarray, bool, int, float, complex)) else np.dtype(a)
                                     for a in arrays_and_dtypes), policy=pol)
        except lc.PromotionError as e:
            RECORDER.asked()
            raise TypeError(f"latticecast: {e}") from None
        RECORDER.asked()
        return np.dtype(found.np_dtype)

    ns.result_type = result_type  # type: ignore[attr-defined]
    return ns


def __getattr__(name: str) -> Any:
    """``array_api_namespace`` is made on first use (``ARRAY_API_TESTS_MODULE=peer_standins.array_api_namespace``)."""
    if name == "array_api_namespace":
        made = array_api_namespace_for_tests()
        globals()[name] = made
        return made
    raise AttributeError(name)


STANDINS: dict[str, Callable[[], None]] = {"jax": jax_standins, "numpy": numpy_standins,
                                          "array-api-tests": lambda: None}


# -- pytest hooks ------------------------------------------------------------------------------------


def pytest_configure(config: Any) -> None:
    sys.meta_path.insert(0, _PeerFinder())
    builtins.__peer_check__ = peer_check  # type: ignore[attr-defined]
    _soft_pytest_raises()
    try:
        _soft_numpy_testing()
    except ImportError:
        pass
    if SUITE == "torch":
        import peer_torch_standins
        peer_torch_standins.install(RECORDER, Inexpressible)
    else:
        STANDINS[SUITE]()
    from hypothesis import settings
    settings.register_profile("peers", derandomize=True, deadline=None, database=None,
                              max_examples=int(os.environ.get("PEER_EXAMPLES", "200")))
    settings.load_profile("peers")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Iterator[None]:
    RECORDER.start(item.nodeid)
    cls = getattr(item, "cls", None)
    if isinstance(cls, type) and issubclass(cls, unittest.TestCase):
        _soften(cls)
    yield


def pytest_runtest_logreport(report: Any) -> None:
    t = RECORDER.current
    if t is None or t.nodeid != report.nodeid:
        return
    if report.when == "call" or report.failed or report.skipped:
        if report.failed:
            t.outcome = "error"
            t.error = str(report.longrepr)[-1500:]
        elif report.skipped and not t.outcome:
            t.outcome = "skipped"
            t.error = str(report.longrepr)[-300:]
        elif report.when == "call":
            t.outcome = "ran"


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    if REPORT:
        Path(REPORT).write_text(json.dumps([vars(t) for t in RECORDER.tests], indent=1))
