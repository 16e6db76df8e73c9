"""docs/references.md: its section anchors exist, every citation of it in the repository points
to one of them, and the rewrite of the old developer-notes citations (tools/rewrite_citations.py)
produces such citations.

Citations are recognised in the forms the project uses:

* a Markdown link whose target is references.md (resolved from the citing file) with an
  optional anchor: ``[references §7.2](references.md#s7-2)``;
* an anchor written out anywhere: ``docs/references.md#s7-2``;
* a section or open question after the name, in code, TOML, JSON and prose:
  ``docs/references.md §7.2``, ``references §10, A11``, ``docs/references.md\\n/// §1.3``.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
REFERENCES = REPO / "docs" / "references.md"
# Built from two parts so that this file does not itself mention the old name.
OLD = "protocol" + "-facts"


def load_tool():
    spec = importlib.util.spec_from_file_location("rewrite_citations", REPO / "tools" / "rewrite_citations.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = load_tool()

# The numbering docs/references.md keeps (the developers' notes' numbering, never renumbered).
SUBSECTIONS = {1: 4, 2: 3, 3: 4, 7: 3, 9: 5}
EXPECTED_ANCHORS = (
    {f"s{n}" for n in range(1, 17)}
    | {f"s{n}-{m}" for n, count in SUBSECTIONS.items() for m in range(1, count + 1)}
    | {f"a{n}" for n in range(1, 18)}
    | {"bibliography"}
)

SECTION = r"(?:§|\\u00a7)\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?"
ITEM = rf"(?:ambiguity\s+)?(?:{SECTION}|A\d+\b)"
# After the name: spaces, or a line break with the comment marker of a wrapped doc comment,
# or a JSON-escaped line break.
GAP = r"(?:[ \t]*(?:(?:\n|\\n)[ \t]*(?://[/!]?|#)?[ \t]*)?)"
TEXT_CITATION = re.compile(
    rf"\breferences(?:\.md)?{GAP}(?P<items>{ITEM}(?:(?:,{GAP}|[ \t]+and[ \t]+){ITEM})*)"
)
ANCHOR_WRITTEN = re.compile(r"references\.md#([A-Za-z0-9_-]+)")
MD_LINK = re.compile(r"\]\((?P<path>[^)\s#]*references\.md)(?:#(?P<anchor>[^)\s]*))?\)")


def anchors_defined() -> set[str]:
    return set(re.findall(r'<a id="([^"]+)"></a>', REFERENCES.read_text(encoding="utf-8")))


def item_anchors(item: str) -> list[str]:
    """Anchors an item names: "§7.2" -> s7-2; "§3.2-3.3" -> s3-2 and s3-3; "A5" -> a5."""
    item = re.sub(r"^ambiguity\s+", "", item.replace("\\u00a7", "§"))
    if item.startswith("A"):
        return ["a" + item[1:]]
    first, _, last = item[1:].partition("-")
    names = [first]
    if last:
        # "3.2-3.3" or "3.2-3" (same section, subsection shorthand)
        names.append(last if "." in last or "." not in first else f"{first.split('.')[0]}.{last}")
    return ["s" + n.replace(".", "-") for n in names]


# The two files that describe the citation forms (and a few deliberately wrong ones).
DESCRIBE_THE_FORMS = {Path("tests/test_references.py"), Path("tools/rewrite_citations.py")}


def repository_texts():
    """(relative path, text) of every text file of the repository (the rewrite tool's walk)."""
    for path, data in TOOL.text_files(REPO):
        yield path, data.decode("utf-8", errors="replace")


def citations(path: Path, text: str):
    """(line number, cited anchor or None, resolved link target or None) of every citation.
    Link targets are resolved in Markdown files only (elsewhere a link is text whose base is
    unknown, e.g. a report written by Python code)."""
    def line(pos: int) -> int:
        return text.count("\n", 0, pos) + 1

    for m in MD_LINK.finditer(text) if path.suffix == ".md" else ():
        target = os.path.normpath((REPO / path).parent / m.group("path"))
        yield line(m.start()), m.group("anchor") or None, Path(target)
    for m in ANCHOR_WRITTEN.finditer(text):
        yield line(m.start()), m.group(1), None
    for m in TEXT_CITATION.finditer(text):
        for im in re.finditer(ITEM, m.group("items")):
            for a in item_anchors(im.group(0)):
                yield line(m.start()), a, None


def test_references_keeps_the_numbering_with_an_anchor_per_section():
    missing = EXPECTED_ANCHORS - anchors_defined()
    assert not missing, f"docs/references.md lacks the anchors {sorted(missing)}"


def test_every_section_heading_follows_its_anchor():
    lines = REFERENCES.read_text(encoding="utf-8").splitlines()
    for i, l in enumerate(lines):
        m = re.fullmatch(r'<a id="s(\d+)(?:-(\d+))?"></a>', l)
        if m:
            number = m.group(1) + ("." + m.group(2) if m.group(2) else "")
            heading = next(x for x in lines[i + 1:] if x.strip())
            assert heading.startswith("#") and f"§{number} " in heading, (i + 1, heading)


def test_every_citation_in_the_repository_points_to_an_existing_anchor():
    defined = anchors_defined()
    bad = []
    seen = 0
    for path, text in repository_texts():
        if path in DESCRIBE_THE_FORMS:
            continue
        for lineno, anchor, target in citations(path, text):
            seen += 1
            if target is not None and target != REFERENCES:
                bad.append(f"{path}:{lineno}: link to {target.relative_to(REPO)}, not docs/references.md")
            if anchor is not None and anchor not in defined:
                bad.append(f"{path}:{lineno}: #{anchor} is not an anchor of docs/references.md")
    assert seen > 0, "no citation of docs/references.md found at all: the patterns are broken"
    assert not bad, "\n".join(bad)


def test_the_citation_patterns_catch_bad_anchors():
    """The checker itself: each form with a section that does not exist is caught."""
    defined = anchors_defined()
    forms = [
        ("docs/x.md", "see [references §99](references.md#s99)."),
        ("docs/x.md", "see [references](../references.md)."),
        ("crates/x.rs", "//! (docs/references.md §7.9)"),
        ("crates/x.rs", "/// pipe (docs/references.md\n/// §42)."),
        ("docs/x.json", '"(docs/references.md \\u00a799.1, A17)"'),
        ("x.toml", "# docs/references.md §7.1, A99"),
        ("README.md", "docs/references.md#nowhere"),
    ]
    for path, text in forms:
        found = list(citations(Path(path), text))
        assert any((a is not None and a not in defined) or (t is not None and t != REFERENCES)
                   for _, a, t in found), (path, text, found)


def test_no_file_cites_the_developers_notes():
    offenders = [f"{path}:{text.count(OLD)}" for path, text in repository_texts() if OLD in text]
    assert not offenders, "still cited (run tools/rewrite_citations.py): " + ", ".join(offenders)


# -------------------------------------------------------------------- the rewrite tool

@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of docs/references.md and a few files citing the old name, in a temporary tree."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "references.md").write_text(REFERENCES.read_text(encoding="utf-8"), encoding="utf-8")
    files = {
        "docs/a.md": f"Reno growth ({OLD} §10, A11); a table | {OLD} §7.3 |\n"
                     f"ceilings of {OLD}\n§1.1 (20 packets); `code {OLD} §6` stays plain;\n"
                     f"({OLD} §12, caution) and {OLD} ambiguity A15 and {OLD} §3.2-3.3.\n"
                     f"```\n{OLD} §5\n```\n",
        "README.md": f"See {OLD} §9.5.\n",
        "crates/c/src/x.rs": f"//! ns-2 Sack1 ({OLD}\n//! §1.3); k (default 2, {OLD} A7).\n",
        "crates/c/presets/p.toml": f'source = "RFC 6675 §4-5 ({OLD} §2.3)"\n',
        "docs/s.schema.json": f'{{"description": "scoreboard ({OLD}\\n\\u00a71.3) and {OLD} A6"}}\n',
        "python/m.py": f'"""Jain ({OLD} §13)."""\n',
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_rewrite_tool_turns_every_old_citation_into_a_valid_one(tree: Path, capsys):
    assert TOOL.main(["--root", str(tree)]) == 0
    assert TOOL.main(["--root", str(tree), "--check"]) == 0
    texts = {p.relative_to(tree).as_posix(): p.read_text(encoding="utf-8")
             for p in tree.rglob("*") if p.is_file()}
    assert all(OLD not in t for t in texts.values())
    md = texts["docs/a.md"]
    assert "([references §10](references.md#s10), [A11](references.md#a11))" in md
    assert "| [references §7.3](references.md#s7-3) |" in md
    assert "[references\n§1.1](references.md#s1-1) (20 packets)" in md
    assert "`code docs/references.md §6`" in md
    assert "([references §12](references.md#s12), caution)" in md
    assert "[references ambiguity A15](references.md#a15)" in md
    assert "[references §3.2-3.3](references.md#s3-2)" in md
    assert "```\ndocs/references.md §5\n```" in md
    assert texts["README.md"] == "See [references §9.5](docs/references.md#s9-5).\n"
    assert texts["crates/c/src/x.rs"] == ("//! ns-2 Sack1 (docs/references.md\n//! §1.3); "
                                          "k (default 2, docs/references.md A7).\n")
    assert texts["crates/c/presets/p.toml"] == 'source = "RFC 6675 §4-5 (docs/references.md §2.3)"\n'
    assert "(docs/references.md\\n\\u00a71.3) and docs/references.md A6" in texts["docs/s.schema.json"]
    assert texts["python/m.py"] == '"""Jain (docs/references.md §13)."""\n'
    # What the tool wrote passes the repository's own citation check.
    defined = anchors_defined()
    for name, text in texts.items():
        for _, anchor, target in citations(Path(name), text):
            assert anchor is None or anchor in defined, (name, anchor)
            if target is not None:
                assert Path(os.path.normpath(target)).name == "references.md", (name, target)


def test_rewrite_tool_refuses_a_section_that_does_not_exist(tree: Path, capsys):
    bad = tree / "docs" / "bad.md"
    bad.write_text(f"({OLD} §42)\n", encoding="utf-8")
    assert TOOL.main(["--root", str(tree), "docs/bad.md"]) == 1
    assert bad.read_text(encoding="utf-8") == f"({OLD} §42)\n"
    assert "#s42" in capsys.readouterr().err


def test_rewrite_tool_dry_run_and_check_write_nothing(tree: Path):
    before = (tree / "docs" / "a.md").read_text(encoding="utf-8")
    assert TOOL.main(["--root", str(tree), "--dry-run"]) == 0
    assert TOOL.main(["--root", str(tree), "--check"]) == 1
    assert (tree / "docs" / "a.md").read_text(encoding="utf-8") == before


def test_links_inside_references_point_to_its_own_anchors():
    defined = anchors_defined()
    text = REFERENCES.read_text(encoding="utf-8")
    broken = sorted(set(re.findall(r"\]\(#([^)]+)\)", text)) - defined)
    assert not broken, f"docs/references.md links to missing anchors {broken}"
