"""A self-contained HTML page of linked rulings: each ruling, its ranked rules with their text."""

from __future__ import annotations

from html import escape

CSS = ("body{font-family:system-ui,sans-serif;max-width:70em;margin:2em auto;line-height:1.4}"
       "table{border-collapse:collapse;width:100%}td,th{border-top:1px solid #ddd;padding:.3em .5em;"
       "vertical-align:top;text-align:left}.id{white-space:nowrap;font-family:monospace}.score{color:#666}"
       "section{margin-bottom:1.5em}h2{font-size:1.05em;margin-bottom:.3em}"
       ".confident{color:#1a6b1a}.weak{color:#a05a00;font-weight:bold}")


def _confidence(cands: list[dict]) -> str:
    """The first answer's calibrated confidence: confident, or weak (read the rules)."""
    c = cands[0] if cands else {}
    p = c.get("confidence")
    if not isinstance(p, (int, float)):
        return ""
    if c.get("confident"):
        return f"<p class=confident>confident ({p:.2f}): {escape(str(c.get('rule', '')))}</p>"
    return (f"<p class=weak>weak ({p:.2f}): {escape(str(c.get('rule', '')))} may not be it; "
            "read the candidates' rules</p>")


def render_links_html(data: dict) -> str:
    """``data``: :func:`pipeline.link.run.links_to_dict`'s output."""
    title = f"Rulings of {data['rulings_file']} linked to the Comprehensive Rules ({data['edition']})"
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{escape(title)}</title><style>{CSS}</style></head><body>", f"<h1>{escape(title)}</h1>"]
    for item in data["links"]:
        r = item["ruling"]
        card = r.get("card") if isinstance(r.get("card"), str) else (r.get("card") or {}).get("name", "")
        out.append(f"<section><h2>{escape(card)} <span class=score>{escape(r.get('date') or '')}</span></h2>"
                   f"<p>{escape(r.get('text') or '')}</p>{_confidence(item['candidates'])}"
                   "<table><tr><th>#</th><th>rule</th><th>text</th>"
                   "<th>score</th><th>evidence</th></tr>")
        for c in item["candidates"]:
            ev = ", ".join(sorted({e.get("kind", "") for e in c.get("evidence", [])}))
            out.append(f"<tr><td>{c['rank']}</td><td class=id>{escape(c['rule'])}</td><td>{escape(c.get('text') or '')}</td>"
                       f"<td class=score>{c['score']:.2f}</td><td>{escape(ev)}</td></tr>")
        out.append("</table></section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
