// The draft's pick clock (templates/season/player/_draft.html): counts down from the seconds the
// server gave when it drew the page, so a wrong clock on this computer changes nothing. The
// server makes the automatic pick (season/services/draft_clock.py); at zero this page says so and,
// on the player's own turn (no polling then), reloads until the pick shows.
(function () {
  "use strict";
  function text(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = (h ? String(m).padStart(2, "0") : String(m)), ss = String(s).padStart(2, "0");
    return (h ? h + ":" : "") + mm + ":" + ss;
  }
  function start(clock) {
    if (clock.dataset.started) { return; }
    clock.dataset.started = "1";
    var left = parseInt(clock.getAttribute("data-seconds-left"), 10);
    var shown = clock.querySelector(".clock-left");
    if (!shown || isNaN(left)) { return; }
    var began = Date.now();
    var timer = window.setInterval(function () {
      if (!document.body.contains(clock)) { window.clearInterval(timer); return; }
      var now = Math.max(0, left - Math.floor((Date.now() - began) / 1000));
      if (now > 0) { shown.textContent = text(now); return; }
      window.clearInterval(timer);
      shown.textContent = clock.getAttribute("data-expired");
      if (clock.hasAttribute("data-reload")) {
        window.setTimeout(function () { window.location.reload(); }, 10000);
      }
    }, 1000);
  }
  function startAll(root) {
    (root || document).querySelectorAll("[data-pick-clock]").forEach(start);
  }
  startAll(document);
  // The draft section is polled and swapped by htmx while another team is on turn.
  document.addEventListener("htmx:load", function (event) { startAll(event.detail.elt); });
})();
