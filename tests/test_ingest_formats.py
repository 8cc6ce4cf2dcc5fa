"""Official PDF and DOCX editions read into the same model as the TXT (acceptance item 4),
format detection by content, and HTML pages of rules."""

from __future__ import annotations

import io
import re
import zipfile

import pytest

from pipeline.errors import InputError
from pipeline.ingest.detect import detect_format
from pipeline.ingest.loader import load_document
from tests.conftest import SHARED, edition, needs_shared

CR = SHARED / "corpus" / "cr-en"
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "\u00a0": " "})


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s.translate(_QUOTES)).strip()


def _agreement(doc, ref) -> tuple[int, int, list[str]]:
    got = {r.id: r for r in doc.rules}
    same, bad = 0, []
    for r in ref.rules:
        g = got.get(r.id)
        if g is not None and _norm(g.text) == _norm(r.text) and \
                [_norm(e.text) for e in g.examples] == [_norm(e.text) for e in r.examples]:
            same += 1
        else:
            bad.append(r.id)
    return same, len(ref.rules), bad


@needs_shared
@pytest.mark.parametrize("fmt", ["pdf", "docx"])
@pytest.mark.parametrize("date", ["2019-06-12", "2025-11-14"])
def test_official_pdf_and_docx_match_the_txt(fmt, date):
    doc = load_document(CR / fmt / f"{date}.{fmt}")
    ref = edition(date)
    same, total, bad = _agreement(doc, ref)
    share = same / total
    print(f"\n{fmt} {date}: {same}/{total} rules identical to the TXT ({share:.2%}); "
          f"glossary terms {len(doc.glossary)}/{len(ref.glossary)}; differing rules: {bad[:10]}")
    assert share >= 0.995
    assert doc.meta.format == fmt and doc.meta.effective_date == ref.meta.effective_date
    assert not set(doc.rule_ids) - set(ref.rule_ids), "rules the TXT does not have"
    # The rest of the model too: introduction, contents, sections, credits.
    assert _norm(doc.introduction) == _norm(ref.introduction) and _norm(doc.credits) == _norm(ref.credits)
    assert [(t.number, t.title) for t in doc.toc] == [(t.number, t.title) for t in ref.toc]
    assert [(x.number, x.title) for x in doc.sections] == [(x.number, x.title) for x in ref.sections]
    same_terms = sum(1 for g in ref.glossary if doc.glossary_term(g.term) is not None
                     and _norm(doc.glossary_term(g.term).definition) == _norm(g.definition))
    assert same_terms == len(ref.glossary)


def _docx_bytes(paragraphs: list[tuple[str, str]]) -> bytes:
    body = "".join(f'<w:p><w:pPr><w:pStyle w:val="{s}"/></w:pPr><w:r><w:t xml:space="preserve">{t}</w:t></w:r></w:p>'
                   for s, t in paragraphs)
    xml = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
           '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
           f"<w:body>{body}</w:body></w:document>")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", xml)
    return buf.getvalue()


MINI = [("CRHeading", "Magic: The Gathering Comprehensive Rules"), ("CRBodyText", ""),
        ("CRExBodyText", "These rules are effective as of June 12, 2019."), ("CRHeading", "Introduction"),
        ("CRBodyText", "Intro."), ("CRHeading", "Contents"), ("CR1100", "1. Game Concepts"),
        ("CR1001", "100. General"), ("CRBodyText", "Glossary"), ("CRBodyText", "Credits"),
        ("CR1100", "1. Game Concepts"), ("CR1001", "100. General"),
        ("CR1001a", "100.1. These Magic rules apply to any Magic game with two or more players."),
        ("CR1001a", "100.1a A two-player game is a game that begins with only two players."),
        ("CREx1001a", "Example: A game with two players."),
        ("CR1001a", "100.2. To play, each player needs their own deck."),
        ("CRHeading", "Glossary"), ("CRGlossaryWord", "Active Player"),
        ("CRGlossaryText", "The player whose turn it is. See rule 102.1."),
        ("CRHeading", "Credits"), ("CRBodyText", "Some credits.")]


def test_small_docx_uses_paragraph_styles(tmp_path):
    p = tmp_path / "mini.docx"
    p.write_bytes(_docx_bytes(MINI))
    doc = load_document(p)
    assert doc.meta.format == "docx" and doc.meta.effective_date == "2019-06-12"
    assert doc.rule_ids == ["100", "100.1", "100.1a", "100.2"]
    assert doc.rule("100.1a").examples[0].text == "Example: A game with two players."
    assert [g.term for g in doc.glossary] == ["Active Player"]


def test_format_detected_by_content_not_name(tmp_path):
    docx = _docx_bytes(MINI)
    assert detect_format(docx, "rules.txt") == "docx"
    assert detect_format(b"%PDF-1.7\n...", "rules.docx") == "pdf"
    assert detect_format(b"<!DOCTYPE html><html><body><p>100.1 Hi</p></body></html>", "x.txt") == "html"
    assert detect_format("616.1. Se dois efeitos.".encode(), "x.dat") == "paste"
    assert detect_format("Regla 614.12 · Efectos\nSubreglas\nUna.".encode(), "x.html") == "webcard"
    with pytest.raises(InputError, match="not a PDF"):
        detect_format(b"just some text", "fake.pdf")
    z = io.BytesIO()
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("a.txt", "x")
    with pytest.raises(InputError, match="without word/document.xml"):
        detect_format(z.getvalue(), "x.zip")


def test_html_page_of_rules(tmp_path):
    page = ("<html><head><title>Regras</title><script>var x = '999.9 Nope';</script></head><body>"
            "<nav>Menu</nav><article><h1>Regra 616 · Interação</h1>"
            "<p><b>616.1.</b> Se dois ou mais efeitos de substituição tentam modificar um evento "
            "(consulte a regra 101.4), o jogador afetado escolhe um.</p>"
            "<p>616.1a Se algum dos efeitos for autoaplicável, ele deve ser escolhido.</p>"
            "<p>Exemplo: Um exemplo com &lt;marcação&gt;.</p>"
            "<p>616.2. Outra regra, dividida<br/>em duas linhas.</p></article></body></html>")
    p = tmp_path / "page.html"
    p.write_text(page, encoding="utf-8")
    doc = load_document(p)
    assert doc.meta.format == "html" and doc.meta.language == "pt"
    assert doc.rule_ids == ["616.1", "616.1a", "616.2"]
    assert doc.rule("616.1a").examples[0].text == "Exemplo: Um exemplo com <marcação>."
    assert doc.rule("616.2").text == "Outra regra, dividida em duas linhas."


@needs_shared
def test_an_edition_saved_as_html_gives_the_txt_model(tmp_path):
    import html as htmlmod

    ref = edition("2019-06-12")
    lines = (CR / "txt" / "2019-06-12.txt").read_text(encoding="utf-8-sig").splitlines()
    body = "".join(f"<p>{htmlmod.escape(line)}</p>" if line.strip() else "<p></p>" for line in lines)
    p = tmp_path / "cr.html"
    p.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'><script>1</script></head><body>{body}</body></html>",
                 encoding="utf-8")
    doc = load_document(p)
    same, total, bad = _agreement(doc, ref)
    assert doc.meta.format == "html" and same == total, bad[:5]
    assert len(doc.glossary) == len(ref.glossary)
