"""Shardings in the builder, spelled in JAX's terms and emitted as Shardy.

A graph with ``mesh=`` (a ``jax.sharding.Mesh``, or an ``AbstractMesh`` when the
devices are chosen at compile time) is a program for ``mesh.size`` devices. Its inputs
take a ``PartitionSpec`` (``TensorType(..., sharding=P("data", None))``), values inside
take one through ``ops.shard(value, P(...))`` (a sharding constraint), and outputs
through ``g.output(*values, shardings=[...])``. The module the graph emits is what
``jax.jit`` writes for the same shardings:

* ``mhlo.num_partitions = N`` and ``mhlo.num_replicas = 1`` on the module, so the
  runtime compiles it with XLA's SPMD partitioner for N devices;
* one ``sdy.mesh @mesh`` with the mesh's axes, in the mesh's device order (the runtime
  takes a concrete mesh's devices as the device assignment, as JAX does, so the mesh op
  never lists device ids);
* closed ``#sdy.sharding`` attributes on ``@main``'s arguments and results, and
  ``sdy.sharding_constraint`` ops. An input or output given no sharding is replicated:
  the builder never leaves a boundary layout to the partitioner (with Shardy, an open or
  missing one is propagated into whatever the partitioner likes, whatever the compile
  options say, and callers could not know how to lay out their arrays).

``PartitionSpec`` to Shardy, as JAX lowers it: ``None`` is ``{}`` (not sharded), a name is
``{"name"}``, a tuple of names shards one dimension over several axes (major to minor),
missing trailing entries are ``{}``, and ``P.UNCONSTRAINED`` (constraints only) is ``{?}``
(the partitioner chooses).

Mistakes are :class:`~latticecast.GraphError` s when the graph is built, not XLA errors
at compile time: a spec with more entries than the value has dimensions, an axis the
mesh does not have or used twice, and, at the inputs and outputs (where arrays are
split into equal tiles, as ``jax.jit`` requires), a dimension the axes do not divide.
Mesh axes must be ``AxisType.Auto``: these are propagation-style shardings, and
``jax.make_mesh`` makes ``Explicit`` axes unless told otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from ..errors import GraphError

if TYPE_CHECKING:
    import jax
    import jax.sharding

    from ..promotion.dims import SymbolicDim

__all__ = ["MeshLayout", "MESH_NAME"]

MESH_NAME = "mesh"
"""The symbol of the graph's one ``sdy.mesh`` (JAX's name for it too)."""


class MeshLayout:
    """A graph's mesh: its axes, its devices (``None`` for an ``AbstractMesh``), and the
    conversion of ``PartitionSpec`` s over it into checked ``#sdy.sharding`` attributes."""

    def __init__(self, mesh: "jax.sharding.Mesh | jax.sharding.AbstractMesh") -> None:
        import jax.sharding

        if not isinstance(mesh, (jax.sharding.Mesh, jax.sharding.AbstractMesh)):
            raise GraphError(f"mesh must be a jax.sharding.Mesh (or AbstractMesh), not {type(mesh).__name__}; "
                             f"make one with jax.make_mesh((4, 2), ('data', 'model'), "
                             f"axis_types=(jax.sharding.AxisType.Auto,) * 2)")
        self.mesh = mesh
        self.names: tuple[str, ...] = tuple(mesh.axis_names)
        self.sizes: tuple[int, ...] = tuple(int(s) for s in mesh.axis_sizes)
        if not self.names:
            raise GraphError("mesh has no axes; give it at least one (jax.make_mesh((8,), ('data',), ...))")
        not_auto = [(n, t) for n, t in zip(self.names, mesh.axis_types) if t != jax.sharding.AxisType.Auto]
        if not_auto:
            listed = ", ".join(f"{n!r} is {getattr(t, 'name', t)}" for n, t in not_auto)
            raise GraphError(
                f"mesh axes must be AxisType.Auto ({listed}): a graph's shardings are propagation-style, as "
                f"jax.jit's in_shardings/out_shardings and with_sharding_constraint are over an Auto mesh. "
                f"jax.make_mesh makes Explicit axes unless told otherwise: pass "
                f"axis_types=(jax.sharding.AxisType.Auto,) * {len(self.names)}.")
        self.size = 1
        for s in self.sizes:
            self.size *= s
        self.devices: "tuple[jax.Device, ...] | None" = (
            tuple(mesh.devices.flat) if isinstance(mesh, jax.sharding.Mesh) else None)
        self._unconstrained = jax.sharding.PartitionSpec.UNCONSTRAINED
        self._spec_type = jax.sharding.PartitionSpec

    def describe(self) -> str:
        return "(" + ", ".join(f"{n!r}={s}" for n, s in zip(self.names, self.sizes)) + ")"

    # -- module pieces ---------------------------------------------------------------------------

    def emit(self, module: ir.Module, loc: ir.Location) -> None:
        """Give ``module`` (in its context) the partition count and the ``sdy.mesh`` op, first in its body."""
        i32 = ir.IntegerType.get_signless(32)
        attrs = module.operation.attributes
        attrs["mhlo.num_partitions"] = ir.IntegerAttr.get(i32, self.size)
        attrs["mhlo.num_replicas"] = ir.IntegerAttr.get(i32, 1)
        mesh = sdy.MeshAttr.get([sdy.MeshAxisAttr.get(n, s) for n, s in zip(self.names, self.sizes)], [])
        body = module.body
        ip = ir.InsertionPoint.at_block_begin(body) if len(body.operations) else ir.InsertionPoint(body)
        ir.Operation.create("sdy.mesh", attributes={"sym_name": ir.StringAttr.get(MESH_NAME), "mesh": mesh}, loc=loc, ip=ip)

    def sharding(self, spec: "jax.sharding.PartitionSpec | None", shape: Sequence[int | SymbolicDim], what: str, *, boundary: bool) -> ir.Attribute:
        """The ``#sdy.sharding<@mesh, [...]>`` of ``spec`` (``None``: replicated) for a value of ``shape``.

        ``boundary``: an input or output of the graph, where every dimension must split evenly
        and the partitioner may not choose (no ``P.UNCONSTRAINED``)."""
        dims = self.dimensions(spec, shape, what, boundary=boundary)
        return sdy.TensorShardingAttr.get(
            MESH_NAME, [sdy.DimensionShardingAttr.get([sdy.AxisRefAttr.get(a) for a in axes], is_closed=not open_)
                        for axes, open_ in dims], [], [])

    def dimensions(self, spec: "jax.sharding.PartitionSpec | None", shape: Sequence[int | SymbolicDim], what: str, *,
                   boundary: bool) -> list[tuple[tuple[str, ...], bool]]:
        """Per dimension: the axes it is split over, and whether it is open (``P.UNCONSTRAINED``)."""
        if spec is None:
            return [((), False)] * len(shape)
        if not isinstance(spec, self._spec_type):
            raise GraphError(f"{what}: a sharding is a jax.sharding.PartitionSpec (P('data', None)), not "
                             f"{type(spec).__name__} {spec!r}")
        if getattr(spec, "unreduced", None) or getattr(spec, "reduced", None):
            raise GraphError(f"{what}: {spec} has unreduced/reduced axes, which latticecast graphs do not support; "
                             f"use a PartitionSpec of names, tuples of names and None")
        entries = list(spec)
        if len(entries) > len(shape):
            raise GraphError(f"{what}: {spec} has {len(entries)} entries, but the value has rank {len(shape)} "
                             f"(shape [{', '.join(map(str, shape))}]); give one entry per dimension at most")
        used: dict[str, int] = {}
        out: list[tuple[tuple[str, ...], bool]] = []
        for d, entry in enumerate(entries):
            if entry is self._unconstrained:
                if boundary:
                    raise GraphError(f"{what}: {spec} leaves dimension {d} to the partitioner (P.UNCONSTRAINED); "
                                     f"graph inputs and outputs need a definite layout: name the axes, or None to "
                                     f"replicate")
                out.append(((), True))
                continue
            axes = () if entry is None else (entry,) if isinstance(entry, str) else entry
            if not isinstance(axes, tuple) or not all(isinstance(a, str) for a in axes):
                raise GraphError(f"{what}: {spec} entry {d} is {entry!r}; an entry is an axis name, a tuple of "
                                 f"axis names, None, or P.UNCONSTRAINED")
            split = 1
            for a in axes:
                if a not in self.names:
                    raise GraphError(f"{what}: {spec} names axis {a!r}, which the mesh {self.describe()} does not have")
                if a in used:
                    raise GraphError(f"{what}: {spec} uses axis {a!r} for dimensions {used[a]} and {d}; each axis "
                                     f"splits one dimension at most")
                used[a] = d
                split *= self.sizes[self.names.index(a)]
            size = shape[d]
            if boundary and split > 1 and isinstance(size, int) and size % split:
                raise GraphError(
                    f"{what}: {spec} splits dimension {d} (size {shape[d]}) {split} ways over "
                    f"{' x '.join(repr(a) for a in axes)}, which does not divide it; a graph's inputs and outputs "
                    f"are split into equal tiles: shard another dimension, use fewer axes, or pad to a multiple "
                    f"of {split}")
            out.append((tuple(axes), False))
        out.extend([((), False)] * (len(shape) - len(entries)))
        return out
