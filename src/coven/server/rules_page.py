"""Each game's rulebook as a readable page: its Markdown rendered to HTML by markdown-it-py.

CommonMark with tables; raw HTML in the source is escaped (shown as text), never passed through, and
links keep markdown-it's own check (no ``javascript:`` and the like). The page is a whole document in
the client's style; the lobby fetches the same page and shows its ``article``.
"""

from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt

_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


def markdown_to_html(text: str) -> str:
    """``text`` (Markdown) as an HTML fragment; any raw HTML in it comes out escaped."""
    html: str = _MARKDOWN.render(text)
    return html


def rules_document(game_id: str, title: str, markdown: str) -> str:
    """The whole page of one game's rules."""
    body = markdown_to_html(markdown)
    return _document(
        f"{title} — rules",
        f'<article class="rulebook panel" id="rules" data-game="{escape(game_id)}">\n{body}</article>\n'
        f'<p><a class="button" href="/">Back to the lobby</a></p>',
    )


def missing_document(message: str) -> str:
    """The page shown instead of rules that do not exist (a 404): what is missing, and the way back."""
    return _document(
        "No rules here",
        f'<p class="error" role="alert">{escape(message)}</p>\n'
        '<p><a class="button" href="/">Back to the lobby</a></p>',
    )


def _document(title: str, main: str) -> str:
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{escape(title)} · Coven</title>
  <link rel="stylesheet" href="/style.css">
  <script type="module" src="/rules.js"></script>
</head>
<body>
  <header class="site">
    <a href="/" class="brand" aria-label="Coven lobby">Coven</a>
    <span class="tagline">four games of hidden things, with friends and honest bots</span>
  </header>
  <main id="app" class="rules-page">
{main}
  </main>
</body>
</html>
"""
