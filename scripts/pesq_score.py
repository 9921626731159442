#!/usr/bin/env python3
"""PESQ-WB (ITU-T P.862.2) of decoded messages against the source they were made from.

Usage: scripts/pesq_score.py [--json] SOURCE.wav DECODED.wav...

voicemsg trims the dead air and changes the gain, so its output neither starts where the source
starts nor has the same level. PESQ normalizes the level itself but expects the two signals to
start together, so each decoded file is first aligned to the source by cross-correlation. All
files are then scored over the same stretch of the source: the part that every one of them
covers (the span voicemsg kept), so that a trimmed and an untrimmed encoding are judged on the
same speech. Each file's score over its own whole span is reported too.

Needs numpy, scipy and the `pesq` package (pip install pesq).
"""

import argparse
import json
import math
import sys

import numpy as np
from scipy.io import wavfile
from scipy.signal import correlate, resample_poly

PESQ_RATE = 16000  # wide-band PESQ works on 16 kHz audio


def load_mono(path):
    """Reads a WAV (integer or float) as mono float64 at 16 kHz."""
    rate, data = wavfile.read(path)
    if data.dtype.kind in "iu":
        data = data.astype(np.float64) / float(np.iinfo(data.dtype).max)
    else:
        data = data.astype(np.float64)
    if data.ndim == 2:
        data = data.mean(axis=1)
    if rate != PESQ_RATE:
        divisor = math.gcd(rate, PESQ_RATE)
        data = resample_poly(data, PESQ_RATE // divisor, rate // divisor)
    return data


def align(source, decoded):
    """Returns (lag, peak correlation): decoded[n] lines up with source[n + lag]."""
    product = correlate(source, decoded, mode="full", method="fft")
    index = int(np.argmax(product))
    lag = index - (len(decoded) - 1)
    start, end = max(lag, 0), min(lag + len(decoded), len(source))
    a = source[start:end]
    b = decoded[start - lag:end - lag]
    denominator = np.sqrt(np.dot(a, a) * np.dot(b, b))
    return lag, float(np.dot(a, b) / denominator) if denominator > 0 else 0.0


def score(source, decoded, lag, start, end):
    """PESQ-WB of decoded against source[start:end], with decoded shifted by lag."""
    from pesq import pesq  # imported here so --help works without it

    reference = source[start:end]
    degraded = decoded[start - lag:end - lag]
    return float(pesq(PESQ_RATE, reference, degraded, "wb"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("source")
    parser.add_argument("decoded", nargs="+")
    args = parser.parse_args()

    source = load_mono(args.source)
    results = []
    for path in args.decoded:
        decoded = load_mono(path)
        lag, correlation = align(source, decoded)
        span = (max(lag, 0), min(lag + len(decoded), len(source)))
        results.append({"file": path, "decoded": decoded, "lag": lag, "span": span,
                        "correlation": correlation})

    common = (max(r["span"][0] for r in results), min(r["span"][1] for r in results))
    if common[1] - common[0] < PESQ_RATE // 4:
        sys.exit(f"pesq_score: the files share less than 0.25 s of {args.source}; "
                 "they do not seem to be encodings of it")

    report = {"source": args.source,
              "commonSpanSeconds": [common[0] / PESQ_RATE, common[1] / PESQ_RATE],
              "results": []}
    for r in results:
        report["results"].append({
            "file": r["file"],
            "lagSeconds": r["lag"] / PESQ_RATE,
            "correlation": round(r["correlation"], 4),
            "spanSeconds": [r["span"][0] / PESQ_RATE, r["span"][1] / PESQ_RATE],
            "pesqWB": round(score(source, r["decoded"], r["lag"], *common), 3),
            "pesqWBOwnSpan": round(score(source, r["decoded"], r["lag"], *r["span"]), 3),
        })

    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"source {args.source}; common span {report['commonSpanSeconds'][0]:.2f}"
          f"-{report['commonSpanSeconds'][1]:.2f} s")
    print(f"{'file':<40} {'lag s':>8} {'corr':>6} {'PESQ-WB':>8} {'own span':>9}")
    for r in report["results"]:
        print(f"{r['file']:<40} {r['lagSeconds']:>8.4f} {r['correlation']:>6.3f} "
              f"{r['pesqWB']:>8.3f} {r['pesqWBOwnSpan']:>9.3f}")


if __name__ == "__main__":
    main()
