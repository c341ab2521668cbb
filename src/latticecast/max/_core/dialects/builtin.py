"""MLIR's builtin attributes and types under MAX's constructor names (``max._core.dialects.builtin``), built with
jaxlib's bindings in the current context (latticecast's default one if none is current).

Example:
    >>> from latticecast.max._core.dialects import builtin
    >>> str(builtin.IntegerType(8, builtin.SignednessSemantics.unsigned)), str(builtin.StringAttr("x"))
    ('ui8', '"x"')
"""

from __future__ import annotations

import enum
from typing import Mapping

from jaxlib.mlir import ir

from ....dialect_utils.context import current_or_default as _context

__all__ = ["BoolAttr", "DictionaryAttr", "IntegerAttr", "IntegerType", "SignednessSemantics", "StringAttr",
           "TypedAttr"]

TypedAttr = ir.Attribute
"""An attribute with a type (MAX's base class; jaxlib's ``ir.Attribute`` here)."""


class SignednessSemantics(enum.Enum):
    """An integer type's signedness (MLIR's ``IntegerType::SignednessSemantics``)."""

    signless = 0
    signed = 1
    unsigned = 2


def IntegerType(width: int, signedness: SignednessSemantics = SignednessSemantics.signless) -> ir.Type:  # noqa: N802
    """``iN``, ``siN`` or ``uiN``.

    Args:
        width: The bits.
        signedness: Signless, signed or unsigned.

    Returns:
        The ``ir.IntegerType``.
    """
    with _context():
        if signedness is SignednessSemantics.signed:
            return ir.IntegerType.get_signed(width)
        if signedness is SignednessSemantics.unsigned:
            return ir.IntegerType.get_unsigned(width)
        return ir.IntegerType.get_signless(width)


def IntegerAttr(type: ir.Type, value: int) -> ir.Attribute:  # noqa: N802,A002  # MAX's names
    """``value : type``.

    Args:
        type: An integer type.
        value: The value.

    Returns:
        The ``ir.IntegerAttr``.
    """
    with _context():
        return ir.IntegerAttr.get(type, int(value))


def StringAttr(value: str) -> ir.Attribute:  # noqa: N802
    """A string attribute.

    Args:
        value: The string.

    Returns:
        The ``ir.StringAttr``.
    """
    with _context():
        return ir.StringAttr.get(value)


def BoolAttr(value: bool) -> ir.Attribute:  # noqa: N802
    """``true`` or ``false``.

    Args:
        value: The truth value.

    Returns:
        The ``ir.BoolAttr``.
    """
    with _context():
        return ir.BoolAttr.get(bool(value))


def DictionaryAttr(entries: Mapping[str, ir.Attribute] | None = None) -> ir.Attribute:  # noqa: N802
    """A dictionary of attributes.

    Args:
        entries: Names and attributes.

    Returns:
        The ``ir.DictAttr``.
    """
    with _context():
        return ir.DictAttr.get(dict(entries or {}))
