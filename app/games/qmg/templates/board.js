// Quartermaster General board: linked once from the table page's head (GET /games/qmg/board.js),
// never inline (the page's Content-Security-Policy allows no inline script).
(function () {
  "use strict";
  // A space with several answers (e.g. whose navy to deploy there) points at its buttons in the prompt bar.
  document.addEventListener("click", function (event) {
    var space = event.target.closest && event.target.closest(".qmg-targets .space.target:not([hx-post])");
    if (!space) return;
    var ids = (space.getAttribute("data-choices") || "").split(" ");
    var first = null;
    document.querySelectorAll("#decisions button[name=choice]").forEach(function (button) {
      var hit = ids.indexOf(button.value) >= 0;
      button.classList.toggle("qmg-pointed", hit);
      if (hit && !first) first = button;
    });
    if (first) { first.scrollIntoView({block: "center", behavior: "smooth"}); first.focus({preventScroll: true}); }
  });
  // Enter on a focused target space is a click (htmx's own trigger filter would need eval)
  document.addEventListener("keyup", function (event) {
    if (event.key !== "Enter") return;
    var space = event.target.closest && event.target.closest(".qmg-targets .space.target");
    if (space) space.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}));
  });
})();
