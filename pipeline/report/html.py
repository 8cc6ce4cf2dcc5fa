"""A self-contained HTML page: English base / translation / current English side by side.

Findings are highlighted inline in the translation (``<mark>`` with the message as its
title) and listed under each row; filters by check and severity hide rows, and the
filter also reads the URL fragment (``#check=references.stale&severity=warning``) so a
link can open a filtered view.  Every piece of text goes through :func:`html.escape`:
a rule holding ``<script>`` shows it as text.  No external resources, no timestamps.
"""

from __future__ import annotations

import html
import json

from ..align.model import Issue, Row

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.3em} table{border-collapse:collapse;width:100%} td,th{border:1px solid #ccc;padding:.4em;vertical-align:top}
th{background:#f3f3f3;text-align:left} .rules td{width:31%} .rules td.id{width:7%;font-family:monospace;white-space:nowrap}
.seg{white-space:pre-wrap} mark{padding:0 1px;border-radius:2px} mark.error{background:#f8b4b4} mark.warning{background:#fde68a}
mark.info{background:#bfdbfe} ul.f{margin:.3em 0 0 1em;padding:0;font-size:.9em} li.error{color:#991b1b} li.warning{color:#92400e}
li.info{color:#1e40af} .status{font-size:.8em;color:#555} .filters{margin:1em 0;padding:.6em;background:#fafafa;border:1px solid #ddd}
.counts td.n{text-align:right;font-family:monospace} tr.missing td{background:#fff5f5}
"""

_JS = r"""
(function(){
  var sel=document.getElementById('check-filter');
  var boxes=Array.prototype.slice.call(document.querySelectorAll('input.sev'));
  var only=document.getElementById('only-findings');
  var rows=Array.prototype.slice.call(document.querySelectorAll('tr.row'));
  function apply(){
    var check=sel.value;
    var sevs=boxes.filter(function(b){return b.checked;}).map(function(b){return b.value;});
    var shown=0;
    rows.forEach(function(r){
      var items=Array.prototype.slice.call(r.querySelectorAll('li[data-check]'));
      var hit=items.some(function(li){
        return (check==='all' || li.getAttribute('data-check')===check) && sevs.indexOf(li.getAttribute('data-severity'))>=0;});
      var ok=(check==='all' && !only.checked) ? true : hit;
      r.hidden=!ok; if(ok){shown++;}
    });
    document.getElementById('shown').textContent=String(shown);
  }
  function fromHash(){
    var h=window.location.hash.replace(/^#/,'');
    if(!h){return;}
    h.split('&').forEach(function(kv){
      var p=kv.split('='); var k=decodeURIComponent(p[0]||''); var v=decodeURIComponent(p[1]||'');
      if(k==='check' && sel.querySelector('option[value="'+v.replace(/"/g,'')+'"]')){ sel.value=v; }
      if(k==='severity'){ var want=v.split(','); boxes.forEach(function(b){ b.checked=want.indexOf(b.value)>=0; }); }
      if(k==='only'){ only.checked=(v==='1'); }
    });
  }
  sel.addEventListener('change',apply); only.addEventListener('change',apply);
  boxes.forEach(function(b){b.addEventListener('change',apply);});
  window.addEventListener('hashchange',function(){fromHash();apply();});
  fromHash(); apply();
  document.documentElement.setAttribute('data-ready','1');
})();
"""


def _e(s) -> str:
    return html.escape("" if s is None else str(s), quote=True)


def highlight(text: str, issues: list[Issue]) -> str:
    """``text`` escaped, with each finding's span in a ``<mark>`` (overlaps: the first wins)."""
    spans = sorted({(i.span[0], i.span[1], i.severity, i.check, i.message) for i in issues
                    if i.span and 0 <= i.span[0] < i.span[1] <= len(text)})
    out, pos = [], 0
    for a, b, sev, check, msg in spans:
        if a < pos:
            continue
        out.append(_e(text[pos:a]))
        out.append(f'<mark class="{_e(sev)}" data-check="{_e(check)}" title="{_e(check + ": " + msg)}">{_e(text[a:b])}</mark>')
        pos = b
    out.append(_e(text[pos:]))
    return "".join(out)


def _row(r: Row) -> str:
    checks = sorted({i.check for i in r.issues})
    sevs = sorted({i.severity for i in r.issues})
    items = "".join(
        f'<li class="{_e(i.severity)}" data-check="{_e(i.check)}" data-severity="{_e(i.severity)}">'
        f'<b>{_e(i.check)}</b> ({_e(i.severity)}): {_e(i.message)}'
        + (f' — “{_e(i.excerpt)}”' if i.excerpt else "") + (f' → <code>{_e(i.suggestion)}</code>' if i.suggestion else "")
        + "</li>" for i in r.issues)
    ids = (f'{_e(r.id or "—")}<div class="status">{_e(r.status)} · {_e(r.method)}</div>'
           f'<div class="status">base {_e(r.base_id or "—")}<br>now {_e(r.current_id or "—")}</div>')
    cls = "row missing" if r.status == "missing" else "row"
    return (f'<tr class="{cls}" data-checks="{_e(" ".join(checks))}" data-severities="{_e(" ".join(sevs))}">'
            f'<td class="id">{ids}</td><td><div class="seg" lang="en">{_e(r.source)}</div></td>'
            f'<td><div class="seg">{highlight(r.target, r.issues)}</div>'
            + (f'<ul class="f">{items}</ul>' if items else "") +
            f'</td><td><div class="seg" lang="en">{_e(r.current)}</div></td></tr>')


def render_html(result) -> str:
    counts = result.counts()
    lang = result.translation.get("language") or ""
    name = result.translation.get("name") or "translation"
    be = result.base_edition or {}
    rng = be.get("range") or {}
    sev_count = {s: sum(1 for i in result.issues if i.severity == s) for s in ("error", "warning", "info")}
    options = "".join(f'<option value="{_e(c.id)}">{_e(c.id)} ({counts.get(c.id, 0)})</option>' for c in result.checks)
    count_rows = "".join(
        f'<tr><td><code>{_e(c.id)}</code></td><td>{_e(c.severity)}</td><td class="n">{counts.get(c.id, 0)}</td>'
        f'<td>{_e(c.explanation)}</td></tr>' for c in result.checks)
    rows = "".join(_row(r) for r in result.rows)
    sc = result.score
    meta = json.dumps({"translation": result.translation, "base": be.get("label"), "current": result.current_edition},
                      sort_keys=True, ensure_ascii=True).replace("<", "\\u003c")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Alignment: {_e(name)}</title>
<style>{_CSS}</style>
<script type="application/json" id="meta">{meta}</script>
</head><body>
<h1>Alignment report: {_e(name)} ({_e(lang)})</h1>
<p>Base edition <b>{_e(be.get("label"))}</b> ({_e(be.get("how"))}; consistent range {_e(rng.get("first"))} … {_e(rng.get("last"))})
· current edition <b>{_e(result.current_edition)}</b>
· {len(result.rows)} rows · score <b>{sc.per_thousand_words:.1f}</b> penalty points per 1,000 words
({sc.words} words; {sev_count["error"]} errors, {sev_count["warning"]} warnings, {sev_count["info"]} info)</p>
<details open><summary>Findings per check</summary>
<table class="counts"><tr><th>check</th><th>severity</th><th>count</th><th>what it looks for</th></tr>{count_rows}</table>
</details>
<div class="filters" role="search">
<label>Check <select id="check-filter"><option value="all">all checks</option>{options}</select></label>
<label><input type="checkbox" class="sev" value="error" checked> errors</label>
<label><input type="checkbox" class="sev" value="warning" checked> warnings</label>
<label><input type="checkbox" class="sev" value="info" checked> info</label>
<label><input type="checkbox" id="only-findings"> only rules with findings</label>
· <span id="shown">{len(result.rows)}</span> rows shown
</div>
<table class="rules"><thead><tr><th>rule</th><th>English (base edition {_e(be.get("label"))})</th>
<th>translation ({_e(lang)})</th><th>English (current {_e(result.current_edition)})</th></tr></thead>
<tbody>{rows}</tbody></table>
<script>{_JS}</script>
</body></html>
"""
