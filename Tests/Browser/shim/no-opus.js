// The test's stand-in for a browser that plays no Opus (Safari on iOS 16.4 to 17.3): its player
// says it cannot play Opus, in Ogg or in WebM, and Web Audio refuses to decode those files. The
// page must then take the AAC in MP4 that every iPhone plays. It never ships.
(function () {
  var canPlayType = HTMLMediaElement.prototype.canPlayType;
  HTMLMediaElement.prototype.canPlayType = function (type) {
    return /opus|ogg|webm/i.test(String(type)) ? "" : canPlayType.call(this, type);
  };
  function isOpusFile(bytes) {
    var head = new Uint8Array(bytes.slice(0, 4));
    var ogg = head[0] === 0x4f && head[1] === 0x67 && head[2] === 0x67 && head[3] === 0x53;
    var ebml = head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3;
    return ogg || ebml;
  }
  var Base = window.BaseAudioContext || window.AudioContext;
  var decode = Base.prototype.decodeAudioData;
  Base.prototype.decodeAudioData = function (bytes, success, failure) {
    if (!isOpusFile(bytes)) return decode.apply(this, arguments);
    var error = new DOMException("this browser decodes no Opus", "EncodingError");
    if (failure) setTimeout(function () { failure(error); }, 0);
    return Promise.reject(error);
  };
})();
