// The test's watcher, first on every page in both engines (Chromium: through the DevTools
// protocol; WebKitGTK: through the test origin). It never ships in the pages.
//
// window.__problems: the page's own Content Security Policy violations, uncaught errors,
// unhandled rejections and console errors, which the console check fails on.
// window.__audio: what the page's one player (#player) did, with the distance the page showed.
(function () {
  window.__problems = [];
  window.__audio = [];
  document.addEventListener("securitypolicyviolation", function (e) {
    window.__problems.push("CSP violation: " + e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber);
  });
  window.addEventListener("error", function (e) {
    // A media element's failed load is an error event without a message; the page handles it.
    if (e.target && e.target !== window && !e.message) return;
    window.__problems.push("JavaScript error: " + (e.message || e.type) + " at " + (e.filename || "") + ":" + (e.lineno || ""));
  }, true);
  window.addEventListener("unhandledrejection", function (e) {
    window.__problems.push("Unhandled rejection: " + (e.reason && e.reason.stack || e.reason));
  });
  var consoleError = console.error;
  console.error = function () {
    window.__problems.push("console error: " + Array.prototype.map.call(arguments, String).join(" "));
    return consoleError.apply(console, arguments);
  };
  document.addEventListener("DOMContentLoaded", function () {
    var player = document.getElementById("player");
    if (!player) return;
    ["playing", "ended"].forEach(function (type) {
      player.addEventListener(type, function () {
        if (player.muted || player.dataset.number === undefined || player.dataset.number === "-1") return;
        var distance = document.getElementById("stat-distance");
        window.__audio.push({ type: type, number: Number(player.dataset.number), at: Date.now(),
                              meters: Number(distance && distance.dataset.meters), src: player.currentSrc });
      });
    });
  });
})();
