"""Retargeting a lowered program: what another promotion system would compute, where, and by how much.

Every program that reaches a compiler has been through one system's promotion rules, and JAX and
torch-mlir have written each promotion as a ``stablehlo.convert``: a policy has nothing left to
decide in such a module. :func:`lift` takes out exactly the converts that the writing system's
``implicit-cast`` would insert (the ``lift-implicit-casts`` pass) and gives back the mixed-dtype
program; :func:`retarget` lifts under one policy, decides under both, and legalises the program
under the other: the program as that system would have promoted it, with the ops whose dtype
differs (or that it refuses) and, through :meth:`Retargeted.run`, what the two versions compute.

    >>> import latticecast as lc
    >>> text = '''func.func @main(%t: tensor<4xi32>) -> tensor<4xf64> {
    ...   %0 = stablehlo.convert %t : (tensor<4xi32>) -> tensor<4xf64>
    ...   %c = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    ...   %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f64>) -> tensor<4xf64>
    ...   %2 = stablehlo.multiply %0, %1 : tensor<4xf64>
    ...   return %2 : tensor<4xf64>
    ... }'''
    >>> r = lc.retarget(text, from_="jax", to="torch")      # JAX with x64 wrote t * 0.5
    >>> [(c.op, c.this.name, c.other.name) for c in r.comparison.changes]
    [('stablehlo.multiply', 'float64', 'float32')]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

from jaxlib.mlir import ir

from ..dialect_utils.context import make_context
from ..dialect_utils.diagnostics import Diagnostic
from ..dialect_utils.parsing import parse_module
from ..errors import LatticecastError
from ..passes import ImplicitCastOptions, ImplicitCastPass, LiftOptions, LiftResult, run_lift
from ..passes.infer_types import Comparison, Program, compare
from ..policies import Policy, policy as get_policy

if TYPE_CHECKING:
    import numpy as np

    from .run import RunComparison

__all__ = ["lift", "retarget", "Retargeted", "RetargetError"]

ModuleLike = Union[ir.Module, str, bytes]
PolicyLike = Union[str, Policy]


class RetargetError(LatticecastError):
    """The target policy refuses the program: ``diagnostics`` names each op it refuses, with the fix."""

    def __init__(self, message: str, diagnostics: "list[Diagnostic]") -> None:
        super().__init__(message)
        self.diagnostics = diagnostics


def _policy(p: PolicyLike) -> Policy:
    return p if isinstance(p, Policy) else get_policy(p)


def _module(module: ModuleLike, source_name: str) -> tuple[ir.Module, str | None]:
    """``module`` as an ``ir.Module`` of latticecast's lenient context, and its text where it has one."""
    if isinstance(module, ir.Module):
        return module, None
    if isinstance(module, (str, bytes, bytearray, memoryview)):
        data = module if isinstance(module, str) else bytes(module)
        text = data if isinstance(data, str) else None
        return parse_module(data, make_context(lenient=True), lenient=True, source_name=source_name), text
    raise TypeError(f"expected an ir.Module or MLIR text, not {type(module).__name__}; parse text with "
                    f"latticecast.parse(text)")


def lift(module: ModuleLike, policy: PolicyLike = "jax", *, source_name: str = "-") -> ir.Module:
    """Take out of ``module`` the converts that ``policy``'s ``implicit-cast`` would insert: its
    mixed-dtype program (the ``lift-implicit-casts`` pass).

    ``implicit-cast`` under ``policy`` gives the module back exactly; every convert the program's
    author wrote (``astype``, a narrowing, one that feeds anything but the op that needed it) stays.

    Args:
        module: An ``ir.Module`` (lifted in place: JAX's ``lowered.compiler_ir("stablehlo")`` works), or
            MLIR text or bytecode (parsed into a new module).
        policy: The policy that wrote the module's promotions: a registered name (``"jax"``,
            ``"jax-x32"``, ``"torch"``, ...) or a :class:`~latticecast.Policy`.
        source_name: For text: the file name its locations give it.

    Returns:
        The lifted module (mixed, so StableHLO's verifier rejects it: ``str()`` prints it in the generic
        form, which :func:`latticecast.parse` reads back).

    Raises:
        UnknownPolicyError: ``policy`` names no registered policy.
        MLIRParseError: The text does not parse.

    Example:
        >>> import latticecast as lc
        >>> m = lc.lift('''func.func @main(%a: tensor<2xi8>, %b: tensor<2xf32>) -> tensor<2xf32> {
        ...   %0 = stablehlo.convert %a : (tensor<2xi8>) -> tensor<2xf32>
        ...   %1 = stablehlo.add %0, %b : tensor<2xf32>
        ...   return %1 : tensor<2xf32>
        ... }''', "jax")
        >>> print(m.operation.get_asm(print_generic_op_form=True).count("stablehlo.convert"))
        0
        >>> print(lc.run_pipeline(str(m), "implicit-cast{policy=jax}").module)
        module {
          func.func @main(%arg0: tensor<2xi8>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
            %0 = stablehlo.convert %arg0 : (tensor<2xi8>) -> tensor<2xf32>
            %1 = stablehlo.add %0, %arg1 : tensor<2xf32>
            return %1 : tensor<2xf32>
          }
        }
        <BLANKLINE>
    """
    parsed, _ = _module(module, source_name)
    run_lift(parsed, LiftOptions(policy=_policy(policy)))
    return parsed


@dataclass
class Retargeted:
    """A program retargeted from one policy to another: what :func:`retarget` made.

    Attributes:
        source: The program as given (legal: ``source_policy`` wrote its promotions).
        lifted: The mixed-dtype program (:func:`lift` of ``source``).
        lift: What lifting took out.
        comparison: The lifted program under both policies: every op whose dtype differs, or that one
            refuses (:class:`~latticecast.passes.infer_types.Comparison`).
        source_policy: The policy the program was written under (``from_``).
        target_policy: The policy it was retargeted to (``to``).
        errors: Where ``target_policy`` refuses the program (empty when it legalises it).
        text: The MLIR text ``source`` was read from (``None`` for a module or bytecode).
        source_name: Its file name.
    """

    source: ir.Module
    lifted: ir.Module
    lift: LiftResult
    comparison: Comparison
    source_policy: Policy
    target_policy: Policy
    errors: list[Diagnostic] = field(default_factory=list)
    text: str | None = None
    source_name: str = "-"
    _module: ir.Module | None = None

    @property
    def module(self) -> ir.Module:
        """The program as ``target_policy`` promotes it: legal StableHLO.

        Raises:
            RetargetError: ``target_policy`` refuses an op of the program (``errors`` lists them).
        """
        if self._module is None:
            lines = "\n  ".join(d.format() for d in self.errors)
            raise RetargetError(f"policy '{self.target_policy.name}' refuses the program:\n  {lines}", self.errors)
        return self._module

    def __str__(self) -> str:
        return str(self.module)

    def run(self, inputs: "list[np.ndarray] | dict[str, np.ndarray] | None" = None, *,
            seed: int = 0, device: str = "cpu") -> "RunComparison":
        """Run the program as written and as retargeted on the same inputs, and compare the outputs.

        Args:
            inputs: The inputs of ``@main`` (a list, or a mapping by name or ``argN`` as an ``.npz`` file
                holds them); default: drawn from ``seed``.
            seed: The seed of the drawn inputs.
            device: Where to run both.

        Returns:
            Per output: the dtype and shape under each policy, the largest absolute and relative
            difference, how many elements differ; and the first op, in program order, where values
            start to differ (:class:`~latticecast.retargeting.run.RunComparison`).

        Raises:
            RetargetError: ``target_policy`` refuses the program.
        """
        from .run import run_both

        return run_both(self, inputs, seed=seed, device=device)


def retarget(module: ModuleLike, *, from_: PolicyLike = "jax", to: PolicyLike = "torch",
             source_name: str = "-") -> Retargeted:
    """The program ``from_`` wrote, as ``to`` would have promoted it: lift under ``from_``, decide under
    both, and legalise under ``to``.

    Args:
        module: A legal module (an ``ir.Module``, left as it is; or MLIR text or bytecode) whose
            promotions ``from_`` wrote: JAX's ``lowered.as_text()``, torch-mlir's output.
        from_: The policy that wrote it (a registered name or a :class:`~latticecast.Policy`).
        to: The policy to retarget it to.
        source_name: For text: the file name its locations give it.

    Returns:
        The :class:`Retargeted` program: its ``comparison`` lists every op whose dtype differs between
        the two policies (``this`` is ``from_``'s dtype, ``other`` is ``to``'s; ``None`` where the
        policy refuses the op), ``module`` is the program under ``to``, ``run()`` runs both.

    Raises:
        UnknownPolicyError: A policy name is not registered.
        MLIRParseError: The text does not parse.

    Example:
        >>> import latticecast as lc
        >>> r = lc.retarget('''func.func @main(%t: tensor<4xi32>, %u: tensor<4xui32>) -> tensor<4xi64> {
        ...   %0 = stablehlo.convert %t : (tensor<4xi32>) -> tensor<4xi64>
        ...   %1 = stablehlo.convert %u : (tensor<4xui32>) -> tensor<4xi64>
        ...   %2 = stablehlo.add %0, %1 : tensor<4xi64>
        ...   return %2 : tensor<4xi64>
        ... }''', from_="jax", to="torch")
        >>> [(c.op, c.this.name, c.other) for c in r.comparison.changes]     # PyTorch refuses i32 + u32
        [('stablehlo.add', 'int64', None)]
        >>> print(r.errors[0].message.split(":")[0])
        'stablehlo.add' op no implicit promotion of i32 and u32 under policy 'torch'
    """
    source_p, target_p = _policy(from_), _policy(to)
    source, text = _module(module, source_name)
    lifted = _clone(source)  # the caller's module stays as it is
    result = run_lift(lifted, LiftOptions(policy=source_p))
    comparison = compare(result.program or Program(lifted, result.sites), source_p, target_p)
    target = _clone(lifted)
    errors = _legalise(target, target_p)
    return Retargeted(source, lifted, result, comparison, source_p, target_p, errors, text, source_name,
                      None if errors else target)


def _clone(module: ir.Module) -> ir.Module:
    """A copy of ``module`` in its context (a mixed one too), locations and all."""
    with module.context:
        copy = ir.Module.create(loc=module.operation.location)
    for attr in module.operation.attributes:
        copy.operation.attributes[attr] = module.operation.attributes[attr]
    ip = ir.InsertionPoint(copy.body)
    for op in module.body.operations:
        op.clone(ip=ip)
    return copy


def _legalise(module: ir.Module, target: Policy) -> list[Diagnostic]:
    """``implicit-cast{retype-results}`` under ``target`` on ``module``, in place (each promoted op's result
    takes the type ``target`` gives it); the errors where it refuses."""
    from jaxlib.mlir import passmanager

    cast = ImplicitCastPass(ImplicitCastOptions(policy=target, retype_results=True))
    with module.context:
        pm = passmanager.PassManager("builtin.module")
    cast.add_to(pm)
    pm.enable_verifier(True)
    caught: list[Diagnostic] = []

    def handler(d: "ir.Diagnostic") -> bool:
        caught.append(Diagnostic.from_mlir(d))
        return True

    handle = module.context.attach_diagnostic_handler(handler)
    assert isinstance(handle, ir.DiagnosticHandler)  # object in jaxlib's stubs
    try:
        pm.run(module.operation)
    except ir.MLIRError as e:
        errors = [d for d in cast.diagnostics if d.severity == "error"]
        return errors or [Diagnostic.from_mlir(d) for d in e.error_diagnostics]
    finally:
        handle.detach()
    return []
