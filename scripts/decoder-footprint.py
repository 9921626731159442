#!/usr/bin/env python3
"""What one decode costs the isolated decoder child: its CPU time and the most address space it
mapped (VmPeak), the two figures its RLIMIT_CPU and RLIMIT_AS defaults are set against
(docs/operations.md, "What it cannot do").

    scripts/decoder-footprint.py .build/release/voicemsg-decode RECORDING...

Each recording is decoded by the child exactly as voicemsg starts it, with the default limits;
its records are read and thrown away. VmPeak is sampled from /proc (Linux) while the child runs:
it only grows, so the last sample is the peak.
"""
import os
import subprocess
import sys
import time

CPU_SECONDS, ADDRESS_SPACE, MAXIMUM_SECONDS = 30, 512 << 20, 600


def vm_peak_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmPeak:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def footprint(decoder: str, path: str) -> str:
    arguments = [decoder, "--cpu-seconds", str(CPU_SECONDS), "--address-space", str(ADDRESS_SPACE),
                 "--maximum-seconds", str(MAXIMUM_SECONDS), "--parent", str(os.getpid())]
    with open(path, "rb") as recording:
        child = subprocess.Popen(arguments, stdin=recording, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    os.set_blocking(child.stdout.fileno(), False)
    peak = 0
    while True:
        peak = max(peak, vm_peak_kib(child.pid) or 0)
        try:
            while child.stdout.read(1 << 16):
                pass
        except BlockingIOError:
            pass
        finished, status, usage = os.wait4(child.pid, os.WNOHANG)
        if finished:
            break
        time.sleep(0.002)
    cpu = usage.ru_utime + usage.ru_stime
    return f"{os.path.basename(path)}: exit {os.waitstatus_to_exitcode(status)}, CPU {cpu:.2f} s, VmPeak {peak / 1024:.0f} MiB"


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    for path in sys.argv[2:]:
        print(footprint(sys.argv[1], path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
