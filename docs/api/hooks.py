"""MkDocs hook: the docstrings' doctests (``>>>`` lines and their output) shown as code blocks.

Without it Markdown reads ``>>>`` as a quote and a doctest's output such as ``['2p', '5p']`` as a
link. Registered before mkdocstrings sets up its Markdown, so docstrings get it too."""

from __future__ import annotations

import re

from markdown import Extension
from markdown.preprocessors import Preprocessor
from mkdocs.plugins import event_priority

PROMPT = re.compile(r"^(\s*)>>> ")


class DoctestBlocks(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(lines):
            m = PROMPT.match(lines[i])
            if not m:
                out.append(lines[i])
                i += 1
                continue
            indent = m.group(1)
            block = []
            while i < len(lines) and lines[i].strip():  # a doctest runs to the next blank line
                block.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
                i += 1
            out += ["", indent + "```pycon"] + [indent + b for b in block] + [indent + "```", ""]
        return out


class DoctestExtension(Extension):
    def extendMarkdown(self, md) -> None:  # noqa: N802 (Markdown's name)
        md.preprocessors.register(DoctestBlocks(md), "doctest_blocks", 40)


@event_priority(100)  # before mkdocstrings reads the Markdown extensions
def on_config(config):
    config.markdown_extensions.append(DoctestExtension())
    if "fenced_code" not in config.markdown_extensions:
        config.markdown_extensions.append("fenced_code")
    return config
