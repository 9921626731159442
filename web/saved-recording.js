// The recording of this run on this device, kept in IndexedDB with its Idempotency-Key, so a
// reload or a dropped connection can send it again without recording again, and without
// sending it twice: the server answers a repeated key with the message it already made.
//
// One slot per run: { runID, blob, mimeType, durationSeconds, fileName, idempotencyKey,
// marker, sender, messageID, senderToken, savedAt }. Once the upload is accepted the blob is
// dropped and the message id kept, so the page can follow the message after a reload.
// Where IndexedDB is unavailable (some private modes), the slot lives in memory only.
//
// The recording is stored as its bytes, not as a Blob: WebKit (Safari's private browsing, and
// an ephemeral session) refuses to store a Blob in IndexedDB, while an ArrayBuffer goes in
// everywhere. The page still sees `blob`: the bytes become one again when the slot is read.

const DB_NAME = "voicemsg";
const STORE = "recordings";
const memory = new Map();
let opening = null;

function openDB() {
  if (!("indexedDB" in window)) return Promise.resolve(null);
  if (!opening) {
    opening = new Promise((resolve) => {
      let request;
      try {
        request = indexedDB.open(DB_NAME, 1);
      } catch {
        resolve(null);
        return;
      }
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "runID" });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
      request.onblocked = () => resolve(null);
    });
  }
  return opening;
}

function transact(mode, work) {
  return openDB().then((db) => {
    if (!db) return work(null);
    return new Promise((resolve, reject) => {
      let result;
      let transaction;
      try {
        transaction = db.transaction(STORE, mode);
      } catch (error) {
        reject(error);
        return;
      }
      const request = work(transaction.objectStore(STORE));
      if (request) request.onsuccess = () => { result = request.result; };
      transaction.oncomplete = () => resolve(result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  });
}

/** The saved slot of this run, or null. */
export async function load(runID) {
  if (memory.has(runID)) return memory.get(runID);
  try {
    const value = await transact("readonly", (store) => (store ? store.get(runID) : null));
    return value ? fromStored(value) : null;
  } catch {
    return null;
  }
}

/** Saves the slot (replacing any earlier one of the run). */
export async function save(slot) {
  memory.set(slot.runID, slot);
  try {
    const stored = await toStored(slot);
    await transact("readwrite", (store) => (store ? store.put(stored) : null));
  } catch {
    // Kept in memory: it survives a dropped connection, though not a reload.
  }
}

async function toStored(slot) {
  const { blob, ...rest } = slot;
  return blob ? { ...rest, bytes: await blob.arrayBuffer(), blobType: blob.type } : rest;
}

function fromStored(value) {
  const { bytes, blobType, ...slot } = value;
  if (bytes) slot.blob = new Blob([bytes], { type: blobType || slot.mimeType || "" });
  return slot;
}

/** Forgets the run's slot. */
export async function clear(runID) {
  memory.delete(runID);
  try {
    await transact("readwrite", (store) => (store ? store.delete(runID) : null));
  } catch {
    // Nothing was stored.
  }
}
