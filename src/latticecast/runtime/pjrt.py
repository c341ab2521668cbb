"""Names for the PJRT and JAX objects the runtime passes between its modules, for its annotations.

jaxlib ships no type information for its C++ objects (``jax.Device``, a client's ``LoadedExecutable``,
``CompileOptions``), so a type checker reads them as ``Any``; naming them here keeps every annotation
saying what it holds. Where jax and jaxlib are typed (``jax.Array``, ``jax.sharding.Sharding``,
``jax.stages.Compiled``, ``jaxlib.mlir.ir``) the runtime uses their types directly, and the check is real.
Nothing here is imported when the program runs (the names are for annotations only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

import numpy.typing as npt

if TYPE_CHECKING:
    from typing import TypeAlias

    import jax
    from jaxlib import xla_client

__all__ = ["Argument", "ClientExecutable", "CompileOptions", "Executable"]

ClientExecutable: "TypeAlias" = "xla_client.LoadedExecutable"
"""A PJRT client's compiled program (``client.compile_and_load``): the ``"client"`` route."""

CompileOptions: "TypeAlias" = "xla_client.CompileOptions"
"""XLA's compile options (``jax``'s ``get_compile_options``)."""

Executable: "TypeAlias" = Union["jax.stages.Compiled", "xla_client.LoadedExecutable"]
"""A compiled program: ``jax.jit``'s ``Compiled`` (the ``"jax.jit"`` route) or a client's executable."""

Argument: "TypeAlias" = Union["jax.Array", npt.ArrayLike]
"""A model's argument: a ``jax.Array``, a NumPy array, or Python scalars and lists whose values fit the
input's dtype (checked, never cast)."""
