// Warroom: the little JavaScript htmx does not cover: copy the invite link, empty the chat box,
// show a lost socket, keep the "(N)" in the title in step with the pushed badge, and pan/zoom
// the board. All of it lives here: the Content-Security-Policy allows no inline script.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var input = document.querySelector(button.getAttribute("data-copy"));
    if (!input) return;
    input.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value);
    } else {
      document.execCommand("copy");
    }
  });
  // the chat box empties once its line is said (not when it was refused: the text stays to fix)
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target;
    if (form.matches && form.matches("form.chat-form") && event.detail.successful) form.reset();
  });
  // A table page's socket frame opens with "<!--seq:N-->" and carries only what changed; a post's
  // reply (X-Warroom-Seq) that comes back after a newer frame is dropped, or it would put back
  // fragments the socket has since changed and will not send again.
  var liveSeq = -1;
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var seq = /^<!--seq:(\d+)-->/.exec(event.detail.message || "");
    if (seq) liveSeq = Math.max(liveSeq, parseInt(seq[1], 10));
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr, seq = xhr && xhr.getResponseHeader("X-Warroom-Seq");
    if (seq && parseInt(seq, 10) < liveSeq) event.detail.shouldSwap = false;
  });
  // New lines (a log's) come as an insert; a post's reply may have brought the whole list first,
  // so a line the page already has is dropped rather than shown twice.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var lines = event.detail.fragment;
    if (!lines || lines.nodeType !== 1 || !lines.hasAttribute("data-live-lines-of")) return;
    Array.prototype.slice.call(lines.children).forEach(function (line) {
      if (line.id && document.getElementById(line.id)) line.remove();
    });
  });
  document.addEventListener("htmx:wsOpen", function () { document.body.classList.remove("offline"); });
  document.addEventListener("htmx:wsClose", function () { document.body.classList.add("offline"); });

  // --- "(N) " in the title: the header badge (#moves-waiting) is pushed out of band; the title follows it
  function syncTitle() {
    var badge = document.getElementById("moves-waiting");
    if (!badge) return;
    var n = parseInt(badge.getAttribute("data-count") || "0", 10) || 0;
    var bare = document.title.replace(/^\(\d+\) /, "");
    document.title = n > 0 ? "(" + n + ") " + bare : bare;
  }
  ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage"].forEach(function (name) {
    document.addEventListener(name, syncTitle);
  });

  // --- pan and zoom: drag to pan, wheel or two-finger pinch to zoom, double-click to reset.
  // The board is re-rendered on every push, so the view is remembered per panel and re-applied.
  var views = {};      // panel id -> {x, y, s}
  var pointers = {};   // pointerId -> {x, y}
  var gesture = null;  // {box, start: {x, y, s}, from: {x, y}, dist, moved}
  var MIN = 1, MAX = 5;

  function keyOf(box) { var panel = box.closest("section[id]"); return panel ? panel.id : "board"; }
  function viewOf(box) { return views[keyOf(box)] || (views[keyOf(box)] = { x: 0, y: 0, s: 1 }); }
  function clamp(box, v) {
    v.s = Math.min(MAX, Math.max(MIN, v.s));
    var w = box.clientWidth, h = box.clientHeight;  // never lose the board off the frame
    v.x = Math.min(0, Math.max(w - w * v.s, v.x));
    v.y = Math.min(0, Math.max(h - h * v.s, v.y));
  }
  function apply(box) {
    var inner = box.querySelector(".zoom-inner");
    var v = viewOf(box);
    if (inner) inner.style.transform = "translate(" + v.x + "px," + v.y + "px) scale(" + v.s + ")";
    box.classList.toggle("zoomed", v.s > 1);
  }
  function applyAll() { document.querySelectorAll("[data-zoomable]").forEach(apply); }
  function zoomAt(box, factor, clientX, clientY) {
    var v = viewOf(box), r = box.getBoundingClientRect();
    var px = clientX - r.left, py = clientY - r.top, s = Math.min(MAX, Math.max(MIN, v.s * factor));
    v.x = px - (px - v.x) * (s / v.s);
    v.y = py - (py - v.y) * (s / v.s);
    v.s = s;
    clamp(box, v);
    apply(box);
  }
  function spread() {
    var p = Object.keys(pointers).map(function (k) { return pointers[k]; });
    if (p.length < 2) return null;
    return { d: Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y), x: (p[0].x + p[1].x) / 2, y: (p[0].y + p[1].y) / 2 };
  }

  document.addEventListener("pointerdown", function (e) {
    var box = e.target.closest("[data-zoomable]");
    if (!box) return;
    pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
    var v = viewOf(box), two = spread();
    gesture = { box: box, start: { x: v.x, y: v.y, s: v.s }, from: { x: e.clientX, y: e.clientY },
                dist: two ? two.d : 0, moved: gesture ? gesture.moved : false };
  });
  document.addEventListener("pointermove", function (e) {
    if (!gesture || !pointers[e.pointerId]) return;
    pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
    var box = gesture.box, v = viewOf(box), two = spread();
    if (two && gesture.dist) {
      gesture.moved = true;
      v.s = gesture.start.s;
      v.x = gesture.start.x;
      v.y = gesture.start.y;
      zoomAt(box, two.d / gesture.dist, two.x, two.y);
      return;
    }
    var dx = e.clientX - gesture.from.x, dy = e.clientY - gesture.from.y;
    if (!gesture.moved && Math.hypot(dx, dy) < 5) return;  // a click on an area stays a click
    gesture.moved = true;
    v.x = gesture.start.x + dx;
    v.y = gesture.start.y + dy;
    clamp(box, v);
    apply(box);
  });
  function release(e) {
    delete pointers[e.pointerId];
    if (gesture && !Object.keys(pointers).length) {
      var dragged = gesture.moved;
      gesture = null;
      if (dragged) {  // the click that ends a drag (same task as pointerup) must not answer a decision
        var swallow = function (c) { c.stopPropagation(); c.preventDefault(); };
        document.addEventListener("click", swallow, true);
        setTimeout(function () { document.removeEventListener("click", swallow, true); }, 0);
      }
    }
  }
  document.addEventListener("pointerup", release);
  document.addEventListener("pointercancel", release);
  document.addEventListener("wheel", function (e) {
    var box = e.target.closest("[data-zoomable]");
    if (!box) return;
    e.preventDefault();
    zoomAt(box, e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX, e.clientY);
  }, { passive: false });
  document.addEventListener("dblclick", function (e) {
    var box = e.target.closest("[data-zoomable]");
    if (!box) return;
    views[keyOf(box)] = { x: 0, y: 0, s: 1 };
    apply(box);
  });
  ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage"].forEach(function (name) {
    document.addEventListener(name, applyAll);
  });
})();
