// Warroom: the little JavaScript htmx does not cover: copy the invite link, empty the chat box,
// show a lost socket, keep the "(N)" in the title in step with the pushed badge, pan/zoom the
// board, mark what the last push changed on it, follow picks made on the cards, show a card large.
// All of it lives here: the Content-Security-Policy allows no inline script.
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
  // A post's reply and the socket's frame of the same move may both bring an element: the second
  // copy, the same HTML the element in the page was swapped in from, is not swapped in again.
  // Swapping it would replace what the player is clicking on (a card, a target on the map) and
  // lose the click. An element forgets its HTML when anything inside it is swapped (a part of it
  // sent alone, new lines), and when it is swapped into in another way than those two.
  function withoutOob(html) { return html.split(' hx-swap-oob="true"').join(""); }
  function forgetSwaps(el) {
    for (; el; el = el.parentElement) el.warroomSwappedFrom = null;
  }
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var d = event.detail, target = d.target, copy = d.fragment;
    if (!target) return;
    // a board layer's new content (an element inside an SVG is never sent alone): an <svg> with no
    // id of its own, swapped into the layer; the arrows a script drew on the layer stay when the
    // same content comes again
    if (copy && copy.nodeType === 1 && copy.localName === "svg" && !copy.id && !copy.hasAttribute("data-live-lines-of")) {
      var inner = "inner:" + withoutOob(copy.innerHTML);
      if (target.id && target.warroomSwappedFrom === inner) { d.shouldSwap = false; return; }
      forgetSwaps(target.parentElement);
      target.warroomSwappedFrom = inner;  // swapped into, not replaced: the layer stays
      return;
    }
    // a whole replacement (outerHTML) comes as a document fragment holding the one new element
    var whole = copy && copy.nodeType === 11 && copy.childElementCount === 1 ? copy.firstElementChild : null;
    if (!whole) { forgetSwaps(target); return; }
    // as the socket's frame writes it: a frame has no hx-swap-oob="true" (a reply's nested parts do)
    var html = withoutOob(whole.outerHTML);
    // the same as the page's element was swapped in from, or as it is (a reply's nested part, just
    // put in by its parent): nothing to do
    if (target.id && target.id !== "flash" && (target.warroomSwappedFrom === html || withoutOob(target.outerHTML) === html)) {
      d.shouldSwap = false;
      return;
    }
    forgetSwaps(target.parentElement);
    d.warroomHtml = html;
    d.warroomId = whole.id;
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    // fired on every element of the frame swapped so far: the one this swap brought has its id
    var el = event.target, d = event.detail;
    if (el && d && d.warroomHtml && el !== d.target && el.id === d.warroomId) el.warroomSwappedFrom = d.warroomHtml;
  });
  // #status[data-seq]: the seq the page shows, from the one mark every push carries (#status itself
  // is pushed only when what it says changes)
  function syncSeq() {
    var mark = document.getElementById("live-seq"), status = document.getElementById("status");
    if (mark && status && status.getAttribute("data-seq") !== mark.getAttribute("data-seq")) {
      status.setAttribute("data-seq", mark.getAttribute("data-seq"));
    }
  }
  ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage"].forEach(function (name) {
    document.addEventListener(name, syncSeq);
  });
  // how many socket frames the page has taken in (outside the table): a script or a test can tell
  // the socket's first frame, which brings everything, from the server's first render
  document.addEventListener("htmx:wsAfterMessage", function () {
    document.body.setAttribute("data-live-frames", String(Number(document.body.getAttribute("data-live-frames") || 0) + 1));
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

  // --- pan and zoom: drag to pan, wheel or two-finger pinch to zoom, + - 0 and the arrows from the
  // keyboard, double-click to reset. A board re-rendered by a push gets its view back (per panel).
  // The frame's inner box is laid out by CSS (the whole map on a wide screen; on a phone the map's
  // height, wider than the screen); scale 1 is that layout, and the view never loses the board.
  var views = {};      // panel id -> {x, y, s}
  var pointers = {};   // pointerId -> {x, y}
  var gesture = null;  // {box, start: {x, y, s}, from: {x, y}, dist, moved}
  var MAX = 5;

  function keyOf(box) { var panel = box.closest("section[id]"); return panel ? panel.id : "board"; }
  function innerOf(box) { return box.querySelector(".zoom-inner"); }
  function minScale(box) {
    var inner = innerOf(box);
    if (!inner || !inner.offsetWidth) return 1;
    return Math.min(1, box.clientWidth / inner.offsetWidth, box.clientHeight / inner.offsetHeight || 1);
  }
  function centred(box) {
    var inner = innerOf(box), v = { x: 0, y: 0, s: 1 };
    if (inner) { v.x = (box.clientWidth - inner.offsetWidth) / 2; v.y = Math.min(0, (box.clientHeight - inner.offsetHeight) / 2); }
    return clamp(box, v);
  }
  function viewOf(box) { return views[keyOf(box)] || (views[keyOf(box)] = centred(box)); }
  function clamp(box, v) {
    v.s = Math.min(MAX, Math.max(minScale(box), v.s));
    var inner = innerOf(box);
    var w = box.clientWidth, h = box.clientHeight;
    var iw = (inner ? inner.offsetWidth : w) * v.s, ih = (inner ? inner.offsetHeight : h) * v.s;
    // never lose the board off the frame: a board smaller than the frame stays centred in it
    v.x = iw <= w ? (w - iw) / 2 : Math.min(0, Math.max(w - iw, v.x));
    v.y = ih <= h ? (ih < h && inner && inner.offsetHeight >= h ? (h - ih) / 2 : 0) : Math.min(0, Math.max(h - ih, v.y));
    return v;
  }
  function apply(box) {
    var inner = innerOf(box);
    var v = viewOf(box);
    if (inner) inner.style.transform = "translate(" + v.x + "px," + v.y + "px) scale(" + v.s + ")";
    box.classList.toggle("zoomed", v.s > 1.001);
  }
  function applyAll() { document.querySelectorAll("[data-zoomable]").forEach(apply); }
  function zoomAt(box, factor, clientX, clientY) {
    var v = viewOf(box), r = box.getBoundingClientRect();
    var px = clientX - r.left, py = clientY - r.top;
    var s = Math.min(MAX, Math.max(minScale(box), v.s * factor));
    v.x = px - (px - v.x) * (s / v.s);
    v.y = py - (py - v.y) * (s / v.s);
    v.s = s;
    clamp(box, v);
    apply(box);
  }
  function reset(box) { views[keyOf(box)] = centred(box); apply(box); }
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
    if (!gesture.moved && Math.hypot(dx, dy) < 8) return;  // a click (or a tap) on an area stays a click
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
    if (box) reset(box);
  });
  // the keyboard: + and - zoom about the middle, the arrows pan, 0 resets; not while typing
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var box = (t && t.closest && t.closest("[data-zoomable]")) || document.querySelector("#board [data-zoomable]");
    if (!box || !box.offsetParent) return;
    var r = box.getBoundingClientRect(), v = viewOf(box), step = 80;
    var pan = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[e.key];
    if (e.key === "+" || e.key === "=") zoomAt(box, 1.25, r.left + r.width / 2, r.top + r.height / 2);
    else if (e.key === "-" || e.key === "_") zoomAt(box, 1 / 1.25, r.left + r.width / 2, r.top + r.height / 2);
    else if (e.key === "0") reset(box);
    else if (pan) { v.x += pan[0]; v.y += pan[1]; clamp(box, v); apply(box); }
    else return;
    e.preventDefault();
  });
  window.addEventListener("resize", function () {
    document.querySelectorAll("[data-zoomable]").forEach(function (box) { clamp(box, viewOf(box)); apply(box); });
  });
  ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage"].forEach(function (name) {
    document.addEventListener(name, applyAll);
  });
  document.addEventListener("DOMContentLoaded", applyAll);

  // --- after every push: what changed on the board is marked, picks follow the boxes, and a
  // table that has just started loads its board
  var sigs = null;  // space -> what stood there after the previous push
  function markChanges() {
    var layers = document.querySelectorAll("[data-space][data-sig]");
    if (!layers.length) return;
    var now = {}, changed = [];
    layers.forEach(function (layer) {
      var space = layer.getAttribute("data-space");
      now[space] = layer.getAttribute("data-sig");
      if (sigs && sigs[space] !== now[space]) changed.push(space);
      // a layer re-sent by a push lost its mark: it keeps it while it is still the last change
      if (layer.id && document.querySelector(".space.changed[data-space='" + space + "']")) layer.classList.add("changed");
    });
    if (sigs && changed.length) {
      document.querySelectorAll(".changed[data-space]").forEach(function (el) { el.classList.remove("changed"); });
      changed.forEach(function (space) {
        document.querySelectorAll("[data-space='" + space + "']").forEach(function (el) {
          if (!el.closest(".qmg-targets")) el.classList.add("changed");
        });
      });
    }
    sigs = now;
  }
  // the VP bar stays in the page (a score sends its numbers and marker alone): its flash starts
  // again on each new score
  var lastVp = null;
  function markVp() {
    var strip = document.querySelector(".qmg-vp");
    var axis = strip && strip.querySelector(".qmg-vp-axis"), allies = strip && strip.querySelector(".qmg-vp-allies");
    if (!axis || !allies) return;
    var vp = axis.textContent + "-" + allies.textContent;
    if (lastVp !== null && vp !== lastVp) {
      strip.classList.remove("vp-changed");
      void strip.offsetWidth;  // a reflow between: the animation runs again
      strip.classList.add("vp-changed");
    }
    lastVp = vp;
  }
  // a multi-pick made on the cards: each card shows whether its box (in the prompt bar) is ticked
  function syncPicks() {
    document.querySelectorAll("label[for^='pick-']").forEach(function (label) {
      var box = document.getElementById(label.getAttribute("for"));
      var card = label.closest("[data-card]") || label;
      card.classList.toggle("picked", !!(box && box.checked));
    });
    document.querySelectorAll(".prompt-bar form.decision").forEach(function (form) {
      var count = form.querySelector(".pick-count"), set = form.querySelector("fieldset.multi");
      if (!count || !set) return;
      var n = form.querySelectorAll("input[name=choices]:checked").length;
      var min = parseInt(set.getAttribute("data-min"), 10), max = parseInt(set.getAttribute("data-max"), 10);
      var shown = count.querySelector(".pick-n");
      if (shown) shown.textContent = String(n);
      form.classList.toggle("picks-ready", n >= min && n <= max);
    });
  }
  document.addEventListener("change", function (e) {
    if (e.target.matches && e.target.matches("input[name=choices]")) syncPicks();
  });
  // a table that has just started: the page turns into the game without a reload. A board drawn
  // in parts never travels in a push (its map is drawn in the page), so the page fetches it once.
  function loadBoardWhenStarted() {
    var table = document.getElementById("table"), status = document.getElementById("status");
    if (!table || !status || status.classList.contains("status-open")) return;
    // as a fresh load draws it: the status the status line now shows (status-<status>), kept in
    // step on every push (a game that ends, a table abandoned)
    var now = /(?:^|\s)status-(\w+)/.exec(status.className);
    if (now && table.getAttribute("data-status") !== now[1]) table.setAttribute("data-status", now[1]);
    table.classList.add("playing");
    var board = document.getElementById("board");
    if (!board || !board.classList.contains("hidden") || board.hasAttribute("data-fetching")) return;
    board.setAttribute("data-fetching", "1");
    // the map, the hand strip and the counts as the page draws them; their later changes are pushed
    fetch(window.location.pathname, { credentials: "same-origin" }).then(function (r) { return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        ["board", "hand", "board-side"].forEach(function (id) {
          var now = document.getElementById(id), next = fresh.getElementById(id);
          if (!now || !next) return;
          forgetSwaps(now.parentElement);
          now.replaceWith(next);
          if (window.htmx) window.htmx.process(next);
        });
        applyAll();
        afterPush();
      }).catch(function () { board.removeAttribute("data-fetching"); });
  }
  // a new question on the map: its first target is brought into the frame if it lies outside
  var shownTargets = null;
  function showTargets() {
    var layer = document.querySelector(".qmg-targets.picking, [data-targets-for]");
    var form = layer && layer.querySelector("form[data-decision]");
    var id = form ? form.getAttribute("data-decision") : null;
    if (!id || id === shownTargets) { shownTargets = id; return; }
    shownTargets = id;
    var box = layer.closest("[data-zoomable]"), first = layer.querySelector(".target");
    if (!box || !first) return;
    var f = box.getBoundingClientRect(), t = first.getBoundingClientRect();
    if (t.left >= f.left && t.right <= f.right && t.top >= f.top && t.bottom <= f.bottom) return;
    var v = viewOf(box);
    v.x += (f.left + f.width / 2) - (t.left + t.width / 2);
    v.y += (f.top + f.height / 2) - (t.top + t.height / 2);
    clamp(box, v);
    apply(box);
  }
  // a new turn: the hand strip shows the cards of the country whose turn it is (first) from the start
  var activeHand = null;
  function showActiveHand() {
    var mark = document.querySelector(".qmg-hand > .qmg-ring.on"), hand = mark && mark.parentElement;
    var now = hand ? hand.getAttribute("data-country") : null;
    if (hand && now !== activeHand && hand.parentElement) hand.parentElement.scrollLeft = 0;
    activeHand = now;
  }
  function afterPush() { loadBoardWhenStarted(); markChanges(); markVp(); syncPicks(); showTargets(); showActiveHand(); }
  ["htmx:afterSettle", "htmx:wsAfterMessage"].forEach(function (name) { document.addEventListener(name, afterPush); });
  document.addEventListener("DOMContentLoaded", afterPush);

  // --- a card's full text, large: while hovered or focused, and on a long press (a phone)
  function preview(face) {
    var box = document.getElementById("card-preview");
    if (!box) return;
    if (!face) { box.hidden = true; box.textContent = ""; return; }
    var copy = face.cloneNode(true);
    copy.removeAttribute("id");
    copy.removeAttribute("for");
    copy.removeAttribute("name");
    var holder = document.createElement("div");
    holder.className = face.closest("[data-card]") ? face.closest("[data-card]").className : "";
    holder.classList.remove("playable", "picked");
    holder.appendChild(copy);
    box.textContent = "";
    box.appendChild(holder);
    box.hidden = false;
  }
  document.addEventListener("pointerover", function (e) {
    if (e.pointerType === "touch") return;
    var face = e.target.closest && e.target.closest("[data-card-face]");
    if (face) preview(face);
  });
  document.addEventListener("pointerout", function (e) {
    var face = e.target.closest && e.target.closest("[data-card-face]");
    if (face && !(e.relatedTarget && face.contains(e.relatedTarget))) preview(null);
  });
  document.addEventListener("focusin", function (e) {
    var face = e.target.closest && e.target.closest("[data-card-face]");
    preview(face || null);
  });
  document.addEventListener("contextmenu", function (e) {  // a long press on a phone
    var face = e.target.closest && e.target.closest("[data-card-face]");
    if (!face) return;
    e.preventDefault();
    preview(face);
  });
  document.addEventListener("pointerdown", function (e) {
    if (e.pointerType === "touch" && !(e.target.closest && e.target.closest("[data-card-face]"))) preview(null);
  });

  // --- the side panels fold away on a wide screen (remembered on this device)
  function sideClosed(closed) {
    var table = document.getElementById("table");
    if (!table) return;
    table.classList.toggle("side-closed", closed);
    var toggle = document.querySelector("[data-side-toggle]");
    if (toggle) toggle.setAttribute("aria-expanded", closed ? "false" : "true");
  }
  document.addEventListener("click", function (e) {
    if (!(e.target.closest && e.target.closest("[data-side-toggle]"))) return;
    var closed = !document.getElementById("table").classList.contains("side-closed");
    try { localStorage.setItem("warroom.side", closed ? "closed" : "open"); } catch (err) { /* private mode */ }
    sideClosed(closed);
    setTimeout(function () { window.dispatchEvent(new Event("resize")); }, 0);
  });
  document.addEventListener("DOMContentLoaded", function () {
    var stored = null;
    try { stored = localStorage.getItem("warroom.side"); } catch (err) { /* private mode */ }
    if (stored === "closed") sideClosed(true);
  });
})();
