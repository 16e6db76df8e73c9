#!/usr/bin/env python3
"""Rewrite the old developer-notes citations into citations of docs/references.md.

Before docs/references.md existed, code, docs and scenario files cited a developers' notes
file that users do not have, as "<old name> §7.2", "<old name> A5" or "<old name> §10, A11"
(the old name is OLD below). docs/references.md keeps that file's section numbering and gives
every section an anchor (`s7-2` for §7.2, `a5` for open question A5), so the rewrite is
mechanical:

* Markdown files (``.md``): every citation becomes a relative link, one per item:
  ``<old> §10, A11`` -> ``[references §10](references.md#s10), [A11](references.md#a11)``
  (from docs/; from the repository root the target is ``docs/references.md``). Inside code
  spans and fenced code blocks the plain form below is used, since a link would not render.
* Every other text file (Rust, Python, TOML, JSON, notebooks, ...): the name alone is
  replaced, ``<old> §7.2`` -> ``docs/references.md §7.2``; what follows it (section numbers,
  line breaks and comment markers of wrapped doc comments, JSON escapes such as ``\\u00a7``)
  is left as it was, so docs/scenario.schema.json stays what `vhsim schema` generates from
  the rewritten doc comments.

Every anchor a rewrite produces is checked against docs/references.md; a citation of a section
that does not exist is reported and the file is left alone.

Usage (from the repository root):

    python3 tools/rewrite_citations.py --dry-run   # list what would change, write nothing
    python3 tools/rewrite_citations.py             # rewrite in place
    python3 tools/rewrite_citations.py --check     # exit 1 if any old citation is left
    python3 tools/rewrite_citations.py --root /tmp/copy FILE ...   # a copy, or some files only

After a rewrite, regenerate docs/scenario.schema.json (`vhsim schema --out
docs/scenario.schema.json`) and check it is unchanged, and rewrap the lines the tool reports
as too long (the new name is four characters longer than the old one).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import Iterator

# Built from two parts so that this file does not itself cite the old name.
OLD = "protocol" + "-facts"
TARGET = Path("docs") / "references.md"
SKIP_DIRS = {".git", ".venv", "venv", "target", "out", "node_modules", "__pycache__",
             ".pytest_cache", ".mypy_cache", ".ruff_cache", "dist", "build"}
SKIP_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".pdf", ".parquet", ".so", ".pcap",
                 ".gz", ".zip", ".whl", ".lock", ".tsv", ".pyc", ".rlib"}
LINE_LIMIT = 110  # rustfmt.toml's max_width
MAX_BYTES = 5_000_000

# One cited item: a section (§N, §N.M, a range §N.M-N.M) or an open question (AN), optionally
# introduced by the word "ambiguity".
SECTION = r"§\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?"
ITEM = rf"(?:ambiguity\s+)?(?:{SECTION}|A\d+\b)"
# Whitespace between items and after the name: spaces, or one line break in a wrapped line.
GAP = r"[ \t]*(?:\n[ \t]*)?"
# The old name, with an optional directory and ".md" (a path to the old file).
NAME = rf"(?:[\w.\-]*/)*{re.escape(OLD)}(?:\.md)?"
MD_CITATION = re.compile(
    rf"(?P<name>{NAME})(?:(?P<lead>{GAP})(?P<items>{ITEM}(?:(?:,{GAP}|[ \t]+and[ \t]+){ITEM})*))?"
)
ITEM_RE = re.compile(ITEM)
CODE_NAME = re.compile(NAME)


def anchor(item: str) -> str:
    """The anchor of a cited item: "§7.2" -> "s7-2", "§3.2-3.3" -> "s3-2", "A5" -> "a5"."""
    item = re.sub(r"^ambiguity\s+", "", item)
    if item.startswith("A"):
        return "a" + item[1:]
    first = item[1:].split("-")[0]
    return "s" + first.replace(".", "-")


def known_anchors(root: Path) -> set[str]:
    """The anchors docs/references.md defines."""
    text = (root / TARGET).read_text(encoding="utf-8")
    return set(re.findall(r'<a id="([^"]+)"></a>', text))


def link_target(root: Path, path: Path) -> str:
    """docs/references.md relative to the directory of `path`, with forward slashes."""
    rel = os.path.relpath(root / TARGET, (root / path).parent)
    return rel.replace(os.sep, "/")


def in_code(line_before: str) -> bool:
    """Whether text following `line_before` (the start of its line) is inside a code span."""
    return line_before.count("`") % 2 == 1


def fenced_spans(text: str) -> list[tuple[int, int]]:
    """Character ranges of fenced code blocks in a Markdown text."""
    spans, start, pos = [], None, 0
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith("```"):
            if start is None:
                start = pos
            else:
                spans.append((start, pos + len(line)))
                start = None
        pos += len(line)
    return spans


def rewrite_markdown(text: str, target: str, anchors: set[str], errors: list[str]) -> str:
    """Markdown: each cited item becomes a link; plain form in code."""
    fences = fenced_spans(text)

    def replace(m: re.Match) -> str:
        start = m.start()
        line_start = text.rfind("\n", 0, start) + 1
        if any(a <= start < b for a, b in fences) or in_code(text[line_start:start]):
            return CODE_NAME.sub(str(TARGET).replace(os.sep, "/"), m.group(0), count=1)
        if m.group("items") is None:
            return f"[references]({target})"
        items = m.group("items")
        out, last = [], 0
        for i, im in enumerate(ITEM_RE.finditer(items)):
            out.append(items[last:im.start()])
            a = anchor(im.group(0))
            if a not in anchors:
                errors.append(f"{im.group(0)!r} has no anchor #{a} in {TARGET}")
            label = ("references" + m.group("lead") if i == 0 else "") + im.group(0)
            out.append(f"[{label}]({target}#{a})")
            last = im.end()
        out.append(items[last:])
        return "".join(out)

    return MD_CITATION.sub(replace, text)


def rewrite_code(text: str, anchors: set[str], errors: list[str]) -> str:
    """Any other text file: replace the name; check the items that follow it."""
    for m in MD_CITATION.finditer(text.replace("\\u00a7", "§")):
        for im in ITEM_RE.finditer(m.group("items") or ""):
            if anchor(im.group(0)) not in anchors:
                errors.append(f"{im.group(0)!r} has no anchor #{anchor(im.group(0))} in {TARGET}")
    return CODE_NAME.sub(str(TARGET).replace(os.sep, "/"), text)


def rewrite(root: Path, path: Path, anchors: set[str]) -> tuple[str, str, list[str]]:
    """(old text, new text, errors) for one file, `path` relative to `root`."""
    old = (root / path).read_text(encoding="utf-8")
    errors: list[str] = []
    if path.suffix == ".md":
        new = rewrite_markdown(old, link_target(root, path), anchors, errors)
    else:
        new = rewrite_code(old, anchors, errors)
    return old, new, errors


def text_files(root: Path) -> Iterator[tuple[Path, bytes]]:
    """(path relative to `root`, content) of every text file of the tree, in a fixed order:
    build output, virtual environments and binary files left out."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in sorted(filenames):
            full = Path(dirpath) / name
            if full.suffix in SKIP_SUFFIXES:
                continue
            try:
                data = full.read_bytes()
            except OSError:
                continue
            if b"\0" not in data[:4096] and len(data) <= MAX_BYTES:
                yield full.relative_to(root), data


def candidates(root: Path) -> list[Path]:
    """Text files under `root` that mention the old name, relative to `root`."""
    return [path for path, data in text_files(root) if OLD.encode() in data]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="files to rewrite (default: all)")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1],
                        help="repository root (default: this script's repository)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="report, write nothing")
    mode.add_argument("--check", action="store_true", help="exit 1 if any old citation is left")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    anchors = known_anchors(root)
    paths = [p if not p.is_absolute() else p.resolve().relative_to(root) for p in args.paths]
    paths = paths or candidates(root)
    if args.check:
        for p in paths:
            print(f"{p}: still cites {OLD}")
        return 1 if paths else 0
    status = 0
    for p in paths:
        old, new, errors = rewrite(root, p, anchors)
        if errors:
            status = 1
            for e in errors:
                print(f"{p}: error: {e}; file left unchanged", file=sys.stderr)
            continue
        if new == old:
            continue
        count = old.count(OLD)
        new_name = str(TARGET).replace(os.sep, "/")
        long_lines = [n for n, line in enumerate(new.splitlines(), 1)
                      if p.suffix in {".rs", ".py"} and new_name in line and len(line) > LINE_LIMIT]
        print(f"{p}: {count} citation(s)" + (" (dry run)" if args.dry_run else ""))
        for n in long_lines:
            print(f"{p}:{n}: longer than {LINE_LIMIT} characters after the rewrite; rewrap it")
        if not args.dry_run:
            (root / p).write_text(new, encoding="utf-8")
    return status


if __name__ == "__main__":
    sys.exit(main())
