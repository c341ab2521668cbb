"""Sphinx directives that generate reference material from latticecast itself, at build time.

``.. latticecast-policy-tables::``
    One section per registered policy (``latticecast.policies()``): its title, its source, whether
    its table is a lattice, and its full promotion table as :meth:`latticecast.Policy.table`
    computes it and :meth:`latticecast.PromotionTable.render` writes it (``"html"``; the
    ``latticecast table --format html`` command prints the same table).

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
                      "right one; ``-`` is a promotion the policy refuses.", ""]
            html = table.render("html", namer(pol))
            lines += [".. raw:: html", ""]
            lines += ["   <div class=\"latticecast-table\">"]
            lines += ["   " + line for line in html.splitlines()]
            lines += ["   </div>", ""]
        return self._parse(lines)

    def _parse(self, lines: list[str]) -> list[nodes.Node]:
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="<latticecast-policy-tables>"), node)
        return node.children


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
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
