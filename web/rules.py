"""A game's rules page: the Markdown document the game names (``Game.rules_document``)
rendered to HTML once per process.

Safe by construction: markdown-it's CommonMark with raw HTML off (tags in the document are
shown as text) and tables on. Headings get GitHub's anchors, so a document's own contents
links (``#a-round``) work; links to other files of the repository (``api.md#tables``)
are not pages of the site and are kept as their text only."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from django.conf import settings
from markdown_it import MarkdownIt
from markdown_it.token import Token

from games.core import Game


@dataclass(frozen=True)
class RulesPage:
    title: str  # the document's first heading
    html: str


def _slug(text: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def _anchor_headings(tokens: list[Token]) -> None:
    seen: dict[str, int] = {}
    for opening, inline in zip(tokens, tokens[1:], strict=False):
        if opening.type != "heading_open":
            continue
        slug = _slug(inline.content)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        opening.attrSet("id", slug if not count else f"{slug}-{count}")


def _unlink_files(tokens: list[Token]) -> None:
    """A link to a file of the repository becomes its text (its target is no page here)."""
    for token in tokens:
        if token.type != "inline" or not token.children:
            continue
        kept: list[Token] = []
        dropped: list[bool] = []  # for each open link: whether it was dropped
        for child in token.children:
            if child.type == "link_open":
                href = str(child.attrGet("href") or "")
                drop = not href.startswith(("#", "http://", "https://", "/"))
                dropped.append(drop)
                if drop:
                    continue
            elif child.type == "link_close" and dropped and dropped.pop():
                continue
            kept.append(child)
        token.children = kept


def render(markdown: str) -> RulesPage:
    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = parser.parse(markdown)
    _anchor_headings(tokens)
    _unlink_files(tokens)
    title = next((b.content for a, b in zip(tokens, tokens[1:], strict=False) if a.tag == "h1"), "")
    return RulesPage(title=title, html=parser.renderer.render(tokens, parser.options, {}))


@cache
def rules_page(game: Game) -> RulesPage:
    """The game's rules document, rendered (read once: it ships with the code)."""
    return render((settings.BASE_DIR / game.rules_document).read_text(encoding="utf-8"))
