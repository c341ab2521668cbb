"""Pass options as typed dataclass fields, parsed from MLIR's ``{key=value key2=value}`` syntax.

As in xDSL's ``ModulePass``, a pass's options are the fields of a frozen dataclass;
the field's type says how a value written in a pipeline string is read
(``bool``: ``true``/``false``; an ``Enum``: one of its values; :class:`Policy`:
a registered policy name, or with ``policy-file=PATH`` a CSV promotion table,
:meth:`Policy.from_table`). Python callers construct the dataclass directly and
may pass a :class:`~latticecast.Policy` object: names are resolved only where
text comes in.
"""

from __future__ import annotations

import dataclasses
import enum
import shlex
import typing
from typing import TYPE_CHECKING, Any, ClassVar, Self

from ..errors import LatticecastError, UnknownPolicyError
from ..policies import policy as get_policy

if TYPE_CHECKING:
    from ..policies.base import Policy

__all__ = ["PassOptions", "PassOptionError", "LossyLevel", "ImplicitCastOptions", "LowerDTypesOptions", "LiftOptions",
           "PASS_OPTIONS"]


class PassOptionError(LatticecastError, ValueError):
    """A pass option that does not exist or has a bad value; the message lists the valid ones."""


class LossyLevel(str, enum.Enum):
    """How ``implicit-cast`` reports promotions that can lose magnitude (``int64 -> float16``)."""

    OFF = "off"
    REMARK = "remark"
    WARNING = "warning"
    ERROR = "error"


_BOOL = {"": True, "true": True, "1": True, "false": False, "0": False}


@dataclasses.dataclass(frozen=True)
class PassOptions:
    """Base of every latticecast pass's options. A field's ``metadata["bare"]`` is the value a
    bare ``key`` (without ``=value``) means; ``metadata["aliases"]`` maps extra spellings."""

    pass_name: ClassVar[str] = "pass"
    pass_description: ClassVar[str] = ""
    """What the pass does, one line (its ``--help`` and MLIR's pass registry)."""
    file_options: ClassVar[dict[str, str]] = {}
    """Options that set a :class:`Policy` field from a file (``policy_file`` -> ``policy``)."""
    writes_mixed_ir: ClassVar[bool] = False
    """The pass leaves mixed-dtype ops, which StableHLO's verifier rejects (``lift-implicit-casts``): a
    pipeline with it cannot verify after each pass, only where ``implicit-cast`` has run after it."""
    makes_ir_legal: ClassVar[bool] = False
    """The pass turns mixed-dtype ops into legal StableHLO (``implicit-cast``)."""

    @classmethod
    def parse(cls, text: str, base: "Self | None" = None) -> Self:
        """Read options as a pipeline writes them.

        Args:
            text: ``"policy=max diagnose-lossy=warning"``: spaces or commas between options; a value
                with spaces, commas or braces in double quotes (``policy-file="my tables/t.csv"``).
            base: The options that ``text`` changes (default: the defaults); the last value written wins.

        Returns:
            The options.

        Raises:
            PassOptionError: An option that does not exist, or a bad value.

        Example:
            >>> from latticecast import ImplicitCastOptions
            >>> ImplicitCastOptions.parse("diagnose-lossy", ImplicitCastOptions(policy="max")).policy.name
            'max'
        """
        items = [(key, value if eq else None) for key, eq, value in (i.partition("=") for i in _option_items(text))]
        return cls._with(items, base)

    @classmethod
    def read_option(cls, key: str, value: str | None, base: "Self | None" = None) -> Self:
        """One option, as a command-line flag gives it (``--diagnose-lossy=error``), read as a pipeline
        string's ``key=value`` would be, with no text in between.

        Args:
            key: The option's name as a pipeline writes it (``diagnose-lossy``, ``policy-file``).
            value: Its value as written, or ``None`` for a bare ``key``.
            base: The options it changes (default: the defaults).

        Returns:
            The options.

        Raises:
            PassOptionError: No such option, or a bad value.

        Example:
            >>> from latticecast import ImplicitCastOptions
            >>> ImplicitCastOptions.read_option("lower-dtypes", "0").lower_dtypes
            False
        """
        return cls._with([(key, value)], base)

    @classmethod
    def _with(cls, items: "list[tuple[str, str | None]]", base: "Self | None") -> Self:
        from ..policies.base import Policy
        from ..promotion.tables import TableFormatError

        fields = {f.name: f for f in dataclasses.fields(cls)}
        hints = _field_types(cls)
        values: dict[str, Any] = {}
        for key, value in items:
            name = key.strip().replace("-", "_")
            if name in cls.file_options:  # as every option, the last one written wins
                try:
                    values[cls.file_options[name]] = Policy.from_table((value or "").strip())
                except TableFormatError as e:
                    raise PassOptionError(f"{key.strip()}: {e}") from None
                continue
            f = fields.get(name)
            if f is None:
                raise PassOptionError(f"{cls.pass_name} has no option {key.strip()!r}; its options are "
                                      f"{cls.usage()}")
            values[name] = cls._read(f, hints[name], (value or "").strip(), bare=value is None)
        return cls(**values) if base is None else dataclasses.replace(base, **values)

    @classmethod
    def _read(cls, f: dataclasses.Field[Any], kind: Any, value: str, *, bare: bool) -> Any:
        from ..policies.base import Policy

        option = f.name.replace("_", "-")
        if bare and "bare" in f.metadata:
            return f.metadata["bare"]
        value = f.metadata.get("aliases", {}).get(value, value)
        if kind is bool:
            if value.lower() not in _BOOL:
                raise PassOptionError(f"{option} must be true or false, not {value!r}")
            return _BOOL[value.lower()]
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            try:
                return kind(value)
            except ValueError:
                raise PassOptionError(f"{option} must be one of {', '.join(str(m.value) for m in kind)}, "
                                      f"not {value!r}") from None
        if kind is Policy:
            try:
                return get_policy(value)
            except UnknownPolicyError as e:
                raise PassOptionError(f"{option}: {e}") from None
        return value

    @classmethod
    def usage(cls) -> str:
        hints = _field_types(cls, policy_class=False)
        parts = []
        for f in dataclasses.fields(cls):
            kind = hints[f.name]
            if kind is bool:
                shown = "true|false"
            elif isinstance(kind, type) and issubclass(kind, enum.Enum):
                shown = "|".join(str(m.value) for m in kind)
            elif kind is _PolicyField:
                shown = "<name>"
            else:
                shown = "<value>"
            parts.append(f"{f.name.replace('_', '-')}={shown}")
        parts += [f"{key.replace('_', '-')}=<path>" for key in cls.file_options]
        return ", ".join(parts)

    def __str__(self) -> str:
        from ..policies.base import Policy

        out = []
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            path = getattr(v, "table_path", None) if isinstance(v, Policy) else None
            if path is not None:  # a policy read from a file is written as the file, so the text reads back
                key = next(k for k, target in self.file_options.items() if target == f.name)
                out.append(f"{key.replace('_', '-')}={_quoted(str(path))}")
                continue
            shown = v.name if isinstance(v, Policy) else v.value if isinstance(v, enum.Enum) else \
                ("true" if v else "false") if isinstance(v, bool) else str(v)
            out.append(f"{f.name.replace('_', '-')}={shown}")
        return " ".join(out)


def _option_items(text: str) -> list[str]:
    """``text`` split into ``key=value`` items at spaces and commas outside double quotes (quotes removed),
    as MLIR's pass-option parser reads a quoted value."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace += ","
    lexer.whitespace_split = True
    lexer.quotes = '"'
    lexer.escape = ""
    try:
        return list(lexer)
    except ValueError:
        raise PassOptionError(f"unbalanced quotes in options '{text}'") from None


def _quoted(value: str) -> str:
    """``value`` as :func:`_option_items` reads it back: in double quotes when it has a separator."""
    if '"' in value:
        raise PassOptionError(f"an option value cannot hold a double quote: {value!r}")
    return f'"{value}"' if not value or any(c in value for c in " \t,{}()") else value


class _PolicyField:
    """What :func:`_field_types` gives a field of type ``Policy`` when the class is not needed."""


def _field_types(cls: type, *, policy_class: bool = True) -> dict[str, Any]:
    """``cls``'s fields' types. ``Policy`` is imported only here, and only with ``policy_class``: it loads
    the promotion layer (NumPy, the tables), which ``usage()`` (``latticecast-opt --help``) does not need
    to say that a field holds a policy (:class:`_PolicyField` stands for it then)."""
    if policy_class:
        from ..policies.base import Policy
        return typing.get_type_hints(cls, localns={"Policy": Policy})
    return typing.get_type_hints(cls, localns={"Policy": _PolicyField})


def _default_policy() -> Policy:
    return get_policy("jax")


@dataclasses.dataclass(frozen=True)
class ImplicitCastOptions(PassOptions):
    """The options of ``implicit-cast``; in a pipeline string, ``implicit-cast{policy=max diagnose-lossy=warning}``.

    Attributes:
        policy: The promotion policy (a :class:`~latticecast.Policy`, or a registered name;
            ``policy-file=PATH`` in a pipeline string reads a CSV promotion table,
            :meth:`Policy.from_table`); default ``"jax"``.
        diagnose_lossy: Report promotions that can lose magnitude (``int64 -> float16``):
            ``off`` (the default), ``remark``, ``warning`` or ``error``; a bare
            ``diagnose-lossy`` in a pipeline string means ``warning``.
        lower_dtypes: Run ``lower-dtypes`` at the end, so that the output is plain StableHLO
            (``index``/``address`` as ``ui64``, ``tf32`` as ``f32``); default on.
        diagnose_precision: Report promotions that can lose precision but not magnitude
            (``int32 -> float32`` rounds above 2**24, ``int64 -> float64`` above 2**53): the same
            four levels as ``diagnose_lossy``, so that each kind can be an error on its own.
        retype_results: Infer the result types instead of checking the declared ones
            (:func:`~latticecast.passes.infer_types.retype_results`): each promoting op's result,
            and what moves it, takes the type the policy gives it, and function signatures follow.
            For mixed IR written under another policy, or without meaningful result types.
        report_promotions: Emit a remark for every convert inserted and every weak literal
            retyped, at the op that needed it (operand, from -> to, and the kind: widening,
            precision loss, magnitude loss, weak literal), and a summary that counts them by kind.

    Raises:
        PassOptionError: ``diagnose_lossy`` is not one of the four levels.
        UnknownPolicyError: ``policy`` names no registered policy.

    Example:
        >>> from latticecast import ImplicitCastOptions
        >>> options = ImplicitCastOptions(policy="max", diagnose_lossy="warning")
        >>> str(options)
        'policy=max diagnose-lossy=warning lower-dtypes=true diagnose-precision=off report-promotions=false retype-results=false'
    """

    pass_name: ClassVar[str] = "implicit-cast"
    makes_ir_legal: ClassVar[bool] = True
    pass_description: ClassVar[str] = "Join operand types on a promotion lattice and insert stablehlo.convert"
    file_options: ClassVar[dict[str, str]] = {"policy_file": "policy"}

    policy: Policy = dataclasses.field(default_factory=_default_policy)
    diagnose_lossy: LossyLevel = dataclasses.field(
        default=LossyLevel.OFF,
        metadata={"bare": LossyLevel.WARNING, "aliases": {"true": "warning", "false": "off", "1": "warning",
                                                          "0": "off"}})
    lower_dtypes: bool = True
    diagnose_precision: LossyLevel = dataclasses.field(
        default=LossyLevel.OFF,
        metadata={"bare": LossyLevel.WARNING, "aliases": {"true": "warning", "false": "off", "1": "warning",
                                                          "0": "off"}})
    report_promotions: bool = dataclasses.field(default=False, metadata={"bare": True})
    retype_results: bool = dataclasses.field(default=False, metadata={"bare": True})

    if typing.TYPE_CHECKING:  # what the constructor takes: a name or a level's spelling is resolved in __post_init__
        def __init__(self, policy: "Policy | str" = ..., diagnose_lossy: "LossyLevel | str" = ...,
                     lower_dtypes: bool = ..., diagnose_precision: "LossyLevel | str" = ...,
                     report_promotions: bool = ..., retype_results: bool = ...) -> None: ...

    def __post_init__(self) -> None:
        from ..policies.base import Policy

        if not isinstance(self.policy, Policy):
            object.__setattr__(self, "policy", get_policy(self.policy))
        for name in ("diagnose_lossy", "diagnose_precision"):
            level = getattr(self, name)
            if not isinstance(level, LossyLevel):
                try:
                    object.__setattr__(self, name, LossyLevel(level))
                except ValueError:
                    raise PassOptionError(f"{name.replace('_', '-')} must be one of "
                                          f"{', '.join(m.value for m in LossyLevel)}, not {level!r}") from None


@dataclasses.dataclass(frozen=True)
class LowerDTypesOptions(PassOptions):
    """The options of ``lower-dtypes``; in a pipeline string, ``lower-dtypes{everywhere=true}``.

    Attributes:
        everywhere: Lower every ``index``/``address``/``tf32`` value, not only those whose ops do not
            verify with them: for a module latticecast wrote itself (a graph's, whose ``index`` inputs
            are MAX's dtype however they are used). Default off: legal IR that uses ``index`` stays.

    Example:
        >>> str(LowerDTypesOptions(everywhere=True))
        'everywhere=true'
    """

    pass_name: ClassVar[str] = "lower-dtypes"
    pass_description: ClassVar[str] = "Lower index/address to ui64 and tf32 to f32 with reduce_precision"

    everywhere: bool = dataclasses.field(default=False, metadata={"bare": True})


@dataclasses.dataclass(frozen=True)
class LiftOptions(PassOptions):
    """The options of ``lift-implicit-casts``; in a pipeline string, ``lift-implicit-casts{policy=torch}``.

    Attributes:
        policy: The policy that wrote the module's promotions (a :class:`~latticecast.Policy`, or a
            registered name; ``policy-file=PATH`` in a pipeline string reads a CSV promotion table);
            default ``"jax"``.

    Raises:
        UnknownPolicyError: ``policy`` names no registered policy.

    Example:
        >>> from latticecast.passes import LiftOptions
        >>> str(LiftOptions(policy="torch"))
        'policy=torch'
    """

    pass_name: ClassVar[str] = "lift-implicit-casts"
    writes_mixed_ir: ClassVar[bool] = True
    pass_description: ClassVar[str] = "Take out the stablehlo.converts a policy's implicit-cast would insert (its inverse)"
    file_options: ClassVar[dict[str, str]] = {"policy_file": "policy"}

    policy: Policy = dataclasses.field(default_factory=_default_policy)

    if typing.TYPE_CHECKING:  # a registered name is resolved in __post_init__
        def __init__(self, policy: "Policy | str" = ...) -> None: ...

    def __post_init__(self) -> None:
        from ..policies.base import Policy

        if not isinstance(self.policy, Policy):
            object.__setattr__(self, "policy", get_policy(self.policy))


PASS_OPTIONS: tuple[type[PassOptions], ...] = (ImplicitCastOptions, LowerDTypesOptions, LiftOptions)
"""latticecast's passes, by their options: what ``--help`` lists without loading MLIR (the passes
themselves, :data:`latticecast.passes.PASSES`, are the same, in the same order)."""
