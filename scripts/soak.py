#!/usr/bin/env python3
"""Load and fault scenarios against real servers and workers on loopback, printing figures.

  scripts/soak.sh [413 stalled slowheaders slowbodies load pgdown busy killed diskfull pgrestart leases pgload partition]   (all by default)

413: the 413 read by urllib. stalled: 40 uploads stalled 400 bytes short (closed by the idle
timeout; RSS afterwards). slowheaders: 1,000 connections sending one header byte a second
(closed by the header timeout) while a normal 25 MB upload is timed against one alone.
slowbodies: 20 uploads at 100 bytes a second (408 by the slowest pace kept). load: N concurrent 25 MB uploads with /healthz probed throughout (peak
RSS, statuses, healthz p99). pgdown: PostgreSQL (a cluster of the scenario's own,
scripts/pg-cluster.sh) stopped 60 s under 2 workers: log lines, SIGTERM during the outage, every
job ready once. busy: every worker encodes a 9-minute recording while /healthz is probed 200
times. killed: the SQLite server SIGKILLed 20 times under 500 uploads from 8 clients. diskfull:
the data folder on a 64 MB tmpfs (skipped where mounting is not allowed). pgrestart: PostgreSQL
restarted twice under 4 workers draining 200 jobs. leases: the shortest lease, 2 workers on
PostgreSQL, 30 real 60 s messages. pgload: the load scenario on PostgreSQL.
partition: three worker hosts in network namespaces, one cut off mid-job for longer than a lease. Not run in `make test`: it takes many minutes and gigabytes
of disk.
"""
import asyncio, calendar, json, os, random, socket, subprocess, sys, tempfile, threading, time, urllib.error, urllib.request

# The voicemsg to run; it execs voicemsg-server beside it. A deployment runs release binaries
# (`make soak-release`), and latency figures such as the load's /healthz p99 are theirs to report.
BIN = os.environ.get("VOICEMSG_BIN", ".build/debug/voicemsg")
CLIENTS = int(os.environ.get("SOAK_CLIENTS", "100"))
UPLOAD = 25 * 1000 * 1000


def rss_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return -1


def start(data, extra, data_dir=True, name="server.log"):
    log = open(os.path.join(data, name), "w+")
    where = ["--data-dir", os.path.join(data, "data")] if data_dir else []
    proc = subprocess.Popen([BIN, "serve", "--port", "0", "--host", "127.0.0.1", "--workers", "0", *where,
                             "--idle-timeout-seconds", "5", "--header-timeout-seconds", "3",
                             "--uploads-per-minute-per-token", "100000"] + extra,
                            stdout=log, stderr=log)
    for _ in range(300):
        log.seek(0)
        text = log.read()
        if "listening on http://" in text:
            return proc, int(text.split("listening on http://127.0.0.1:")[1].split(";")[0])
        time.sleep(0.1)
    raise SystemExit("server did not start:\n" + text)


def create_run(port):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/runs", data=b'{"title":"soak"}',
                                 headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req))


def upload(port, run, body, timeout=120, marker="1km"):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/runs/{run['id']}/messages?marker={marker}", data=body,
                                 headers={"Authorization": "Bearer " + run["inviteToken"]})
    try:
        return urllib.request.urlopen(req, timeout=timeout).status
    except urllib.error.HTTPError as e:
        return e.code
    except Exception as e:
        return type(e).__name__


def p99(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * 0.99))] if values else float("nan")


def stop_everything(procs, server, cluster):
    """Ends a PostgreSQL scenario: its worker processes, its server, then its cluster."""
    for p in procs:
        if p.poll() is None:
            p.terminate()
            p.wait(timeout=60)
    server.terminate()
    server.wait(timeout=60)
    cluster.remove()


def scenario_413(port, run, data):
    start_time = time.time()
    status = upload(port, run, b"O" * (30 * 1024 * 1024), timeout=30)
    spool = os.path.join(data, "data", "uploads-in-progress")
    left = os.listdir(spool) if os.path.isdir(spool) else []
    print(f"413 via urllib: status {status} in {time.time() - start_time:.3f} s; spool files left {len(left)}")


def scenario_load(port, run, pid):
    body = b"RIFF" + os.urandom(UPLOAD - 4)
    statuses, probes, stop = [], [], threading.Event()

    def client():
        statuses.append(upload(port, run, body, timeout=600))

    # The probes run in a process of their own: in this one, the clients' threads would hold
    # Python's lock and the figures would measure Python, not the server.
    before = rss_kib(pid, "VmRSS")
    probe = subprocess.Popen([sys.executable, __file__, "--probe", str(port)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    peaks = {"RssAnon": 0, "RssFile": 0}

    def sample():
        while not stop.is_set():
            for field in peaks:
                peaks[field] = max(peaks[field], rss_kib(pid, field))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample)
    sampler.start()
    started = time.time()
    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for t in threads: t.start()
    for t in threads: t.join()
    stop.set()
    sampler.join()
    probes = [float(x) for x in probe.communicate("")[0].split()]
    counts = {s: statuses.count(s) for s in set(statuses)}
    print(f"load: {CLIENTS} clients x {UPLOAD} B in {time.time() - started:.1f} s; statuses {counts}; "
          f"RSS before {before // 1024} MiB, peak (VmHWM) {rss_kib(pid, 'VmHWM') // 1024} MiB "
          f"(sampled peaks: anonymous {peaks['RssAnon'] // 1024} MiB, file-backed {peaks['RssFile'] // 1024} MiB); "
          f"healthz {len(probes)} probes, p99 {p99(probes):.1f} ms, max {max(probes):.1f} ms")
    return counts.get(202, 0)


def scenario_stalled(port, run, pid):
    conns = []
    head = (f"POST /v1/runs/{run['id']}/messages?marker=1km HTTP/1.1\r\nHost: x\r\n"
            f"Authorization: Bearer {run['inviteToken']}\r\nContent-Length: {UPLOAD}\r\n\r\n").encode()
    chunk = b"O" * (1 << 20)
    for _ in range(40):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(head)
        conns.append(s)
    for s in conns:
        left = UPLOAD - 400
        while left > 0:
            n = min(left, len(chunk)); s.sendall(chunk[:n]); left -= n
    stalled_at = time.time()
    peak = rss_kib(pid, "VmRSS")
    closed = 0
    for s in conns:
        s.settimeout(60)
        try:
            closed += s.recv(1) == b""
        except Exception:
            pass
        s.close()
    time.sleep(1)
    print(f"stalled: 40 uploads 400 B short; RSS while stalled {peak // 1024} MiB; {closed}/40 closed by the server "
          f"{time.time() - stalled_at:.1f} s after stalling; RSS after {rss_kib(pid, 'VmRSS') // 1024} MiB")


SLOW_CONNECTIONS = int(os.environ.get("SOAK_SLOW_CONNECTIONS", "1000"))


async def trickle_heads(port, count, closed, seconds=60):
    """`count` connections each sending one header byte a second; the time each was closed by
    the server (None: still open after `seconds`, or never connected)."""
    async def one():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            closed.append(None)
            return
        started = time.time()
        head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * seconds
        try:
            for byte in head:
                if time.time() - started > seconds:
                    break
                writer.write(bytes([byte]))
                await writer.drain()
                try:
                    # The read paces the bytes: one a second, or the server's close.
                    if await asyncio.wait_for(reader.read(100), timeout=1.0) == b"":
                        closed.append(time.time() - started)
                        return
                except asyncio.TimeoutError:
                    pass
        except (ConnectionError, OSError):
            closed.append(time.time() - started)
            return
        finally:
            writer.close()
        closed.append(None)

    await asyncio.gather(*(one() for _ in range(count)))


def scenario_slow_headers(port, run, pid):
    """1,000 connections sending one header byte a second, and a normal 25 MB upload meanwhile."""
    body = b"RIFF" + os.urandom(UPLOAD - 4)

    def timed_uploads():
        """Three uploads one after another: their statuses and the median time."""
        statuses, times = [], []
        for _ in range(3):
            started = time.time()
            statuses.append(upload(port, run, body))
            times.append(time.time() - started)
        return statuses, sorted(times)[1]

    alone, unloaded = timed_uploads()
    before = rss_kib(pid, "VmRSS")
    closed = []
    slow = threading.Thread(target=lambda: asyncio.run(trickle_heads(port, SLOW_CONNECTIONS, closed)))
    slow.start()
    # Timed while all of them trickle, before the header timeout (3 s here) closes them.
    time.sleep(1.5)
    connections = len(os.listdir(f"/proc/{pid}/fd"))
    during, loaded = timed_uploads()
    peak = rss_kib(pid, "VmRSS")
    slow.join()
    times = sorted(t for t in closed if t is not None)
    still = len(closed) - len(times)
    print(f"slowheaders: {SLOW_CONNECTIONS} connections at 1 header byte/s (server's open fds 1.5 s in: {connections}); "
          f"a 25 MB upload alone {unloaded:.2f} s {alone}, during {loaded:.2f} s {during} (medians of 3), "
          f"ratio {loaded / unloaded:.2f}; closed by the server: {len(times)}, "
          f"after {times[0] if times else 0:.1f}-{times[-1] if times else 0:.1f} s (median "
          f"{times[len(times) // 2] if times else 0:.1f} s); still open or never connected: {still}; "
          f"RSS {before // 1024} -> {peak // 1024} MiB")


async def trickle_bodies(port, run, count, answers, rate=100, seconds=60):
    """`count` uploads whose bodies come at `rate` bytes a second: each one's answer and when."""
    async def one():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write((f"POST /v1/runs/{run['id']}/messages?marker=1km HTTP/1.1\r\nHost: x\r\n"
                      f"Authorization: Bearer {run['inviteToken']}\r\nContent-Length: 1000000\r\n\r\nRIFF").encode())
        started = time.time()
        try:
            while time.time() - started < seconds:
                writer.write(b"x" * rate)
                await writer.drain()
                try:
                    line = await asyncio.wait_for(reader.readline(), timeout=1.0)
                    answers.append((line.decode().strip() or "closed", time.time() - started))
                    return
                except asyncio.TimeoutError:
                    pass
        except (ConnectionError, OSError):
            answers.append(("reset", time.time() - started))
            return
        finally:
            writer.close()
        answers.append(("still open", time.time() - started))

    await asyncio.gather(*(one() for _ in range(count)))


def scenario_slow_bodies(port, run, data):
    """20 uploads whose bodies come at 100 bytes a second: 408 once behind 500 B/s after 20 s."""
    answers = []
    asyncio.run(trickle_bodies(port, run, 20, answers))
    times = sorted(t for _, t in answers)
    kinds = {a: [a for a, _ in answers].count(a) for a, _ in answers}
    spool = os.path.join(data, "data", "uploads-in-progress")
    print(f"slowbodies: 20 uploads at 100 B/s: {kinds}, after {times[0]:.1f}-{times[-1]:.1f} s; "
          f"spool files left {len(os.listdir(spool))}")


def probe_until_stdin_closes(port):
    """Probes /healthz every 50 ms until stdin closes, then prints each latency in ms."""
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    latencies = []
    while not stop.is_set():
        t = time.time()
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=30).read()
            latencies.append((time.time() - t) * 1000)
        except Exception:
            latencies.append(float("inf"))
        time.sleep(0.05)
    print(" ".join(f"{x:.2f}" for x in latencies))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A PostgreSQL cluster of the scenario's own (scripts/pg-cluster.sh), to stop and start."""

    def __init__(self, directory, listen=(), trusted=None):
        """`listen`: addresses to listen on besides 127.0.0.1; `trusted`: a subnet whose hosts
        connect without a password, as local ones do."""
        self.directory, self.port = directory, free_port()
        self.url = f"postgres://voicemsg@127.0.0.1:{self.port}/postgres"
        self.listen = ",".join(("127.0.0.1",) + tuple(listen))
        self.ctl("init")
        if trusted:
            with open(os.path.join(directory, "data", "pg_hba.conf"), "a") as hba:
                hba.write(f"host all all {trusted} trust\n")
        self.start()

    def ctl(self, *args):
        subprocess.run(["scripts/pg-cluster.sh", args[0], self.directory, *args[1:]], check=True,
                       env=dict(os.environ, PG_LISTEN_ADDRESSES=getattr(self, "listen", "127.0.0.1")))

    def start(self): self.ctl("start", str(self.port))
    def stop(self): self.ctl("stop", "fast")
    def remove(self): self.ctl("remove")

    def sql(self, text):
        return subprocess.run(["psql", self.url, "-Atqc", text], capture_output=True, text=True).stdout.split()


def start_worker(data, url, name, concurrency=1, extra=()):
    log = open(os.path.join(data, name + ".log"), "w+")
    proc = subprocess.Popen([BIN, "worker", "--database", url, "--concurrency", str(concurrency), "--poll-seconds", "1",
                             *extra], stdout=log, stderr=log)
    proc.log_path = log.name
    return proc


def log_lines(proc, since=None, until=None):
    """The worker's log lines, those stamped within [since, until] (epoch seconds) when given."""
    lines = open(proc.log_path).read().splitlines()
    if since is None:
        return lines
    kept = []
    for line in lines:
        try:
            t = calendar.timegm(time.strptime(line[:19], "%Y-%m-%dT%H:%M:%S"))
        except ValueError:
            continue
        if since - 1 <= t <= until + 1:
            kept.append(line)
    return kept


def speech_samples():
    names = ["samples/01-first-km-dead-air.wav", "samples/04-quiet-eight-km.wav", "samples/05-hot-finish-1km.wav",
             "samples/03-five-km.mp3", "samples/06-finish-outdoors.ogg"]
    return [open(n, "rb").read() for n in names]


def wait_all_ready(cluster, count, within):
    deadline = time.time() + within
    while time.time() < deadline:
        out = cluster.sql("select count(*) filter (where status = 'ready'), count(*) filter (where status = 'failed') "
                          "from messages")
        if out and (int(out[0].split("|")[0]) + int(out[0].split("|")[1])) >= count:
            break
        time.sleep(1)
    return cluster.sql("select status, count(*) from messages group by status order by 1")


def completions(procs):
    """message id -> how many times a worker logged its completion."""
    counts = {}
    for proc in procs:
        for line in log_lines(proc):
            if "] completed" in line and "message=" in line:
                mid = line.split("message=")[1].split()[0]
                counts[mid] = counts.get(mid, 0) + 1
    return counts


def scenario_pg_down(data):
    """PostgreSQL stopped OUTAGE s under 2 workers: log lines per worker, SIGTERM during the outage, all ready once."""
    outage = float(os.environ.get("SOAK_PG_OUTAGE_SECONDS", "60"))
    jobs = int(os.environ.get("SOAK_PG_JOBS", "20"))
    cluster = Cluster(os.path.join(data, "pg-down"))
    server, port = start(data, ["--database", cluster.url], data_dir=False)
    procs = []
    try:
        run = create_run(port)
        bodies = speech_samples()
        statuses = [upload(port, run, bodies[i % len(bodies)], marker=f"{i + 1}km") for i in range(jobs)]
        workers = [start_worker(data, cluster.url, f"pgdown-worker{i}") for i in range(2)]
        procs += workers
        while int(cluster.sql("select count(*) from messages where status = 'ready'")[0]) < 3:
            time.sleep(0.5)
        down_at = time.time()
        cluster.stop()
        time.sleep(outage / 2)
        # SIGTERM to one worker while PostgreSQL is still down.
        term_at = time.time()
        workers[0].terminate()
        term_status = workers[0].wait(timeout=120)
        term_seconds = time.time() - term_at
        time.sleep(max(0, outage - (time.time() - down_at)))
        cluster.start()
        up_at = time.time()
        procs.append(start_worker(data, cluster.url, "pgdown-worker2"))
        counts = wait_all_ready(cluster, jobs, 300)
        ready_at = time.time()
        during = [len(log_lines(w, down_at, up_at)) for w in workers]
        after = len([l for l in log_lines(workers[1], up_at, ready_at) if "reachable again" in l])
        done = completions(procs)
        twice = sum(1 for v in done.values() if v > 1)
        results = cluster.sql("select count(*) from results")
        print(f"PostgreSQL down {outage:.0f} s under 2 workers, {jobs} jobs (uploads {dict((s, statuses.count(s)) for s in set(statuses))}): "
              f"log lines during the outage per worker {during}; "
              f"SIGTERM during the outage: exit {term_status} in {term_seconds:.2f} s; "
              f"surviving worker logged the end {after} time(s); all settled {ready_at - up_at:.1f} s after PostgreSQL returned; "
              f"statuses {counts}; results stored {results}; jobs completed more than once {twice}")
        for w in workers:
            for line in log_lines(w, down_at, up_at):
                print("    " + os.path.basename(w.log_path) + ": " + line[:200])
    finally:
        stop_everything(procs, server, cluster)


def long_recording(data, seconds=540):
    """A speech recording `seconds` long (9 minutes by default): a sample looped, 16 kHz mono WAV."""
    path = os.path.join(data, f"speech-{seconds}s.wav")
    if not os.path.exists(path):
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-stream_loop", "-1", "-i", "samples/05-hot-finish-1km.wav",
                        "-t", str(seconds), "-ac", "1", "-ar", "16000", path], check=True)
    return open(path, "rb").read()


def probe(port, count, interval=0.05):
    latencies = []
    for _ in range(count):
        t = time.time()
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=60).read()
            latencies.append((time.time() - t) * 1000)
        except Exception:
            latencies.append(float("inf"))
        time.sleep(interval)
    return latencies


def scenario_busy(data):
    """Every worker encodes a 9-minute recording while /healthz is probed 200 times."""
    workers = int(os.environ.get("SOAK_WORKERS", str(os.cpu_count() or 2)))
    server, port = start(data, ["--workers", str(workers), "--max-upload-bytes", str(64 << 20),
                                "--data-dir", os.path.join(data, "busy-data")], data_dir=False, name="busy-server.log")
    try:
        run = create_run(port)
        body = long_recording(data)
        idle = probe(port, 40)
        ids = []
        for i in range(workers):
            req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/runs/{run['id']}/messages?marker={i + 1}km",
                                         data=body, headers={"Authorization": "Bearer " + run["inviteToken"]})
            ids.append(json.load(urllib.request.urlopen(req, timeout=120))["id"])
        def statuses():
            out = []
            for mid in ids:
                req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/messages/{mid}",
                                             headers={"Authorization": "Bearer " + run["inviteToken"]})
                out.append(json.load(urllib.request.urlopen(req, timeout=60))["status"])
            return out
        while statuses().count("processing") < workers:
            time.sleep(0.2)
        started = time.time()
        busy = probe(port, 200)
        probed = time.time() - started
        during = statuses()
        while any(s in ("queued", "processing") for s in statuses()):
            time.sleep(1)
        print(f"busy workers: {workers} workers each encoding a {len(body) // 32000} s recording; healthz idle p99 "
              f"{p99(idle):.1f} ms; 200 probes while busy (statuses at the end {during}) in {probed:.1f} s: "
              f"p50 {sorted(busy)[100]:.1f} ms, p99 {p99(busy):.1f} ms, max {max(busy):.1f} ms; final {statuses()}")
    finally:
        server.terminate()
        server.wait(timeout=120)


def status_of(port, run, mid):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/messages/{mid}",
                                 headers={"Authorization": "Bearer " + run["ownerToken"]})
    try:
        return json.load(urllib.request.urlopen(req, timeout=60))["status"]
    except urllib.error.HTTPError as e:
        return e.code


def scenario_killed(data):
    """The SQLite server SIGKILLed and restarted 20 times under 500 uploads from 8 clients."""
    uploads = int(os.environ.get("SOAK_KILL_UPLOADS", "500"))
    kills = int(os.environ.get("SOAK_KILLS", "20"))
    port = free_port()
    folder = os.path.join(data, "killed-data")
    args = ["--port", str(port), "--workers", "2", "--lease-seconds", "10", "--data-dir", folder]
    logs, servers = [], []

    def launch():
        server, _ = start(data, args, data_dir=False, name=f"killed-server{len(logs)}.log")
        logs.append(os.path.join(data, f"killed-server{len(logs)}.log"))
        servers.append(server)
        return server

    server = launch()
    run = create_run(port)
    bodies = speech_samples()
    lock, accepted, cut = threading.Lock(), {}, []
    per_client = uploads // 8

    def client(c):
        for i in range(per_client):
            sender = f"c{c}-{i}"
            req = urllib.request.Request(
                f"http://127.0.0.1:{port}/v1/runs/{run['id']}/messages?marker={c + 1}km&sender={sender}",
                data=bodies[(c + i) % len(bodies)], headers={"Authorization": "Bearer " + run["inviteToken"]})
            try:
                answer = json.load(urllib.request.urlopen(req, timeout=60))
                with lock: accepted[sender] = answer["id"]
            except Exception:
                with lock: cut.append(sender)
                time.sleep(0.3)

    threads = [threading.Thread(target=client, args=(c,)) for c in range(8)]
    started = time.time()
    for t in threads: t.start()
    for _ in range(kills):
        time.sleep(random.uniform(0.5, 2.5))
        server.kill()
        server.wait()
        server = launch()
    for t in threads: t.join()
    upload_seconds = time.time() - started
    # Every accepted message ends ready: wait for the last server's workers.
    deadline = time.time() + float(os.environ.get("SOAK_KILL_DRAIN_SECONDS", "1800"))
    pending = dict(accepted)
    final = {}
    while pending and time.time() < deadline:
        for sender, mid in list(pending.items()):
            st = status_of(port, run, mid)
            if st in ("ready", "failed", 404):
                final[sender] = st
                del pending[sender]
        time.sleep(2)
    server.terminate()
    exit_status = server.wait(timeout=120)
    db = os.path.join(folder, "voicemsg.sqlite")
    rows = subprocess.run(["sqlite3", db, "select sender, status from messages"], capture_output=True,
                          text=True).stdout.split()
    by_sender = {}
    for row in rows:
        sender, status = row.split("|")
        by_sender.setdefault(sender, []).append(status)
    integrity = subprocess.run(["sqlite3", db, "pragma integrity_check"], capture_output=True, text=True).stdout.strip()
    completions = {}
    for path in logs:
        for line in open(path).read().splitlines():
            if "] completed" in line and "message=" in line:
                mid = line.split("message=")[1].split()[0]
                completions[mid] = completions.get(mid, 0) + 1
    ready = sum(1 for st in final.values() if st == "ready")
    twice = sum(1 for n in completions.values() if n > 1)
    duplicated = sum(1 for v in by_sender.values() if len(v) > 1)
    cut_left = sum(1 for sender in cut if sender in by_sender)
    cut_partial = sum(1 for sender in cut if sender in by_sender and by_sender[sender][0] not in ("ready", "queued", "processing"))
    spool = os.path.join(folder, "uploads-in-progress")
    leftovers = len(os.listdir(spool)) if os.path.isdir(spool) else 0
    print(f"killed mid-stream: {kills} SIGKILLs under {per_client * 8} uploads from 8 clients in {upload_seconds:.0f} s: "
          f"202 {len(accepted)}, cut off {len(cut)}; of the 202s ready {ready}, other {len(accepted) - ready} "
          f"({dict((v, list(final.values()).count(v)) for v in set(final.values()))}, never settled {len(pending)}); "
          f"messages stored twice for one upload {duplicated}; completions logged twice {twice}; "
          f"cut-off uploads that left a message {cut_left} (committed before the kill, answer lost; "
          f"not whole: {cut_partial}); spool files left {leftovers}; integrity_check {integrity}; "
          f"last server exit after SIGTERM {exit_status}")


def scenario_disk_full(data):
    """The data folder on a 64 MB tmpfs: 507 past the space, nothing half-written, recovery without restart."""
    mount = os.path.join(data, "tmpfs")
    os.makedirs(mount)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", mount], capture_output=True).returncode != 0:
        print("disk full: SKIPPED: mounting a tmpfs is not allowed here (needs root)")
        return
    try:
        server, port = start(data, ["--data-dir", os.path.join(mount, "data")], data_dir=False, name="full-server.log")
        try:
            run = create_run(port)
            body = b"RIFF" + os.urandom(10 * 1000 * 1000 - 4)
            ballast = os.path.join(mount, "ballast")
            with open(ballast, "wb") as f:
                f.write(b"\0" * (24 << 20))
            statuses = []
            for _ in range(12):
                statuses.append(upload(port, run, body))
                if statuses[-1] == 507:
                    break
            spool = os.path.join(mount, "data", "uploads-in-progress")
            leftovers = len(os.listdir(spool)) if os.path.isdir(spool) else 0
            db = os.path.join(mount, "data", "voicemsg.sqlite")
            integrity = subprocess.run(["sqlite3", db, "pragma integrity_check"], capture_output=True, text=True).stdout.strip()
            stored = subprocess.run(["sqlite3", db, "select count(*) from messages"], capture_output=True, text=True).stdout.strip()
            # A delete on the full disk: SQLite needs room in its WAL even to delete.
            mid = subprocess.run(["sqlite3", db, "select id from messages limit 1"], capture_output=True,
                                 text=True).stdout.strip()
            req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/messages/{mid}", method="DELETE",
                                         headers={"Authorization": "Bearer " + run["ownerToken"]})
            try:
                delete_status = urllib.request.urlopen(req, timeout=60).status
            except urllib.error.HTTPError as e:
                delete_status = f"{e.code} {e.read().decode(errors='replace').strip()}"
                if e.code != 507:
                    with open(os.path.join(data, "full-server.log")) as log:
                        delete_status += " / log: " + " | ".join(line.strip()[:300] for line in log if "rror" in line)
            # Space returns: the ballast file goes. The refused delete changed nothing, so it
            # can be asked again.
            os.remove(ballast)
            try:
                delete_again = urllib.request.urlopen(req, timeout=60).status
            except urllib.error.HTTPError as e:
                delete_again = e.code
            again = upload(port, run, body)
            print(f"disk full (64 MB tmpfs, 10 MB uploads): statuses {statuses}; spool files left {leftovers}; "
                  f"stored {stored} messages; integrity_check {integrity}; DELETE of a message on the full disk: {delete_status}; "
                  f"after a 24 MB file is deleted the same DELETE: {delete_again}, the next upload: {again} (same process)")
        finally:
            server.terminate()
            server.wait(timeout=60)
    finally:
        subprocess.run(["umount", mount])


def scenario_pg_restart(data):
    """PostgreSQL restarted twice while 4 worker processes drain 200 jobs."""
    jobs = int(os.environ.get("SOAK_PG_RESTART_JOBS", "200"))
    cluster = Cluster(os.path.join(data, "pg-restart"))
    server, port = start(data, ["--database", cluster.url], data_dir=False, name="pgrestart-server.log")
    procs = []
    try:
        run = create_run(port)
        bodies = speech_samples()
        statuses = [upload(port, run, bodies[i % len(bodies)], marker=f"{i % 40 + 1}km") for i in range(jobs)]
        started = time.time()
        procs += [start_worker(data, cluster.url, f"pgrestart-worker{i}") for i in range(4)]
        restarts = []
        for share in (0.25, 0.6):
            while int(cluster.sql("select count(*) from messages where status = 'ready'")[0]) < jobs * share:
                time.sleep(0.5)
            t = time.time()
            cluster.stop()
            cluster.start()
            restarts.append(f"{time.time() - t:.1f} s at {int(jobs * share)} ready")
        counts = wait_all_ready(cluster, jobs, 1800)
        done = completions(procs)
        attempts = cluster.sql("select attempts, count(*) from messages group by attempts order by 1")
        lines = [len(log_lines(p)) for p in procs]
        print(f"PostgreSQL restarted twice ({'; '.join(restarts)}) under 4 workers draining {jobs} jobs "
              f"(uploads {dict((s, statuses.count(s)) for s in set(statuses))}) in {time.time() - started:.0f} s: "
              f"statuses {counts}; attempts {attempts}; results stored {cluster.sql('select count(*) from results')}; "
              f"jobs completed more than once {sum(1 for v in done.values() if v > 1)}; "
              f"worker processes alive {sum(1 for p in procs if p.poll() is None)}/4; log lines per worker {lines}")
    finally:
        stop_everything(procs, server, cluster)


def scenario_short_leases(data):
    """The shortest lease the flags allow, 2 workers on PostgreSQL, 30 real 60 s messages: 1 attempt each."""
    jobs = int(os.environ.get("SOAK_LEASE_JOBS", "30"))
    cluster = Cluster(os.path.join(data, "pg-lease"))
    server, port = start(data, ["--database", cluster.url, "--max-upload-bytes", str(64 << 20)], data_dir=False,
                         name="lease-server.log")
    procs = []
    try:
        body = long_recording(data, 60)
        run = create_run(port)
        statuses = [upload(port, run, body, marker=f"{i + 1}km") for i in range(jobs)]
        started = time.time()
        procs += [start_worker(data, cluster.url, f"lease-worker{i}", extra=("--lease-seconds", "10"))
                  for i in range(2)]
        counts = wait_all_ready(cluster, jobs, 3600)
        attempts = cluster.sql("select attempts, count(*) from messages group by attempts order by 1")
        lost = sum(1 for p in procs for l in log_lines(p) if "lease lost" in l)
        print(f"short leases (--lease-seconds 10, the shortest allowed; 2 workers on PostgreSQL; {jobs} x 60 s messages, "
              f"uploads {dict((s, statuses.count(s)) for s in set(statuses))}) in {time.time() - started:.0f} s: "
              f"statuses {counts}; attempts|jobs {attempts}; 'lease lost' lines {lost}")
    finally:
        stop_everything(procs, server, cluster)


def scenario_pg_load(data):
    """The load scenario with the queue and audio in PostgreSQL: uploads go in one at a time."""
    cluster = Cluster(os.path.join(data, "pg-load"))
    server, port = start(data, ["--database", cluster.url], data_dir=False, name="pg-load-server.log")
    try:
        accepted = scenario_load(port, create_run(port), server.pid)
        stored = cluster.sql("select count(*) from originals")
        print(f"pgload: {accepted} uploads got 202; PostgreSQL holds {stored[0] if stored else '?'} originals")
    finally:
        stop_everything([], server, cluster)


class WorkerHost:
    """A worker machine: a network namespace joined to this one by a veth pair, its own /24."""

    def __init__(self, index):
        self.name, self.outside, self.inside = f"voicemsg-w{index}", f"vmsw{index}h", f"vmsw{index}n"
        self.host_ip, self.ip = f"10.231.{index}.1", f"10.231.{index}.2"
        for command in (["ip", "netns", "add", self.name],
                        ["ip", "link", "add", self.outside, "type", "veth", "peer", "name", self.inside],
                        ["ip", "link", "set", self.inside, "netns", self.name],
                        ["ip", "addr", "add", f"{self.host_ip}/24", "dev", self.outside],
                        ["ip", "link", "set", self.outside, "up"],
                        ["ip", "netns", "exec", self.name, "ip", "addr", "add", f"{self.ip}/24", "dev", self.inside],
                        ["ip", "netns", "exec", self.name, "ip", "link", "set", self.inside, "up"],
                        ["ip", "netns", "exec", self.name, "ip", "link", "set", "lo", "up"]):
            subprocess.run(command, check=True, capture_output=True)

    def cut(self):
        # The host's end down: the worker's packets are dropped without an error, as a cable
        # pulled at the switch (netem is not in this kernel; TCP just retransmits).
        subprocess.run(["ip", "link", "set", self.outside, "down"], check=True)

    def restore(self):
        subprocess.run(["ip", "link", "set", self.outside, "up"], check=True)

    def remove(self):
        subprocess.run(["ip", "link", "del", self.outside], capture_output=True)
        subprocess.run(["ip", "netns", "del", self.name], capture_output=True)

    def start_worker(self, data, cluster, lease):
        log = open(os.path.join(data, self.name + ".log"), "w+")
        url = f"postgres://voicemsg@{self.host_ip}:{cluster.port}/postgres"
        proc = subprocess.Popen(["ip", "netns", "exec", self.name, BIN, "worker", "--database", url, "--concurrency", "1",
                                 "--poll-seconds", "1", "--lease-seconds", str(lease)], stdout=log, stderr=log)
        proc.log_path = log.name
        return proc


def scenario_partition(data):
    """Three worker hosts in network namespaces; one is cut off mid-job for longer than a lease."""
    if os.geteuid() != 0 or subprocess.run(["ip", "netns", "list"], capture_output=True).returncode != 0:
        print("partition: SKIPPED: needs root and ip netns (network namespaces)")
        return
    jobs, lease, outage = int(os.environ.get("SOAK_PARTITION_JOBS", "24")), 10, 25
    hosts, procs, cluster, server = [], [], None, None
    try:
        hosts = [WorkerHost(i) for i in (1, 2, 3)]
        cluster = Cluster(os.path.join(data, "pg-partition"), listen=[h.host_ip for h in hosts], trusted="10.231.0.0/16")
        server, port = start(data, ["--database", cluster.url, "--max-upload-bytes", str(64 << 20)], data_dir=False,
                             name="partition-server.log")
        body = long_recording(data, 30)
        run = create_run(port)
        statuses = [upload(port, run, body, marker=f"{i + 1}km") for i in range(jobs)]
        procs = [h.start_worker(data, cluster, lease) for h in hosts]
        started = time.time()
        cut_host, cut_proc = hosts[0], procs[0]
        # Cut while the first host is in the middle of a job.
        held = []
        while time.time() - started < 300 and not held:
            held = cluster.sql(f"select id from messages where status = 'processing' and worker_id like '%-{cut_proc.pid}-%'")
            time.sleep(0.2)
        cut_at = time.time()
        cut_host.cut()
        time.sleep(outage)
        cut_host.restore()
        restored_at = time.time()
        counts = wait_all_ready(cluster, jobs, 1800)
        # Late answers have a few seconds after the queue drains to show in the cut worker's log.
        time.sleep(5)
        done = completions(procs)
        taken = cluster.sql("select id || '|' || attempts || '|' || worker_id from messages where id in ("
                            + ",".join(f"'{m}'" for m in held) + ")") if held else []
        cut_log = log_lines(cut_proc)
        rejected = [l for l in cut_log if "lease lost" in l]
        after = [l for l in log_lines(cut_proc, restored_at, time.time()) if "] completed" in l]
        attempts = cluster.sql("select attempts, count(*) from messages group by attempts order by 1")
        print(f"partition: 3 worker hosts (network namespaces, veth, --lease-seconds {lease}), {jobs} x 30 s jobs "
              f"(uploads {dict((s, statuses.count(s)) for s in set(statuses))}); host 1 cut {cut_at - started:.1f} s in, "
              f"for {outage} s, holding {held}; afterwards that job id|attempts|worker {taken}; "
              f"host 1's late answers refused ('lease lost' lines): {len(rejected)} {[l.split('] ')[-1][:60] for l in rejected]}; "
              f"jobs host 1 completed after the link came back: {len(after)}; statuses {counts}; attempts|jobs {attempts}; "
              f"jobs completed more than once {sum(1 for v in done.values() if v > 1)}; completions logged {sum(done.values())}; "
              f"worker processes alive {sum(1 for p in procs if p.poll() is None)}/3")
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                p.wait(timeout=60)
        if server:
            server.terminate()
            server.wait(timeout=60)
        if cluster:
            cluster.remove()
        for h in hosts:
            h.remove()


SCENARIOS = ["413", "stalled", "slowheaders", "slowbodies", "load", "pgdown", "busy", "killed", "diskfull", "pgrestart", "leases", "pgload", "partition"]


def main():
    chosen = [a for a in sys.argv[1:]] or SCENARIOS
    with tempfile.TemporaryDirectory() as data:
        if "pgdown" in chosen:
            scenario_pg_down(data)
        if "busy" in chosen:
            scenario_busy(data)
        if "killed" in chosen:
            scenario_killed(data)
        if "diskfull" in chosen:
            scenario_disk_full(data)
        if "pgrestart" in chosen:
            scenario_pg_restart(data)
        if "leases" in chosen:
            scenario_short_leases(data)
        if "pgload" in chosen:
            scenario_pg_load(data)
        if "partition" in chosen:
            scenario_partition(data)
        if not set(chosen) & {"413", "stalled", "slowheaders", "slowbodies", "load"}:
            return
        # SOAK_SERVE_ARGS: more `serve` options for these scenarios, e.g. another --max-concurrent-uploads.
        proc, port = start(data, os.environ.get("SOAK_SERVE_ARGS", "").split())
        try:
            run = create_run(port)
            if "413" in chosen: scenario_413(port, run, data)
            if "stalled" in chosen: scenario_stalled(port, run, proc.pid)
            if "slowheaders" in chosen: scenario_slow_headers(port, run, proc.pid)
            if "slowbodies" in chosen: scenario_slow_bodies(port, run, data)
            if "load" not in chosen: return
            accepted = scenario_load(port, run, proc.pid)
            out = subprocess.run(["sqlite3", os.path.join(data, "data", "voicemsg.sqlite"),
                                  "select count(*) from messages; pragma integrity_check;"],
                                 capture_output=True, text=True).stdout.split()
            print(f"stored messages {out[0] if out else '?'} (202s: {accepted}); integrity_check {out[1:] or '?'}")
        finally:
            proc.terminate()
            print(f"server exit status after SIGTERM: {proc.wait(timeout=60)}")


if len(sys.argv) == 3 and sys.argv[1] == "--probe":
    probe_until_stdin_closes(int(sys.argv[2]))
else:
    main()
