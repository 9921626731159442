#!/usr/bin/env python3
"""Server and queue bench (not a test): prints figures, asserts nothing.

1. Queue throughput with no-op jobs: N jobs are inserted straight into the database, then the
   shipped workers, run by the test-only `FaultyWorker` built beside `voicemsg` (its jobs return
   the upload unchanged), drain them from a SQLite folder or PostgreSQL with 1 and with 4 workers. Jobs/s comes from the completion times the store records, so process
   start-up is not counted. 1000 / (jobs/s with 1 worker) is the queue's overhead per job, in ms.
2. Upload-to-ready latency for a 10 s message: 200 uploads over HTTP in a burst, then 20 uploads
   spaced by one and a half times the time a message holds a worker (from the burst), so the
   server is never saturated; latency is completion time minus upload time, as the store records
   them. `voicemsg encode`'s median time on the same file is printed beside it: the server does
   more for a message (the decode in the isolated child, the AAC version).
   The burst also gives the server's throughput: messages per minute from the first upload to
   the last completion, on 2 in-process workers, and that figure per core of the machine.

BENCH_JOBS (3000), BENCH_BURST (200), BENCH_SPACED (20) and BENCH_WORKERS (2) change the counts; BENCH_QUEUE=0 skips part 1.
Usage: scripts/bench-server.sh path/to/voicemsg   (PostgreSQL figures need VOICEMSG_TEST_POSTGRES_URL,
which scripts/with-postgres.sh sets; the shell wrapper runs this script through it.)
"""
import json, os, re, shutil, signal, sqlite3, statistics, subprocess, sys, tempfile, time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

BIN = sys.argv[1]
# Built with the tests' targets (`swift build` builds it too); never shipped.
WORKER = os.path.join(os.path.dirname(BIN), "FaultyWorker")
PG = os.environ.get("VOICEMSG_TEST_POSTGRES_URL")
JOBS = int(os.environ.get("BENCH_JOBS", "3000"))
BURST = int(os.environ.get("BENCH_BURST", "200"))
SPACED = int(os.environ.get("BENCH_SPACED", "20"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))
# BENCH_QUEUE=0 skips the no-op queue figures, e.g. for an older build without FaultyWorker.
QUEUE = os.environ.get("BENCH_QUEUE", "1") != "0"
WORK = tempfile.mkdtemp(prefix="voicemsg-bench-")


# Every process the bench starts, so that a bench that fails half-way leaves none running.
STARTED = []


def start(args, log, program=BIN):
    out = open(log, "w")
    STARTED.append(subprocess.Popen([program] + args, stdout=out, stderr=out))
    return STARTED[-1]


def wait_for(log, pattern, proc, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        match = re.search(pattern, open(log).read())
        if match:
            return match
        if proc.poll() is not None:
            sys.exit(f"bench: process exited early:\n{open(log).read()}")
        time.sleep(0.05)
    sys.exit(f"bench: timed out waiting for {pattern!r}:\n{open(log).read()}")


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)


def psql(url, sql):
    return subprocess.run(["psql", url, "-qAtc", sql], check=True, capture_output=True, text=True).stdout.strip()


def fresh_pg(name):
    psql(PG, f"DROP DATABASE IF EXISTS {name}")
    psql(PG, f"CREATE DATABASE {name}")
    return re.sub(r"/[^/]*$", f"/{name}", PG)


INSERT = """
INSERT INTO runs (id, title, planned_distance_meters, owner_token_hash, invite_token_hash, created_at)
  VALUES ('benchrun', 'bench', 10000, 'x', 'y', 0);
INSERT INTO messages (id, run_id, marker, marker_meters, sender, status, attempts, max_attempts,
                      available_at, created_at, updated_at)
  SELECT 'job' || n, 'benchrun', '1000m', 1000, 'bench', 'queued', 0, 5, 0, 0, 0 FROM {series};
INSERT INTO originals SELECT 'job' || n, {blob} FROM {series};
"""


def throughput(backend, workers):
    log = f"{WORK}/{backend}-{workers}.log"
    common = ["--concurrency", str(workers), "--poll-seconds", "0.05", "--log-level", "notice"]
    if backend == "sqlite":
        data = f"{WORK}/sqlite-{workers}"
        proc = start(["--data-dir", data] + common, log, WORKER)
        wait_for(log, r"voicemsg worker", proc)
        db = sqlite3.connect(f"{data}/voicemsg.sqlite", timeout=30)
        series = f"(WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < {JOBS}) SELECT n FROM s)"
        db.executescript("BEGIN IMMEDIATE;" + INSERT.format(series=series, blob="randomblob(2000)") + "COMMIT;")
        query = lambda sql: db.execute(sql).fetchone()
    else:
        url = fresh_pg(f"bench_{workers}")
        proc = start(["--database", url] + common, log, WORKER)
        wait_for(log, r"voicemsg worker", proc)
        series = f"generate_series(1, {JOBS}) AS n"
        psql(url, "BEGIN;" + INSERT.format(series=series, blob="decode(repeat('ab', 2000), 'hex')") + "COMMIT;")
        query = lambda sql: tuple(float(x) for x in psql(url, sql).split("|"))
    deadline = time.time() + 600
    while query("SELECT COUNT(*) FROM messages WHERE status = 'ready'")[0] < JOBS:
        if time.time() > deadline:
            sys.exit("bench: jobs did not finish")
        time.sleep(0.2)
    first, last = query("SELECT MIN(updated_at), MAX(updated_at) FROM messages")
    stop(proc)
    return (JOBS - 1) / (last - first)


def speech_file():
    raw, padded, out = f"{WORK}/raw.wav", f"{WORK}/padded.wav", f"{WORK}/ten-seconds.wav"
    text = ("You are doing great, keep your pace steady and breathe. We are all waiting at the "
            "finish line with snacks and a very loud cheer. Halfway done, the rest is downhill.")
    subprocess.run(["espeak-ng", "-s", "140", "-w", raw, text], check=True)
    subprocess.run(["sox", raw, padded, "pad", "0.5", "3"], check=True)
    subprocess.run(["sox", padded, "-r", "48000", out, "trim", "0", "10"], check=True)
    return out


def pipeline_seconds(path):
    times = []
    for i in range(5):
        started = time.perf_counter()
        subprocess.run([BIN, "encode", path, "--marker", "5km", "-o", f"{WORK}/enc{i}.opus"],
                       check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def latency(path, pipeline):
    data = f"{WORK}/latency"
    log = f"{WORK}/latency.log"
    proc = start(["serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", data,
                  "--workers", str(WORKERS), "--poll-seconds", "0.2", "--log-level", "notice",
                  # The burst comes from one token: the limits a public server keeps are lifted.
                  "--uploads-per-minute-per-token", str(BURST + SPACED), "--max-messages-per-run", str(BURST + SPACED)], log)
    port = wait_for(log, r"listening on http://127\.0\.0\.1:(\d+)", proc).group(1)
    base = f"http://127.0.0.1:{port}"

    def post(path_, body, headers):
        request = urllib.request.Request(base + path_, data=body, headers=headers, method="POST")
        with urllib.request.urlopen(request) as response:
            return json.load(response)

    run = post("/v1/runs", json.dumps({"title": "bench", "plannedDistanceMeters": 10000}).encode(),
               {"Content-Type": "application/json"})
    body = open(path, "rb").read()
    auth = {"Authorization": "Bearer " + run["inviteToken"]}
    upload = lambda _: post(f"/v1/runs/{run['id']}/messages?marker=5km", body, auth)["id"]
    db = sqlite3.connect(f"{data}/voicemsg.sqlite", timeout=30)

    def settle(ids):
        marks = ",".join("?" * len(ids))
        while db.execute(f"SELECT COUNT(*) FROM messages WHERE status IN ('ready','failed') AND id IN ({marks})", ids).fetchone()[0] < len(ids):
            time.sleep(0.1)
        rows = db.execute(f"SELECT updated_at - created_at, status FROM messages WHERE id IN ({marks})", ids).fetchall()
        assert all(status == "ready" for _, status in rows), rows
        return sorted(seconds for seconds, _ in rows)

    def span(ids):
        marks = ",".join("?" * len(ids))
        first, last = db.execute(f"SELECT MIN(created_at), MAX(updated_at) FROM messages WHERE id IN ({marks})", ids).fetchone()
        return last - first

    with ThreadPoolExecutor(8) as pool:
        burst_ids = list(pool.map(upload, range(BURST)))
    burst = settle(burst_ids)
    per_minute = BURST / span(burst_ids) * 60
    # How long a message holds a worker, from the burst: more than `encode` alone, as the
    # server decodes in the isolated child and makes the AAC version too. Spaced by half as
    # much again, each message finds a worker free.
    service = WORKERS * 60 / per_minute
    spaced_ids = []
    for i in range(SPACED):
        spaced_ids.append(upload(i))
        time.sleep(service * 1.5)
    spaced = settle(spaced_ids)
    stop(proc)
    pick = lambda values, q: values[min(len(values) - 1, int(round(q * (len(values) - 1))))]
    return burst, spaced, pick, per_minute, service


def main():
    print(f"== queue throughput, no-op jobs ({JOBS} jobs)")
    for backend in ["sqlite", "postgres"] if QUEUE else []:
        if backend == "postgres" and not PG:
            print("postgres: skipped (run through scripts/with-postgres.sh)")
            continue
        for workers in [1, 4]:
            rate = throughput(backend, workers)
            print(f"{backend:8s} {workers} worker(s): {rate:8.0f} jobs/s  ({1000 / rate:.2f} ms per job)")
    print(f"\n== upload to ready, 10 s message, SQLite, {WORKERS} workers")
    path = speech_file()
    pipeline = pipeline_seconds(path)
    print(f"pipeline alone (voicemsg encode, median of 5): {pipeline * 1000:.0f} ms")
    burst, spaced, pick, per_minute, service = latency(path, pipeline)
    cores = os.cpu_count() or 1
    print(f"throughput (burst of {BURST}): {per_minute:.0f} messages/min on {WORKERS} workers, "
          f"{per_minute / cores:.0f} messages/min per core ({cores} cores)")
    print(f"a message holds a worker for {service * 1000:.0f} ms (Opus and AAC; encode alone {pipeline * 1000:.0f} ms)")
    for name, values in [(f"burst of {BURST}", burst), (f"{SPACED} spaced, unsaturated", spaced)]:
        p50, p99 = pick(values, 0.5), pick(values, 0.99)
        print(f"{name:24s} p50 {p50 * 1000:7.0f} ms  p99 {p99 * 1000:7.0f} ms  p99/worker time {p99 / service:5.2f}")


try:
    main()
finally:
    for proc in STARTED:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    shutil.rmtree(WORK, ignore_errors=True)
