// What this device keeps of a run: the runs planned here (with their tokens), each run's
// prepared messages and its state, the run's event log, the message audio for offline use,
// and the played reports not yet sent. Nothing here reaches the server but the reports.
//
// The event log is what makes a reload safe: every fix, timer, pause and end of playback is
// written before it is acted on, and replaying the log through the same tracker rebuilds the
// run exactly (see web/tracking.js). It lives in IndexedDB, one record an event, so a long
// run costs one small write a fix. The rest is small and lives in localStorage.

const RUNS_KEY = "voicemsg.runs";
const sessionKey = (runID) => `voicemsg.session.${runID}`;
const reportsKey = (runID) => `voicemsg.reports.${runID}`;
const audioCacheName = (runID) => `voicemsg-audio-${runID}`;

function readJSON(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback;
  }
}

function writeJSON(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------
// Runs planned on this device

/** The runs planned or opened as owner on this device, newest first. */
export function rememberedRuns() {
  const runs = readJSON(RUNS_KEY, []);
  return Array.isArray(runs) ? runs.filter((run) => run && run.id && run.ownerToken) : [];
}

/**
 * Calls `changed` when the runs kept here may differ from what the page last read: another
 * page of this site changed them, or the browser shows this page again as it was left (back
 * from a run's page), from before a run was planned.
 */
export function onRunsChanged(changed) {
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key === RUNS_KEY) changed();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) changed();
  });
}

/** Adds or updates a run (matched by id), keeping what was known and adding what is new. */
export function rememberRun(run) {
  const runs = rememberedRuns();
  const index = runs.findIndex((known) => known.id === run.id);
  if (index >= 0) runs[index] = { ...runs[index], ...Object.fromEntries(Object.entries(run).filter(([, v]) => v != null)) };
  else runs.unshift(run);
  writeJSON(RUNS_KEY, runs);
}

/** The runner's page for a run, both tokens in the fragment, which is never sent to the server. */
export function runnerLink(run) {
  const fragment = new URLSearchParams({ owner: run.ownerToken });
  if (run.inviteToken) fragment.set("invite", run.inviteToken);
  return `/runs/${encodeURIComponent(run.id)}#${fragment}`;
}

// ---------------------------------------------------------------------------------------
// The run's session: its prepared messages and where it stands

/**
 * The session of a run on this device, or null: `{phase, run, messages, startedAt,
 * finishedAt}`. `phase` is "ready" (messages stored), "active" or "finished"; `run` is the
 * run's title and planned distance; `messages` are the prepared ones in the tracker's order.
 */
export function loadSession(runID) {
  return readJSON(sessionKey(runID), null);
}

export function saveSession(runID, session) {
  return writeJSON(sessionKey(runID), session);
}

/** "created", "active" or "completed": the Status Badge of a run on this device. */
export function runPhase(runID) {
  const session = loadSession(runID);
  if (!session) return "created";
  if (session.phase === "active") return "active";
  if (session.phase === "finished") return "completed";
  return "created";
}

// ---------------------------------------------------------------------------------------
// The event log

let databasePromise = null;

function database() {
  if (!databasePromise) {
    databasePromise = new Promise((resolve, reject) => {
      const request = indexedDB.open("voicemsg-runs", 1);
      request.onupgradeneeded = () => {
        const events = request.result.createObjectStore("events", { autoIncrement: true });
        events.createIndex("run", "run");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  return databasePromise;
}

/** Appends one event to the run's log; resolves once it is stored. */
export async function logEvent(runID, event) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction("events", "readwrite");
    transaction.objectStore("events").add({ run: runID, event });
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
  });
}

/** The run's events in the order they were logged. */
export async function loggedEvents(runID) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const request = db.transaction("events").objectStore("events").index("run").getAll(IDBKeyRange.only(runID));
    // The index is ordered by run, then by key: the order of logging.
    request.onsuccess = () => resolve(request.result.map((record) => record.event));
    request.onerror = () => reject(request.error);
  });
}

/** Forgets the run's log (a run started over). */
export async function clearEvents(runID) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction("events", "readwrite");
    const index = transaction.objectStore("events").index("run");
    index.openKeyCursor(IDBKeyRange.only(runID)).onsuccess = (event) => {
      const cursor = event.target.result;
      if (!cursor) return;
      transaction.objectStore("events").delete(cursor.primaryKey);
      cursor.continue();
    };
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
  });
}

// ---------------------------------------------------------------------------------------
// Message audio, kept for offline use

const audioKey = (messageID) => `/offline/audio/${encodeURIComponent(messageID)}`;

export async function storeAudio(runID, messageID, blob) {
  const cache = await caches.open(audioCacheName(runID));
  await cache.put(audioKey(messageID), new Response(blob, { headers: { "Content-Type": blob.type || "application/octet-stream" } }));
}

/** The stored audio as a Blob, or null. */
export async function storedAudio(runID, messageID) {
  const cache = await caches.open(audioCacheName(runID));
  const response = await cache.match(audioKey(messageID));
  return response ? response.blob() : null;
}

// ---------------------------------------------------------------------------------------
// Played reports, queued until the server takes them

/** The reports not yet taken by the server: `[{id, atMeters, runSeconds}]`. */
export function pendingReports(runID) {
  const reports = readJSON(reportsKey(runID), []);
  return Array.isArray(reports) ? reports : [];
}

/** Queues a report; a second report for the same message is not queued. */
export function queueReport(runID, report) {
  const reports = pendingReports(runID);
  if (!reports.some((queued) => queued.id === report.id)) reports.push(report);
  writeJSON(reportsKey(runID), reports);
}

export function dropReport(runID, messageID) {
  writeJSON(reportsKey(runID), pendingReports(runID).filter((report) => report.id !== messageID));
}
