"""The parts of a promotion system that are not the binary decision: components a policy composes.

A :class:`~latticecast.policies.base.Policy` decides ``a op b``; everything else a system has an
opinion on is a *component*, one job each, held by the policy as an attribute and built from it on
first use:

* :class:`LiteralRules` (``policy.literals``): which type a Python literal has, and which values a
  dtype takes from one;
* :class:`NumpyValueRules` (``policy.numpy_values``): whether a NumPy scalar or array meeting a
  graph value is weakly typed, and how a weakly typed array promotes and is checked;
* :class:`OpTypeRules` (``policy.op_types``): what true division and a sum compute in.

Each default is documented on its method, and is what most systems do. A policy whose system differs
overrides the component (a ``functools.cached_property`` returning a subclass or a configured
instance); nothing else in the policy changes. The builder, ``op_rules`` and the ``implicit-cast``
pass ask the components, never the policy, for these facts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import numpy as np

from ..promotion.dtypes import DType, UnknownDTypeError
from ..errors import LiteralRangeError, PromotionError
from ..promotion.value_fit import Scalar, candidates, literal_fix, scalar_problem
from ..promotion.weak import PType, Weak

if TYPE_CHECKING:
    from .base import DivisionOperands, Policy

__all__ = ["LiteralRules", "NumpyValueRules", "OpTypeRules"]


class LiteralRules:
    """A system's Python literals: their type (:meth:`type_of`) and the values a dtype takes (:meth:`problem`).

    Args:
        policy: The policy whose literals these are (its defaults and weak types decide :meth:`type_of`).
        overflow_to_inf: Whether a number too large for a float dtype becomes +-inf there (NumPy,
            PyTorch, TensorFlow) instead of being refused (JAX, MAX).

    Example:
        >>> import latticecast as lc
        >>> lc.policy("jax").literals.type_of(3)
        weak(DType.int64)
        >>> print(lc.policy("numpy").literals.problem(1000, lc.DType.int8))
        1000 out of range for int8 [-128, 127]
    """

    def __init__(self, policy: Policy, *, overflow_to_inf: bool = False) -> None:
        self.policy = policy
        self.overflow_to_inf = overflow_to_inf

    def type_of(self, value: Scalar) -> PType:
        """The type of a Python literal in this system (weak where the system makes it so).

        Args:
            value: A Python bool, int, float or complex.

        Returns:
            The policy's weak type of the default dtype of the value's kind; a ``bool`` is plain
            ``bool`` unless the policy's bools are weak (``Policy.weak_bool``).

        Raises:
            PromotionError: A complex literal where the system has no complex dtypes.
            TypeError: ``value`` is no Python number.
        """
        policy = self.policy
        if isinstance(value, bool):
            return policy.canonical(Weak(DType.bool)) if policy.weak_bool else DType.bool
        if isinstance(value, int):
            return policy.canonical(Weak(policy.default_int))
        if isinstance(value, float):
            return policy.canonical(Weak(policy.default_float))
        if isinstance(value, complex):
            if policy.default_complex is None:
                raise PromotionError(f"policy {policy.name!r} has no complex dtypes for the literal {value!r}",
                                     policy=policy.name)
            return policy.canonical(Weak(policy.default_complex))
        raise TypeError(f"{value!r} is not a Python bool, int, float or complex literal")

    def problem(self, value: Scalar, target: DType) -> str | None:
        """Why the system refuses the literal ``value`` as ``target`` (``None``: it accepts it).

        The shared rule is :func:`latticecast.promotion.value_fit.scalar_problem`; where ``overflow_to_inf`` is
        set, a number too large for a float dtype with infinities is accepted (it becomes inf).
        """
        return scalar_problem(value, target, overflow_to_inf=self.overflow_to_inf)

    def constant_problem(self, values: np.ndarray, target: DType) -> str | None:
        """:meth:`problem` for every element of a weakly typed constant (the pass asks this when it
        rebuilds one at its promoted type)."""
        for value in candidates(values, target):
            problem = self.problem(value, target)
            if problem:
                return problem
        return None

    def check(self, value: Scalar, target: DType) -> None:
        """Raise :class:`~latticecast.LiteralRangeError` when the system refuses ``value`` as ``target``,
        naming the fix."""
        problem = self.problem(value, target)
        if problem:
            raise LiteralRangeError(f"Unsafe cast: {problem}; {literal_fix(value, target)}",
                                    policy=self.policy.name, lhs=self.type_of(value), rhs=target)


class NumpyValueRules:
    """NumPy scalars and arrays that meet a graph value in an op that promotes.

    ``weak`` says whether they are weakly typed and take the graph value's dtype, as a Python scalar
    does (MAX 26.7: NumPy values are "non-max objects", which ``max.graph.dtype_promotion`` converts
    to the graph value's dtype once their values pass its check), rather than strongly typed
    constants of their own dtype (JAX, NumPy, PyTorch, TensorFlow: ``float16_tensor + np.float32(0.5)``
    is float32 there). Where they are, the builder takes a NumPy scalar as the Python number
    :meth:`scalar` says it stands for, and a NumPy array promotes as :meth:`array_type` says,
    checked by :meth:`array_problem`. ``weak`` is a fact about values a program hands over, so the
    ``implicit-cast`` pass, which reads types off IR, never asks it: the IR says which constants are
    weak, and the pass asks :meth:`array_type` and :meth:`array_problem` about a weakly typed array
    under every policy.

    Args:
        policy: The policy whose rules these are.
        weak: Whether NumPy values are weakly typed (default ``False``).

    Example:
        >>> import numpy as np
        >>> import latticecast as lc
        >>> lc.policy("max-python").numpy_values.weak, lc.policy("jax").numpy_values.weak
        (True, False)
        >>> lc.policy("max-python").numpy_values.scalar(np.float32(0.5))
        0.5
    """

    def __init__(self, policy: Policy, *, weak: bool = False) -> None:
        self.policy = policy
        self.weak = weak

    @property
    def scalars_are_python(self) -> bool:
        """Whether the system reads a NumPy scalar as the Python number it holds (:meth:`scalar`), a
        weakly typed literal (MAX 26.7, PyTorch), rather than as a value of its own dtype (JAX, NumPy,
        TensorFlow). By default as :attr:`weak` says."""
        return self.weak

    def scalar_type(self, value: np.generic, *, in_result_type: bool = False) -> PType:
        """The type a NumPy scalar promotes as: its own dtype, strongly typed (JAX: ``jnp.float32(0)`` and
        ``np.float32(0)`` are strong; NumPy 2, NEP 50: a NumPy scalar is as strong as an array), or,
        where :attr:`scalars_are_python`, the literal type of the Python number it stands for.

        Args:
            value: The NumPy scalar.
            in_result_type: The scalar is an argument of the system's ``result_type`` rather than an
                operand of an op (the Array API's ``result_type`` takes the NumPy scalars that subclass a
                Python scalar type, its operators none).

        Returns:
            The scalar's promotion type under the policy.

        Raises:
            PromotionError: The system has no such value, or the scalar holds no number.
        """
        if self.scalars_are_python:
            number = self.scalar(value)
            return self.policy.literals.type_of(number)
        try:
            dtype = DType.parse(value.dtype)
        except (UnknownDTypeError, TypeError, ValueError):
            raise PromotionError(f"the NumPy scalar {value!r} ({type(value).__name__}) has a dtype latticecast "
                                 f"does not have ({value.dtype}); convert it to one it has first",
                                 policy=self.policy.name) from None
        return self.policy.canonical(dtype)

    def scalar(self, value: np.generic) -> Scalar:
        """The Python number a NumPy scalar stands for where the system reads NumPy scalars as Python
        numbers (``np.float32(0.5)`` is the Python float 0.5, checked as one).

        Raises:
            PromotionError: A NumPy scalar that holds no number.
        """
        if isinstance(value, np.bool_):
            return bool(value)
        if isinstance(value, np.integer):
            return int(value)
        if isinstance(value, np.floating):
            return float(value)
        if isinstance(value, np.complexfloating):
            return complex(value)
        raise PromotionError(f"the NumPy scalar {value!r} ({type(value).__name__}) is not a number; give an op "
                             "a graph value, a Python number or a NumPy number", policy=self.policy.name)

    def array_type(self, dtype: DType) -> PType:
        """The type a weakly typed array of ``dtype`` promotes as (the IR marks one
        ``latticecast.weak = "array"``). By default each of its elements' weak type (a Python scalar's
        of its kind), so that such an array promotes as its elements would."""
        node = self.policy.weak_nodes.get(dtype.kind)
        return node if node is not None else self.policy.canonical(Weak(dtype))

    def array_problem(self, values: np.ndarray, target: DType) -> str | None:
        """Why the system refuses the weakly typed array ``values`` (its dtype the array's own) as
        ``target`` (``None``: it accepts it). By default every element is checked as a literal
        (:meth:`LiteralRules.constant_problem`). The builder asks it where an array meets a graph
        value, the pass where it rebuilds the array's constant at the promoted type: the same rules,
        so they agree."""
        return self.policy.literals.constant_problem(values, target)

    def check_array(self, values: np.ndarray, target: DType) -> None:
        """Raise :class:`~latticecast.LiteralRangeError` when the system refuses the weakly typed array
        ``values`` as ``target`` (:meth:`array_problem`), naming the fix."""
        problem = self.array_problem(values, target)
        if problem:
            raise LiteralRangeError(
                f"Unsafe cast: {problem}; cast the graph value to a dtype that holds the array first "
                "(x.cast(...)), or make the array an explicit constant of the dtype you mean: "
                "ops.constant(array, dtype, device)", policy=self.policy.name, rhs=target)


class OpTypeRules:
    """What ops that are not plain promotions compute in: true division and sums.

    The defaults: ``/`` computes in the promoted type (:meth:`true_divide`), the operands of ``/``
    promote as any op's (:meth:`divide_operands`), and a sum widens bool and narrow integers to the
    default integer (:meth:`sum`).

    Args:
        policy: The policy whose rules these are.

    Example:
        >>> import latticecast as lc
        >>> lc.policy("jax").op_types.true_divide(lc.DType.int8)
        DType.float32
        >>> lc.policy("jax").op_types.sum(lc.DType.int8)
        DType.int64
    """

    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    def true_divide(self, t: PType | str) -> PType | None:
        """The type ``a / b`` computes in, given the promoted type ``t`` of ``a`` and ``b``.

        ``None`` means the system divides integers as integers (``jax.lax.div``, StableHLO
        ``divide``: truncation toward zero). By default ``t`` itself.
        """
        return self.policy.canonical(t)

    def divide_operands(self, types: Sequence[PType]) -> DivisionOperands | None:
        """How the system prepares the operands of ``/`` (of the given ``types``) before promoting
        them, where it does (:class:`~latticecast.policies.base.DivisionOperands`). ``None``, every
        system but MAX 26.7: the operands promote as any op's do, and :meth:`true_divide` says what
        the quotient computes in.

        A system that prepares operands returns ``None`` too where it leaves them as they are (two
        strong dtypes it does not convert), so that the prepared dtypes are decided as any op's."""
        return None

    def scatter_converts_updates(self) -> bool:
        """Whether a scatter converts updates of another dtype to its input's, where the policy
        promotes the two to the input's dtype (``jax.numpy``'s ``x.at[i].set(u)``: yes, the default).
        MAX 26.7's scatters refuse them: the dtypes must match."""
        return True

    def sum(self, dtype: DType) -> DType:
        """The dtype a sum of ``dtype`` accumulates in: bool and integers narrower than the default
        integer widen to it, keeping signedness (``jnp.sum``, ``np.sum``, the Array API's default for
        ``sum``); other dtypes sum in themselves."""
        policy = self.policy
        width = policy.default_int.bitwidth
        if dtype.is_bool:
            return policy.default_int
        if dtype.is_integral() and dtype.bitwidth < width and not dtype.needs_lowering:
            for d in policy.dtypes:
                if d.kind is dtype.kind and d.bitwidth == width and not d.needs_lowering:
                    return d
        return dtype
