// Attack! board: linked once from the table page's head (GET /games/attack/board.js), never inline
// (the page's Content-Security-Policy allows no inline script).
//
// A highlighted region answers the seat's own decision: its one choice is sent at once (a claim,
// a capital, a move's destination); several choices that start with the region ("ukraine:INF",
// "ukraine:TNK") point at the prompt bar's buttons instead. A move ("poland>ukraine" by land,
// "spain~morocco" by sea) is its origin, then one of the destinations that light up.
//
// The naval line-up: the seat clicks its ships in order, head of the line first; each click fills
// the next slot and adds a hidden "choices" input, so the answer lists the ships in line order
// (the prompt bar's boxes would send them in the order they are listed, not the order chosen).
(function () {
  "use strict";

  function mapOf(el) { return el && el.closest ? el.closest("svg.at-map.acting") : null; }

  function send(map, choice) {
    var form = document.getElementById(map.getAttribute("data-form"));
    if (!form) return;
    form.querySelector("input.at-choice").value = choice;
    if (form.requestSubmit) form.requestSubmit(); else form.dispatchEvent(new Event("submit", {bubbles: true, cancelable: true}));
  }

  function pointAt(ids) {
    var first = null;
    document.querySelectorAll("#prompt button[name=choice], #decisions button[name=choice]").forEach(function (button) {
      var hit = ids.indexOf(button.value) >= 0;
      button.classList.toggle("at-pointed", hit);
      if (hit && !first) first = button;
    });
    if (first) { first.scrollIntoView({block: "center", behavior: "smooth"}); first.focus({preventScroll: true}); }
  }

  function lineup(form) {
    var n = form.querySelectorAll(".at-slot").length;
    var picked = form.querySelectorAll("input[name=choices]");
    form.querySelectorAll(".at-slot").forEach(function (slot, i) {
      slot.textContent = "";
      if (i < picked.length) {
        var button = form.querySelector(".at-lineup-ship[data-choice='" + picked[i].value + "']");
        if (button) slot.appendChild(button.querySelector(".at-ship").cloneNode(true));
      }
    });
    form.querySelectorAll(".at-lineup-ship").forEach(function (button) {
      var used = Array.prototype.some.call(picked, function (input) { return input.value === button.getAttribute("data-choice"); });
      button.disabled = used || picked.length >= n;
      button.classList.toggle("used", used);
    });
    form.querySelector(".at-lineup-lay").disabled = picked.length !== n;
  }

  function onLineup(event) {
    var form = event.target.closest && event.target.closest("form.at-lineup-form");
    if (!form) return false;
    var ship = event.target.closest(".at-lineup-ship");
    if (ship && !ship.disabled) {
      var input = document.createElement("input");
      input.type = "hidden"; input.name = "choices"; input.value = ship.getAttribute("data-choice");
      form.querySelector(".at-lineup-picked").appendChild(input);
      lineup(form);
      return true;
    }
    if (event.target.closest(".at-lineup-clear")) {
      form.querySelectorAll("input[name=choices]").forEach(function (input) { input.remove(); });
      lineup(form);
      return true;
    }
    return false;
  }

  // a move: its origin first (its destinations light up), then one of them
  var origin = null;

  function clear(map) {
    origin = null;
    map.querySelectorAll(".at-region.selected, .at-region.dest").forEach(function (el) {
      el.classList.remove("selected", "dest");
      el.removeAttribute("data-move");
    });
  }

  function select(map, region) {
    clear(map);
    origin = region.getAttribute("data-region");
    region.classList.add("selected");
    (region.getAttribute("data-moves") || "").split(" ").filter(Boolean).forEach(function (move) {
      var to = move.split(/[>~]/)[1];
      map.querySelectorAll(".at-region[data-region='" + to + "']").forEach(function (el) {
        el.classList.add("dest");
        el.setAttribute("data-move", move);
      });
    });
  }

  function onClick(event) {
    if (onLineup(event)) return;
    var map = mapOf(event.target);
    if (!map) return;
    var region = event.target.closest(".at-region");
    if (!region) { clear(map); return; }
    if (origin && region.classList.contains("dest")) {
      var move = region.getAttribute("data-move");
      clear(map);
      send(map, move);
      return;
    }
    if (region.classList.contains("origin") && region.getAttribute("data-region") !== origin) {
      select(map, region);
      return;
    }
    clear(map);
    if (!region.classList.contains("target")) return;
    var here = (region.getAttribute("data-choices") || "").split(" ").filter(Boolean);
    if (here.length === 1) send(map, here[0]);
    else if (here.length > 1) pointAt(here);
  }

  document.addEventListener("click", onClick);
  // Enter on a focused region is a click
  document.addEventListener("keyup", function (event) {
    if (event.key !== "Enter") return;
    var el = event.target.closest && event.target.closest(".at-map .at-region.target, .at-map .at-region.origin, .at-map .at-region.dest");
    if (el) el.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}));
  });
})();
