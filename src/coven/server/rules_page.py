"""Each game's rulebook as a readable page: its Markdown rendered to HTML by markdown-it-py.

CommonMark with tables; raw HTML in the source is escaped (shown as text), never passed through, and
links keep markdown-it's own check (no ``javascript:`` and the like). The page is a whole document in
the client's style; the lobby fetches the same page and shows its ``article``.

Each rulebook may come in French beside the English (``rules.fr.md`` next to ``rules.md``): ``?lang=fr``
asks for it, English is the default, and an unknown language (or a rulebook with no French) falls back to
English. The article says which language it is in (``lang``) and which ones exist (``data-langs``), so
that the page's script can follow the interface's language.
"""

from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt

LANGS = ("en", "fr")
"""The languages a rulebook may be written in; the first is the default and the original."""

_FRAME = {
    "en": {
        "rules": "rules",
        "back": "Back to the lobby",
        "none": "No rules here",
        "brand": "Coven lobby",
        "tagline": "four games of hidden things, with friends and honest bots",
    },
    "fr": {
        "rules": "règles",
        "back": "Retour à l'accueil",
        "none": "Pas de règles ici",
        "brand": "Accueil de Coven",
        "tagline": "quatre jeux de choses cachées, entre amis et avec des bots honnêtes",
    },
}

ICON = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E"
    "%3Ccircle cx='8' cy='8' r='7' fill='%236b3fa0'/%3E%3C/svg%3E"
)
"""The site's icon, as the other pages name it (a browser asks for ``/favicon.ico`` where a page names
none, and logs the 404 in its console)."""

_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


def markdown_to_html(text: str) -> str:
    """``text`` (Markdown) as an HTML fragment; any raw HTML in it comes out escaped."""
    html: str = _MARKDOWN.render(text)
    return html


def asked_lang(value: str | None) -> str:
    """The language a request asks for (``?lang=``): one of ``LANGS``, English for anything else."""
    code = (value or "").strip().lower()
    return code if code in LANGS else LANGS[0]


def localized_name(name: str, lang: str) -> str:
    """The file of the rulebook ``name`` in ``lang``: ``rules.md`` in French is ``rules.fr.md``."""
    if lang == LANGS[0]:
        return name
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}.{lang}.{suffix}" if dot else f"{name}.{lang}"


def rules_document(
    game_id: str, title: str, markdown: str, lang: str = "en", langs: tuple[str, ...] = ("en",)
) -> str:
    """The whole page of one game's rules, written in ``lang``; ``langs``: the languages it exists in."""
    lang = asked_lang(lang)
    frame = _FRAME[lang]
    body = markdown_to_html(markdown)
    available = " ".join(code for code in LANGS if code in langs or code == lang)
    if lang != LANGS[0]:
        title = heading_title(markdown) or title
    return _document(
        f"{title} — {frame['rules']}",
        f'<article class="rulebook panel" id="rules" lang="{lang}" data-game="{escape(game_id)}" '
        f'data-langs="{available}">\n{body}</article>\n'
        f'<p><a class="button" href="/">{frame["back"]}</a></p>',
        lang,
    )


def heading_title(markdown: str) -> str | None:
    """The game's name as a rulebook's first heading gives it (``# Les 3 Commandements — comment jouer``):
    the name the game goes by in the rulebook's language; None if it starts otherwise."""
    first = markdown.lstrip().partition("\n")[0]
    if not first.startswith("# ") or " — " not in first:
        return None
    return first[2:].partition(" — ")[0].strip() or None


def missing_document(messages: dict[str, str], lang: str = "en") -> str:
    """The page shown instead of rules that do not exist (a 404), in ``lang``: what is missing (``messages``,
    by language; English where it has no text in ``lang``), and the way back."""
    lang = asked_lang(lang)
    frame = _FRAME[lang]
    message = messages.get(lang) or messages[LANGS[0]]
    return _document(
        frame["none"],
        f'<p class="error" role="alert" lang="{lang}">{escape(message)}</p>\n'
        f'<p><a class="button" href="/">{frame["back"]}</a></p>',
        lang,
    )


def _document(title: str, main: str, lang: str = "en") -> str:
    frame = _FRAME[lang]
    return f"""<!doctype html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{escape(title)} · Coven</title>
  <link rel="icon" href="{ICON}">
  <link rel="stylesheet" href="/style.css">
  <script type="module" src="/rules.js"></script>
</head>
<body>
  <header class="site">
    <a href="/" class="brand" aria-label="{frame["brand"]}">Coven</a>
    <span class="tagline">{frame["tagline"]}</span>
  </header>
  <main id="app" class="rules-page">
{main}
  </main>
</body>
</html>
"""
