// The Verify panel of a resolved round (templates/season/_commitment.html): recomputes in the
// browser (SubtleCrypto) the commitment, SHA-256 of the seed, and the dice seed, the first 62 bits
// of SHA-256("seed:nonce1:nonce2:..."), and says whether both match what the server shows.
(function () {
  "use strict";
  var panel = document.getElementById("dice-reveal");
  var button = document.getElementById("verify-button");
  var result = document.getElementById("verify-result");
  if (!panel || !button || !result) return;
  // The page's language: the messages come translated in the result's data attributes.
  function say(key, fallback) {
    return result.dataset[key] || fallback;
  }

  function sha256(text) {
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(function (buf) {
      return new Uint8Array(buf);
    });
  }
  function hex(bytes) {
    return Array.prototype.map.call(bytes, function (b) {
      return b.toString(16).padStart(2, "0");
    }).join("");
  }

  button.addEventListener("click", function () {
    var seed = panel.dataset.seed;
    var nonces = panel.dataset.nonces ? panel.dataset.nonces.split(" ") : [];
    if (!window.crypto || !crypto.subtle) {
      result.textContent = say("noCrypto", "This browser cannot compute SHA-256 here (it needs https or localhost).");
      result.className = "error";
      return;
    }
    Promise.all([sha256(seed), sha256([seed].concat(nonces).join(":"))]).then(function (both) {
      var commitmentOk = hex(both[0]) === panel.dataset.commitment;
      var first8 = BigInt("0x" + hex(both[1].slice(0, 8)));
      var diceOk = (first8 >> 2n).toString() === panel.dataset.diceSeed;
      panel.dataset.verified = commitmentOk && diceOk ? "yes" : "no";
      result.textContent = commitmentOk && diceOk
        ? say("ok", "✓ The commitment and the dice seed check out.")
        : commitmentOk
          ? say("badDice", "✗ The dice seed does not match.")
          : say("badCommitment", "✗ The commitment does not match.");
      result.className = commitmentOk && diceOk ? "verified" : "error";
      result.style.color = commitmentOk && diceOk ? "#1b7a3a" : "";
    });
  });
})();
