// The race replayed on the track map (templates/motor/round.html): the cars of one trace
// round at a time, a slider and step buttons, the incidents of the round marked and listed.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var map = document.querySelector("#track-map svg");
  if (!root || !map) { return; }
  var frames = JSON.parse(document.getElementById("replay-frames").textContent);
  var incidents = JSON.parse(document.getElementById("replay-incidents").textContent);
  var slider = root.querySelector("input[type=range]");
  var status = root.querySelector(".replay-status");
  var list = root.querySelector(".replay-incidents");
  var play = root.querySelector("[data-step=play]");
  var cars = {};
  map.querySelectorAll(".car").forEach(function (car) { cars[car.getAttribute("data-car")] = car; });
  var markers = map.querySelectorAll(".incident");
  var timer = null;
  var index = 0;

  function show(i) {
    index = Math.max(0, Math.min(frames.length - 1, i));
    var frame = frames[index];
    slider.value = String(index);
    Object.keys(cars).forEach(function (id) {
      var spot = frame.cars[id];
      if (spot) {
        cars[id].setAttribute("transform", "translate(" + spot[0] + " " + spot[1] + ")");
        cars[id].setAttribute("visibility", "visible");
        cars[id].setAttribute("opacity", spot[2] === "finished" ? "0.55" : "1");
      } else {
        cars[id].setAttribute("visibility", "hidden");
      }
    });
    var laps = Object.keys(frame.cars).map(function (id) { return frame.cars[id][3] || 0; });
    var lap = laps.length ? Math.max.apply(null, laps) : 0;
    status.textContent = frame.round === 0 ? root.getAttribute("data-start-label")
      : root.getAttribute("data-round-label") + " " + frame.round + " · " + root.getAttribute("data-lap-label") + " " + lap;
    markers.forEach(function (m) {
      m.classList.toggle("current", Number(m.getAttribute("data-round")) === frame.round);
    });
    list.textContent = "";
    incidents.forEach(function (incident) {
      if (incident.round === frame.round) {
        var item = document.createElement("li");
        item.className = "event";
        item.textContent = "⚠ " + incident.text;
        list.appendChild(item);
      }
    });
  }

  function stop() {
    if (timer) { clearInterval(timer); timer = null; }
    play.textContent = "▶";
  }

  root.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button) { return; }
    var step = button.getAttribute("data-step");
    if (step === "play") {
      if (timer) { stop(); return; }
      if (index >= frames.length - 1) { show(0); }
      play.textContent = "❚❚";
      timer = setInterval(function () {
        if (index >= frames.length - 1) { stop(); return; }
        show(index + 1);
      }, 700);
      return;
    }
    stop();
    if (step === "first") { show(0); }
    else if (step === "last") { show(frames.length - 1); }
    else { show(index + Number(step)); }
  });
  slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });
  show(0);
})();
