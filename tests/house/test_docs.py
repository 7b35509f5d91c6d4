"""The README is a front door and the docs hold the rest: the README stays small, and no relative link
in it or in docs/ points at a file or a heading that is not there (a page moved or a section
renamed breaks a link here, not for a reader)."""

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")


def _unfenced(text: str) -> str:
    return re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)


def _prose(text: str) -> str:
    """The page without its code: fenced blocks and inline code spans hold no links."""
    return re.sub(r"`[^`\n]*`", "", _unfenced(text))


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub (and this site's headings, for ASCII) writes it."""
    heading = re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    kept = "".join(c for c in heading if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in _unfenced(page.read_text(encoding="utf-8")).splitlines():
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            slug = _slug(m.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def _links(page: Path):
    for target in LINK.findall(_prose(page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto: …: not a file here
            continue
        yield target


def test_the_readme_is_a_front_door():
    size = len((ROOT / "README.md").read_bytes())
    assert size <= 12_000, f"README.md is {size} bytes: move a section into docs/ and link it"


def test_the_readme_opens_with_the_two_commands():
    """.ci/run and scripts/smoke_readme.sh read them: the first ```sh block, first line the game."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^```sh\n(.*?)^```", text, re.S | re.M).group(1).splitlines()
    assert text.index("```sh") < text.index("\n## ")
    assert block == ["python3 -m venv .venv && .venv/bin/pip install -e '.[web]' "
                     "&& .venv/bin/majiang serve --host 0.0.0.0", "bash scripts/test.sh"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_names_a_file_and_heading_that_exist(page):
    broken = []
    for target in _links(page):
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.exists():
            broken.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and anchor not in _anchors(where):
            broken.append(f"{target}: no heading with that anchor in {where.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_every_page_module_is_on_the_architecture_page():
    """docs/ARCHITECTURE.md's "The page" draws every module of the browser client."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("\n## The page\n", 1)[1].split("\n## ", 1)[0]
    static = ROOT / "src" / "majiang" / "server" / "static"
    missing = [p.name for p in sorted(static.iterdir())
               if p.suffix in (".js", ".css", ".html") and p.name not in section]
    assert not missing, f"docs/ARCHITECTURE.md's page diagram omits {missing}"
