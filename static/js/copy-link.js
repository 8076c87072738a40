// The "Copy the link" button of the organiser's page (templates/season/organiser/dashboard.html):
// copies the invitation link; without the clipboard API the link is selected for Ctrl+C.
(function () {
  "use strict";
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var input = document.getElementById(button.getAttribute("data-copy"));
    if (!input) { return; }
    var label = button.textContent;
    function done() {
      button.textContent = button.getAttribute("data-copied") || label;
      setTimeout(function () { button.textContent = label; }, 2000);
    }
    button.addEventListener("click", function () {
      input.select();
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
      } else {
        document.execCommand("copy");
        done();
      }
    });
  });
})();
