// Autarcha board: linked once from the table page's head (GET /games/autarcha/board.js), never
// inline (the page's Content-Security-Policy allows no inline script).
//
// Zoom and pan by the SVG view box (the printed board and the live layers over it share one view
// box, so they line up at any zoom): drag to pan, pinch or the wheel to zoom, the + − ⤢ buttons.
// The view survives a push (a live layer that comes anew gets the current view box).
//
// A highlighted square or unit answers the seat's own decision through the board's one small form:
// a square with one choice answers at once; a square reached with several facings ("<sq>@<facing>")
// shows an arrow per facing around it, and the arrow clicked is the answer.
(function () {
  "use strict";

  var vb = null;        // the current view box {x, y, w, h}; null: the whole board
  var full = null;      // the board's own size
  var pointers = {};    // pointerId -> {x, y}
  var gesture = null;   // {from: {x, y}, start: vb, dist, mid, moved}
  var dragged = false;  // the last pointer gesture moved: the click that ends it is not an answer

  function frame() { return document.querySelector(".au-frame"); }
  function layers(f) { return f.querySelectorAll("svg[data-au-layer]"); }

  function fullOf(f) {
    var map = f.querySelector("svg.au-map");
    if (!map) return null;
    // the board's own box (data-full): the view box itself is what the zoom changes
    var p = (map.getAttribute("data-full") || map.getAttribute("viewBox")).split(/\s+/).map(Number);
    return {x: p[0], y: p[1], w: p[2], h: p[3]};
  }

  function clamp(v) {
    var minW = full.w / 10;
    var s = Math.min(1, Math.max(minW / full.w, v.w / full.w));
    var w = full.w * s, h = full.h * s;
    var x = Math.min(full.w - w, Math.max(0, v.x + (v.w - w) / 2));
    var y = Math.min(full.h - h, Math.max(0, v.y + (v.h - h) / 2));
    return {x: x, y: y, w: w, h: h};
  }

  function apply() {
    var f = frame();
    if (!f) return;
    full = fullOf(f) || full;
    if (!full) return;
    var v = vb || full;
    var text = v.x + " " + v.y + " " + v.w + " " + v.h;
    layers(f).forEach(function (svg) {
      if (svg.getAttribute("viewBox") !== text) svg.setAttribute("viewBox", text);
    });
    f.classList.toggle("zoomed", !!vb && vb.w < full.w - 0.5);
  }

  // how many view-box units one screen pixel is, and where the view box starts on the screen
  // (the layers keep the board's shape: "meet" leaves bands at two sides)
  function metric(f) {
    var r = f.getBoundingClientRect(), v = vb || full;
    var s = Math.max(v.w / r.width, v.h / r.height);
    return {s: s, left: r.left + (r.width - v.w / s) / 2, top: r.top + (r.height - v.h / s) / 2};
  }

  function zoomAt(f, factor, clientX, clientY) {
    full = fullOf(f) || full;  // the board may have come after the page loaded (a table that just started)
    if (!full) return;
    var v = vb || full, m = metric(f);
    var px = v.x + (clientX - m.left) * m.s, py = v.y + (clientY - m.top) * m.s;
    var w = v.w / factor, h = v.h / factor;
    var next = {x: px - (px - v.x) / factor, y: py - (py - v.y) / factor, w: w, h: h};
    vb = clamp(next);
    if (vb.w >= full.w - 0.5) vb = null;
    apply();
  }

  function zoomMiddle(f, factor) {
    var r = f.getBoundingClientRect();
    zoomAt(f, factor, r.left + r.width / 2, r.top + r.height / 2);
  }

  function spread() {
    var p = Object.keys(pointers).map(function (k) { return pointers[k]; });
    if (p.length < 2) return null;
    return {d: Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y), x: (p[0].x + p[1].x) / 2, y: (p[0].y + p[1].y) / 2};
  }

  document.addEventListener("pointerdown", function (e) {
    var f = e.target.closest && e.target.closest(".au-frame");
    if (!f || e.target.closest(".au-zoom-buttons")) return;
    pointers[e.pointerId] = {x: e.clientX, y: e.clientY};
    var two = spread();
    gesture = {from: {x: e.clientX, y: e.clientY}, start: vb || full, dist: two ? two.d : 0, moved: false};
    dragged = false;
  });
  document.addEventListener("pointermove", function (e) {
    if (!gesture || !(e.pointerId in pointers)) return;
    var f = frame();
    if (f) full = fullOf(f) || full;
    if (!f || !full) return;
    pointers[e.pointerId] = {x: e.clientX, y: e.clientY};
    var two = spread();
    if (two && gesture.dist) {
      zoomAt(f, two.d / gesture.dist, two.x, two.y);
      gesture.dist = two.d;
      gesture.moved = dragged = true;
      return;
    }
    var dx = e.clientX - gesture.from.x, dy = e.clientY - gesture.from.y;
    if (!gesture.moved && Math.hypot(dx, dy) < 6) return;
    gesture.moved = dragged = true;
    if (!vb) return;  // the whole board is shown: nothing to pan
    var m = metric(f);
    vb = clamp({x: gesture.start.x - dx * m.s, y: gesture.start.y - dy * m.s, w: gesture.start.w, h: gesture.start.h});
    apply();
  });
  function lift(e) {
    delete pointers[e.pointerId];
    if (!Object.keys(pointers).length) gesture = null;
    else if (gesture) { gesture.start = vb || full; var p = pointers[Object.keys(pointers)[0]]; gesture.from = {x: p.x, y: p.y}; gesture.dist = 0; }
  }
  document.addEventListener("pointerup", lift);
  document.addEventListener("pointercancel", lift);
  document.addEventListener("wheel", function (e) {
    var f = e.target.closest && e.target.closest(".au-frame");
    if (!f) return;
    e.preventDefault();
    zoomAt(f, e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX, e.clientY);
  }, {passive: false});

  // --- answering on the board
  var SVG = "http://www.w3.org/2000/svg";

  function send(choice) {
    var form = document.getElementById("au-map-form");
    if (!form || !choice) return;
    form.querySelector("input.au-choice").value = choice;
    if (form.requestSubmit) form.requestSubmit(); else form.dispatchEvent(new Event("submit", {bubbles: true, cancelable: true}));
  }

  function clearFacings() {
    document.querySelectorAll(".au-facing-pick").forEach(function (g) { g.textContent = ""; });
    document.querySelectorAll(".au-square.selected").forEach(function (el) { el.classList.remove("selected"); });
  }

  // an arrow per facing the square may be reached with, around it, pointing that way
  function showFacings(square) {
    clearFacings();
    var svg = square.closest("svg"), pick = svg.querySelector(".au-facing-pick");
    var cell = parseFloat(svg.getAttribute("data-cell")) || 24;
    var cx = parseFloat(square.getAttribute("data-cx")), cy = parseFloat(square.getAttribute("data-cy"));
    square.classList.add("selected");
    (square.getAttribute("data-facings") || "").split(" ").filter(Boolean).forEach(function (item) {
      var cut = item.lastIndexOf(":"), id = item.slice(0, cut), angle = parseFloat(item.slice(cut + 1));
      var g = document.createElementNS(SVG, "g");
      g.setAttribute("class", "au-facing target");
      g.setAttribute("data-choice", id);
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", id);
      g.setAttribute("transform", "translate(" + cx + "," + cy + ") rotate(" + angle + ")");
      var r = cell * 0.95;
      var path = document.createElementNS(SVG, "path");
      path.setAttribute("d", "M0," + (-r - 9) + " L8," + (-r + 2) + " L-8," + (-r + 2) + " Z");
      g.appendChild(path);
      var title = document.createElementNS(SVG, "title");
      title.textContent = id;
      g.appendChild(title);
      pick.appendChild(g);
    });
  }

  document.addEventListener("click", function (e) {
    var zoom = e.target.closest && e.target.closest(".au-zoom");
    if (zoom) {
      var f = frame();
      if (!f) return;
      var how = zoom.getAttribute("data-zoom");
      if (how === "in") zoomMiddle(f, 1.5);
      else if (how === "out") zoomMiddle(f, 1 / 1.5);
      else { vb = null; apply(); }
      return;
    }
    if (!e.target.closest || !e.target.closest(".au-target-svg")) return;
    if (dragged) { dragged = false; return; }  // the end of a drag, not a pick
    var pick = e.target.closest("[data-choice]");
    if (pick) { clearFacings(); send(pick.getAttribute("data-choice")); return; }
    var square = e.target.closest(".au-square.target");
    if (!square) { clearFacings(); return; }
    var choices = (square.getAttribute("data-choices") || "").split(" ").filter(Boolean);
    if (choices.length === 1) { clearFacings(); send(choices[0]); return; }
    if (square.getAttribute("data-facings")) showFacings(square);
  });
  // Enter or Space on a focused square, unit or facing arrow is a click
  document.addEventListener("keyup", function (e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    var el = e.target.closest && e.target.closest(".au-target-svg .target");
    if (el) { dragged = false; el.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true})); }
  });

  ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage", "htmx:afterSwap"].forEach(function (name) {
    document.addEventListener(name, apply);
  });
  document.addEventListener("DOMContentLoaded", apply);
  if (document.readyState !== "loading") apply();
})();
