// What both pages share: the token from the URL fragment, the API client, the live follower,
// and the words and numbers people read. No dependencies; loaded as an ES module.

/** A value from the URL fragment (`#invite=…&x=…`); the fragment never reaches the server. */
export function fragmentValue(name) {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const value = params.get(name);
  return value && value.trim() ? value.trim() : null;
}

/** The run id from `/r/{id}` or `/runs/{id}`. */
export function runIDFromPath() {
  const parts = window.location.pathname.split("/").filter(Boolean);
  return parts.length >= 2 ? decodeURIComponent(parts[1]) : null;
}

/** The reason in an error body: Hummingbird's `{"error":{"message":…}}`, or `{"error":"…"}`. */
export function errorText(body, fallback) {
  if (body && typeof body.error === "object" && body.error && body.error.message) return body.error.message;
  if (body && typeof body.error === "string") return body.error;
  return fallback;
}

/**
 * One request to the API. Never throws for an HTTP status: the caller reads `status`.
 * It throws only when the network fails (or the request is aborted).
 *
 * A 404, 405 or 501 with no JSON reason means the server has no such endpoint yet
 * (`missing`), which the pages treat as "not available on this server" rather than an error.
 */
export async function api(path, { token, method = "GET", headers = {}, body, signal } = {}) {
  const started = performance.now();
  const allHeaders = { Accept: "application/json", ...headers };
  if (token) allHeaders.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method, headers: allHeaders, body, signal, cache: "no-store", credentials: "omit",
    referrerPolicy: "no-referrer",
  });
  let json = null;
  const type = response.headers.get("Content-Type") || "";
  if (type.includes("json")) {
    try {
      json = await response.json();
    } catch {
      json = null;
    }
  } else {
    await response.arrayBuffer().catch(() => null);
  }
  const missing = [404, 405, 501].includes(response.status) && !(json && json.error);
  return {
    status: response.status,
    ok: response.ok,
    json,
    etag: response.headers.get("ETag"),
    elapsed: performance.now() - started,
    missing,
    reason: errorText(json, `the server answered ${response.status}`),
  };
}

/** Waits `ms`, or less when `signal` aborts first. */
function sleep(ms, signal) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}

/**
 * Follows a resource live: asks with `?wait=25` and `If-None-Match`, so a server with long
 * polling answers when something changed (or 304 after 25 s) and a server without it answers
 * at once. An answer that came back quickly with nothing new means the server did not wait,
 * so the follower waits `pollMs` itself before asking again: the page then polls gently
 * instead of hammering the server.
 *
 * `onChange(json)` is called with every new representation; when it returns `"stop"` the
 * follower ends, and when it returns `"slow"` it keeps following at `slowPollMs` (a message
 * that is ready changes rarely: only when it is played). `onTrouble(text)` is called while
 * the network or server is failing (with null once it recovers). `known(json)` gives the
 * query that tells the server what the page already has, for a long poll that is not keyed
 * by ETag (one message's `status=`). Returns a function that stops the follower.
 */
export function follow(path, { token, onChange, onTrouble = () => {}, known = null, waitSeconds = 25, pollMs = 2000, slowPollMs = 15000 }) {
  const controller = new AbortController();
  let request = null;
  let etag = null;
  let last = null;
  let lastJSON = null;
  let failures = 0;
  let slow = false;
  const separator = path.includes("?") ? "&" : "?";
  (async () => {
    while (!controller.signal.aborted) {
      const headers = etag ? { "If-None-Match": etag } : {};
      request = new AbortController();
      const timer = setTimeout(() => request.abort(), (waitSeconds + 15) * 1000);
      let result;
      try {
        const have = known && lastJSON ? known(lastJSON) : "";
        result = await api(`${path}${separator}wait=${waitSeconds}${have ? "&" + have : ""}`,
          { token, headers, signal: request.signal });
      } catch {
        result = null;
      } finally {
        clearTimeout(timer);
      }
      if (controller.signal.aborted) return;
      if (!result || result.status >= 500) {
        failures += 1;
        onTrouble(failures >= 2 ? "Lost touch with the server; trying again…" : null);
        await sleep(Math.min(30000, 1000 * 2 ** failures), controller.signal);
        continue;
      }
      if (failures) onTrouble(null);
      failures = 0;
      if (!result.ok && result.status !== 304) {
        onTrouble(result.reason);
        await sleep(slowPollMs, controller.signal);
        continue;
      }
      let changed = false;
      if (result.status === 200) {
        etag = result.etag;
        const text = JSON.stringify(result.json);
        changed = text !== last;
        last = text;
        lastJSON = result.json;
        if (changed) {
          const wish = onChange(result.json);
          if (wish === "stop") {
            controller.abort();
            return;
          }
          slow = wish === "slow";
        }
      }
      const waited = result.elapsed >= 1000;
      if (!changed && !waited) await sleep(slow ? slowPollMs : pollMs, controller.signal);
      else await sleep(250, controller.signal);
    }
  })();
  return () => {
    controller.abort();
    if (request) request.abort();
  };
}

/** "800 m", "5 km", "21.1 km". */
export function formatDistance(meters) {
  if (meters == null || !Number.isFinite(meters)) return "";
  if (meters < 1000) return `${Math.round(meters)} m`;
  const km = Math.round(meters / 100) / 10;
  return `${Number.isInteger(km) ? km.toFixed(0) : km.toFixed(1)} km`;
}

/** "0:06", "12:34", "1:52:07". */
export function formatClock(seconds) {
  const total = Math.max(0, Math.floor(seconds || 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** "54 KB", "1.2 MB". */
export function formatBytes(bytes) {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** How a canonical marker reads: "halfway", "1 km before the finish", "30 km". */
export function describeMarker(canonical, meters) {
  if (canonical === "finish") return "the finish";
  if (canonical === "50%") return "halfway";
  const before = /^finish-(\d+(?:\.\d+)?)m$/.exec(canonical || "");
  if (before) return `${formatDistance(Number(before[1]))} before the finish`;
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(canonical || "");
  if (percent) return `${percent[1]}% of the way`;
  return formatDistance(meters);
}

/** The status words and badge class of a message. */
export function statusBadge(message) {
  if (message.playedAt != null || message.playedAtMeters != null) return { text: "Played", cls: "badge-played" };
  switch (message.status) {
    case "queued": return { text: "Queued", cls: "badge-queued" };
    case "processing": return { text: "Processing", cls: "badge-processing" };
    case "ready": return { text: "Ready", cls: "badge-ready" };
    case "failed": return { text: "Failed", cls: "badge-failed" };
    default: return { text: String(message.status || "Unknown"), cls: "badge-queued" };
  }
}

/** "Played at 21.1 km, 1:52:07 into the run", or null when it has not been played. */
export function playedText(message) {
  if (message.playedAtMeters == null && message.playedAtRunSeconds == null && message.playedAt == null) return null;
  const parts = [];
  if (message.playedAtMeters != null) parts.push(`at ${formatDistance(message.playedAtMeters)}`);
  if (message.playedAtRunSeconds != null) parts.push(`${formatClock(message.playedAtRunSeconds)} into the run`);
  return parts.length ? `Played ${parts.join(", ")}` : "Played";
}

/**
 * The pipeline's reason in plain words, for people who never saw a dBFS figure: what went
 * wrong and, for the person who recorded it, what to do. The server's own text is shown
 * beside it as the detail.
 */
/**
 * The server's own reason for a failed message, without the message's id in front: the runner
 * reads it under the plain words. The sender's page shows only the plain words.
 */
export function failureDetail(message) {
  const reason = message.error || "";
  const prefix = `${message.id}: `;
  return reason.startsWith(prefix) ? reason.slice(prefix.length) : reason;
}

export function plainFailure(reason, { forSender = true } = {}) {
  const text = (reason || "").toLowerCase();
  let cause;
  let advice;
  if (text.includes("no speech")) {
    cause = "We couldn’t hear anyone speaking in the recording.";
    advice = "Check that the microphone is on and close to you, and record again.";
  } else if (text.includes("damaged") || text.includes("truncated or corrupt")) {
    cause = "The recording came out damaged, so it cannot be played.";
    advice = "Please record it again.";
  } else if (text.includes("too long") || /at most \d+ s/.test(text)) {
    cause = "The recording is longer than the server accepts.";
    advice = "Record a shorter message.";
  } else if (/not an audio|unsupported|unreadable|could not read|cannot read/.test(text)) {
    cause = "The server couldn’t read this kind of audio file.";
    advice = "Record in the page instead, or choose another file.";
  } else if (text.includes("processing stopped") || text.includes("worker")) {
    cause = "Something went wrong on the server while preparing it.";
    advice = "Please send it again.";
  } else {
    cause = "The server couldn’t prepare this recording.";
    advice = "Please try again.";
  }
  return forSender ? `${cause} ${advice}` : cause;
}

/**
 * Makes `audio` a voice message's player: play, time, seek and volume are all it needs.
 * Without the menu's download, speed and cast items Chromium leaves out its ⋮ button, which no
 * style can colour.
 */
export function voicePlayer(audio) {
  audio.controls = true;
  audio.setAttribute("controlslist", "nodownload noplaybackrate noremoteplayback");
  audio.disableRemotePlayback = true;
  return audio;
}

/**
 * The processed audio of a message as a `blob:` URL, since an `<audio>` element cannot send
 * the bearer token itself. Ogg Opus where the browser plays it, else the same packets in WebM
 * (Safari on iOS 17.4 to 18.3), else AAC in MP4 (older Safari). Returns `{url}` or
 * `{status, reason, missing}`.
 */
export async function fetchAudioURL(messageID, token) {
  const probe = document.createElement("audio");
  const query = probe.canPlayType('audio/ogg; codecs="opus"') ? ""
    : probe.canPlayType('audio/webm; codecs="opus"') ? "?container=webm"
    : probe.canPlayType('audio/mp4; codecs="mp4a.40.2"') ? "?container=mp4" : "";
  let response;
  try {
    response = await fetch(`/v1/messages/${encodeURIComponent(messageID)}/audio${query}`, {
      headers: { Authorization: `Bearer ${token}` }, cache: "no-store", credentials: "omit",
    });
  } catch {
    return { status: 0, reason: "the network failed" };
  }
  if (!response.ok) {
    let json = null;
    try { json = await response.json(); } catch { json = null; }
    return { status: response.status, reason: errorText(json, `the server answered ${response.status}`) };
  }
  return { url: URL.createObjectURL(await response.blob()) };
}

/** A random id for Idempotency-Key; `crypto.randomUUID` exists only in secure contexts. */
export function randomKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Says `text` to screen readers through the page's polite live region. */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  region.textContent = "";
  // A new text node after a tick, so the same words said twice are read twice.
  setTimeout(() => { region.textContent = text; }, 50);
}

/** Who a message is from, in words. */
export function who(message) {
  return message.sender || "Someone";
}

/** A new element with a class and its text. */
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

/** `document.getElementById`, shorter. */
export const $ = (id) => document.getElementById(id);

/** Shows or hides an element. */
export function show(element, visible = true) {
  element.hidden = !visible;
}

// ---------------------------------------------------------------------------------------------
// Icons

/** The design system's check and warning glyphs (24 px grid), for `icon()`. */
export const CHECK_ICON = "M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4L9 16.2Z";
export const WARNING_ICON = "M12 2 1 21h22L12 2Zm1 15h-2v-2h2v2Zm0-4h-2V9h2v4Z";

/** An inline SVG of one path, coloured by the text around it and hidden from screen readers. */
export function icon(path) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const shape = document.createElementNS("http://www.w3.org/2000/svg", "path");
  shape.setAttribute("fill", "currentColor");
  shape.setAttribute("d", path);
  svg.append(shape);
  return svg;
}

/**
 * Says why the page cannot show its run, in place of its loading note: `heading` stands where
 * the run's title would, then the error's title and text.
 */
export function showPageError(heading, title, text) {
  show($("loading"), false);
  $("run-title").textContent = heading;
  const box = element("div", "error-state");
  box.id = "page-error";
  box.setAttribute("role", "alert");
  const body = element("div", "error-body");
  body.append(element("strong", null, title), element("span", null, ` ${text}`));
  box.append(icon(WARNING_ICON), body);
  $("loading").after(box);
}
