"""Transcribe the promotion tables of the seed documents into CSV test data.

Run once from the project root with the seeds beside it (``../shared/seeds``):

    python tools/transcribe_seeds.py ../shared/seeds src/latticecast/evidence/seed_tables

The CSVs are committed; this script records how they were made, cell for cell,
from the seed text (no cell is typed by hand). Labels keep each seed's notation;
the first comment line of each file names the notation and the source.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

MAX_NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "index",
             "address", "float16", "bfloat16", "float32", "tensor_float32", "float64"]


def write(path: Path, header: list[str], rows: list[list[str]], comment: str) -> None:
    lines = [f"# {c}" for c in comment.strip().splitlines()]
    lines.append("," + ",".join(header))
    lines += [",".join(r) for r in rows]
    path.write_text("\n".join(lines) + "\n")
    print(f"wrote {path} ({len(rows)}x{len(header)})")


def design_note_tables(seeds: Path, out: Path) -> None:
    lines = (seeds / "jax-type-promotion-design.md").read_text().splitlines()
    names = {"NumPy Type Promotion": "numpy", "Tensorflow Type Promotion": "tensorflow",
             "PyTorch Type Promotion": "torch", "JAX Type Promotion: `jax.numpy`": "jax_numpy",
             "JAX Type Promotion: `jax.lax`": "jax_lax"}
    current = None
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("### "):
            title = ln[4:].rstrip("#").strip()
            current = next((v for k, v in names.items() if title.startswith(k)), None)
        if current and ln.startswith("b | u8 |"):
            header = [c.strip() for c in ln.split("|")][:-1]
            header = [h for h in header if h]
            rows = []
            j = i + 1
            while len(rows) < len(header) and j < len(lines):
                cells = [c.strip() for c in lines[j].split("|")]
                if len(cells) > len(header) and set(cells[0]) != {"-"}:
                    rows.append(cells[:len(header) + 1])
                j += 1
            write(out / f"design_{current}.csv", header, rows,
                  f"notation: bits (design note codes; i*/f*/c* are weak types)\n"
                  f"source: jax-type-promotion-design.md, appendix, {current} table (rows: lhs, columns: rhs)")
            current = None
            i = j
            continue
        i += 1


def jax_rst_table(seeds: Path, out: Path) -> None:
    text = (seeds / "jax-type-promotion-table.rst").read_text()
    text = text[text.index('<table id="types">'):text.index("</table>")]
    header = re.findall(r"<th>([^<]+)</th>", text)
    rows, marks = [], []
    for tr in re.findall(r"<tr><td>.*?</tr>", text):
        tds = re.findall(r'<td( class="d")?>([^<]+)</td>', tr)
        rows.append([v for _, v in tds])
        marks.append([tds[0][1]] + ["d" if cls else "" for cls, _ in tds[1:]])
    note = "notation: bytes (JAX codes: i1 = int8, u8 = uint64, c4 = complex64, c8 = complex128)"
    write(out / "jax_promotion_table.csv", header, rows,
          note + "\nsource: jax-type-promotion-table.rst, jax.numpy.promote_types with x64")
    write(out / "jax_promotion_table_marks.csv", header, marks,
          note + "\nsource: jax-type-promotion-table.rst; 'd' marks the cells shaded as differing from NumPy")


def max_table(seeds: Path, out: Path) -> None:
    text = (seeds / "max-graph-type-promotion.txt").read_text()
    start = text.index("Typebool")
    end = text.index("Some less common")
    body = text[start:end].split()
    tokens_pattern = re.compile("|".join(sorted(MAX_NAMES + ["Type"], key=len, reverse=True)))
    rows = [tokens_pattern.findall(line) for line in body]
    header = rows[0][1:]
    assert header == MAX_NAMES, header
    table = rows[1:]
    assert len(table) == 16 and all(len(r) == 17 for r in table), [len(r) for r in table]
    write(out / "max.csv", header, table,
          "notation: MAX names\nsource: max-graph-type-promotion.txt, the full reference table (as published)")


def anvil_tables(seeds: Path, out: Path) -> None:
    lines = (seeds / "anvil-type-promotion.txt").read_text().splitlines()
    for title, name in [("Type promotion rules (row", "anvil_known"),
                        ("Promotion rules: ambiguous (row)", "anvil_ambiguous")]:
        k = next(i for i, ln in enumerate(lines) if ln.startswith(title))
        header = lines[k + 1].split()
        rows = [lines[k + 2 + r].split() for r in range(len(header))]
        assert all(len(r) == len(header) + 1 for r in rows)
        what = "known x known" if name == "anvil_known" else "ambiguous (row) x known (column)"
        write(out / f"{name}.csv", header, rows,
              f"notation: bits (anvil / MLIR codes: i1 = bool)\nsource: anvil-type-promotion.txt, {what}")


def array_api_tables(seeds: Path, out: Path) -> None:
    text = (seeds / "array-api-type-promotion-issue.txt").read_text()
    specs = [("floating-point type promotion table:", "float", 3),
             ("unsigned integer type promotion table:", "unsigned", 4),
             ("signed integer type promotion table:", "signed", 4)]
    note = "notation: bytes (Array API codes: i1 = int8, u8 = uint64, f8 = float64)"
    for marker, name, n in specs:
        at = re.search(r"(?<![a-z])" + re.escape(marker), text).end()
        tokens = text[at:].split()
        header = tokens[:n]
        body = tokens[n:n + n * (n + 1)]
        rows = [body[r * (n + 1):(r + 1) * (n + 1)] for r in range(n)]
        write(out / f"array_api_{name}.csv", header, rows, f"{note}\nsource: array-api-type-promotion-issue.txt, {name} table")
    marker = "mixed unsigned and signed integer type promotion table:"
    tokens = text[text.index(marker) + len(marker):].split()
    tokens = tokens[:tokens.index("where")] if "where" in tokens else tokens
    tokens = [t for t in tokens if re.fullmatch(r"[iu][1248]", t)]
    header = tokens[:3]
    body = tokens[3:]
    rows = [body[r * 4:(r + 1) * 4] for r in range(len(body) // 4)]
    write(out / "array_api_mixed.csv", header, rows,
          f"{note}\nsource: array-api-type-promotion-issue.txt, mixed table (rows: signed, columns: unsigned)\n"
          "the seed text ends after the i4 row: the i8 row is not in it (see latticecast.policies.array_api)")


def main() -> None:
    seeds, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    design_note_tables(seeds, out)
    jax_rst_table(seeds, out)
    max_table(seeds, out)
    anvil_tables(seeds, out)
    array_api_tables(seeds, out)


if __name__ == "__main__":
    main()
