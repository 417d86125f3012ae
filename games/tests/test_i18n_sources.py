"""No user-visible text left out of the catalogues: every message of the sources is in every
language's catalogue (extracted as makemessages does), no template text or attribute is outside
``{% translate %}``/``{% blocktranslate %}``, and no Python literal stands where people read it
(service errors without a translated message for their code, flash messages, form labels and
help). That each catalogue entry is translated and compiled is checked in test_i18n."""

import ast
import inspect
import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command

from core import errors

BASE = Path(settings.BASE_DIR)
SKIP = re.compile(
    r"{%\s*blocktranslate.*?{%\s*endblocktranslate\s*%}"
    r"|{%\s*comment\s*%}.*?{%\s*endcomment\s*%}"
    r"|{%\s*block body_class\s*%}.*?{%\s*endblock\s*%}"
    r"|<!--.*?-->|<script\b.*?</script>|<style\b.*?</style>",
    re.S,
)
TAG = re.compile(r"{%.*?%}|{{.*?}}|{#.*?#}", re.S)
ATTRIBUTE = re.compile(
    r'\b(?:title|aria-label|aria-description|placeholder|alt|data-text-[a-z-]+)="([^"]*)"'
)
ELEMENT = re.compile(r"<[^>]*>", re.S)
WORD = re.compile(r"[^\W\d_]{2,}")
NAMES = {"Skyjo", "Online", "JSON"}  # the same in every language


def untranslated_text(template: str) -> list[str]:
    """Text and readable attributes of a template that no translation tag covers."""
    text = TAG.sub("", SKIP.sub(" ", template))
    chunks = ATTRIBUTE.findall(text) + ELEMENT.sub("\n", text).split("\n")
    return [c.strip() for c in chunks if set(WORD.findall(c)) - NAMES]


def test_the_template_check_finds_bare_text_and_attributes():
    assert (
        untranslated_text('<p title="{% translate "Hi" %}">{% translate "Hi" %} {{ x }}</p>') == []
    )
    assert untranslated_text(
        '<p title="Hello">Skyjo Online · {% blocktranslate %}x{% endblocktranslate %} Good bye</p>'
    ) == ["Hello", "Skyjo Online ·   Good bye"]


def test_every_template_text_is_in_a_translation_tag():
    found = {
        str(path.relative_to(BASE)): untranslated_text(path.read_text())
        for path in sorted((BASE / "templates").rglob("*.html"))
    }
    assert {path: texts for path, texts in found.items() if texts} == {}


LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def keys(catalog) -> set:
    return {(e.msgctxt, e.msgid) for e in catalog if not e.obsolete and e.msgid}


def test_every_message_of_the_sources_is_in_every_catalogue(tmp_path, settings, monkeypatch):
    if shutil.which("xgettext") is None:
        pytest.fail("This test needs GNU gettext: apt-get install gettext (scripts/test does)")
    # makemessages writes into ./locale when there is one: run it in a folder that links to
    # the sources (templates and the apps) and has no locale of its own.
    for folder in [BASE / "templates", *apps()]:
        (tmp_path / folder.name).symlink_to(folder)
    settings.LOCALE_PATHS = [str(tmp_path / "out")]
    monkeypatch.chdir(tmp_path)
    call_command("makemessages", locale=["xx"], no_location=True, symlinks=True, verbosity=0)
    sources = keys(polib.pofile(str(tmp_path / "out" / "xx" / "LC_MESSAGES" / "django.po")))
    assert len(sources) > 250
    missing = {}
    for language in LANGUAGES:
        po = polib.pofile(str(BASE / "locale" / language / "LC_MESSAGES" / "django.po"))
        if absent := sorted(msgid for _ctx, msgid in sources - keys(po)):
            missing[language] = absent
    assert missing == {}, (
        "run makemessages -a --no-location --no-obsolete and translate (docs/translations.md)"
    )


def apps() -> list[Path]:
    """The project's own packages: every folder beside manage.py with an apps.py, and the
    settings package."""
    return sorted({p.parent for p in BASE.glob("*/apps.py")} | {BASE / "skyjo_site"})


def python_sources():
    for app in apps():
        for path in sorted(app.rglob("*.py")):
            parts = path.relative_to(BASE).parts
            if (
                "tests" in parts
                or "migrations" in parts
                or parts[:2]
                in (
                    ("games", "engine"),
                    ("games", "bots"),
                )
            ):
                continue
            yield path, ast.parse(path.read_text())


def is_text(node) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(node.value)
    )


def keyword(call: ast.Call, name: str):
    return next((k.value for k in call.keywords if k.arg == name), None)


def test_every_service_error_given_english_text_is_translated_by_its_code():
    classes = {
        name: cls
        for name, cls in inspect.getmembers(errors, inspect.isclass)
        if issubclass(cls, errors.ServiceError)
    }
    untranslated = []
    for path, tree in python_sources():
        for call in ast.walk(tree):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
                continue
            cls = classes.get(call.func.id)
            if cls is None or not call.args or not is_text(call.args[0]):
                continue
            code = keyword(call, "code")
            code = code.value if isinstance(code, ast.Constant) else cls.code
            if code not in errors.CODE_MESSAGES:
                untranslated.append(f"{path.name}:{call.lineno} {code}")
    assert untranslated == []


def test_flash_messages_and_form_texts_are_not_bare_literals():
    bare = []
    for path, tree in python_sources():
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            func = call.func
            flash = (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "messages"
                and len(call.args) > 1
                and is_text(call.args[1])
            )
            form_text = path.name == "forms.py" and any(
                is_text(keyword(call, k) or ast.Constant(None)) for k in ("label", "help_text")
            )
            if flash or form_text:
                bare.append(f"{path.name}:{call.lineno}")
    assert bare == []
