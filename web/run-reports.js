// Played reports, on the runner's page: each message that starts is reported to the server, or
// kept on the phone until the server can be reached, and sent once.

import { api } from "./common.js";
import { pendingReports, dropReport } from "./run-store.js";
import { state } from "./run-state.js";

/** How often queued played reports are tried again while some wait. */
const REPORT_RETRY_MS = 5000;

export async function flushReports() {
  // One flush at a time, so that no report is sent twice at once; a call meanwhile asks for
  // another round when this one ends.
  if (state.flushing) {
    state.flushAgain = true;
    return;
  }
  state.flushing = true;
  try {
    do {
      state.flushAgain = false;
      await sendReports();
    } while (state.flushAgain);
  } finally {
    state.flushing = false;
  }
  clearTimeout(state.reportTimer);
  if (pendingReports(state.runID).length) state.reportTimer = setTimeout(flushReports, REPORT_RETRY_MS);
}

async function sendReports() {
  const reports = pendingReports(state.runID);
  for (const report of reports) {
    let result;
    try {
      result = await api(`/v1/messages/${encodeURIComponent(report.id)}/played`, {
        token: state.token, method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ atMeters: report.atMeters, runSeconds: report.runSeconds }),
      });
    } catch {
      result = null;
    }
    // Taken, or refused for good (deleted, not the owner): either way it is not sent again.
    if (result && (result.ok || (result.status >= 400 && result.status < 500 && result.status !== 408 && result.status !== 429))) {
      dropReport(state.runID, report.id);
    } else {
      // The network or the server is down: the rest wait for the next round.
      return;
    }
  }
}
