"""How much both tools say while they work: ``-q``/``-v``, and progress bars (tqdm) on long work.

Three levels, set once from the command line (:func:`add_verbosity_options`, :func:`set_verbosity`):

- ``-q`` (:data:`QUIET`): results and errors only; no progress bar, hint, note or warning of the tool's own;
- the default (:data:`NORMAL`): a progress bar with an ETA on work that runs longer than
  :data:`DELAY` seconds, on a terminal (standard error), and one-line hints;
- ``-v`` (:data:`VERBOSE`): also what each stage did and how long it took (:func:`detail`), and
  the bars at once.

Bars are tqdm's, on standard error, and never on a pipe or a file (a log gets no carriage
returns). Each long job opens one with :func:`bar` (a known amount of work: items, bytes, cells)
or :func:`stages` (named steps, each timed).

Example:
    >>> set_verbosity(NORMAL)
    >>> with bar("scan", total=3) as b:
    ...     for _ in range(3):
    ...         b.update(1)
"""

from __future__ import annotations

import argparse
import sys
import time
from contextlib import contextmanager
from typing import Callable, Iterator, Protocol, Sequence

__all__ = ["QUIET", "NORMAL", "VERBOSE", "DELAY", "add_verbosity_options", "set_verbosity", "verbosity",
           "verbosity_of", "info", "detail", "bar", "stages", "Stages", "reporter"]

QUIET, NORMAL, VERBOSE = 0, 1, 2
DELAY = 2.0
"""Seconds of work before a bar appears (shorter work stays silent)."""
MININTERVAL = 0.2
"""Seconds between two redraws of a bar."""

_level = NORMAL


def add_verbosity_options(parser: argparse.ArgumentParser, *, suppress_default: bool = False) -> None:
    """``-q/--quiet`` and ``-v/--verbose`` (one or the other). With ``suppress_default`` an absent
    option leaves the namespace alone (a subcommand's copy does not undo the main parser's)."""
    group = parser.add_mutually_exclusive_group()
    default: str | bool = argparse.SUPPRESS if suppress_default else False
    group.add_argument("-q", "--quiet", action="store_true", default=default,
                       help="print only results and errors: no progress bar, hint or warning")
    group.add_argument("-v", "--verbose", action="store_true", default=default,
                       help="say what each stage did and how long it took; show progress bars at once")


def verbosity_of(args: argparse.Namespace) -> int:
    """The level the parsed options ask for."""
    if getattr(args, "quiet", False):
        return QUIET
    return VERBOSE if getattr(args, "verbose", False) else NORMAL


def set_verbosity(level: int) -> None:
    global _level
    _level = level


def verbosity() -> int:
    return _level


def _write(message: str) -> None:
    """A line on standard error, above any bar that is drawn (tqdm clears and redraws it)."""
    if "tqdm" in sys.modules:
        from tqdm import tqdm

        tqdm.write(message, file=sys.stderr)
    else:
        print(message, file=sys.stderr, flush=True)


def info(message: str) -> None:
    """A hint or a note for a person (standard error), unless ``-q``."""
    if _level >= NORMAL:
        _write(message)


def detail(message: str) -> None:
    """What a stage did, with ``-v`` only (standard error)."""
    if _level >= VERBOSE:
        _write(message)


class Bar(Protocol):
    """What latticecast uses of a tqdm bar (tqdm ships no type information)."""

    n: float

    def update(self, n: float = 1) -> object: ...

    def set_description_str(self, desc: str) -> object: ...

    def close(self) -> None: ...


def _shown() -> bool:
    return _level >= NORMAL and bool(getattr(sys.stderr, "isatty", lambda: False)())


@contextmanager
def bar(description: str, total: float | None, unit: str = "it", *, scale: bool = False) -> Iterator[Bar]:
    """A tqdm bar on standard error for ``total`` units of work: it appears after :data:`DELAY`
    seconds (at once with ``-v``), shows the rate and the ETA, and goes away when the work is done.
    ``scale`` prints large counts as 1.2M (bytes). Where no bar can be shown (``-q``, standard error not
    a terminal), tqdm is not loaded: the bar is :class:`_Unshown`."""
    if not _shown():
        yield _Unshown(total)
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=description, unit=unit, unit_scale=scale, file=sys.stderr, leave=False,
              delay=0 if _level >= VERBOSE else DELAY, dynamic_ncols=True,
              mininterval=0.2) as progress:
        yield progress


class _Unshown:
    """The part of a tqdm bar that callers use, for a bar that is not shown: it counts and draws nothing."""

    def __init__(self, total: float | None) -> None:
        self.total = total
        self.n: float = 0

    def update(self, n: float = 1) -> None:
        self.n += n

    def set_description_str(self, desc: str) -> None:
        pass

    def close(self) -> None:
        pass


class Stages:
    """Named steps of one job, each timed (:func:`detail` with ``-v``), on one bar of the steps."""

    def __init__(self, progress: Bar, prefix: str) -> None:
        self.progress = progress
        self.prefix = prefix
        self.start = time.perf_counter()
        self.current: str | None = None

    def step(self, name: str) -> None:
        """The previous step is done; ``name`` starts."""
        self._finish()
        self.current = name
        self.start = time.perf_counter()
        self.progress.set_description_str(f"{self.prefix}: {name}")

    def _finish(self) -> None:
        if self.current is not None:
            detail(f"{self.prefix}: {self.current}: {time.perf_counter() - self.start:.2f} s")
            self.progress.update(1)
            self.current = None


@contextmanager
def stages(prefix: str, names: Sequence[str]) -> Iterator[Stages]:
    """A job of the steps ``names`` (in order, each begun with :meth:`Stages.step`) on one bar."""
    with bar(prefix, total=len(names), unit="step") as progress:
        job = Stages(progress, prefix)
        yield job
        job._finish()


@contextmanager
def reporter(prefix: str) -> Iterator[Callable[[str, int, int], None]]:
    """A ``progress(stage, done, total)`` callback (the library's, e.g. :func:`latticecast.audit`'s) drawn
    as one tqdm bar per stage; each stage's time is a :func:`detail` line."""
    from tqdm import tqdm

    current: str | None = None
    shown: Bar | None = None
    start = 0.0

    def close() -> None:
        if shown is not None:
            shown.close()
            detail(f"{prefix}: {current}: {time.perf_counter() - start:.2f} s")

    def update(stage: str, done: int, total: int) -> None:
        nonlocal current, shown, start
        if stage != current or shown is None:
            close()
            current, start = stage, time.perf_counter()
            shown = tqdm(total=total, desc=f"{prefix}: {stage}", file=sys.stderr, leave=False, disable=not _shown(),
                         delay=0 if _level >= VERBOSE else DELAY, dynamic_ncols=True, mininterval=MININTERVAL)
        shown.update(done - shown.n)

    try:
        yield update
    finally:
        close()
