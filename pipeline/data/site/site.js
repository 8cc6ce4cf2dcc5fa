/* crpipe rules site: search (MiniSearch over search-data.js) and the pair-of-editions form. */
(function () {
  "use strict";
  function el(tag, text, cls) { var e = document.createElement(tag); if (text) e.textContent = text; if (cls) e.className = cls; return e; }
  var RULE = /^\s*(\d{3}(?:\.\d{1,3}[a-z]?)?)\.?\s*$/i;

  function setupSearch() {
    var q = document.getElementById("q");
    if (!q || !window.CRPIPE_SEARCH || !window.MiniSearch) return;
    var docs = window.CRPIPE_SEARCH;
    var ms = new MiniSearch({
      idField: "n", fields: ["r", "t", "x"], storeFields: ["r", "k", "t", "u"],
      searchOptions: { boost: { r: 3, t: 1, x: 0.3 }, prefix: true, fuzzy: 0.15, combineWith: "AND" },
      tokenize: function (s) { return s.toLowerCase().match(/\d{3}(?:\.\d{1,3}[a-z]?)?|[\p{L}\p{N}']+/gu) || []; },
      processTerm: function (t) { return t.toLowerCase(); }
    });
    ms.addAll(docs);
    var byId = {};
    docs.forEach(function (d) { if (d.k === "rule") byId[d.r.toLowerCase()] = { r: d.r, k: d.k, t: d.t, u: d.u, n: d.n }; });
    var status = document.getElementById("status"), list = document.getElementById("results");
    function run() {
      var s = q.value.trim();
      list.textContent = "";
      if (!s) { status.textContent = "Type to search."; return; }
      var hits = [];
      var m = RULE.exec(s);
      if (m) {
        // A rule number: that rule, then the rules that once had that number; no fuzzy neighbours.
        var num = m[1].toLowerCase();
        if (byId[num]) hits.push(byId[num]);
        docs.forEach(function (d) { if (d.k === "old" && d.r.toLowerCase() === num) hits.push(d); });
      }
      if (!hits.length) {
        // Documents holding the words side by side rank above scattered ones.
        var phrase = s.toLowerCase();
        hits = ms.search(s).map(function (r) {
          var bonus = (r.t || "").toLowerCase().indexOf(phrase) >= 0 || (r.r || "").toLowerCase() === phrase ? 2 : 1;
          return { r: r, score: r.score * bonus };
        }).sort(function (a, b) { return b.score - a.score || a.r.r.localeCompare(b.r.r); })
          .map(function (f) { return f.r; });
      }
      status.textContent = hits.length ? hits.length + " results" : "No results.";
      hits.slice(0, 50).forEach(function (h) {
        var li = el("li"), a = el("a", h.r);
        a.href = h.u;
        li.appendChild(el("span", h.k === "old" ? "old number " : h.k + " ", "k"));
        li.appendChild(a);
        li.appendChild(document.createTextNode(" " + (h.t || "").slice(0, 220)));
        li.setAttribute("data-id", h.r);
        list.appendChild(li);
      });
      document.body.setAttribute("data-searched", s);
    }
    q.addEventListener("input", run);
    var init = new URLSearchParams(location.search).get("q");
    if (init) { q.value = init; run(); }
  }

  function setupPairs() {
    var go = document.getElementById("pair-go"), data = document.getElementById("pairs");
    if (!go || !data) return;
    var pairs = JSON.parse(data.textContent);
    go.addEventListener("click", function () {
      var a = document.getElementById("pair-a").value, b = document.getElementById("pair-b").value;
      var out = document.getElementById("pair-status");
      if (a === b) { out.textContent = "Choose two different editions."; return; }
      if (a > b) { var t = a; a = b; b = t; }
      if (pairs.indexOf(a + "_" + b) >= 0) { location.href = "changes/" + a + "_" + b + ".html"; return; }
      out.textContent = "The changes from " + a + " to " + b + " are not in this site; run: crpipe site --pair " + a + " " + b;
    });
  }
  setupSearch();
  setupPairs();
})();
