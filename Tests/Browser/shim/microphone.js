// The test's microphone, for WebKitGTK: its mock capture device plays tones, not speech, and it
// takes no file as Chromium's --use-file-for-fake-audio-capture does. With the setting
// `microphone` (a URL under /__test__/), getUserMedia gives the page a live stream of that
// recording, played once through Web Audio, and the page's own MediaRecorder records it. With
// `denyMicrophone`, getUserMedia fails as a denied permission does. Without either, the
// browser's own mock device answers. It never ships.
(function () {
  var settings = window.__testSettings || {};
  if (!navigator.mediaDevices || !(settings.microphone || settings.denyMicrophone)) return;
  var original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = function (constraints) {
    if (settings.denyMicrophone) return Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
    if (!constraints || !constraints.audio) return original(constraints);
    var context = new (window.AudioContext || window.webkitAudioContext)();
    return fetch(settings.microphone).then(function (response) { return response.arrayBuffer(); })
      .then(function (bytes) { return context.decodeAudioData(bytes); })
      .then(function (buffer) {
        var source = context.createBufferSource();
        source.buffer = buffer;
        var destination = context.createMediaStreamDestination();
        source.connect(destination);
        source.start();
        var stream = destination.stream;
        stream.getAudioTracks().forEach(function (track) {
          var stop = track.stop.bind(track);
          track.stop = function () { stop(); source.stop(); context.close(); };
        });
        return context.resume().then(function () { return stream; });
      });
  };
})();
