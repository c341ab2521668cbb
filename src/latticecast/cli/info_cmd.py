"""The small subcommands: ``explain`` (why a promotion), ``policies`` (what there is), ``demo``."""

from __future__ import annotations

from ..promotion.audit import audit

import argparse

from ..errors import PromotionError
from ..policies import Policy, policies
from ..policies.functions import explain
from ..promotion.weak import PType, parse_ptype
from .compare import same_result
from .common import EXIT_OK, CliError, add_policy_options, chosen_policy, load_policy, write_output, yes_no
from .progress import info

__all__ = ["add_parsers"]


def add_parsers(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("explain", help="why two types promote to what they do",
                       description="Explain the promotion of two types under a policy: the result and the "
                                   "rule or lattice path that gives it.")
    p.add_argument("a", metavar="A", help="a type (int16, i16, s2, bf16, i*, f32?, ...)")
    p.add_argument("b", metavar="B", help="the other type")
    add_policy_options(p)
    p.add_argument("--notation", choices=("bits", "bytes"), default="bits",
                   help="how i1, i8, u8 are read: bit counts (default) or byte counts (JAX's table)")
    p.add_argument("--vs", metavar="Q", help="explain the same promotion under policy Q too, and say whether "
                                             "the two agree")
    p.set_defaults(handler=run_explain)

    p = sub.add_parser("policies", help="list the promotion policies",
                       description="List the registered policies, their titles, and whether each is a "
                                   "(partial) lattice.")
    p.set_defaults(handler=run_policies)

    # Everything after "demo" is the demo's own command line (see main.main).
    p = sub.add_parser("demo", help="build a mixed-dtype graph, show the IR before and after implicit-cast, run it on the CPU, "
                            "and compare two policies", add_help=False)
    p.set_defaults(handler=run_demo)


def run_explain(args: argparse.Namespace) -> int:
    pol = chosen_policy(args)
    a = parse_ptype(args.a, notation=args.notation)
    b = parse_ptype(args.b, notation=args.notation)
    text = explain(a, b, policy=pol)
    if args.vs is not None:
        other = load_policy(args.vs)
        text += "\n" + explain(a, b, policy=other)
        mine, theirs = pol.try_promote(a, b), _try(other, a, b)
        agree = same_result(mine, theirs, pol, other)
        text += (f"\n{pol.name} and {other.name} agree: {_spell(pol, mine)}\n" if agree else
                 f"\n{pol.name} and {other.name} differ: {_spell(pol, mine)} vs {_spell(other, theirs)}\n")
    write_output(text, None)
    return EXIT_OK


def _spell(pol: Policy, t: PType | None) -> str:
    return "undefined" if t is None else pol.type_name(t)


def _try(pol: Policy, a: PType, b: PType) -> PType | None:
    """``pol``'s promotion of ``a`` and ``b``, or ``None`` where it has none (or lacks a type)."""
    try:
        return pol.try_promote(a, b)
    except PromotionError:
        return None


def run_policies(args: argparse.Namespace) -> int:
    rows = []
    for name in policies():
        try:
            pol = load_policy(name)
        except CliError as e:
            # A registered policy whose module this installation lacks: say so, list the rest.
            info(f"latticecast: warning: {e}")  # not with -q
            rows.append((name, "?", "(not available in this installation)"))
            continue
        # judged where the policy claims a lattice: MAX's and the Array API's dtypes (their Python
        # scalars follow a rule outside it), every type elsewhere
        scope = pol.lattice_scope
        report = pol.audit() if tuple(scope) == tuple(pol.types) else audit(pol.table(scope))
        lattice = yes_no(report.is_lattice) + (" (partial)" if report.is_lattice and not report.is_complete else "")
        if tuple(scope) != tuple(pol.types):  # "no (dtypes)": not a lattice even without its Python scalars
            lattice += " (dtypes)"
        rows.append((pol.name, lattice, pol.title))
    width = max(len(r[0]) for r in rows)
    lat_width = max(len("lattice"), *(len(r[1]) for r in rows))
    lines = [f"{'policy'.ljust(width)}  {'lattice'.ljust(lat_width)}  title"]
    lines += [f"{n.ljust(width)}  {lat.ljust(lat_width)}  {title}" for n, lat, title in rows]
    write_output("\n".join(lines) + "\n", None)
    return EXIT_OK


def run_demo(args: argparse.Namespace) -> int:
    from .. import demo  # the demo is the lead developer's module; imported only when asked for

    return demo.main(args.extra)
