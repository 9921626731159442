"""What the browser test files share: results, fixtures, the server under test, its API, the
audio judges, and the driver that runs scenarios in one engine or both.

Each check ends as one of:
  PASS   it holds;
  FAIL   it does not (the script exits 1);
  SKIP   this engine cannot do the step; the reason is printed, and the scenario checks what the
         page shows instead where it can.
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

import browsers

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


# ---------------------------------------------------------------------------------------------
# Results

class Results:
    def __init__(self):
        self.rows = []
        # Seconds each engine took, from its server's start to its stop: where make test's
        # time goes (docs/operations.md).
        self.seconds = {}

    def check(self, scenario, name, ok, detail=""):
        outcome = "PASS" if ok else "FAIL"
        self.rows.append((scenario, name, outcome, detail))
        print(f"  {outcome:5} {name}" + (f": {detail}" if detail else ""), flush=True)
        return ok

    def skip(self, scenario, name, why):
        self.rows.append((scenario, name, "SKIP", why))
        print(f"  SKIP  {name}: {why}", flush=True)

    def failed(self):
        return [row for row in self.rows if row[2] == "FAIL"]

    def summary(self):
        counts = {}
        for row in self.rows:
            counts[row[2]] = counts.get(row[2], 0) + 1
        print("\n== summary ==")
        for scenario in dict.fromkeys(row[0] for row in self.rows):
            outcomes = [row[2] for row in self.rows if row[0] == scenario]
            verdict = "FAIL" if "FAIL" in outcomes else "pass"
            print(f"  {scenario:28} {verdict} ({', '.join(f'{outcomes.count(o)} {o}' for o in ('PASS', 'SKIP', 'FAIL') if o in outcomes)})")
        print("  " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
        print("  time: " + ", ".join(f"{engine} {seconds:.0f} s" for engine, seconds in self.seconds.items()))
        for row in self.rows:
            if row[2] in ("FAIL", "SKIP"):
                print(f"  {row[2]:5} {row[0]}: {row[1]}{(': ' + row[3]) if row[3] else ''}")


# ---------------------------------------------------------------------------------------------
# Fixtures and the server

def run(command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)


def make_fixtures(folder):
    """The fake microphone's speech and silence (48 kHz mono WAV), and an M4A voice memo."""
    speech_raw = folder / "speech-raw.wav"
    run(["espeak-ng", "-s", "150", "-w", str(speech_raw),
         "Good luck on the run! You are halfway there, keep going!"])
    speech = folder / "speech.wav"
    # Half a second before the words, and silence after them (the page records about 6 s).
    run(["ffmpeg", "-v", "error", "-y", "-i", str(speech_raw), "-af", "adelay=500,apad=pad_dur=4",
         "-ar", "48000", "-ac", "1", "-c:a", "pcm_s16le", str(speech)])
    silence = folder / "silence.wav"
    run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=48000:cl=mono", "-t", "12",
         "-c:a", "pcm_s16le", str(silence)])
    memo = folder / "voice-memo.m4a"
    run(["ffmpeg", "-v", "error", "-y", "-i", str(speech_raw), "-ar", "44100", "-c:a", "aac", "-b:a", "64k", str(memo)])
    memo_wav = folder / "voice-memo.wav"
    run(["ffmpeg", "-v", "error", "-y", "-i", str(speech_raw), "-c:a", "pcm_s16le", str(memo_wav)])
    return {"speech": speech, "silence": silence, "memo": memo, "memo_wav": memo_wav, "speech_raw": speech_raw}


class Server:
    """`voicemsg-server serve` on a free loopback port, with its log kept for the token check."""

    def __init__(self, binary, folder, name="server", extra=(), port=0):
        self.log_path = folder / f"{name}.log"
        said = r"listening on (https?)://127\.0\.0\.1:(\d+)"
        earlier = len(re.findall(said, self.log_path.read_text())) if self.log_path.exists() else 0
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            [str(binary), "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(folder / f"{name}-data"),
             "--workers", "2", "--poll-seconds", "0.2", "--log-level", "trace", *extra],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        self.port = None
        while time.time() < deadline and self.port is None:
            time.sleep(0.1)
            if self.process.poll() is not None:
                raise RuntimeError(f"voicemsg-server exited: {self.log_path.read_text()}")
            found = re.findall(said, self.log_path.read_text())
            # A server started again on the same log appends to it: only a new line counts.
            if len(found) > earlier:
                self.scheme, self.port = found[-1][0], int(found[-1][1])
        if self.port is None:
            raise RuntimeError("voicemsg-server did not say where it listens within 30 s")
        self.base = f"{self.scheme}://127.0.0.1:{self.port}"

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


# ---------------------------------------------------------------------------------------------
# The API

def http(method, url, token=None, body=None, headers=None, tls=None):
    """One request; `tls` is an ssl.SSLContext for an https server."""
    request = urllib.request.Request(url, data=body, method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for key, value in (headers or {}).items():
        request.add_header(key, value)
    try:
        with urllib.request.urlopen(request, timeout=30, context=tls) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


def create_run(server, title, planned, runner_name=None):
    fields = {"title": title, "plannedDistanceMeters": planned}
    if runner_name:
        fields["runnerName"] = runner_name
    status, data, _ = http("POST", f"{server.base}/v1/runs", body=json.dumps(fields).encode(),
                           headers={"Content-Type": "application/json"}, tls=getattr(server, "tls", None))
    assert status == 201, f"creating a run answered {status}: {data!r}"
    return json.loads(data)


def upload(server, run_, path, marker, sender):
    query = urllib.parse.urlencode({"marker": marker, "sender": sender})
    status, data, _ = http("POST", f"{server.base}/v1/runs/{run_['id']}/messages?{query}",
                           token=run_["inviteToken"], body=pathlib.Path(path).read_bytes())
    assert status == 202, f"upload answered {status}: {data!r}"
    return json.loads(data)["id"]


def run_messages(server, run_):
    status, data, _ = http("GET", f"{server.base}/v1/runs/{run_['id']}/messages", token=run_["ownerToken"],
                           tls=getattr(server, "tls", None))
    assert status == 200, f"listing messages answered {status}"
    return json.loads(data)["messages"]


def played_report(server, run_, message_id, at_meters, run_seconds):
    """The runner's app's report, POST /v1/messages/{id}/played; returns the HTTP status."""
    body = json.dumps({"atMeters": at_meters, "runSeconds": run_seconds}).encode()
    status, _, _ = http("POST", f"{server.base}/v1/messages/{message_id}/played", token=run_["ownerToken"], body=body,
                        headers={"Content-Type": "application/json"}, tls=getattr(server, "tls", None))
    return status


def manifest(server, run_):
    status, data, _ = http("GET", f"{server.base}/v1/runs/{run_['id']}/manifest", token=run_["ownerToken"])
    assert status == 200
    return json.loads(data)


def wait_settled(server, run_, ids, timeout=60):
    """Waits until every message in `ids` is ready or failed; returns them by id."""
    deadline = time.time() + timeout
    while True:
        messages = {m["id"]: m for m in run_messages(server, run_)}
        if all(messages.get(i, {}).get("status") in ("ready", "failed") for i in ids) or time.time() > deadline:
            return messages
        time.sleep(0.3)


# ---------------------------------------------------------------------------------------------
# The audio judges: ffmpeg, never the server's own measurements

def loudness(path):
    """Integrated loudness by ffmpeg's ebur128 filter."""
    output = subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-i", str(path), "-af", "ebur128", "-f", "null", "-"],
                            capture_output=True, text=True).stderr
    matches = re.findall(r"I:\s+(-?\d+(?:\.\d+)?) LUFS", output)
    return float(matches[-1]) if matches else None


def speech_span(path, noise="-40dB"):
    """First and last moment above `noise`, by ffmpeg's silencedetect: (start, end, duration)."""
    output = subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-i", str(path), "-af",
                             f"silencedetect=noise={noise}:d=0.25", "-f", "null", "-"],
                            capture_output=True, text=True).stderr
    duration = float(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                     str(path)], capture_output=True, text=True).stdout.strip())
    starts = [float(x) for x in re.findall(r"silence_start: (-?[\d.]+)", output)]
    ends = [float(x) for x in re.findall(r"silence_end: ([\d.]+)", output)]
    start = ends[0] if starts and starts[0] <= 0.01 and ends else 0.0
    # Silence running to the end of the file: ffmpeg ends it at the end, or not at all.
    trailing = starts and (len(ends) < len(starts) or abs(ends[-1] - duration) < 0.05)
    end = starts[-1] if trailing and starts[-1] > start else duration
    return start, end, duration


def judge_audio(results, scenario, server, run_, message_id, source_wav, folder):
    """The processed audio, fetched through the API: -16 LUFS +-0.5 by ffmpeg, and as long as
    the source's speech span by ffmpeg's silencedetect (the pipeline keeps 0.15 s before the
    speech and 0.3 s after it)."""
    status, data, _ = http("GET", f"{server.base}/v1/messages/{message_id}/audio", token=run_["ownerToken"])
    if not results.check(scenario, "processed audio fetched through the API", status == 200, f"HTTP {status}"):
        return
    ogg = folder / f"{message_id}.ogg"
    ogg.write_bytes(data)
    measured = loudness(ogg)
    results.check(scenario, "processed audio measures -16 LUFS +-0.5 (ffmpeg ebur128)",
                  measured is not None and abs(measured + 16) <= 0.5, f"{measured} LUFS")
    source_start, source_end, source_duration = speech_span(source_wav)
    _, _, processed = speech_span(ogg)
    # The speech with the pipeline's padding, as far as the source reaches.
    expected = min(source_duration, source_end + 0.3) - max(0.0, source_start - 0.15)
    results.check(scenario, "processed length matches the source's speech span (+-0.5 s)",
                  abs(processed - expected) <= 0.5,
                  f"processed {processed:.2f} s; source speech {source_start:.2f}-{source_end:.2f} s of {source_duration:.2f} s, "
                  f"with 0.15 s before and 0.3 s after: {expected:.2f} s")


# ---------------------------------------------------------------------------------------------
# The driver

class EngineResults:
    """The results of one engine's scenarios: each scenario's name is prefixed with the engine's."""

    def __init__(self, results, engine):
        self.results, self.engine = results, engine

    def check(self, scenario, name, ok, detail=""):
        return self.results.check(f"{self.engine}/{scenario}", name, ok, detail)

    def skip(self, scenario, name, why):
        self.results.skip(f"{self.engine}/{scenario}", name, why)


class Context:
    """What a scenario is given: the results, the server, the fixtures, the engine, and where
    its screenshots go."""

    def open_browser(self, **options):
        return browsers.open_browser(self.engine, **options)

    def plan_run(self, server, title, planned, runner_name=None):
        """Plans a run through the API; its tokens are kept, to be looked for in the log."""
        run_ = create_run(server, title, planned, runner_name)
        self.tokens += [run_["ownerToken"], run_["inviteToken"]]
        return run_


def run_scenarios(scenarios, args, label, prefix):
    """For each engine: starts one server, runs the chosen scenarios against it (a scenario that
    breaks is a failure, with its trace, and the others still run), and checks that no token
    reached the server's log; then prints the summary of both."""
    results = Results()
    folder = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
    fixtures = make_fixtures(folder)
    for engine in args.engines:
        ctx = Context()
        ctx.engine, ctx.folder, ctx.fixtures, ctx.binary = engine, folder, fixtures, args.server
        ctx.results = EngineResults(results, engine)
        ctx.shots = pathlib.Path(args.screenshots) / engine
        ctx.tokens = []
        began = time.monotonic()
        ctx.server = Server(args.server, folder, name=f"{engine}-server")
        ctx.logs = [ctx.server.log_path]
        print(f"\n{label} in {browsers.ENGINE_NAMES[engine]}: "
              f"voicemsg-server on {ctx.server.base}, data in {folder}, screenshots in {ctx.shots}")
        try:
            for key in args.only:
                print(f"\n== {engine}: {key} ==", flush=True)
                try:
                    scenarios[key](ctx)
                except browsers.Unsupported as reason:
                    ctx.results.skip(key, "the scenario", str(reason))
                except Exception as error:  # noqa: BLE001 - a scenario that breaks is a failure, with its trace
                    ctx.results.check(key, "the scenario ran to its end", False, f"{type(error).__name__}: {error}")
                    traceback.print_exc()
        finally:
            ctx.server.stop()
            browsers.Display.stop()
            results.seconds[engine] = time.monotonic() - began
        log = "".join(path.read_text() for path in ctx.logs)
        leaked = [t[:6] + "…" for t in ctx.tokens if t in log]
        ctx.results.check("security", "no token appears in the servers' logs (trace level)", not leaked, ", ".join(leaked))
    results.summary()
    if getattr(args, "keep", False):
        print(f"kept {folder}")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if results.failed() else 0


def main(scenarios, description, label, prefix):
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default=str(ROOT / ".build/debug/voicemsg-server"))
    parser.add_argument("--screenshots", default=str(ROOT / "out/screenshots"))
    parser.add_argument("--engine", action="append", choices=browsers.ENGINES, dest="engines",
                        help="the engine to run in (both when not given)")
    parser.add_argument("--only", action="append", metavar="SCENARIO",
                        help=f"run only these scenarios of this file ({', '.join(scenarios)}); names of the other "
                             "file's are passed over, so that one command line serves both files")
    parser.add_argument("--skip", action="append", default=[], metavar="SCENARIO",
                        help="leave these scenarios of this file out; as with --only, other names are passed over")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--list", action="store_true", help="print this file's scenarios, one a line, and run none")
    args = parser.parse_args()
    if args.list:
        print("\n".join(scenarios))
        return 0
    args.engines = args.engines or list(browsers.ENGINES)
    args.only = [key for key in (scenarios if args.only is None else args.only)
                 if key in scenarios and key not in args.skip]
    if not args.only:
        return 0
    for engine in args.engines:
        missing = browsers.missing_tools(engine)
        if missing:
            sys.exit(f"browser tests: {', '.join(missing)} missing for {engine}; run scripts/browser-tests.sh, which installs them")
    for tool in ("espeak-ng", "ffmpeg", "ffprobe"):
        if not shutil.which(tool):
            sys.exit(f"browser tests: {tool} is missing; run scripts/browser-tests.sh, which installs it")
    if not os.access(args.server, os.X_OK):
        sys.exit(f"browser tests: no server at {args.server}; build it first (swift build --product voicemsg-server)")
    return run_scenarios(scenarios, args, label, prefix)
