/* Attention Explorer's view of a trace, for a page of its own or a notebook cell.
 *
 * It reads the JSON beside it (the element whose id is its own id + "-data", written by
 * explorer/web/page.py) and draws, for the chosen attention, layer and head: every head of the
 * layer as a thumbnail, the head as lines from each query token to the keys (alpha = weight),
 * the same head as a heatmap, the hovered weight and the selected query's weights. Nothing is
 * fetched: everything the view needs is in the page. Plain JavaScript, no library.
 */
(function () {
  "use strict";

  // cividis, the window's colour map for weights (0 dark blue ... 1 yellow)
  var CIVIDIS = [
    [0, 34, 78], [18, 53, 112], [59, 73, 108], [87, 93, 109], [112, 113, 115],
    [138, 134, 120], [166, 157, 117], [199, 182, 102], [254, 232, 56],
  ];
  var LUT = (function () {
    var lut = new Uint8ClampedArray(256 * 3);
    for (var i = 0; i < 256; i++) {
      var t = (i / 255) * (CIVIDIS.length - 1), k = Math.min(Math.floor(t), CIVIDIS.length - 2), f = t - k;
      for (var c = 0; c < 3; c++) lut[i * 3 + c] = CIVIDIS[k][c] + f * (CIVIDIS[k + 1][c] - CIVIDIS[k][c]);
    }
    return lut;
  })();

  function decode(stage) {
    var bytes = atob(stage.data), n = bytes.length, raw = new Uint8Array(n);
    for (var i = 0; i < n; i++) raw[i] = bytes.charCodeAt(i);
    if (stage.encoding === "float32") return new Float32Array(raw.buffer);
    var out = new Float32Array(n), offset = stage.offset || 0, scale = stage.scale;
    for (var j = 0; j < n; j++) out[j] = offset + raw[j] * scale;
    return out;
  }

  function fill(text, params) {
    return text.replace(/\{(\w+)[^}]*\}/g, function (whole, name) {
      return name in params ? String(params[name]) : whole;
    });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function short(token) {
    return token.length > 16 ? token.slice(0, 15) + "…" : token;
  }

  function clamp(x, lo, hi) {
    return Math.max(lo, Math.min(hi, x));
  }

  function View(root, data) {
    this.root = root;
    this.data = data;
    this.lang = data.words[data.language] ? data.language : "en";
    this.sets = data.attentions.map(function (a) {
      var s = a.shape;
      return { meta: a, weights: decode(a.stages.weights), exact: a.stages.weights.encoding === "float32",
               L: s[0], H: s[1], nq: s[2], nk: s[3] };
    });
    var first = data.attentions[0], open = data.open || {};
    this.s = { set: 0, layer: Math.max(0, first.layers.indexOf(open.layer)),
               head: Math.max(0, first.heads.indexOf(open.head)),
               pinned: open.query === null || open.query === undefined ? null : open.query, hover: null };
    this.images = {};
    this.draws = 0;
    this.build();
    this.follow_theme();
    this.draw();
  }

  View.prototype.w = function (key) {
    return this.data.words[this.lang][key] || this.data.words.en[key] || key;
  };
  View.prototype.set = function () { return this.sets[this.s.set]; };
  View.prototype.value = function (i, j, head) {
    var a = this.set(), h = head === undefined ? this.s.head : head;
    return a.weights[((this.s.layer * a.H + h) * a.nq + i) * a.nk + j];
  };
  View.prototype.query = function () { return this.s.hover !== null ? this.s.hover : this.s.pinned; };
  View.prototype.colour = function (name) {
    return getComputedStyle(this.root).getPropertyValue(name).trim() || "#888";
  };
  View.prototype.head_colour = function (h) {
    var a = this.set(), dark = this.root.classList.contains("ae-dark") ||
      (this.root.closest(".ae-page") && matchMedia("(prefers-color-scheme: dark)").matches);
    return "hsl(" + Math.round((h * 360) / Math.max(a.H, 1) + 210) % 360 + ", 70%, " + (dark ? 62 : 45) + "%)";
  };
  View.prototype.format = function (v) {
    return this.set().exact ? v.toFixed(4) : "≈" + v.toFixed(3);
  };

  // -- the parts of the view, made once ---------------------------------------------------
  View.prototype.build = function () {
    var root = this.root, self = this;
    root.textContent = "";
    root.tabIndex = 0;
    var top = el("div", "ae-top"), titles = el("div");
    this.title = el("h2");
    this.settings = el("div", "ae-settings");
    titles.append(this.title, this.settings);
    this.languages = el("div", "ae-group");
    var names = { en: "English", zh_CN: "中文" };  // each language in its own words
    this.data.languages.forEach(function (lang) {
      var b = el("button", "", names[lang] || lang);
      b.dataset.lang = lang;
      b.onclick = function () { self.lang = lang; self.draw(); };
      self.languages.append(b);
    });
    top.append(titles, this.languages);
    this.notes = el("ul", "ae-notes");
    this.controls = el("div", "ae-controls");
    this.thumbs_title = el("h3");
    this.thumbs = el("div", "ae-thumbs");
    var main = el("div", "ae-main"), left = el("section"), right = el("section");
    this.lines_title = el("h3");
    this.heat_title = el("h3");
    var scroll = el("div", "ae-scroll");
    this.lines = el("canvas", "ae-lines");
    this.heat = el("canvas", "ae-heatmap");
    scroll.append(this.lines);
    left.append(this.lines_title, scroll);
    right.append(this.heat_title, this.heat);
    main.append(left, right);
    this.readout = el("div", "ae-readout");
    this.readout.setAttribute("aria-live", "polite");
    var row = el("section", "ae-row");
    this.row_title = el("h3");
    this.bars = el("div", "ae-bars");
    row.append(this.row_title, this.bars);
    root.append(top, this.notes, this.controls, this.thumbs_title, this.thumbs, main, this.readout, row);

    this.heat.addEventListener("mousemove", function (e) { self.on_heat(e, false); });
    this.heat.addEventListener("click", function (e) { self.on_heat(e, true); });
    this.heat.addEventListener("mouseleave", function () { self.hover(null); });
    this.lines.addEventListener("mousemove", function (e) { self.on_lines(e, false); });
    this.lines.addEventListener("click", function (e) { self.on_lines(e, true); });
    this.lines.addEventListener("mouseleave", function () { self.hover(null); });
    root.addEventListener("keydown", function (e) {
      var a = self.set(), step = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[e.key];
      if (!step) return;
      e.preventDefault();
      self.select({ layer: clamp(self.s.layer + step[0], 0, a.L - 1), head: clamp(self.s.head + step[1], 0, a.H - 1) });
    });
  };

  View.prototype.follow_theme = function () {
    var root = this.root, self = this, body = document.body;
    function apply() {
      var dark = body && ((body.dataset && body.dataset.jpThemeLight === "false") ||
                          body.classList.contains("vscode-dark"));
      if (root.classList.contains("ae-dark") !== !!dark) {
        root.classList.toggle("ae-dark", !!dark);
        self.images = {};
        if (self.draws) self.draw();
      }
    }
    apply();
    if (body && window.MutationObserver) {
      new MutationObserver(apply).observe(body, { attributes: true, attributeFilter: ["data-jp-theme-light", "class"] });
    }
    if (root.closest(".ae-page")) {
      matchMedia("(prefers-color-scheme: dark)").addEventListener("change", function () { self.images = {}; self.draw(); });
    }
  };

  // -- changing what is shown -------------------------------------------------------------
  View.prototype.select = function (changes) {
    var s = this.s;
    if ("set" in changes && changes.set !== s.set) {
      s.set = changes.set;
      s.layer = Math.min(s.layer, this.set().L - 1);
      s.head = Math.min(s.head, this.set().H - 1);
      s.pinned = null;
      this.images = {};
    }
    if ("layer" in changes && changes.layer !== s.layer) { s.layer = changes.layer; this.images = {}; }
    if ("head" in changes) s.head = changes.head;
    if ("query" in changes) s.pinned = changes.query;
    this.draw();
  };

  View.prototype.hover = function (i, j) {
    this.s.hover = i;
    this.draw_focus(i === null || j === undefined ? null : j);
  };

  // -- drawing -----------------------------------------------------------------------------
  View.prototype.draw = function () {
    var d = this.data, a = this.set(), self = this, lang = this.lang;
    this.root.lang = lang === "zh_CN" ? "zh-Hans" : "en";
    this.root.dataset.layer = a.meta.layers[this.s.layer];
    this.root.dataset.head = a.meta.heads[this.s.head];
    this.root.dataset.language = lang;
    this.title.textContent = this.w("app") + " · " + d.title;
    this.settings.textContent = "";
    d.settings.forEach(function (item) {
      var span = el("span"), label = el("b", "", (item.label[lang] || item.label.en) + ": ");
      span.append(label, document.createTextNode(item.value));
      self.settings.append(span);
    });
    Array.prototype.forEach.call(this.languages.children, function (b) {
      b.setAttribute("aria-pressed", b.dataset.lang === lang ? "true" : "false");
    });
    this.notes.textContent = "";
    d.notes.concat(d.notices).forEach(function (note) { self.notes.append(el("li", "", note[lang] || note.en)); });
    this.draw_controls();
    this.thumbs_title.textContent = this.w("heads_title");
    this.lines_title.textContent = this.w("lines_title");
    this.heat_title.textContent = this.w("heatmap_title");
    this.row_title.textContent = this.w("row_title");
    this.draw_thumbs();
    this.layout();
    this.draw_focus(null);
    this.draws += 1;
    this.root.dataset.draws = this.draws;
    if (window.__aeFirstDraw === undefined) window.__aeFirstDraw = performance.now();
  };

  View.prototype.draw_controls = function () {
    var self = this, a = this.set(), c = this.controls;
    c.textContent = "";
    if (this.sets.length > 1) {
      var g = el("label", "ae-group"), pick = el("select", "ae-which");
      g.append(el("span", "ae-label", this.w("which")), pick);
      this.sets.forEach(function (set, i) {
        var o = el("option", "", set.meta.label[self.lang] || set.meta.label.en);
        o.value = i;
        o.selected = i === self.s.set;
        pick.append(o);
      });
      pick.onchange = function () { self.select({ set: Number(pick.value) }); };
      c.append(g);
    }
    function buttons(kind, numbers, current, swatch) {
      if (numbers.length < 2) return;
      var g = el("div", "ae-group ae-" + kind + "s");
      g.append(el("span", "ae-label", self.w(kind)));
      numbers.forEach(function (n, i) {
        var b = el("button");
        if (swatch) {
          var sw = el("span", "ae-swatch");
          sw.style.background = self.head_colour(i);
          b.append(sw);
        }
        b.append(document.createTextNode(String(n)));
        b.dataset.index = i;
        b.setAttribute("aria-pressed", i === current ? "true" : "false");
        b.onclick = function () { var ch = {}; ch[kind] = i; self.select(ch); };
        g.append(b);
      });
      c.append(g);
    }
    buttons("layer", a.meta.layers, this.s.layer, false);
    buttons("head", a.meta.heads, this.s.head, true);
  };

  // A head's weights as an image, one pixel per cell (cached for the layer shown).
  View.prototype.image = function (h) {
    var key = this.s.set + "/" + this.s.layer + "/" + h;
    if (this.images[key]) return this.images[key];
    var a = this.set(), canvas = document.createElement("canvas");
    canvas.width = a.nk;
    canvas.height = a.nq;
    var ctx = canvas.getContext("2d"), img = ctx.createImageData(a.nk, a.nq), px = img.data;
    var base = (this.s.layer * a.H + h) * a.nq * a.nk, w = a.weights;
    for (var p = 0, n = a.nq * a.nk; p < n; p++) {
      var k = Math.round(clamp(w[base + p], 0, 1) * 255) * 3;
      px[p * 4] = LUT[k]; px[p * 4 + 1] = LUT[k + 1]; px[p * 4 + 2] = LUT[k + 2]; px[p * 4 + 3] = 255;
    }
    ctx.putImageData(img, 0, 0);
    this.images[key] = canvas;
    return canvas;
  };

  View.prototype.draw_thumbs = function () {
    var self = this, a = this.set(), t = this.thumbs;
    t.textContent = "";
    var side = clamp(Math.floor(720 / Math.max(a.H, 1)) - 10, 36, 72);
    var scale = Math.min(side / a.nk, side / a.nq);
    for (var h = 0; h < a.H; h++) {
      var box = el("div", "ae-thumb" + (h === this.s.head ? " ae-on" : "")), c = el("canvas");
      c.width = Math.max(1, Math.round(a.nk * scale));
      c.height = Math.max(1, Math.round(a.nq * scale));
      var ctx = c.getContext("2d");
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(this.image(h), 0, 0, c.width, c.height);
      box.append(c, el("span", "", this.w("head") + " " + a.meta.heads[h]));
      box.dataset.index = h;
      box.onclick = (function (i) { return function () { self.select({ head: i }); }; })(h);
      t.append(box);
    }
  };

  function sized(canvas, width, height) {
    var r = window.devicePixelRatio || 1;
    canvas.width = Math.ceil(width * r);
    canvas.height = Math.ceil(height * r);
    canvas.style.width = width + "px";
    canvas.style.height = height + "px";
    var ctx = canvas.getContext("2d");
    ctx.setTransform(r, 0, 0, r, 0, 0);
    return ctx;
  }

  function widest(ctx, tokens, every) {
    var w = 0;
    for (var i = 0; i < tokens.length; i += every) w = Math.max(w, ctx.measureText(short(tokens[i])).width);
    return Math.ceil(w);
  }

  // Sizes of the two drawings, from the token counts.
  View.prototype.layout = function () {
    var a = this.set(), q = a.meta.tokens_query, k = a.meta.tokens_key, ctx = this.heat.getContext("2d");
    ctx.font = "11px sans-serif";
    var cell = clamp(Math.floor(440 / Math.max(a.nq, a.nk)), 1, 26);
    var every = cell >= 11 ? 1 : Math.ceil(11 / cell);
    this.hm = { cell: cell, every: every, left: Math.min(120, widest(ctx, q, every)) + 8,
                top: Math.min(110, widest(ctx, k, every)) + 8 };
    var row = clamp(Math.floor(640 / Math.max(a.nq, a.nk)), 3, 20);
    var lineEvery = row >= 11 ? 1 : Math.ceil(11 / row);
    var qw = Math.min(130, widest(ctx, q, lineEvery)), kw = Math.min(130, widest(ctx, k, lineEvery));
    this.ln = { row: row, every: lineEvery, x0: qw + 10, x1: qw + 10 + 150, kw: kw, top: 6 };
  };

  View.prototype.draw_heat = function (focus_key) {
    var a = this.set(), g = this.hm, c = g.cell, q = this.query();
    var width = g.left + a.nk * c + 4, height = g.top + a.nq * c + 4;
    var ctx = sized(this.heat, width, height);
    ctx.fillStyle = this.colour("--ae-bg");
    ctx.fillRect(0, 0, width, height);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.image(this.s.head), g.left, g.top, a.nk * c, a.nq * c);
    ctx.font = "11px sans-serif";
    ctx.fillStyle = this.colour("--ae-fg");
    ctx.textBaseline = "middle";
    ctx.textAlign = "right";
    var i;
    for (i = 0; i < a.nq; i += g.every) ctx.fillText(short(a.meta.tokens_query[i]), g.left - 5, g.top + (i + 0.5) * c);
    ctx.save();
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = "left";
    for (i = 0; i < a.nk; i += g.every) ctx.fillText(short(a.meta.tokens_key[i]), -g.top + 5, g.left + (i + 0.5) * c);
    ctx.restore();
    if (q !== null) {
      ctx.strokeStyle = this.colour("--ae-accent");
      ctx.lineWidth = 2;
      ctx.strokeRect(g.left - 1, g.top + q * c - 1, a.nk * c + 2, c + 2);
      if (focus_key !== null) ctx.strokeRect(g.left + focus_key * c, g.top + q * c, c, c);
    }
  };

  View.prototype.draw_lines = function (focus_key) {
    var a = this.set(), g = this.ln, q = this.query();
    var width = g.x1 + 8 + g.kw + 6, height = g.top * 2 + Math.max(a.nq, a.nk) * g.row;
    var ctx = sized(this.lines, width, height);
    ctx.fillStyle = this.colour("--ae-bg");
    ctx.fillRect(0, 0, width, height);
    var y = function (i) { return g.top + (i + 0.5) * g.row; };
    // lines in 16 strengths, one path each: a 512-token head stays quick to draw
    var base = (this.s.layer * a.H + this.s.head) * a.nq * a.nk, w = a.weights;
    var rows = q === null ? null : [q], paths = [];
    for (var b = 0; b < 16; b++) paths.push([]);
    for (var i = 0; i < a.nq; i++) {
      if (rows && i !== q) continue;
      for (var j = 0; j < a.nk; j++) {
        var v = w[base + i * a.nk + j];
        if (v < 0.02) continue;
        paths[Math.min(15, Math.floor(v * 16))].push(i, j);
      }
    }
    ctx.strokeStyle = this.head_colour(this.s.head);
    ctx.lineWidth = q === null ? 1.2 : 2;
    paths.forEach(function (pairs, level) {
      if (!pairs.length) return;
      ctx.globalAlpha = (level + 1) / 16 * (q === null ? 0.8 : 1);
      ctx.beginPath();
      for (var p = 0; p < pairs.length; p += 2) {
        ctx.moveTo(g.x0, y(pairs[p]));
        ctx.lineTo(g.x1, y(pairs[p + 1]));
      }
      ctx.stroke();
    });
    ctx.globalAlpha = 1;
    ctx.font = Math.min(12, Math.max(8, g.row - 1)) + "px sans-serif";
    ctx.textBaseline = "middle";
    var fg = this.colour("--ae-fg"), accent = this.colour("--ae-accent");
    function label(text, x, yy, align, strong) {
      ctx.textAlign = align;
      ctx.fillStyle = strong ? accent : fg;
      ctx.fillText(short(text), x, yy);
    }
    for (i = 0; i < a.nq; i += 1) {
      if (i % g.every && i !== q) continue;
      label(a.meta.tokens_query[i], g.x0 - 6, y(i), "right", i === q);
    }
    for (j = 0; j < a.nk; j += 1) {
      if (j % g.every && j !== focus_key) continue;
      label(a.meta.tokens_key[j], g.x1 + 6, y(j), "left", j === focus_key);
    }
  };

  // What follows the pointer: both drawings' highlight, the readout, the query's weights.
  View.prototype.draw_focus = function (focus_key) {
    var a = this.set(), q = this.query(), r = this.readout;
    this.draw_heat(focus_key);
    this.draw_lines(focus_key);
    r.textContent = "";
    delete r.dataset.value;
    if (q !== null && focus_key !== null) {
      var v = this.value(q, focus_key);
      r.dataset.value = String(v);
      r.dataset.query = q;
      r.dataset.key = focus_key;
      r.textContent = fill(this.w("readout"), { query: a.meta.tokens_query[q], key: a.meta.tokens_key[focus_key],
                                               value: this.format(v) }) + " · " +
        fill(this.w("where"), { layer: a.meta.layers[this.s.layer], head: a.meta.heads[this.s.head] });
    } else {
      r.append(el("span", "ae-hint", this.w("hint")));
    }
    this.draw_bars(q);
  };

  View.prototype.draw_bars = function (q) {
    var a = this.set(), bars = this.bars, self = this;
    bars.textContent = "";
    if (q === null) {
      bars.append(el("span", "ae-hint", this.w("row_none")));
      return;
    }
    var order = [];
    for (var j = 0; j < a.nk; j++) order.push(j);
    order.sort(function (x, y) { return self.value(q, y) - self.value(q, x) || x - y; });
    var top = order.slice(0, 12), colour = this.head_colour(this.s.head);
    bars.append(el("b", "", "“" + a.meta.tokens_query[q] + "”"), el("span"), el("span"));
    top.forEach(function (k) {
      var v = self.value(q, k), bar = el("div", "ae-bar");
      bar.style.width = Math.max(1, Math.round(v * 220)) + "px";
      bar.style.background = colour;
      bars.append(el("span", "", a.meta.tokens_key[k]), bar, el("span", "", self.format(v)));
    });
    if (a.nk > top.length) bars.append(el("span", "ae-more", fill(this.w("more_keys"), { count: a.nk - top.length })));
  };

  // -- the pointer -------------------------------------------------------------------------
  View.prototype.on_heat = function (e, click) {
    var a = this.set(), g = this.hm, box = this.heat.getBoundingClientRect();
    var j = Math.floor((e.clientX - box.left - g.left) / g.cell), i = Math.floor((e.clientY - box.top - g.top) / g.cell);
    if (i < 0 || j < 0 || i >= a.nq || j >= a.nk) return this.hover(null);
    if (click) this.s.pinned = this.s.pinned === i ? null : i;
    this.hover(i, j);
  };

  View.prototype.on_lines = function (e, click) {
    var a = this.set(), g = this.ln, box = this.lines.getBoundingClientRect();
    var x = e.clientX - box.left, n = Math.floor((e.clientY - box.top - g.top) / g.row);
    if (x <= g.x0 && n >= 0 && n < a.nq) {
      if (click) { this.s.pinned = this.s.pinned === n ? null : n; }
      return this.hover(n);
    }
    if (x >= g.x1 && n >= 0 && n < a.nk && this.query() !== null) {
      this.s.hover = this.query();
      return this.draw_focus(n);
    }
    this.hover(null);
  };

  // Where a cell or a token is on screen (client pixels): for tests and for keyboards.
  View.prototype.cell_center = function (i, j) {
    var g = this.hm, box = this.heat.getBoundingClientRect();
    return { x: box.left + g.left + (j + 0.5) * g.cell, y: box.top + g.top + (i + 0.5) * g.cell };
  };
  View.prototype.token_center = function (side, n) {
    var g = this.ln, box = this.lines.getBoundingClientRect();
    return { x: box.left + (side === "query" ? g.x0 / 2 : g.x1 + 10), y: box.top + g.top + (n + 0.5) * g.row };
  };

  function mount(root) {
    if (root.aeView) return root.aeView;
    var source = document.getElementById(root.id + "-data");
    if (!source) return null;
    root.aeView = new View(root, JSON.parse(source.textContent));
    return root.aeView;
  }

  window.AttentionExplorerView = { mount: mount, View: View };
  var roots = document.querySelectorAll(".ae-view");
  for (var i = 0; i < roots.length; i++) mount(roots[i]);
})();
