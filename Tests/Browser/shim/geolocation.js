// The test's positions, for WebKitGTK, whose driver cannot move the browser's position as
// Chromium's DevTools protocol does. It stands in for navigator.geolocation on the page: the
// test calls window.__testGeolocation.move(latitude, longitude, accuracy) for each fix, and
// every watch the page holds hears of it, as from a phone's receiver. With the setting
// `denyGeolocation`, every request fails as a denied permission does. It never ships.
(function () {
  var settings = window.__testSettings || {};
  var watches = {};
  var nextID = 1;
  var last = null;
  var denied = Boolean(settings.denyGeolocation);

  function position(fix) {
    var coords = { latitude: fix.latitude, longitude: fix.longitude, accuracy: fix.accuracy, altitude: null,
                   altitudeAccuracy: null, heading: null, speed: null };
    return { coords: coords, timestamp: fix.timestamp };
  }
  function refusal() {
    return { code: 1, message: "User denied Geolocation", PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 };
  }
  function answer(watch) {
    setTimeout(function () {
      if (denied) { if (watch.error) watch.error(refusal()); return; }
      if (last) watch.success(position(last));
    }, 0);
  }
  var fake = {
    getCurrentPosition: function (success, error) { answer({ success: success, error: error }); },
    watchPosition: function (success, error) {
      var id = nextID++;
      watches[id] = { success: success, error: error };
      answer(watches[id]);
      return id;
    },
    clearWatch: function (id) { delete watches[id]; },
  };
  Object.defineProperty(navigator, "geolocation", { value: fake, configurable: true });
  window.__testGeolocation = {
    move: function (latitude, longitude, accuracy) {
      last = { latitude: latitude, longitude: longitude, accuracy: accuracy, timestamp: Date.now() };
      if (denied || document.visibilityState === "hidden") return 0;
      var count = 0;
      Object.keys(watches).forEach(function (id) { watches[id].success(position(last)); count += 1; });
      return count;
    },
    deny: function () {
      denied = true;
      Object.keys(watches).forEach(function (id) { if (watches[id].error) watches[id].error(refusal()); });
    },
  };
})();
