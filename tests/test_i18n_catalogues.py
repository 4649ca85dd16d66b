"""The browser's message catalogues: every key the page's scripts use exists in English and French, both
catalogues have the same keys, and a text keeps the same {placeholders} in both languages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[1] / "src" / "coven" / "web"
LANGS = ("en", "fr")
# t("key") or tr("key") (the lobby's alias): the literal keys. Keys built at run time fall back to a
# server text on purpose (an option's description) and are not listed here.
USE = re.compile(r"\btr?\(\s*\"([^\"]+)\"")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(lang: str) -> dict[str, str]:
    data = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    assert all(isinstance(k, str) and isinstance(v, str) and v for k, v in data.items())
    return data


def used_keys() -> dict[str, set[str]]:
    """Key -> the files using it, over every script of the page."""
    found: dict[str, set[str]] = {}
    for path in sorted(WEB.rglob("*.js")):
        for key in USE.findall(path.read_text(encoding="utf-8")):
            found.setdefault(key, set()).add(str(path.relative_to(WEB)))
    return found


def test_the_scripts_use_the_catalogue() -> None:
    used = used_keys()
    # Not a vacuous pass: the lobby, the table, the result and every game's board route their texts here.
    assert len(used) > 200
    files = set().union(*used.values())
    for name in ("lobby.js", "table.js", "result.js", "games/namaste.js", "games/brujas.js"):
        assert name in files, name


@pytest.mark.parametrize("lang", LANGS)
def test_every_used_key_is_in_the_catalogue(lang: str) -> None:
    texts = catalogue(lang)
    missing = {k: sorted(v) for k, v in used_keys().items() if k not in texts}
    assert not missing, f"missing from {lang}.json: {missing}"


def test_both_catalogues_have_the_same_keys_and_placeholders() -> None:
    en, fr = catalogue("en"), catalogue("fr")
    only_en, only_fr = sorted(set(en) - set(fr)), sorted(set(fr) - set(en))
    assert not only_en and not only_fr, f"only in en: {only_en}; only in fr: {only_fr}"
    differ = {
        k: (en[k], fr[k]) for k in en if set(PLACEHOLDER.findall(en[k])) != set(PLACEHOLDER.findall(fr[k]))
    }
    assert not differ, f"placeholders differ: {differ}"


def test_no_catalogue_key_is_unused() -> None:
    # A key nobody uses is a text nobody checks; the option descriptions (opt.*) are looked up by name.
    used = used_keys()
    unused = sorted(k for k in catalogue("en") if k not in used and not k.startswith("opt."))
    assert not unused, f"unused catalogue keys: {unused}"
