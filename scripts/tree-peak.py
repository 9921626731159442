#!/usr/bin/env python3
"""Runs a command and prints "PEAK_KIB USER_S SYS_S EXIT": PEAK_KIB is the sum, over the command
and every process it starts, of each one's own peak resident memory (VmHWM, read from /proc
every 5 ms while it lives); never less than the kernel's exact peak of the largest one; the CPU seconds are the command's
and its reaped children's.

GNU time's %M is the largest single process's peak, not the sum: for voicemsg, whose FFmpeg
decoder runs in a child process beside it, it reported the larger of the two and flattered
voicemsg against ffmpeg's one process. Usage: tree-peak.py OUTPUT_FILE COMMAND [ARGS...]
"""
import os, subprocess, sys, time


def children(pid):
    """The pids `pid` has started and not yet reaped (Linux's /proc/PID/task/TID/children)."""
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(c) for c in f.read().split()]
    except OSError:
        pass
    return found


def hwm_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    output, command = sys.argv[1], sys.argv[2:]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    peaks = {}
    while True:
        pending, seen = [proc.pid], []
        while pending:
            pid = pending.pop()
            seen.append(pid)
            pending += children(pid)
        for pid in seen:
            peaks[pid] = max(peaks.get(pid, 0), hwm_kib(pid))
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        time.sleep(0.005)
    # A process's last few milliseconds fall between samples; the kernel's exact figure for the
    # largest one (ru_maxrss) is a floor for the sum.
    peak = max(sum(peaks.values()), usage.ru_maxrss)
    code = os.waitstatus_to_exitcode(status)
    with open(output, "w") as f:
        f.write(f"{peak} {usage.ru_utime:.2f} {usage.ru_stime:.2f} {code}\n")
    sys.exit(code if code >= 0 else 128 - code)

main()
