"""Every error latticecast raises derives from :class:`LatticecastError`, defined here.

``except latticecast.LatticecastError`` catches every mistake latticecast reports, from any layer.
The subclasses say what went wrong:

- :class:`PromotionError`: no implicit promotion is defined for the operand types;
  :class:`LiteralRangeError`, one of them: a Python literal its promoted dtype cannot hold.
- :class:`DomainError`: the op is not defined for its operands' dtype (unary ``-`` of bool, ``&``
  of floats); no promotion was refused.
- :class:`UnknownPolicyError`, ``UnknownDTypeError`` and ``NoStableHLOTypeError``
  (:mod:`latticecast.promotion.dtypes`): a name that is no policy or dtype, a dtype StableHLO cannot hold.
- ``LatticeError`` (:mod:`latticecast.promotion.lattice`) and ``TableFormatError`` (:mod:`latticecast.promotion.tables`):
  a promotion DAG or a table file that cannot be used.
- :class:`GraphError`: a graph used the wrong way (:class:`RegionTypeError`, one of them: a control-flow
  op whose regions disagree on types; :class:`UnsupportedOpError`, a MAX op that StableHLO
  cannot express: a Mojo kernel, a buffer; :class:`GraphTypeError`, an argument of the wrong type);
  :class:`OperandDTypeError`, both a :class:`DomainError` and a :class:`GraphError`: an operand
  dtype an op refuses where MAX raises a ``ValueError``; ``PassFailure``: a pass or the verifier
  after it rejected a program (a graph's, or one :func:`latticecast.run_pipeline` ran).
- ``MLIRParseError`` (:mod:`latticecast.dialect_utils.diagnostics`), ``PassOptionError`` and
  ``PipelineError`` (:mod:`latticecast.passes`): input that is not MLIR, a pass option or pipeline
  that cannot be read.
- ``LatticecastRuntimeError`` (:mod:`latticecast.runtime.runtime_errors`): the runtime's errors
  (``CompileError``, ``InputError``, ``DeviceNotFoundError``, ...).

Each also keeps the builtin base a Python programmer expects for the same mistake (``TypeError``,
``ValueError``, ``OverflowError``, ``RuntimeError``, ``LookupError``), so ``except ValueError`` keeps
working. The command-line tools map them onto exit codes in one table
(:mod:`latticecast.cli.exit_codes`). Warnings (``LossyPromotionWarning``,
``UnsupportedVersionWarning``) are ``UserWarning`` subclasses, not errors; a pass's warnings are
:class:`LatticecastWarning` s wherever the pass runs (a user's own ``PassManager`` too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from .dialect_utils.diagnostics import Diagnostic
    from .promotion.dtypes import DType
    from .promotion.weak import PType

__all__ = ["LatticecastError", "LatticecastWarning", "PromotionError", "LiteralRangeError", "DomainError", "UnknownPolicyError",
           "GraphError", "NoCurrentGraphError", "RegionTypeError", "GraphTypeError", "OperandDTypeError",
           "UnsupportedOpError", "AxisError", "WeightsFileError", "MissingWeightsFileError", "PassFailure"]


class LatticecastError(Exception):
    """The root of every error latticecast raises; the message says what went wrong and how to fix it."""


class _OperandTypesError(LatticecastError, TypeError):
    """What :class:`PromotionError` and :class:`DomainError` both carry: the operand types ``lhs``
    and ``rhs``, the ``policy``'s name and ``cast_to``, a dtype an explicit cast could target."""

    def __init__(self, message: str, *, lhs: "PType | None" = None, rhs: "PType | None" = None,
                 policy: str | None = None, cast_to: "DType | None" = None) -> None:
        super().__init__(message)
        self.lhs = lhs
        self.rhs = rhs
        self.policy = policy
        self.cast_to = cast_to


class PromotionError(_OperandTypesError, ValueError):
    """An implicit promotion the policy does not define. A ``TypeError`` (as JAX and NumPy raise) and a
    ``ValueError`` (as MAX raises its ``Unsafe cast`` refusals), so code written for either catches it.

    ``lhs``, ``rhs`` and ``policy`` say which promotion failed; ``cast_to`` is the
    dtype an explicit cast could target to make the program legal (``None`` when
    there is no sensible suggestion).
    """



class LiteralRangeError(PromotionError, OverflowError):
    """A Python literal that its promoted dtype cannot represent (``1000`` as ``int8``).

    A ``TypeError`` and ``ValueError`` like every :class:`PromotionError` (MAX raises a ``ValueError``),
    and an ``OverflowError`` as JAX and NumPy raise for the same mistake.
    """


class DomainError(_OperandTypesError):
    """An op that is not defined for the dtype of its operands, where no promotion was refused:
    unary ``-`` of bool, ``floor`` of complex, ``&`` of operands that promote to a float, a ``where``
    condition that is not bool, true division the policy leaves undefined. A ``TypeError``, as JAX and
    NumPy raise for the same mistakes; not a :class:`PromotionError`.

    The attributes are :class:`PromotionError`'s (each ``None`` where it does not apply): ``lhs`` and
    ``rhs`` the operand types, ``policy`` the policy's name, ``cast_to`` a dtype an explicit cast could
    target to make the program legal.
    """



class UnknownPolicyError(LatticecastError, KeyError, ValueError):
    """A policy name that is not registered. The message lists the registered names."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class PassFailure(LatticecastError, RuntimeError):
    """A pass (``implicit-cast``, another pass of a pipeline, or the verifier after it) rejected a
    program: a graph's, or a module given to :func:`latticecast.run_pipeline`. ``diagnostics`` has
    each error as ``file:line:col: error: ...`` (with its notes), in the order MLIR reported them.

    Example:
        >>> import latticecast as lc
        >>> text = '''func.func @f(%a: tensor<2xi8>, %b: tensor<2xui32>) -> tensor<2xi8> {
        ...   %0 = "stablehlo.add"(%a, %b) : (tensor<2xi8>, tensor<2xui32>) -> tensor<2xi8>
        ...   return %0 : tensor<2xi8>
        ... }'''
        >>> try:
        ...     lc.run_pipeline(text, "implicit-cast{policy=max}", source_name="f.mlir")
        ... except lc.PassFailure as e:
        ...     print(e.diagnostics[0].split(": error: ")[0])
        f.mlir:2:8
    """

    def __init__(self, message: str, diagnostics: list[str], located: "Sequence[Diagnostic]" = ()) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics
        self.located: "list[Diagnostic]" = list(located)
        """The same errors (and what the passes reported before them) as objects: file, line, column, notes."""


class GraphError(LatticecastError, ValueError):
    """A graph used the wrong way: no output, a value from another graph, a closed graph, a bad
    shape or axis. The message says which, and what to write instead."""


class RegionTypeError(GraphError, TypeError):
    """A control-flow op (``cond``, ``while_loop``, ``fori_loop``, ``switch``) whose regions do not
    agree on types: a branch result or loop-carried value of another dtype or shape than the op's,
    or a predicate that is not a boolean scalar. No promotion crosses a region boundary (MAX and JAX
    both require equal types there); the message names the value and the cast that fixes it.

    A ``TypeError`` as JAX's and MAX's type mismatches are, and a :class:`GraphError`
    (``ValueError``) as MAX's refused predicates are, so code written for either catches it."""


class GraphTypeError(GraphError, TypeError):
    """A graph argument of the wrong Python type or out of the values its type allows, where MAX raises
    a ``TypeError``: a float ``window_length``, a negative dimension in a ``TensorType``, ``None`` for a
    shape. A :class:`GraphError` (``ValueError``) too, as latticecast's other graph mistakes."""


class OperandDTypeError(DomainError, GraphError):
    """An op that refuses its operand's dtype where MAX raises a ``ValueError`` for it: a ``where``
    condition that is not bool, ``logical_and`` of integers. A :class:`DomainError` (``TypeError``, as
    JAX and NumPy raise) and a :class:`GraphError` (``ValueError``, as MAX raises), so code written for
    either catches it."""


class AxisError(GraphError, IndexError):
    """An axis outside ``[-rank, rank)``. A :class:`GraphError` (a ``ValueError``, as MAX's reductions
    raise) and an ``IndexError`` (as MAX's shape ops raise), so code written for MAX catches it unchanged."""


class NoCurrentGraphError(GraphError, LookupError):
    """An op needed the graph being built (``Graph.current``) outside every ``with Graph(...)`` block.

    A :class:`GraphError`, and a ``LookupError`` as MAX raises for the same mistake, so code
    written for MAX catches it unchanged."""


class UnsupportedOpError(GraphError, NotImplementedError):
    """A MAX op that StableHLO has no form for (``ops.custom``'s Mojo kernels, the buffer ops,
    ``side_stream``, the quantised encodings). The message names the op, says why StableHLO cannot
    express it, and what to write instead. A ``NotImplementedError`` too."""


MAX_COMPILE_FAILURE = ("Failed to compile the model. Please file an issue, all models should be correct by "
                       "construction and this error should have been caught during construction.")
"""MAX 26.7's words when its compiler refuses a graph it built (measured: ``x - y`` of two bools builds and
``InferenceSession.load`` raises this ``RuntimeError``)."""


class WeightsFileError(GraphError):
    """A weights file (``.safetensors``, ``.gguf``) that cannot be read: cut short, not of its format, or
    holding a tensor of a type MAX has no dtype for. The message names the file, the tensor where one is at
    fault, and the fix; ``path`` and ``tensor`` hold them. A ``ValueError``, as MAX's."""

    def __init__(self, message: str, path: object = None, tensor: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.tensor = tensor


class MissingWeightsFileError(WeightsFileError, FileNotFoundError):
    """A weights file that does not exist: a :class:`WeightsFileError` and a ``FileNotFoundError``."""


class LatticecastWarning(UserWarning):
    """A warning a latticecast pass reports about IR (``diagnose-lossy=warning`` ...), issued as a
    Python warning wherever the pass runs, so ``warnings.simplefilter("error", LatticecastWarning)``
    turns them into exceptions."""
