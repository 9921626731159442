#!/usr/bin/env python3
"""Records a WAV through headless Chromium's fake microphone with MediaRecorder, in every audio
mimeType the browser supports, the way a recording page that uploads while recording does
(start(1000): a chunk every second). The tests use it to check voicemsg on real browser output.

Usage: scripts/browser-record.py --wav ABS_PATH.wav --out DIR [--seconds S] [--chromium PATH]
Prints one JSON object: {"userAgent": ..., "recordings": [{"mimeType": ..., "file": ...}, ...]}.
Only the Python standard library and Debian's chromium are needed. The page is served on
127.0.0.1 by this script, and the recordings come back to it by POST.
"""
import argparse
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

# Every audio type a recorder page would try, most wanted first.
CANDIDATES = [
    "audio/webm;codecs=opus",
    "audio/webm",
    "audio/mp4;codecs=opus",
    "audio/mp4;codecs=mp4a.40.2",
    "audio/mp4",
    "audio/ogg;codecs=opus",
]

PAGE = """<!doctype html>
<html><body><script>
const candidates = %(candidates)s;
const seconds = %(seconds)s;
async function post(path, body) { await fetch(path, {method: "POST", body}); }
async function main() {
  const stream = await navigator.mediaDevices.getUserMedia({audio: {
    echoCancellation: false, noiseSuppression: false, autoGainControl: false}});
  // One recorder per distinct container and codec the browser supports, all on the same stream.
  const types = candidates.filter(t => MediaRecorder.isTypeSupported(t));
  const seen = new Set();
  const recorders = [];
  for (const type of types) {
    const recorder = new MediaRecorder(stream, {mimeType: type});
    const key = recorder.mimeType;
    if (seen.has(key)) continue;
    seen.add(key);
    const chunks = [];
    recorder.ondataavailable = e => { if (e.data.size > 0) chunks.push(e.data); };
    const stopped = new Promise(resolve => recorder.onstop = resolve);
    recorders.push({recorder, chunks, stopped, requested: type});
  }
  for (const r of recorders) r.recorder.start(1000);
  await new Promise(resolve => setTimeout(resolve, seconds * 1000));
  for (const r of recorders) r.recorder.stop();
  for (const r of recorders) {
    await r.stopped;
    const blob = new Blob(r.chunks, {type: r.recorder.mimeType});
    await post("/upload?type=" + encodeURIComponent(r.recorder.mimeType), blob);
  }
  await post("/done", navigator.userAgent);
}
main().catch(e => post("/error", String(e && e.stack || e)));
</script></body></html>
"""


def extension(mime_type):
    if mime_type.startswith("audio/webm") or mime_type.startswith("video/webm"):
        return "webm"
    if mime_type.startswith("audio/mp4") or mime_type.startswith("video/mp4"):
        return "mp4"
    if mime_type.startswith("audio/ogg"):
        return "ogg"
    return "bin"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wav", required=True, help="absolute path of the WAV the fake microphone plays")
    parser.add_argument("--out", required=True, help="folder for the recordings")
    parser.add_argument("--seconds", type=float, default=None, help="how long to record (default: the WAV's length + 1.5 s)")
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    parser.add_argument("--timeout", type=float, default=90)
    args = parser.parse_args()

    wav = os.path.abspath(args.wav)
    seconds = args.seconds
    if seconds is None:
        import wave
        with wave.open(wav, "rb") as w:
            seconds = w.getnframes() / w.getframerate() + 1.5
    os.makedirs(args.out, exist_ok=True)

    state = {"recordings": [], "done": threading.Event(), "error": None, "userAgent": None}
    page = PAGE % {"candidates": json.dumps(CANDIDATES), "seconds": json.dumps(seconds)}

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def do_GET(self):
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            url = urllib.parse.urlparse(self.path)
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if url.path == "/upload":
                mime_type = urllib.parse.parse_qs(url.query)["type"][0]
                # "audio/webm" and "audio/webm;codecs=opus" give the same recorder: keep one.
                if any(r["mimeType"] == mime_type for r in state["recordings"]):
                    self.send_response(204)
                    self.end_headers()
                    return
                index = len(state["recordings"]) + 1
                path = os.path.join(args.out, "recording-%d.%s" % (index, extension(mime_type)))
                with open(path, "wb") as f:
                    f.write(body)
                state["recordings"].append({"mimeType": mime_type, "file": path, "bytes": len(body)})
            elif url.path == "/done":
                state["userAgent"] = body.decode(errors="replace")
                state["done"].set()
            elif url.path == "/error":
                state["error"] = body.decode(errors="replace")
                state["done"].set()
            self.send_response(204)
            self.end_headers()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/" % server.server_address[1]

    profile = tempfile.mkdtemp(prefix="voicemsg-chromium-")
    command = [
        args.chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--user-data-dir=" + profile, "--autoplay-policy=no-user-gesture-required",
        "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
        # %noloop: the fake microphone plays the file once, then silence.
        "--use-file-for-fake-audio-capture=" + wav + "%noloop",
        url,
    ]
    browser = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        finished = state["done"].wait(args.timeout)
    finally:
        browser.terminate()
        try:
            browser.wait(10)
        except subprocess.TimeoutExpired:
            browser.kill()
            browser.wait()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    if not finished:
        print("browser-record: Chromium did not finish within %g s" % args.timeout, file=sys.stderr)
        return 1
    if state["error"]:
        print("browser-record: the page failed: " + state["error"], file=sys.stderr)
        return 1
    if not state["recordings"]:
        print("browser-record: the browser supports none of " + ", ".join(CANDIDATES), file=sys.stderr)
        return 1
    json.dump({"userAgent": state["userAgent"], "recordings": state["recordings"]}, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
