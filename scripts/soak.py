#!/usr/bin/env python3
"""Soak scenarios of issue 13 against a real `voicemsg serve` (SQLite, no workers), printing figures.

Scenarios: the 413 read by urllib; N concurrent 25 MB uploads with /healthz probed throughout
(peak RSS, statuses, healthz p99); 40 uploads stalled 400 bytes short (closed by the idle
timeout; RSS afterwards). Not run in `make test`: it takes minutes and gigabytes of disk.
"""
import json, os, socket, subprocess, sys, tempfile, threading, time, urllib.error, urllib.request

BIN = os.environ.get("VOICEMSG_BIN", ".build/debug/voicemsg")
CLIENTS = int(os.environ.get("SOAK_CLIENTS", "100"))
UPLOAD = 25 * 1000 * 1000


def rss_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return -1


def start(data, extra):
    log = open(os.path.join(data, "server.log"), "w+")
    proc = subprocess.Popen([BIN, "serve", "--port", "0", "--host", "127.0.0.1", "--workers", "0",
                             "--data-dir", os.path.join(data, "data"), "--idle-timeout-seconds", "5",
                             "--uploads-per-minute-per-token", "100000"] + extra, stdout=log, stderr=log)
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


def upload(port, run, body, timeout=120):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/runs/{run['id']}/messages?marker=1km", data=body,
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
    started = time.time()
    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for t in threads: t.start()
    for t in threads: t.join()
    probes = [float(x) for x in probe.communicate("")[0].split()]
    counts = {s: statuses.count(s) for s in set(statuses)}
    print(f"load: {CLIENTS} clients x {UPLOAD} B in {time.time() - started:.1f} s; statuses {counts}; "
          f"RSS before {before // 1024} MiB, peak (VmHWM) {rss_kib(pid, 'VmHWM') // 1024} MiB; "
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


def main():
    with tempfile.TemporaryDirectory() as data:
        proc, port = start(data, [])
        try:
            run = create_run(port)
            scenario_413(port, run, data)
            scenario_stalled(port, run, proc.pid)
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
