"""PyTorch's promotion answered by latticecast's ``torch`` policy, for ``tools/peer_standins.py``.

Runs in the interpreter that has torch, with latticecast's promotion layer on the path (it needs
NumPy and ml_dtypes, not jax). The stand-ins replace ``torch.result_type``, ``torch.promote_types``
and the binary arithmetic PyTorch promotes for (``+ - * /`` as operators and as ``torch.add``,
``sub``, ``mul``, ``div``, ``true_divide``, ``rsub`` and their method forms), when the peer's test
calls them: latticecast decides the dtype from the operands (dimensioned tensors, 0-d tensors,
Python scalars: ``at::native::result_type``'s three classes), and the arithmetic then runs in PyTorch
on operands converted to that dtype, so that the test's own assertions judge latticecast's answer.
A refusal is PyTorch's ``RuntimeError`` with latticecast's message.

Not expressible, so answered by PyTorch itself (and counted apart): a default dtype other than
float32 (``torch.set_default_dtype(torch.float64)`` makes a Python float a float64: latticecast's
policy is PyTorch's default), ``complex32`` (latticecast has no such dtype) and NumPy arrays as
operands. A sparse tensor promotes as a dense one. ``out=`` (casting, not promotion) is left to PyTorch
and asks nothing.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import torch

import latticecast as lc
from latticecast.promotion.weak import Weak

_POLICY = lc.policy("torch")
_BINARY = ("add", "sub", "mul", "div", "true_divide", "rsub", "subtract", "multiply", "divide")
_DUNDERS = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__")


def install(recorder: Any, inexpressible: type[Exception]) -> None:
    """Replace PyTorch's promotion functions and binary arithmetic with stand-ins."""
    from peer_standins import _from_peer

    real_result_type, real_promote_types = torch.result_type, torch.promote_types

    def dtype_of(d: Any) -> lc.DType:
        name = str(d).removeprefix("torch.")
        try:
            return lc.DType.parse(name)
        except lc.UnknownDTypeError:
            raise inexpressible(f"PyTorch's {name}: latticecast has no such dtype") from None

    def to_torch(t: Any) -> Any:
        d = t.dtype if isinstance(t, Weak) else t
        return getattr(torch, d.name)

    def check_default() -> None:
        if torch.get_default_dtype() != torch.float32:
            raise inexpressible(f"torch.set_default_dtype({torch.get_default_dtype()}): a Python float is then "
                                "that dtype; latticecast's torch policy has PyTorch's default, float32")

    def operand(x: Any) -> tuple[Any, bool]:
        """(type, is a 0-d tensor)."""
        if isinstance(x, torch.Tensor):  # sparse or dense: its layout does not change its promotion
            return dtype_of(x.dtype), x.dim() == 0
        if isinstance(x, (np.ndarray, np.generic)):
            if isinstance(x, np.ndarray):
                raise inexpressible("a NumPy array as an operand of a torch op")
            return _POLICY.numpy_values.scalar_type(x), False
        if isinstance(x, (bool, int, float, complex)):
            return _POLICY.literals.type_of(x), False
        raise inexpressible(f"an operand of type {type(x).__name__}")

    def decide(*xs: Any) -> Any:
        check_default()
        found = [operand(x) for x in xs]
        answer = _POLICY.result_type(*(t for t, _ in found), zero_dim=[z for _, z in found])
        if answer.is_complex:  # PyTorch's complex32 (float16 with a complex value), which latticecast lacks
            try:
                theirs = real_result_type(*xs)
            except (RuntimeError, TypeError):
                theirs = None
            if theirs == torch.complex32:
                raise inexpressible("PyTorch's answer is complex32, a dtype latticecast does not have (its policy "
                                    "answers complex64, which holds every complex32 value)")
        return answer

    def asked(real: Callable[..., Any], compute: Callable[[], Any], *args: Any, **kwargs: Any) -> Any:
        try:
            got = compute()
        except inexpressible as e:
            recorder.asked(str(e))
            return real(*args, **kwargs)
        except lc.PromotionError as e:
            recorder.asked()
            raise RuntimeError(f"latticecast: {e}") from None
        recorder.asked()
        return got


    def result_type(a: Any, b: Any) -> Any:
        if not _from_peer(2):
            return real_result_type(a, b)
        return asked(real_result_type, lambda: to_torch(decide(a, b)), a, b)

    def promote_types(a: Any, b: Any) -> Any:
        if not _from_peer(2):
            return real_promote_types(a, b)
        return asked(real_promote_types,
                     lambda: to_torch(_POLICY.promote_types(dtype_of(a), dtype_of(b))), a, b)

    def arithmetic(real: Callable[..., Any]) -> Callable[..., Any]:
        def standin(a: Any, b: Any, *rest: Any, **kwargs: Any) -> Any:
            if not _from_peer(2) or "out" in kwargs or rest:
                return real(a, b, *rest, **kwargs)

            def compute() -> Any:
                r = to_torch(decide(a, b))
                x = a.to(r) if isinstance(a, torch.Tensor) else a
                y = b.to(r) if isinstance(b, torch.Tensor) else b
                return real(x, y, **kwargs)
            return asked(real, compute, a, b, **kwargs)
        return standin

    torch.result_type = result_type
    torch.promote_types = promote_types
    for name in _BINARY:
        if hasattr(torch, name):
            setattr(torch, name, arithmetic(getattr(torch, name)))
        if hasattr(torch.Tensor, name):
            setattr(torch.Tensor, name, arithmetic(getattr(torch.Tensor, name)))
    for name in _DUNDERS:
        setattr(torch.Tensor, name, arithmetic(getattr(torch.Tensor, name)))
