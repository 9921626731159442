// Whether this browser decodes a recording, and how long it really is: Web Audio decodes the
// whole file. A media element is no judge of either: Safari loads no media into one before a
// tap, WebKit never says that a `blob:` URL can play through, a recorder's WebM carries no
// length, and the fragmented MP4 that WebKit records states the length of its first fragment.
// The decode is bounded, so an engine that never answers costs a wait, not the page.

/**
 * Decodes `bytes` (an ArrayBuffer, left as it is). Resolves to `{ seconds }`, or to
 * `{ failure: "undecodable" }` when this browser cannot decode it, or `{ failure: "timeout" }`
 * when it did not answer within `timeoutMs`; `{ seconds: null }` where there is no Web Audio.
 */
export async function decodeLength(bytes, timeoutMs) {
  const Offline = window.OfflineAudioContext || window.webkitOfflineAudioContext;
  if (!Offline) return { seconds: null };
  const context = new Offline(1, 1, 48000);
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve({ failure: "timeout" }), timeoutMs); });
  // decodeAudioData takes its buffer over: it is given a copy, so the caller keeps the bytes.
  const decoded = context.decodeAudioData(bytes.slice(0)).then((buffer) => buffer, () => null)
    .then((buffer) => (buffer && buffer.duration > 0 ? { seconds: buffer.duration } : { failure: "undecodable" }));
  try {
    return await Promise.race([decoded, late]);
  } finally {
    clearTimeout(timer);
  }
}
