// "Not saved yet" on the orders form (templates/season/player/orders.html): shown from the
// first change; saving reloads the page without it.
(function () {
  "use strict";
  document.querySelectorAll("form[data-unsaved-hint]").forEach(function (form) {
    var hint = document.getElementById(form.getAttribute("data-unsaved-hint"));
    if (!hint) { return; }
    function changed() { hint.hidden = false; }
    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
  });
})();
