"""A self-contained HTML page a translator can act on: the summary first (coverage, rules to
update, findings by check, the rules with the most problems), then one row per rule: English
base / translation / what changed in the English since (a word diff, or "unchanged").

Findings are highlighted inline in the translation (``<mark>`` with the message as its
title) and listed under each row; filters by check, severity and "rules to update" hide rows,
and the filter also reads the URL fragment (``#check=references.stale&severity=warning``,
``#update=1``, ``#page=3``) so a link can open a filtered view.  Rows are shown a page at a
time (100) and laid out lazily by the browser (``content-visibility``), so a 4,000-unit
translation opens fast; the current English is written only where it differs from the base.
Every piece of text goes through :func:`html.escape`: a rule holding ``<script>`` shows it as
text.  No external resources, no timestamps.
"""

from __future__ import annotations

import html
import json

from ..align.model import Issue, Row, RowStatus
from ..findings import Severity
from ..diff.worddiff import word_diff

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.3em} table{border-collapse:collapse;width:100%} td,th{border:1px solid #ccc;padding:.4em;vertical-align:top}
th{background:#f3f3f3;text-align:left} .rules td{width:31%} .rules td.id{width:7%;font-family:monospace;white-space:nowrap}
.seg{white-space:pre-wrap} mark{padding:0 1px;border-radius:2px} mark.error{background:#f8b4b4} mark.warning{background:#fde68a}
mark.info{background:#bfdbfe} ul.f{margin:.3em 0 0 1em;padding:0;font-size:.9em} li.error{color:#991b1b} li.warning{color:#92400e}
li.info{color:#1e40af} .status{font-size:.8em;color:#555} .filters{margin:1em 0;padding:.6em;background:#fafafa;border:1px solid #ddd}
.counts td.n{text-align:right;font-family:monospace} tr.missing td{background:#fff5f5}
tr.row{content-visibility:auto;contain-intrinsic-size:auto 6em} del{background:#fecaca} ins{background:#bbf7d0;text-decoration:none}
.same{color:#777;font-style:italic} .summary{display:flex;flex-wrap:wrap;gap:1.5em} .summary section{flex:1 1 22em}
.pager{margin:.6em 0} .pager button{margin-right:.4em}
"""

_JS = r"""
(function(){
  var sel=document.getElementById('check-filter');
  var boxes=Array.prototype.slice.call(document.querySelectorAll('input.sev'));
  var only=document.getElementById('only-findings');
  var upd=document.getElementById('only-update');
  var rows=Array.prototype.slice.call(document.querySelectorAll('tr.row'));
  var PAGE=100, page=0;
  function apply(){
    var check=sel.value;
    var sevs=boxes.filter(function(b){return b.checked;}).map(function(b){return b.value;});
    var match=[];
    rows.forEach(function(r){
      var items=Array.prototype.slice.call(r.querySelectorAll('li[data-check]'));
      var hit=items.some(function(li){
        return (check==='all' || li.getAttribute('data-check')===check) && sevs.indexOf(li.getAttribute('data-severity'))>=0;});
      var ok=(check==='all' && !only.checked) ? true : hit;
      if(upd.checked && r.getAttribute('data-update')!=='1'){ ok=false; }
      r.hidden=true; if(ok){match.push(r);}
    });
    var pages=Math.max(1,Math.ceil(match.length/PAGE));
    if(page>=pages){page=pages-1;} if(page<0){page=0;}
    match.slice(page*PAGE,(page+1)*PAGE).forEach(function(r){r.hidden=false;});
    document.getElementById('shown').textContent=String(match.length);
    document.getElementById('page').textContent=String(page+1)+' / '+String(pages);
    document.getElementById('prev').disabled=(page===0);
    document.getElementById('next').disabled=(page>=pages-1);
  }
  function fromHash(){
    var h=window.location.hash.replace(/^#/,'');
    if(!h){return;}
    h.split('&').forEach(function(kv){
      var p=kv.split('='); var k=decodeURIComponent(p[0]||''); var v=decodeURIComponent(p[1]||'');
      if(k==='check' && sel.querySelector('option[value="'+v.replace(/"/g,'')+'"]')){ sel.value=v; }
      if(k==='severity'){ var want=v.split(','); boxes.forEach(function(b){ b.checked=want.indexOf(b.value)>=0; }); }
      if(k==='only'){ only.checked=(v==='1'); }
      if(k==='update'){ upd.checked=(v==='1'); }
      if(k==='page'){ page=Math.max(0,(parseInt(v,10)||1)-1); }
    });
  }
  function reset(){ page=0; apply(); }
  sel.addEventListener('change',reset); only.addEventListener('change',reset); upd.addEventListener('change',reset);
  document.getElementById('prev').addEventListener('click',function(){page--;apply();});
  document.getElementById('next').addEventListener('click',function(){page++;apply();});
  boxes.forEach(function(b){b.addEventListener('change',reset);});
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


def diff_html(old: str, new: str) -> str:
    """The English word diff base -> current: deletions in ``<del>``, insertions in ``<ins>``."""
    tag = {"=": None, "-": "del", "+": "ins"}
    out = []
    for op, text in word_diff(old, new):
        t = tag[op]
        out.append(_e(text) if t is None else f"<{t}>{_e(text)}</{t}>")
    return "".join(out)


def _current_cell(r: Row) -> str:
    if not r.current:
        return '<span class="same">not in the current edition</span>' if r.base_id and r.id else ""
    if not r.source or r.status == RowStatus.MISSING:
        return f'<div class="seg" lang="en">{_e(r.current)}</div>'
    if not r.english_changed:
        return '<span class="same">unchanged</span>'
    moved = f'<div class="status">now {_e(r.current_id)}</div>' if r.current_id != r.base_id else ""
    return f'{moved}<div class="seg" lang="en">{diff_html(r.source, r.current)}</div>'


def _row(r: Row) -> str:
    checks = sorted({i.check for i in r.issues})
    sevs = sorted({i.severity for i in r.issues})
    items = "".join(
        f'<li class="{_e(i.severity)}" data-check="{_e(i.check)}" data-severity="{_e(i.severity)}">'
        f'<b>{_e(i.check)}</b> ({_e(i.severity)}): {_e(i.message)}'
        + (f' — “{_e(i.excerpt)}”' if i.excerpt else "") + (f' → <code>{_e(i.suggestion)}</code>' if i.suggestion else "")
        + (f' <span class="status">{_e(i.unit)}</span>' if i.unit and len(r.units) > 1 else "")
        + "</li>" for i in r.issues)
    ids = (f'{_e(r.id or "—")}<div class="status">{_e(r.status)} · {_e(r.method)}</div>'
           f'<div class="status">base {_e(r.base_id or "—")}<br>now {_e(r.current_id or "—")}</div>')
    cls = "row missing" if r.status == RowStatus.MISSING else "row"
    update = "1" if r.id and r.english_changed else "0"
    units = "".join(f'<div class="status">{_e(u["location"])}</div>' for u in r.units[:3])
    return (f'<tr class="{cls}" id="r-{_e(r.id or r.base_id)}" data-update="{update}" data-checks="{_e(" ".join(checks))}" '
            f'data-severities="{_e(" ".join(sevs))}">'
            f'<td class="id">{ids}{units}</td><td><div class="seg" lang="en">{_e(r.source)}</div></td>'
            f'<td><div class="seg">{highlight(r.target, r.issues)}</div>'
            + (f'<ul class="f">{items}</ul>' if items else "") +
            f'</td><td>{_current_cell(r)}</td></tr>')


def _by_class(result) -> str:
    """What a reviewer reads first: findings by the kind of defect (spelling, grammar, omission …),
    errors and warnings apart from info, with the checks behind each."""
    of = {c.id: (c.defect or c.category) for c in result.checks}
    by: dict[str, dict] = {}
    for i in result.issues:
        d = by.setdefault(str(of.get(i.check, i.category)), {"error": 0, "warning": 0, "info": 0, "checks": {}})
        d[str(i.severity)] += 1
        d["checks"][i.check] = d["checks"].get(i.check, 0) + 1
    rows = "".join(
        f'<tr><td>{_e(k)}</td><td class="n">{v["error"] + v["warning"]}</td><td class="n">{v["info"]}</td><td>'
        + ", ".join(f'<a href="#check={_e(c)}&amp;only=1"><code>{_e(c)}</code></a> {n}' for c, n in sorted(v["checks"].items()))
        + "</td></tr>" for k, v in sorted(by.items(), key=lambda kv: (-(kv[1]["error"] + kv[1]["warning"]), kv[0])))
    return (f'<section><h2>Findings by kind of defect</h2><table class="counts"><tr><th>kind</th><th>errors and '
            f'warnings</th><th>info</th><th>checks</th></tr>{rows}</table></section>')


def _summary(result, sev_count: dict) -> str:
    """Findings by kind of defect, coverage, rules to update, findings by check, the rules with the
    most problems."""
    parts = [_by_class(result)] if result.issues else []
    cov = result.coverage
    if cov:
        unit = cov.get("unit", "unit")
        secs = "".join(f'<tr><td>{_e(v["name"])}</td><td class="n">{v["translated"]} / {v["units"]}</td>'
                       f'<td class="n">{100 * v["share"]:.0f} %</td></tr>' for v in cov["by_section"].values())
        unt = cov.get("untranslated_rules") or []
        stale = cov.get("stale_units") or []
        parts.append(f'<section><h2>Coverage</h2><p><b>{cov["translated"]:,}</b> of {cov["units"]:,} {unit}s translated '
                     f'({100 * cov["share"]:.0f} %); {len(unt):,} rules untranslated'
                     + (f'; <b>{len(stale)}</b> stale units (English no longer in the base edition)' if stale else "")
                     + f'.</p><table class="counts"><tr><th>section</th><th>translated</th><th>share</th></tr>{secs}</table></section>')
    up = result.update or {}
    if up:
        todo = up.get("to_update") or []
        links = ", ".join(f'<a href="#r-{_e(x)}">{_e(x)}</a>' for x in todo[:40]) + (" …" if len(todo) > 40 else "")
        parts.append(f'<section><h2>Rules to update</h2><p>English changed between the base edition '
                     f'<b>{_e(up.get("base"))}</b> and the current <b>{_e(up.get("current"))}</b> in '
                     f'<b>{len(todo)}</b> translated rules (<a href="#update=1&amp;only=0">show them</a>); '
                     f'{len(up.get("new") or [])} rules are new, {len(up.get("removed") or [])} removed.</p>'
                     f'<p>{links}</p></section>')
    counts = result.counts()
    by_check = sorted(((c, counts.get(c.id, 0)) for c in result.checks if counts.get(c.id, 0)),
                      key=lambda x: ({"error": 0, "warning": 1, "info": 2}[x[0].severity], -x[1], x[0].id))
    rows = "".join(f'<tr><td><a href="#check={_e(c.id)}&amp;only=1"><code>{_e(c.id)}</code></a></td><td>{_e(c.severity)}</td>'
                   f'<td class="n">{n}</td></tr>' for c, n in by_check)
    parts.append(f'<section><h2>Findings</h2><p>{sev_count["error"]} errors, {sev_count["warning"]} warnings, '
                 f'{sev_count["info"]} info.</p><table class="counts"><tr><th>check</th><th>severity</th><th>count</th></tr>'
                 f'{rows}</table></section>')
    weight = {"error": 10, "warning": 3, "info": 0}
    top = sorted((r for r in result.rows if r.issues), key=lambda r: (-sum(weight[i.severity] for i in r.issues),
                                                                       r.id or r.base_id or ""))[:10]
    items = "".join(f'<li><a href="#r-{_e(r.id or r.base_id)}">{_e(r.id or r.base_id)}</a>: '
                    + _e("; ".join(sorted({i.check for i in r.issues}))) + "</li>" for r in top
                    if any(i.severity != Severity.INFO for i in r.issues))
    if items:
        parts.append(f'<section><h2>Top problems</h2><ol>{items}</ol></section>')
    return '<div class="summary">' + "".join(parts) + "</div>"


def render_html(result) -> str:
    counts = result.counts()
    lang = result.translation.get("language") or ""
    name = result.translation.get("name") or "translation"
    be = result.base_edition
    first, last = (be.range.first, be.range.last) if be.range is not None else (None, None)
    sev_count = {s: sum(1 for i in result.issues if i.severity == s) for s in ("error", "warning", "info")}
    options = "".join(f'<option value="{_e(c.id)}">{_e(c.id)} ({counts.get(c.id, 0)})</option>' for c in result.checks)
    count_rows = "".join(
        f'<tr><td><code>{_e(c.id)}</code></td><td>{_e(c.severity)}</td><td class="n">{counts.get(c.id, 0)}</td>'
        f'<td>{_e(c.explanation)}</td></tr>' for c in result.checks)
    rows = "".join(_row(r) for r in result.rows)
    sc = result.score
    meta = json.dumps({"translation": result.translation, "base": be.label, "current": result.current_edition},
                      sort_keys=True, ensure_ascii=True).replace("<", "\\u003c")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Alignment: {_e(name)}</title>
<style>{_CSS}</style>
<script type="application/json" id="meta">{meta}</script>
</head><body>
<h1>Alignment report: {_e(name)} ({_e(lang)})</h1>
<p>Base edition <b>{_e(be.label)}</b> ({_e(be.how)}; consistent range {_e(first)} … {_e(last)})
· current edition <b>{_e(result.current_edition)}</b> (the newest edition available)
· {len(result.rows)} rows · score <b>{sc.per_thousand_words:.1f}</b> penalty points per 1,000 words
({sc.words} words; {sev_count["error"]} errors, {sev_count["warning"]} warnings, {sev_count["info"]} info)</p>
{_summary(result, sev_count)}
<details><summary>Every check and what it looks for</summary>
<table class="counts"><tr><th>check</th><th>severity</th><th>count</th><th>what it looks for</th></tr>{count_rows}</table>
</details>
<div class="filters" role="search">
<label>Check <select id="check-filter"><option value="all">all checks</option>{options}</select></label>
<label><input type="checkbox" class="sev" value="error" checked> errors</label>
<label><input type="checkbox" class="sev" value="warning" checked> warnings</label>
<label><input type="checkbox" class="sev" value="info" checked> info</label>
<label><input type="checkbox" id="only-findings"> only rules with findings</label>
<label><input type="checkbox" id="only-update"> only rules to update</label>
· <span id="shown">{len(result.rows)}</span> rows match
<div class="pager"><button type="button" id="prev">previous</button><button type="button" id="next">next</button>
page <span id="page">1</span></div>
</div>
<table class="rules"><thead><tr><th>rule</th><th>English (base edition {_e(be.label)})</th>
<th>translation ({_e(lang)})</th><th>English changes to {_e(result.current_edition)}</th></tr></thead>
<tbody>{rows}</tbody></table>
<script>{_JS}</script>
</body></html>
"""
