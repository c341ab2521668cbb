"""PyTorch's promotion: ``c10::promoteTypes`` for tensors, and categories for Python scalars.

Tensors of the classic dtypes promote on a lattice (:data:`TORCH_EDGES`) close to
JAX's: integers defer to floats of any width (``int64 . float16 = float16``),
``bfloat16`` and ``float16`` meet at ``float32``, and ``uint8 . int8 = int16``.

``uint16``, ``uint32`` and ``uint64`` are "barebones" unsigned types (PyTorch 2.3+):
``promoteTypes`` relates them only to themselves and to the real floating types,
and refuses everything else ("Promotion for uint16, uint32, uint64 types is not
supported"). That is a rule, not a lattice: ``uint16`` sits below both ``bfloat16``
and ``float16``, yet ``uint16 . complex64`` is refused although ``complex64`` is
above both.

Python scalars ("wrapped numbers", the weak types here) follow
``at::native::result_type``'s categories bool < integer < float < complex: a scalar
of a category no higher than the tensor's takes the tensor's dtype; a higher one
brings its default type (``int64``, the default float ``float32``, ``complex64``),
except that a complex scalar keeps a float tensor's precision (``float64 + 1j`` is
``complex128``). Two Python scalars make a tensor of the promotion of their default
types (``torch.add(1, 2.0)`` is a ``float32`` tensor, strong). A Python ``bool`` is a
weak bool: it defers to every tensor, ``uint16`` included, where a bool tensor is
refused.

Measured against PyTorch 2.13 (``torch.result_type``, and ``torch.add`` where it has
a kernel) the 2021 appendix table is out of date in 47 cells (:data:`PUBLISHED_TABLE_ERRATA`):
the unsigned types did not exist then, and two Python floats (or complexes) now
give the default dtype. One more difference is latticecast's, not PyTorch's:
``float16`` with a Python complex is ``complex32`` in PyTorch, a dtype latticecast
does not have; the policy answers ``complex64`` there, as the 2021 table does
(:data:`COMPLEX32_CELLS`).

Not modelled: zero-dimensional tensors, which PyTorch ranks between dimensioned
tensors and Python scalars (latticecast types carry no rank).
"""

from __future__ import annotations

import functools

from ..dtypes import DType, Kind
from ..lattice import Lattice
from ..weak import PType, Weak, dtype_of
from .base import Literal, Policy, by_name, weak_and_strong
from .numpy import check_literal_overflow_to_inf

__all__ = ["TorchPolicy", "TORCH_EDGES", "BAREBONES_UNSIGNED", "PUBLISHED_TABLE_ERRATA", "COMPLEX32_CELLS"]

_D = DType

TORCH_DTYPES = by_name(["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
                        "bfloat16", "float16", "float32", "float64", "complex64", "complex128"])

BAREBONES_UNSIGNED = frozenset({_D.uint16, _D.uint32, _D.uint64})
"""PyTorch's "barebones" unsigned dtypes: promote only with themselves and with real floats."""

TORCH_EDGES: dict[DType, list[DType]] = {
    _D.bool: [_D.uint8, _D.int8],
    _D.uint8: [_D.int16],
    _D.int8: [_D.int16],
    _D.int16: [_D.int32],
    _D.int32: [_D.int64],
    _D.int64: [_D.bfloat16, _D.float16],
    _D.bfloat16: [_D.float32],
    _D.float16: [_D.float32],
    _D.float32: [_D.float64, _D.complex64],
    _D.float64: [_D.complex128],
    _D.complex64: [_D.complex128],
}
"""``c10::promoteTypes`` on the classic dtypes is the join of this DAG."""

_CATEGORY = {Kind.BOOL: 0, Kind.UNSIGNED: 1, Kind.SIGNED: 1, Kind.FLOAT: 2, Kind.COMPLEX: 3}

_I, _F, _C, _B = Weak(_D.int64), Weak(_D.float32), Weak(_D.complex64), Weak(_D.bool)
_SEED_F, _SEED_C = Weak(_D.float64), Weak(_D.complex128)  # how the seed table labels f* and c*

_STALE_UNSIGNED = ("PyTorch had no uint16/uint32/uint64 in 2021 (the table's '-'); since 2.3 "
                   "promoteTypes relates them to themselves and to the real floats, and a Python scalar "
                   "follows the usual category rule (torch.result_type, PyTorch 2.13)")


def _errata() -> dict[tuple[PType, PType], tuple[PType | None, PType, str]]:
    cells: dict[tuple[PType, PType], tuple[PType | None, PType, str]] = {}
    floats = (_D.bfloat16, _D.float16, _D.float32, _D.float64)
    for u in sorted(BAREBONES_UNSIGNED, key=lambda d: d.bitwidth):
        cells[(u, u)] = (None, u, f"{_STALE_UNSIGNED}; {u.name} with itself is {u.name} (torch.add has no "
                                  f"{u.name} kernel, which is the op's domain, not promotion)")
        now: dict[PType, tuple[PType, str]] = {f: (f, f"{_STALE_UNSIGNED}: {u.name} . {f.name} = {f.name}")
                                               for f in floats}
        now[_I] = (u, f"{_STALE_UNSIGNED}: a Python int takes the tensor's dtype, {u.name} "
                      "(torch.add has no kernel for it)")
        now[_SEED_F] = (_D.float32, f"{_STALE_UNSIGNED}: a Python float brings the default float dtype, float32")
        now[_SEED_C] = (_D.complex64, f"{_STALE_UNSIGNED}: a Python complex brings the default complex "
                                      "dtype, complex64")
        for other, (value, why) in now.items():
            cells[(u, other)] = cells[(other, u)] = (None, value, why)
    cells[(_SEED_F, _SEED_F)] = (_D.float64, _D.float32,
                                 "two Python floats: torch.add(0.0, 0.0) is now a tensor of the default "
                                 "dtype, float32 (it was float64 in 2021)")
    cells[(_SEED_C, _SEED_C)] = (_D.complex128, _D.complex64,
                                 "two Python complexes: torch.add(0j, 0j) is now a tensor of the default "
                                 "complex dtype, complex64 (it was complex128 in 2021)")
    return cells


PUBLISHED_TABLE_ERRATA: dict[tuple[PType, PType], tuple[PType | None, PType, str]] = _errata()
"""(row, column) in the seed table's labels (its ``f*`` is ``weak(float64)``) -> (published,
PyTorch 2.13's answer, why): where the 2021 table is out of date."""

COMPLEX32_CELLS: dict[tuple[PType, PType], str] = {
    (_D.float16, _SEED_C): "complex32",
    (_SEED_C, _D.float16): "complex32",
}
"""Cells where live PyTorch gives a dtype latticecast lacks (``torch.complex32``); the policy
answers ``complex64``, the narrowest latticecast dtype that holds every complex32 value."""


class TorchPolicy(Policy):
    name = "torch"
    title = "PyTorch 2 (torch.result_type)"
    source = ("jax-type-promotion-design.md, appendix, torch table; c10::promoteTypes and "
              "at::native::result_type (PyTorch 2.13)")
    dtypes = TORCH_DTYPES
    weak_types = (_I, _F, _C, _B)
    default_int = DType.int64
    default_float = DType.float32
    default_complex = DType.complex64
    weak_bool = True
    published_table_name = "design_torch"

    @functools.cached_property
    def _classic(self) -> Lattice:
        return Lattice(TORCH_EDGES, name="torch")

    def errata(self) -> dict[tuple[PType, PType], str]:
        return {cell: why for cell, (_, _, why) in PUBLISHED_TABLE_ERRATA.items()}

    # -- the rules ------------------------------------------------------------------------

    def _join(self, a: PType, b: PType) -> PType | None:
        if isinstance(a, Weak) and isinstance(b, Weak):
            return self._strong(a.dtype, b.dtype)
        if isinstance(a, Weak) or isinstance(b, Weak):
            w, d = weak_and_strong(a, b)
            return self._with_scalar(w.dtype, d)
        assert isinstance(a, DType) and isinstance(b, DType)
        return self._strong(a, b)

    def _strong(self, a: DType, b: DType) -> DType | None:
        """``c10::promoteTypes``."""
        if a == b:
            return a
        if a in BAREBONES_UNSIGNED or b in BAREBONES_UNSIGNED:
            floats = [d for d in (a, b) if d.is_float]
            return floats[0] if floats else None
        return self._classic.join(a, b)

    def _with_scalar(self, w: DType, d: DType) -> DType | None:
        """``combine_categories(tensor dtype, scalar's default dtype)``."""
        if _CATEGORY[w.kind] <= _CATEGORY[d.kind]:
            return d
        if w.is_complex and d.is_float:
            # toComplexType: float64 -> complex128, float32/bfloat16 -> complex64, float16 -> complex32,
            # which latticecast lacks: complex64 holds all its values (COMPLEX32_CELLS)
            return DType.complex128 if d is DType.float64 else DType.complex64
        if w.is_complex:
            return w
        return self._strong(d, w)

    def _canonical_weak(self, t: Weak) -> PType:
        # One wrapped-number type per category: a weak int16 or uint8 is a Python int.
        return {Kind.BOOL: _B, Kind.SIGNED: _I, Kind.UNSIGNED: _I, Kind.FLOAT: _F,
                Kind.COMPLEX: _C}[t.dtype.kind]

    def why_undefined(self, a: PType, b: PType) -> str:
        return ("PyTorch promotes uint16, uint32 and uint64 only with themselves and with floating types "
                "(c10::promoteTypes: 'Promotion for uint16, uint32, uint64 types is not supported')")

    # -- literals and division ---------------------------------------------------------------

    def check_literal(self, value: Literal, target: DType) -> None:
        """A number too large for a float dtype becomes inf, as in PyTorch. An int outside an
        integer dtype's range is refused: PyTorch wraps it silently (``int8 tensor + 1000``
        adds -24), which would make the pass emit a constant the program did not write."""
        check_literal_overflow_to_inf(self, value, target)

    def true_divide_type(self, t: "PType | str") -> PType | None:
        """``torch.true_divide``: bool and every integer (``int64`` too) divide in the default
        float dtype, float32; floats and complex keep their type."""
        t = self.canonical(t)
        if dtype_of(t).is_inexact:
            return t
        return DType.float32

    def rule(self, a: PType, b: PType) -> str:
        if isinstance(a, Weak) and isinstance(b, Weak):
            return ("two Python scalars: a tensor of the promotion of their default types "
                    f"({a.dtype.name}, {b.dtype.name})")
        if isinstance(a, Weak) or isinstance(b, Weak):
            w, d = weak_and_strong(a, b)
            if _CATEGORY[w.dtype.kind] <= _CATEGORY[d.kind]:
                return f"a Python scalar of a category no higher than the tensor's takes its dtype ({d.name})"
            return "a Python scalar of a higher category brings its default type (result_type's categories)"
        if a in BAREBONES_UNSIGNED or b in BAREBONES_UNSIGNED:
            return "uint16/uint32/uint64 promote only with themselves and with floating types"
        return "join on PyTorch's promoteTypes lattice"
