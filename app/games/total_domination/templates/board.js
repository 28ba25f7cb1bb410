// Total Domination board: linked once from the table page's head (GET /games/total_domination/board.js),
// never inline (the page's Content-Security-Policy allows no inline script).
//
// The map answers the seat's own decision. Its choice ids are parsed here:
//   move:<unit>:<space>   a unit, then a space
//   attack:<origin>:<unit>  an enemy unit (or one's own unit, then the enemy unit)
//   build:<nation>:<kind>:<space>   a space (several builds there: the prompt bar's buttons are pointed at)
(function () {
  "use strict";
  var selected = null;  // the unit id picked first

  function mapOf(el) { return el && el.closest ? el.closest("svg.td-map.acting") : null; }
  function choicesOf(map) { return (map.getAttribute("data-choices") || "").split(" ").filter(Boolean); }

  function send(map, choice) {
    var form = document.getElementById(map.getAttribute("data-form"));
    if (!form) return;
    form.querySelector("input.td-choice").value = choice;
    if (form.requestSubmit) form.requestSubmit(); else form.dispatchEvent(new Event("submit", {bubbles: true, cancelable: true}));
    clear(map);
  }

  function clear(map) {
    selected = null;
    map.querySelectorAll(".selected, .dest, .prey").forEach(function (el) {
      el.classList.remove("selected", "dest", "prey");
    });
  }

  // the choices a unit of this piece starts: the first unit of the stack that has any
  function actorOf(map, piece) {
    var ids = (piece.getAttribute("data-units") || "").split(" ");
    var all = choicesOf(map);
    for (var i = 0; i < ids.length; i++) {
      var pre1 = "move:" + ids[i] + ":", pre2 = "attack:" + ids[i] + ":";
      if (all.some(function (c) { return c.indexOf(pre1) === 0 || c.indexOf(pre2) === 0; })) return ids[i];
    }
    return null;
  }

  function attackOn(all, piece) {
    var ids = (piece.getAttribute("data-units") || "").split(" ");
    for (var i = 0; i < all.length; i++) {
      var part = all[i].split(":");
      if (part[0] === "attack" && ids.indexOf(part[2]) >= 0) return all[i];
    }
    return null;
  }

  function select(map, piece, unit) {
    clear(map);
    selected = unit;
    piece.classList.add("selected");
    choicesOf(map).forEach(function (c) {
      var part = c.split(":");
      if (part[1] !== unit) return;
      if (part[0] === "move") {
        map.querySelectorAll(".td-space[data-space='" + part[2] + "']").forEach(function (s) { s.classList.add("dest"); });
      } else if (part[0] === "attack") {
        map.querySelectorAll(".td-piece").forEach(function (p) {
          if ((p.getAttribute("data-units") || "").split(" ").indexOf(part[2]) >= 0) p.classList.add("prey");
        });
      }
    });
  }

  function pointAt(ids) {
    var first = null;
    document.querySelectorAll("#decisions button[name=choice]").forEach(function (button) {
      var hit = ids.indexOf(button.value) >= 0;
      button.classList.toggle("td-pointed", hit);
      if (hit && !first) first = button;
    });
    if (first) { first.scrollIntoView({block: "center", behavior: "smooth"}); first.focus({preventScroll: true}); }
  }

  function onClick(event) {
    var map = mapOf(event.target);
    if (!map) return;
    var all = choicesOf(map);
    var piece = event.target.closest(".td-piece");
    if (piece && selected) {  // a target of the selected unit's attack
      var ids = (piece.getAttribute("data-units") || "").split(" ");
      for (var i = 0; i < ids.length; i++) {
        var attack = "attack:" + selected + ":" + ids[i];
        if (all.indexOf(attack) >= 0) { send(map, attack); return; }
      }
    }
    if (piece) {
      var unit = actorOf(map, piece);
      if (unit) { select(map, piece, unit); return; }
      // an enemy piece first: the attack on it, from whichever unit the rules offer
      var hit = attackOn(all, piece);
      if (hit) { send(map, hit); return; }
    }
    var space = event.target.closest(".td-space") || (piece && map.querySelector(".td-space[data-space='" + piece.getAttribute("data-space") + "']"));
    if (!space) { clear(map); return; }
    var sid = space.getAttribute("data-space");
    if (selected) {
      var move = "move:" + selected + ":" + sid;
      if (all.indexOf(move) >= 0) { send(map, move); return; }
    }
    var here = (space.getAttribute("data-choices") || "").split(" ").filter(Boolean);
    here = here.filter(function (c) { return c.indexOf("move:") !== 0; });  // a move needs its unit first
    if (here.length === 1) { send(map, here[0]); return; }
    if (here.length > 1) { pointAt(here); return; }
    clear(map);
  }

  document.addEventListener("click", onClick);
  // Enter on a focused space or piece is a click
  document.addEventListener("keyup", function (event) {
    if (event.key !== "Enter") return;
    var el = event.target.closest && event.target.closest(".td-map .td-space.target, .td-map .td-piece.actor, .td-map .td-piece.target");
    if (el) el.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}));
  });
})();
