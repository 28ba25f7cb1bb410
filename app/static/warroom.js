// Warroom: the little JavaScript htmx does not cover (copy the invite link, show a lost socket).
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
  document.addEventListener("htmx:wsOpen", function () { document.body.classList.remove("offline"); });
  document.addEventListener("htmx:wsClose", function () { document.body.classList.add("offline"); });
})();
