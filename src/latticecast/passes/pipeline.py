"""A pass pipeline as an object: latticecast's passes by their options, and MLIR's passes by name.

A :class:`Pipeline` is what every runner takes (:mod:`.runner`). It is made in one of two ways,
both at the user-facing edge:

- from text, once, by :meth:`Pipeline.parse` (``builtin.module(implicit-cast{policy=max},canonicalize)``,
  the form ``mlir-opt --pass-pipeline`` and :func:`latticecast.run_pipeline` take);
- from objects, with no text at all: ``Pipeline.of_passes(ImplicitCastOptions(policy="max"), "canonicalize")``.
  ``latticecast-opt`` builds its pipeline this way, straight from its flags.

Each latticecast pass is held as its options dataclass (:class:`~.options.PassOptions`), so the
pipeline prints from the passes' own fields (``str(pipeline)``), and the printed text parses back
to an equal pipeline. MLIR's own passes (every upstream pass jaxlib registers) are
:class:`MLIRPass` elements, handed to MLIR's parser when the pipeline is built. This module loads no
MLIR: a command line can be read into a pipeline before jaxlib is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Union

from ..errors import LatticecastError
from .options import PASS_OPTIONS, PassOptionError, PassOptions

__all__ = ["PipelineError", "Pipeline", "MLIRPass", "PipelineElement", "ANCHOR", "DEFAULT_PIPELINE"]

ANCHOR = "builtin.module"
"""The op every pipeline runs on."""
DEFAULT_PIPELINE = "builtin.module(implicit-cast)"
"""What :func:`~latticecast.run_pipeline` runs when given no pipeline."""

_OPTIONS: dict[str, type[PassOptions]] = {o.pass_name: o for o in PASS_OPTIONS}
"""latticecast's passes' options classes, by the name a pipeline gives the pass."""


class PipelineError(LatticecastError, ValueError):
    """A pass pipeline that cannot be parsed or built; the message (one line) says where and why."""


@dataclass(frozen=True)
class MLIRPass:
    """An element MLIR builds itself: an upstream pass (``cse``, ``canonicalize{max-iterations=3}``) or a
    nested pipeline (``func.func(cse)``).

    Attributes:
        name: The pass's argument, or the op a nested pipeline runs on.
        options: The options as MLIR reads them (``max-iterations=3``), empty for none.
        nested: The nested pipeline's elements, or ``None``.

    Example:
        >>> str(MLIRPass("func.func", nested=(MLIRPass("cse"),)))
        'func.func(cse)'
    """

    name: str
    options: str = ""
    nested: "tuple[MLIRPass, ...] | None" = None

    def __str__(self) -> str:
        text = self.name + (f"{{{self.options}}}" if self.options else "")
        if self.nested is not None:
            text += f"({','.join(str(e) for e in self.nested)})"
        return text

    def names(self) -> Iterator[str]:
        """This element's name and those of the passes nested in it, depth first."""
        yield self.name
        for e in self.nested or ():
            yield from e.names()


PipelineElement = Union[PassOptions, MLIRPass]
"""One element of a :class:`Pipeline`: a latticecast pass (its options) or an :class:`MLIRPass`."""


def element_name(element: PipelineElement) -> str:
    """The name a pipeline gives ``element`` (``implicit-cast``, ``cse``)."""
    return element.pass_name if isinstance(element, PassOptions) else element.name


def element_text(element: PipelineElement) -> str:
    """``element`` as a pipeline writes it; a latticecast pass with every option spelled out."""
    if isinstance(element, MLIRPass):
        return str(element)
    options = str(element)
    return f"{element.pass_name}{{{options}}}" if options else element.pass_name


@dataclass(frozen=True)
class Pipeline:
    """The passes to run on a ``builtin.module``, in order.

    Attributes:
        elements: latticecast passes (their options) and MLIR passes, in order.

    Example:
        >>> from latticecast import ImplicitCastOptions
        >>> p = Pipeline.of_passes(ImplicitCastOptions(policy="max", lower_dtypes=False), "canonicalize")
        >>> p.pass_names
        ('implicit-cast', 'canonicalize')
        >>> Pipeline.parse(str(p)) == p
        True
    """

    elements: tuple[PipelineElement, ...] = ()

    @classmethod
    def of_passes(cls, *passes: "PipelineElement | str") -> "Pipeline":
        """A pipeline of these passes: options objects, :class:`MLIRPass` elements, or the names of
        passes without options (``"cse"``; a latticecast pass's name gives it its default options).

        Args:
            passes: The elements, in order.

        Returns:
            The pipeline.

        Example:
            >>> Pipeline.of_passes("lower-dtypes", "cse").pass_names
            ('lower-dtypes', 'cse')
        """
        elements: list[PipelineElement] = []
        for p in passes:
            if isinstance(p, str):
                elements.extend(cls.parse(p).elements)
            elif isinstance(p, (PassOptions, MLIRPass)):
                elements.append(p)
            else:
                raise PipelineError(f"a pipeline element is a pass's options, an MLIRPass or a pass name, "
                                    f"not {type(p).__name__}")
        return cls(tuple(elements))

    @classmethod
    def parse(cls, text: str) -> "Pipeline":
        """Read a textual pipeline: ``builtin.module(a,b{x=1},c)`` or the bare list ``a,b{x=1},c``.

        Args:
            text: The pipeline, as ``mlir-opt --pass-pipeline`` takes it.

        Returns:
            The pipeline; latticecast's passes have their options read into their dataclasses.

        Raises:
            PipelineError: The text does not parse, or a latticecast pass has a bad option.

        Example:
            >>> Pipeline.parse("builtin.module(implicit-cast{policy=max},func.func(cse))").pass_names
            ('implicit-cast', 'func.func')
        """
        if not isinstance(text, str):
            raise PipelineError(f"a pipeline is text such as 'builtin.module(implicit-cast)', not {text!r}")
        top = [_raw_element(p, text) for p in _split(text.strip(), text)]
        if len(top) == 1 and top[0][0] == ANCHOR:
            name, options, nested = top[0]
            if options:
                raise PipelineError(f"{ANCHOR} takes no options (in pipeline '{text}')")
            raw = [_raw_element(p, text) for p in _split(nested or "", text)]
        elif any(r[0] == ANCHOR for r in top):
            raise PipelineError(f"'{ANCHOR}(...)' must be the whole pipeline, not one element of it "
                                f"(in pipeline '{text}')")
        else:
            raw = top
        return cls(tuple(_element(name, options, nested, text) for name, options, nested in raw))

    @classmethod
    def of(cls, text_or_pipeline: "str | Pipeline") -> "Pipeline":
        """``text_or_pipeline`` as a pipeline: parsed when it is text.

        Args:
            text_or_pipeline: A pipeline, or its text.

        Returns:
            The pipeline.

        Example:
            >>> Pipeline.of("cse").pass_names
            ('cse',)
        """
        return text_or_pipeline if isinstance(text_or_pipeline, Pipeline) else cls.parse(text_or_pipeline)

    @property
    def is_empty(self) -> bool:
        """Whether the pipeline runs no pass."""
        return not self.elements

    @property
    def first_pass(self) -> str | None:
        """The first element's name, or ``None`` for an empty pipeline."""
        return element_name(self.elements[0]) if self.elements else None

    @property
    def pass_names(self) -> tuple[str, ...]:
        """The top-level elements' names, in order (``("implicit-cast", "canonicalize")``)."""
        return tuple(element_name(e) for e in self.elements)

    def all_pass_names(self) -> set[str]:
        """Every pass name the pipeline mentions, nested ones included."""
        return {n for e in self.elements
                for n in (e.names() if isinstance(e, MLIRPass) else (e.pass_name,))}

    @property
    def leaves_mixed_ir(self) -> bool:
        """Whether the pipeline's result may hold mixed-dtype ops: it has a pass that writes them
        (``lift-implicit-casts``) with no ``implicit-cast`` after it."""
        mixed = False
        for e in self.elements:
            if isinstance(e, PassOptions) and e.writes_mixed_ir:
                mixed = True
            elif isinstance(e, PassOptions) and e.makes_ir_legal:
                mixed = False
        return mixed

    @property
    def writes_mixed_ir(self) -> bool:
        """Whether a pass of the pipeline writes mixed-dtype ops (``lift-implicit-casts``): then MLIR's
        verifier cannot run after every pass, only at the end, where ``implicit-cast`` ran last."""
        return any(isinstance(e, PassOptions) and e.writes_mixed_ir for e in self.elements)

    def __str__(self) -> str:
        """The pipeline, printed from its passes' fields: each latticecast pass with every option spelled
        out (``policy=jax`` included when it was left to its default), so that the text reproduces the run."""
        return f"{ANCHOR}({','.join(element_text(e) for e in self.elements)})"


def _element(name: str, options: str, nested: str | None, whole: str) -> PipelineElement:
    """One element read from its parts: a latticecast pass's options, or an :class:`MLIRPass`."""
    if not name:
        raise PipelineError(f"empty pass name in pipeline '{whole}'")
    kind = _OPTIONS.get(name)
    if kind is not None:
        if nested is not None:
            raise PipelineError(f"{name} takes no nested pipeline ('{name}({nested})'); write the passes after it: "
                                f"builtin.module({name}, {nested})")
        try:
            return kind.parse(options)
        except PassOptionError as err:
            raise PipelineError(f"{name}{{{options}}}: {err}") from None
    inner = None
    if nested is not None:
        read = [_element(*_raw_element(p, whole), whole) for p in _split(nested, whole)]
        inner = tuple(e for e in read if isinstance(e, MLIRPass))
        if len(inner) < len(read):  # a latticecast pass at this level (deeper ones raised already)
            raise PipelineError(
                f"latticecast's passes run on the whole module; move them out of {name}(...) to the "
                f"top level, e.g. builtin.module(implicit-cast, {name}(...))")
    return MLIRPass(name, options, inner)


# -- the text: split at commas, then each element into name{options}(nested) ------------------------

_PAIRS = {"(": ")", "{": "}", "[": "]", "<": ">"}


def _split(text: str, whole: str) -> list[str]:
    """Split at top-level commas (commas inside (), {}, [] and quotes stay)."""
    parts: list[str] = []
    stack: list[str] = []
    start = 0
    quoted = False
    for i, ch in enumerate(text):
        if quoted:
            if ch == '"':
                quoted = False
            continue
        if ch == '"':
            quoted = True
        elif ch in "({[":
            stack.append(_PAIRS[ch])
        elif ch in ")}]":
            if not stack or stack.pop() != ch:
                raise PipelineError(f"unbalanced '{ch}' at position {i} of pipeline '{whole}'")
        elif ch == "," and not stack:
            parts.append(text[start:i].strip())
            start = i + 1
    if stack or quoted:
        raise PipelineError(f"unbalanced brackets in pipeline '{whole}'")
    last = text[start:].strip()
    if last:
        parts.append(last)
    if any(not p for p in parts):
        raise PipelineError(f"empty element in pipeline '{whole}' (two commas in a row?)")
    return parts


def _raw_element(text: str, whole: str) -> tuple[str, str, str | None]:
    """``name{options}(nested)`` as its three parts (``nested`` is ``None`` without parentheses)."""
    name_end = len(text)
    for i, ch in enumerate(text):
        if ch in "{(":
            name_end = i
            break
    name = text[:name_end].strip()
    rest = text[name_end:].strip()
    options, nested = "", None
    if rest.startswith("{"):
        close = _matching(rest, whole)
        options, rest = rest[1:close], rest[close + 1:].strip()
    if rest.startswith("("):
        close = _matching(rest, whole)
        nested, rest = rest[1:close], rest[close + 1:].strip()
    if rest:
        raise PipelineError(f"unexpected '{rest}' after pass '{name}' in pipeline '{whole}'")
    if any(c.isspace() for c in name):
        raise PipelineError(f"'{name}' is not a pass name (in pipeline '{whole}')")
    return name, options, nested


def _matching(text: str, whole: str) -> int:
    """The index of the bracket closing ``text[0]`` (brackets inside quotes do not count)."""
    closing = _PAIRS[text[0]]
    depth = 0
    quoted = False
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch == text[0]:
            depth += 1
        elif ch == closing:
            depth -= 1
            if depth == 0:
                return i
    raise PipelineError(f"unbalanced brackets in pipeline '{whole}'")
