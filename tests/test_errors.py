"""One error root: every exception class latticecast defines is a LatticecastError, keeps its builtin
bases, and says what went wrong (PromotionError vs DomainError); the CLIs' exit codes come from one table."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import latticecast as lc
from latticecast import DType, Graph, TensorType
from latticecast.cli import exit_codes
from latticecast.cli.exit_codes import EXIT_FAILURE, EXIT_TABLE, EXIT_USAGE, LATTICECAST, LATTICECAST_OPT


def _exception_classes() -> dict[type[BaseException], str]:
    """Every exception class defined in a module of latticecast (warnings are categories, not errors)."""
    found: dict[type[BaseException], str] = {}
    for info in pkgutil.walk_packages(lc.__path__, "latticecast."):
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue  # running it is its only job
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            if inspect.isclass(obj) and issubclass(obj, BaseException) and obj.__module__ == info.name \
                    and not issubclass(obj, Warning):
                found[obj] = info.name
    return found


def test_every_latticecast_exception_derives_from_the_root() -> None:
    classes = _exception_classes()
    assert len(classes) >= 25  # the walk does find them (PromotionError ... the CLIs' own)
    orphans = [f"{module}.{cls.__name__}" for cls, module in classes.items()
               if not issubclass(cls, lc.LatticecastError)]
    assert orphans == [], f"derive these from latticecast.LatticecastError: {orphans}"


def test_the_walk_finds_every_layer() -> None:
    names = {cls.__name__ for cls in _exception_classes()}
    assert {"PromotionError", "DomainError", "LiteralRangeError", "GraphError", "UnknownDTypeError", "LatticeError",
            "TableFormatError", "MLIRParseError", "PassOptionError", "PipelineError", "PassFailure", "CompileError",
            "InputShapeError", "DeviceCountError", "CliError", "OptError", "UsageError"} <= names


@pytest.mark.parametrize("name, builtins", [
    ("PromotionError", (TypeError, ValueError)), ("LiteralRangeError", (TypeError, OverflowError, ValueError)),
    ("DomainError", (TypeError,)), ("OperandDTypeError", (TypeError, ValueError)),
    ("GraphTypeError", (ValueError, TypeError)), ("UnknownPolicyError", (KeyError, ValueError)),
    ("GraphError", (ValueError,)), ("NoCurrentGraphError", (ValueError, LookupError)),
    ("RegionTypeError", (ValueError, TypeError)),
    ("AxisError", (ValueError, IndexError)),
    ("UnknownDTypeError", (ValueError, TypeError)), ("LatticeError", (ValueError,)),
    ("TableFormatError", (ValueError,)), ("MLIRParseError", (ValueError,)), ("PassFailure", (RuntimeError,)),
    ("CompileError", (RuntimeError,)), ("InputShapeError", (TypeError, ValueError)),
    ("DeviceNotFoundError", (RuntimeError,)), ("UnsupportedModuleError", (ValueError,)),
])
def test_errors_keep_their_builtin_bases(name: str, builtins: tuple[type, ...]) -> None:
    cls = getattr(lc, name)
    assert issubclass(cls, lc.LatticecastError)
    for base in builtins:
        assert issubclass(cls, base), f"{name} is no longer a {base.__name__}: except {base.__name__} would break"


def test_the_root_is_exported_and_listed() -> None:
    assert "LatticecastError" in lc.__all__ and "DomainError" in lc.__all__
    assert lc.LatticecastError is lc.errors.LatticecastError
    assert issubclass(lc.LatticecastRuntimeError, lc.LatticecastError)


def test_a_domain_error_is_not_a_promotion_error() -> None:
    """``-bool`` is an op outside its domain, not a refused promotion; ``int8 + uint64`` under the
    Array API is a refused promotion."""
    with Graph("d", input_types=[TensorType(DType.bool, [2]), TensorType(DType.int32, [2]),
                                 TensorType(DType.float32, [2])]) as g:
        b, i, f = g.inputs
        for bad, message in ((lambda: -b, "unary - is not defined for bool"),
                             (lambda: i & f, "&: needs integer or bool operands"),
                             (lambda: lc.ops.where(i, i, i), "where needs a bool condition")):
            with pytest.raises(lc.DomainError, match=message) as info:
                bad()
            assert not isinstance(info.value, lc.PromotionError)
            assert isinstance(info.value, TypeError)
    with pytest.raises(lc.PromotionError) as refused:
        lc.policy("array-api").promote_types(DType.int8, DType.uint64)
    assert not isinstance(refused.value, lc.DomainError)
    with pytest.raises(lc.DomainError, match="implementation-defined"):
        lc.policy("array-api").op_types.true_divide(DType.int32)


def test_the_pass_reports_a_domain_error_at_the_op(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from latticecast.cli.opt import main as opt_main

    path = tmp_path / "and.mlir"
    path.write_text("""func.func @f(%a: tensor<2xi32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.and"(%a, %b) : (tensor<2xi32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
""")
    assert opt_main([str(path), "--implicit-cast"]) == EXIT_FAILURE
    err = capsys.readouterr().err
    assert f"{path}:2:8: error: 'stablehlo.and' op needs integer or bool operands" in err


# -- the exit-code table ---------------------------------------------------------------------------------


def test_the_exit_code_table_ends_with_the_root() -> None:
    assert EXIT_TABLE[-1].error == "latticecast.errors.LatticecastError"
    for rule in EXIT_TABLE:  # every row names a class that exists
        module, _, name = rule.error.rpartition(".")
        assert issubclass(getattr(importlib.import_module(module), name), lc.LatticecastError)


@pytest.mark.parametrize("error, latticecast, opt", [
    (exit_codes.UsageError("no such option"), EXIT_USAGE, EXIT_USAGE),
    (lc.UnknownPolicyError("unknown policy 'jaxx'"), EXIT_USAGE, EXIT_FAILURE),
    (lc.TableFormatError("t.csv:1:2: unknown dtype"), EXIT_USAGE, EXIT_FAILURE),
    (lc.PromotionError("no implicit promotion"), EXIT_USAGE, EXIT_FAILURE),
    (lc.DomainError("unary - is not defined for bool"), EXIT_USAGE, EXIT_FAILURE),
    (lc.PassFailure("implicit-cast rejected graph", []), EXIT_FAILURE, EXIT_FAILURE),
    (lc.CompileError("XLA says no"), EXIT_FAILURE, EXIT_FAILURE),
])
def test_exit_codes_per_tool(error: lc.LatticecastError, latticecast: int, opt: int) -> None:
    assert exit_codes.exit_code(error, LATTICECAST) == latticecast
    assert exit_codes.exit_code(error, LATTICECAST_OPT) == opt


def test_report_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = exit_codes.report(exit_codes.UsageError("bad\n  option"), LATTICECAST_OPT)
    assert code == EXIT_USAGE
    assert capsys.readouterr().err == "latticecast-opt: error: bad option (see 'latticecast-opt --help')\n"


def test_both_tools_use_the_table() -> None:
    """Neither tool keeps exit codes or an error list of its own."""
    for name in ("latticecast.cli.main", "latticecast.cli.opt.driver"):
        module = importlib.import_module(name)
        source = inspect.getsource(module)
        assert "exit_codes import" in source and "report(e, PROG)" in source
        assert "USER_ERRORS" not in source and "EXIT_USAGE = " not in source
