"""Sphinx directives that generate reference material from latticecast itself, at build time.

``.. latticecast-policy-tables::``
    One section per registered policy (``latticecast.policies()``): its title, its source, whether
    its table is a lattice, the picture of its lattice (or of its promotion graph), and its full
    promotion table as :meth:`latticecast.Policy.table` computes it, in the short codes and
    scrolling box with a sticky header of ``latticecast table --format html``
    (:mod:`latticecast.cli.html_page`, :mod:`latticecast.cli.table_view`).

``.. latticecast-lattice:: POLICY``
    The picture of a policy's lattice (``latticecast lattice --format svg``), inline SVG.

``.. latticecast-comparison:: P Q``
    Two policies compared over the common types: the count, the picture of their direct
    promotions (``latticecast table --policy P --vs Q --format html``'s), and the heat map.

Pictures are SVG laid out by Graphviz where its ``dot`` is installed and by latticecast itself
elsewhere (:mod:`latticecast.cli.render_graph`), so the build never needs Graphviz.

``.. latticecast-help:: PROG [SUBCOMMAND]``
    The ``--help`` text of ``latticecast`` (or one of its subcommands) or ``latticecast-opt``, from
    the parsers the commands themselves build, at a fixed width of 100 columns.

Nothing here is copied by hand: a change to a policy or to an option shows in the next build.
"""

from __future__ import annotations

import argparse
import os
import re
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles
from sphinx.util.rst import escape

HELP_WIDTH = 100


def _raw(html: str) -> nodes.raw:
    return nodes.raw("", html, format="html")


def _style_once(directive: SphinxDirective) -> list[nodes.Node]:
    """The stylesheet of latticecast's tables and pictures, once per page."""
    from latticecast.cli import html_page

    seen = directive.env.temp_data.setdefault("latticecast_styled", set())
    if directive.env.docname in seen:
        return []
    seen.add(directive.env.docname)
    return [_raw(html_page.style())]


def lattice_figure(name: str) -> str:
    """The policy's picture as an HTML figure (inline SVG)."""
    import latticecast as lc
    from latticecast.cli import html_page
    from latticecast.cli.lattice_cmd import policy_drawing
    from latticecast.cli.render_graph import svg

    drawing = policy_drawing(lc.policy(name))
    return f'<div class="latticecast-picture">{html_page.figure(drawing.title, svg(drawing))}</div>'


def policy_table_html(name: str) -> str:
    """The policy's full table in the scrolling, sticky-header box of ``table --format html``, and its legend."""
    import latticecast as lc
    from latticecast.cli import html_page
    from latticecast.cli.common import namer
    from latticecast.cli.table_view import grid_of, html_grid

    pol = lc.policy(name)
    grid = grid_of(pol.table(), namer(pol))
    return (f'<div class="latticecast-table">{html_page.legend(codes=grid.codes)}'
            f"{html_grid(grid, f'table-{name}')}</div>")


class PolicyTables(SphinxDirective):
    """Every registered policy: a section with its facts and its promotion table."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        import latticecast as lc
        from latticecast.cli.common import namer

        self.env.note_reread()  # generated from the library: read again on every build
        lines: list[str] = []
        for name in lc.policies():
            pol = lc.policy(name)
            table = pol.table()
            report = pol.audit()
            title = f"``{name}``: {escape(pol.title)}"
            lines += [title, "~" * len(title), ""]
            lines += [f"Source: {escape(pol.source)}", ""]
            facts = [f"{len(pol.dtypes)} dtypes",
                     f"{len(pol.weak_types)} weak types" if pol.weak_types else "no weak types",
                     f"{len(table.cells) - sum(v is not None for v in table.cells.values())} of "
                     f"{len(table.cells)} cells refused" if report.undefined else "every cell defined",
                     ("a partial lattice (the join of a partial order where defined)" if report.undefined
                      else "a lattice") if report.is_lattice else "not a lattice",
                     "commutative" if report.commutative else "not commutative",
                     "associative" if report.associative else "not associative"]
            lines += ["Its table: " + ", ".join(facts) + ". Rows are the left operand, columns the "
                      "right one; ``-`` is a promotion the policy refuses. The table scrolls in its box.", ""]
            lines += [".. raw:: html", ""]
            lines += ["   " + line for line in (lattice_figure(name) + "\n" + policy_table_html(name)).splitlines()]
            lines += [""]
        return _style_once(self) + self._parse(lines)

    def _parse(self, lines: list[str]) -> list[nodes.Node]:
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="<latticecast-policy-tables>"), node)
        return node.children


class LatticePicture(SphinxDirective):
    """``.. latticecast-lattice:: POLICY``: the picture of a policy's lattice or promotion graph."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        import latticecast as lc

        self.env.note_reread()
        if self.arguments[0] not in lc.policies():
            raise self.error(f"unknown policy {self.arguments[0]!r}")
        return _style_once(self) + [_raw(lattice_figure(self.arguments[0]))]


class Comparison(SphinxDirective):
    """``.. latticecast-comparison:: P Q``: two policies over the common types, a picture and a heat map."""

    required_arguments = 2

    def run(self) -> list[nodes.Node]:
        import latticecast as lc
        from latticecast.cli import html_page
        from latticecast.cli.drawing import diff_drawing
        from latticecast.cli.render_graph import svg
        from latticecast.cli.table_cmd import _diff, _marks
        from latticecast.cli.table_diff import default_types
        from latticecast.cli.table_view import html_grid

        self.env.note_reread()
        names = self.arguments
        for name in names:
            if name not in lc.policies():
                raise self.error(f"unknown policy {name!r}")
        pol, other = lc.policy(names[0]), lc.policy(names[1])
        table = pol.table(default_types(pol))
        table.marks, _ = _marks(pol, table, other.name)
        diff = _diff(pol, table, other.name)
        picture = html_page.figure(f"{pol.name} vs {other.name}: direct promotions",
                                   svg(diff_drawing(pol, other, list(table.rows))))
        grid = diff.grid()
        summary = (f"<p>{len(table.marks)} of {len(table.cells)} pairs of the common types differ; a differing "
                   f"cell shows {pol.name}/{other.name} (<code>latticecast table --policy {pol.name} --vs "
                   f"{other.name}</code>).</p>")
        block = (f'<div class="latticecast-comparison">{summary}'
                 f'{html_page.row(html_grid(grid, f"heat-{pol.name}-{other.name}"), picture)}</div>')
        return _style_once(self) + [_raw(block)]


def _parser(prog: str) -> argparse.ArgumentParser:
    if prog == "latticecast":
        from latticecast.cli.main import build_parser
    elif prog == "latticecast-opt":
        from latticecast.cli.opt.args import build_parser
    else:
        raise ValueError(f"unknown command {prog!r}: latticecast or latticecast-opt")
    return build_parser()


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            return action.choices[name]
    raise ValueError(f"{parser.prog} has no subcommand {name!r}")


def help_text(prog: str, subcommand: str | None = None) -> str:
    """What ``PROG [SUBCOMMAND] --help`` prints, at :data:`HELP_WIDTH` columns."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(HELP_WIDTH)  # argparse's formatter reads the width from here
    try:
        parser = _parser(prog)
        if subcommand is not None:
            parser = _subparser(parser, subcommand)
        return parser.format_help()
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved


def subcommands(prog: str) -> list[str]:
    """The subcommands of ``prog``, in the order of its ``--help``."""
    parser = _parser(prog)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


class Help(SphinxDirective):
    """The ``--help`` of a command, as a literal block."""

    required_arguments = 1
    optional_arguments = 1

    def run(self) -> list[nodes.Node]:
        prog, *sub = self.arguments
        self.env.note_reread()  # generated from the parsers: read again on every build
        try:
            text = help_text(prog, sub[0] if sub else None)
        except ValueError as e:
            raise self.error(str(e)) from None
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


_ALIAS_REPR = re.compile(r"TypeAliasForwardRef\('(\w+)'\)")


def _alias_names(app: Sphinx, what: str, name: str, obj: Any, options: Any, signature: str | None,
                 return_annotation: str | None) -> tuple[str | None, str | None]:
    """Show an alias of ``autodoc_type_aliases`` by its name inside a union too (``DTypeLike | None``),
    where Sphinx shows the repr of its forward reference."""
    fix = (lambda text: _ALIAS_REPR.sub(r"\1", text) if text else text)
    return fix(signature), fix(return_annotation)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("autodoc-process-signature", _alias_names)
    app.add_directive("latticecast-policy-tables", PolicyTables)
    app.add_directive("latticecast-help", Help)
    app.add_directive("latticecast-lattice", LatticePicture)
    app.add_directive("latticecast-comparison", Comparison)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
