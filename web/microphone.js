// The microphone: whether the browser can lend it, a recording from it, and its level.
// No page elements here; the recording page shows what these report.

// MediaRecorder chunks are not decodable one by one: they are collected and joined into one
// Blob when recording stops. The first type the browser supports wins: Chrome and Firefox
// record WebM or Ogg with Opus, Safari MP4 with AAC.
const RECORDING_TYPES = ["audio/webm;codecs=opus", "audio/mp4", "audio/ogg;codecs=opus", "audio/webm"];
const TIMESLICE_MS = 1000;

/** Null when recording may work here, else why not: "insecure" or "unsupported". */
export function unavailableReason() {
  if (!window.isSecureContext) return "insecure";
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia || !window.MediaRecorder) return "unsupported";
  return null;
}

/** What a getUserMedia or MediaRecorder failure means to the person holding the phone. */
export function classifyError(error) {
  switch (error && error.name) {
    case "NotAllowedError":
    case "PermissionDeniedError":
    case "SecurityError":
      return "denied";
    case "NotFoundError":
    case "DevicesNotFoundError":
    case "OverconstrainedError":
      return "missing";
    case "NotReadableError":
    case "TrackStartError":
    case "AbortError":
      return "busy";
    default:
      return "failed";
  }
}

function supportedType() {
  if (!window.MediaRecorder || !MediaRecorder.isTypeSupported) return "";
  return RECORDING_TYPES.find((type) => MediaRecorder.isTypeSupported(type)) || "";
}

/**
 * Starts recording. Resolves to `{ stop(), elapsedSeconds() }` once the microphone is open,
 * or rejects with the getUserMedia error (see `classifyError`).
 *
 * - `onLevel(dBFS)` is called on every animation frame with the input's RMS level;
 * - `onDone({ blob, type, durationSeconds })` is called once after `stop()`, with the chunks
 *   joined into one Blob (`blob.size` is 0 when nothing was recorded);
 * - `onError()` is called when the browser ends the recording by itself.
 */
export async function record({ onLevel, onDone, onError }) {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const mimeType = supportedType();
  let recorder;
  try {
    recorder = new MediaRecorder(stream, mimeType ? { mimeType, audioBitsPerSecond: 96000 } : undefined);
  } catch {
    recorder = new MediaRecorder(stream);
  }
  const chunks = [];
  let startedAt = 0;
  let stoppedAt = 0;
  const meter = levelMeter(stream, onLevel);
  const release = () => {
    meter.stop();
    for (const track of stream.getTracks()) track.stop();
  };
  recorder.addEventListener("dataavailable", (event) => {
    if (event.data && event.data.size > 0) chunks.push(event.data);
  });
  recorder.addEventListener("stop", () => {
    release();
    const type = recorder.mimeType || mimeType || (chunks[0] && chunks[0].type) || "audio/webm";
    const end = stoppedAt || performance.now();
    onDone({ blob: new Blob(chunks, { type }), type, durationSeconds: (end - startedAt) / 1000 });
  }, { once: true });
  recorder.addEventListener("error", () => {
    onError();
    if (recorder.state !== "inactive") recorder.stop();
  });
  // The clock runs from when the recorder says it started, which can be a few tenths of a
  // second after start() is called: the timer then ends where the recording's own length does.
  recorder.addEventListener("start", () => { startedAt = performance.now(); }, { once: true });
  recorder.start(TIMESLICE_MS);
  startedAt = performance.now();
  return {
    elapsedSeconds: () => (performance.now() - startedAt) / 1000,
    stop: () => {
      if (recorder.state === "inactive") return;
      stoppedAt = performance.now();
      // The level stops with the button, not when the recorder has handed over its last
      // chunk: frames in between filled the emptied level bar again.
      meter.stop();
      recorder.stop();
    },
  };
}

/** Calls `onLevel(dBFS)` every animation frame until `stop()`; a Web Audio AnalyserNode. */
function levelMeter(stream, onLevel) {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return { stop() {} };
  const context = new Context();
  context.resume().catch(() => {});
  const analyser = context.createAnalyser();
  analyser.fftSize = 1024;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  let frame = 0;
  const draw = () => {
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const sample of samples) sum += sample * sample;
    const rms = Math.sqrt(sum / samples.length);
    onLevel(rms > 0 ? 20 * Math.log10(rms) : -100);
    frame = requestAnimationFrame(draw);
  };
  draw();
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      cancelAnimationFrame(frame);
      context.close().catch(() => {});
    },
  };
}
