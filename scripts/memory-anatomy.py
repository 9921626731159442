#!/usr/bin/env python3
"""Runs a command and prints what its resident memory is made of at its peak, one line:

    peak RSS_KIB KiB: anonymous ANON_KIB, mapped files FILE_KIB (EXECUTABLE_KIB the executable, LIB_KIB libraries: NAME KIB, ...)

Anonymous memory is what the program allocated (its buffers, thread stacks, and the data pages the
loader wrote relocations into); mapped files are the code and read-only data of the executable
and its shared libraries, resident because they ran or sat next to code that ran (the kernel maps
file pages around each fault). The figures come from /proc/PID/status and /proc/PID/smaps,
sampled every 5 ms; the smaps split is read whenever the total reaches a new high.
Only the command's own process is measured, not its children.

Usage: memory-anatomy.py COMMAND [ARGS...]
"""
import collections, os, subprocess, sys, time


def status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile"):
                fields[key] = int(value.split()[0])
    return fields


def file_split(pid):
    """Resident KiB of file pages per mapped file: its pages' Rss less the ones written to (a
    private mapping's written pages, such as relocated data, are anonymous memory)."""
    split, name = collections.Counter(), None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            first = line.split(maxsplit=5)
            if "-" in first[0] and len(first) >= 5 and ":" not in first[0]:
                name = first[5].strip() if len(first) == 6 else ""
            elif name and name.startswith("/") and line.startswith("Rss:"):
                split[name] += int(line.split()[1])
            elif name and name.startswith("/") and line.startswith("Anonymous:"):
                split[name] -= int(line.split()[1])
    return split


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    command = sys.argv[1:]
    executable = os.path.realpath(subprocess.run(["sh", "-c", 'command -v "$1"', "sh", command[0]],
                                                 capture_output=True, text=True).stdout.strip() or command[0])
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    best, best_split = {"VmRSS": 0}, collections.Counter()
    while proc.poll() is None:
        try:
            now = status(proc.pid)
            if now.get("VmRSS", 0) > best["VmRSS"]:
                split = file_split(proc.pid)
                best, best_split = now, split
        except (OSError, IndexError, ValueError):
            pass  # the process ended between the poll and the read
        time.sleep(0.005)
    if proc.returncode != 0:
        sys.exit(f"memory-anatomy: {' '.join(command)} exited with {proc.returncode}")
    own = sum(kib for path, kib in best_split.items() if os.path.realpath(path) == executable)
    libraries = [(os.path.basename(path), kib) for path, kib in best_split.most_common()
                 if os.path.realpath(path) != executable]
    listed = ", ".join(f"{name} {kib}" for name, kib in libraries[:6])
    print(f"peak {best['VmRSS']} KiB: anonymous {best.get('RssAnon', 0)}, mapped files {best.get('RssFile', 0)}"
          f" ({own} the executable, {sum(kib for _, kib in libraries)} libraries: {listed}, ...)")


main()
