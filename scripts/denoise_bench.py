#!/usr/bin/env python3
"""Clarity in noise: voicemsg with and without its Denoiser, and bare opusenc, on real speech.

Usage:
  scripts/denoise_bench.py inputs OUT_DIR          writes the speed bench's real-speech inputs
  scripts/denoise_bench.py grid VOICEMSG OUT_DIR   runs the grid and prints the table
  scripts/denoise_bench.py table OUT_DIR/denoise.json   prints the table of an earlier run

The speech is real: the recorded prompts of Debian's asterisk-core-sounds-{en,fr,it,ru}-g722
packages (16 kHz G.722; four voices, three women and a man, in four languages; CC-BY-SA-3.0,
Russian CC-BY-3.0; see THIRD_PARTY_NOTICES.md). Three prompts of each voice are mixed with babble,
pink noise and brown noise at 0, 5, 10 and 15 dB SNR, one second of the noise before the speech
and one after, as a message recorded in a café or on a street. Babble is four other voices
talking at once (Spanish, French, Italian, Russian or English prompts, never the target's
voice). Pink and brown noise are shaped from seeded white noise. The clean prompts, and
1.5-2 s prompts ("vm-tooshort") mixed the same way, are rows of their own.

SNR is the speech's active level against the noise's power: the power mean of the 20 ms frames
of the prompt within 40 dB of its loudest, over the noise's mean power.

Each message goes through `voicemsg encode --denoise off`, `voicemsg encode` (the default, which
denoises noisy recordings) and bare `opusenc --bitrate 24 --comp 10 --speech`; every output is
decoded with opusdec, aligned to the clean speech by cross-correlation, and scored against it
over the span all three kept: PESQ-WB (ITU-T P.862.2, the `pesq` package: used only to measure,
never shipped), STOI (`pystoi`, MIT) and SI-SDR. Runs on all cores; BENCH_DENOISE_QUICK=1 keeps
one prompt per voice.
"""

import functools
import json
import math
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from scipy.io import wavfile
from scipy.signal import resample_poly

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pesq_score import align, load_mono  # noqa: E402

SOUNDS = "/usr/share/asterisk/sounds"
RATE = 48000
TARGETS = ["en_US_f_Allison", "fr_CA_f_June", "it_IT_m_Carlo", "ru_RU_f_IvrvoiceRU"]
# Spanish is Allison again: never babble under her English.
OTHERS = {"en_US_f_Allison": ["fr_CA_f_June", "it_IT_m_Carlo", "ru_RU_f_IvrvoiceRU"],
          "fr_CA_f_June": ["es_MX_f_Allison", "it_IT_m_Carlo", "ru_RU_f_IvrvoiceRU"],
          "it_IT_m_Carlo": ["es_MX_f_Allison", "fr_CA_f_June", "ru_RU_f_IvrvoiceRU"],
          "ru_RU_f_IvrvoiceRU": ["es_MX_f_Allison", "fr_CA_f_June", "it_IT_m_Carlo"]}
PROMPTS = ["vm-intro", "queue-periodic-announce", "dir-instr"]
CLIP = "vm-tooshort"
BABBLE_PROMPTS = ["demo-congrats", "priv-callee-options", "vm-options", "demo-echotest"]
NOISES = ["babble", "pink", "brown"]
SNRS = [0, 5, 10, 15]
SPEECH_LEVEL = -26.0  # dBFS, the clean speech's active level in every message
LEAD = 1.0  # seconds of noise before and after the speech


@functools.lru_cache(maxsize=None)
def prompt(voice, name):
    """A prompt as float64 at 48 kHz (ffmpeg decodes the raw G.722)."""
    path = os.path.join(SOUNDS, voice, name + ".g722")
    raw = subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-f", "g722", "-i", path,
                          "-f", "f32le", "-ac", "1", "-ar", "16000", "-"], check=True, capture_output=True).stdout
    return resample_poly(np.frombuffer(raw, dtype=np.float32).astype(np.float64), 3, 1)


def active_power(x):
    frames = x[: len(x) // 960 * 960].reshape(-1, 960)
    power = (frames ** 2).mean(axis=1)
    return power[power >= power.max() * 1e-4].mean()


def coloured(kind, n, seed):
    """Seeded pink (1/f) or brown (1/f^2) noise, flat below 20 Hz."""
    white = np.random.default_rng(seed).standard_normal(n)
    spectrum = np.fft.rfft(white)
    f = np.maximum(np.fft.rfftfreq(n, 1 / RATE), 20.0)
    spectrum *= f ** (-0.5 if kind == "pink" else -1.0)
    out = np.fft.irfft(spectrum, n)
    return out / np.sqrt((out ** 2).mean())


def babble(target, n, seed):
    """Four other voices at once, each from a random point of a long prompt, at equal power."""
    rng = np.random.default_rng(seed)
    out = np.zeros(n)
    voices = OTHERS[target] + [OTHERS[target][0]]
    for k, voice in enumerate(voices):
        talk = np.concatenate([prompt(voice, name) for name in BABBLE_PROMPTS[k % 2:] + BABBLE_PROMPTS[:k % 2]])
        start = int(rng.integers(0, max(1, len(talk) - n)))
        piece = np.resize(talk[start:], n)
        out += piece / np.sqrt((piece ** 2).mean())
    return out / np.sqrt((out ** 2).mean())


def noise(kind, target, n, seed):
    return babble(target, n, seed) if kind == "babble" else coloured(kind, n, seed)


def message(speech, kind, snr, target, seed, lead=LEAD):
    """(noisy, clean): the speech at SPEECH_LEVEL with `lead` s of noise either side."""
    pad = int(lead * RATE)
    clean = np.concatenate([np.zeros(pad), speech, np.zeros(pad)])
    clean *= 10 ** (SPEECH_LEVEL / 20) / math.sqrt(active_power(speech))
    if kind is None:
        return clean, clean
    n = noise(kind, target, len(clean), seed)
    n *= math.sqrt(active_power(clean[pad:-pad]) / 10 ** (snr / 10))
    return clean + n, clean


def write(path, x):
    wavfile.write(path, RATE, np.clip(x * 32768, -32768, 32767).astype(np.int16))


def si_sdr(reference, estimate):
    a = np.dot(estimate, reference) / np.dot(reference, reference)
    target = a * reference
    residue = estimate - target
    return 10 * math.log10(np.dot(target, target) / np.dot(residue, residue))


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def evaluate(job):
    """Encodes one message three ways and scores each against the clean speech."""
    from pesq import pesq
    from pystoi import stoi

    voicemsg, folder, name, (target, speech_name, kind, snr, seed, lead) = job
    noisy, clean = message(prompt(target, speech_name), kind, snr, target, seed, lead)
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        source = os.path.join(tmp, "in.wav")
        write(source, noisy)
        outputs = {}
        commands = {
            "off": [voicemsg, "encode", source, "-o", os.path.join(tmp, "off.opus"), "--marker", "1km", "--denoise", "off"],
            "on": [voicemsg, "encode", source, "-o", os.path.join(tmp, "on.opus"), "--marker", "1km", "--json"],
            "opusenc": ["opusenc", "--quiet", "--bitrate", "24", "--comp", "10", "--speech", source,
                        os.path.join(tmp, "opusenc.opus")],
        }
        report = None
        for arm, cmd in commands.items():
            if arm == "on":
                result = subprocess.run(cmd, check=True, capture_output=True, text=True)
                report = json.loads(result.stdout)["report"]
            else:
                run(cmd)
            decoded = os.path.join(tmp, arm + ".wav")
            run(["opusdec", "--quiet", "--float", "--rate", "48000", cmd[-1] if arm == "opusenc" else cmd[4], decoded])
            outputs[arm] = (load_mono(decoded), os.path.getsize(cmd[-1] if arm == "opusenc" else cmd[4]))
        reference_path = os.path.join(tmp, "clean.wav")
        write(reference_path, clean)
        reference = load_mono(reference_path)
    aligned = {}
    for arm, (decoded, size) in outputs.items():
        lag, _ = align(reference, decoded)
        aligned[arm] = (decoded, lag, (max(lag, 0), min(lag + len(decoded), len(reference))), size)
    start = max(a[2][0] for a in aligned.values())
    end = min(a[2][1] for a in aligned.values())
    scores = {}
    for arm, (decoded, lag, span, size) in aligned.items():
        r, d = reference[start:end], decoded[start - lag:end - lag]
        scores[arm] = {"pesq": float(pesq(16000, r, d, "wb")), "stoi": float(stoi(r, d, 16000)),
                       "sisdr": si_sdr(r, d), "bytesPerSecond": size / (len(decoded) / 16000)}
    return {"name": name, "scores": scores, "denoise": report["denoise"]}


def jobs(voicemsg, folder, quick):
    """What to evaluate: each message is made by the worker that scores it."""
    prompts = PROMPTS[:1] if quick else PROMPTS
    out = []
    for t, target in enumerate(TARGETS):
        for p, name in enumerate(prompts):
            out.append((voicemsg, folder, ("clean", None, f"{target}/{name}"), (target, name, None, None, 0, LEAD)))
            for kind in NOISES:
                for snr in SNRS:
                    out.append((voicemsg, folder, (kind, snr, f"{target}/{name}"),
                                (target, name, kind, snr, 1000 * t + 10 * p + snr, LEAD)))
        for kind in NOISES:
            for snr in SNRS:
                out.append((voicemsg, folder, ("clip " + kind, snr, f"{target}/{CLIP}"),
                            (target, CLIP, kind, snr, 7000 + 1000 * t + snr, 0.5)))
    return out


def grid(voicemsg, folder):
    quick = os.environ.get("BENCH_DENOISE_QUICK") == "1"
    os.makedirs(folder, exist_ok=True)
    work = jobs(voicemsg, folder, quick)
    results = []
    with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
        for result in pool.map(evaluate, work):
            results.append(result)
            print(f"\rdenoise bench: {len(results)}/{len(work)} messages", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    with open(os.path.join(folder, "denoise.json"), "w") as f:
        json.dump(results, f, indent=1)
    table(results)


def table(results):
    groups = {}
    for r in results:
        kind, snr, _ = r["name"]
        groups.setdefault((kind, snr), []).append(r)
    arms = ["opusenc", "off", "on"]

    def mean(rows, arm, key):
        return sum(r["scores"][arm][key] for r in rows) / len(rows)

    print("condition         n  | PESQ-WB opusenc   off    on  on-off | STOI opusenc   off    on  on-off on-opusenc"
          " | SI-SDR opusenc   off    on | bytes/s off   on opusenc | applied")
    failures = []
    order = [("clean", None)] + [(k, s) for k in NOISES for s in SNRS] + [("clip " + k, s) for k in NOISES for s in SNRS]
    for key in order:
        rows = groups.get(key)
        if not rows:
            continue
        p = {a: mean(rows, a, "pesq") for a in arms}
        s = {a: mean(rows, a, "stoi") for a in arms}
        d = {a: mean(rows, a, "sisdr") for a in arms}
        b = {a: mean(rows, a, "bytesPerSecond") for a in arms}
        applied = sum(r["denoise"]["decision"] == "applied" for r in rows)
        label = key[0] if key[1] is None else f"{key[0]} {key[1]:>2} dB"
        print(f"{label:<17} {len(rows):>2}  |       {p['opusenc']:6.2f} {p['off']:5.2f} {p['on']:5.2f} {p['on'] - p['off']:+6.2f}"
              f"  |    {s['opusenc']:6.3f} {s['off']:5.3f} {s['on']:5.3f} {s['on'] - s['off']:+6.3f} {s['on'] - s['opusenc']:+9.3f}"
              f"  |      {d['opusenc']:6.1f} {d['off']:5.1f} {d['on']:5.1f} | {b['off']:11.0f} {b['on']:4.0f} {b['opusenc']:7.0f} | {applied}/{len(rows)}")
        kind, snr = key
        if kind == "clean":
            if p["on"] - p["off"] < -0.05:
                failures.append(f"clean: PESQ-WB {p['on'] - p['off']:+.2f} (at most 0.05 lower)")
            continue
        if s["on"] - s["off"] < -0.005:
            failures.append(f"{label}: STOI {s['on'] - s['off']:+.3f} against the pipeline without the stage")
        if s["on"] < s["opusenc"] - 0.005:
            failures.append(f"{label}: STOI {s['on']:.3f} below bare opusenc's {s['opusenc']:.3f} by more than 0.005")
    # The gains asked for are per SNR over the three noises, as in the issue's measurements.
    print("mean over babble, pink and brown noise (messages, not clips):")
    for snr in SNRS:
        rows = [r for k in NOISES for r in groups.get((k, snr), [])]
        if not rows:
            continue
        p = mean(rows, "on", "pesq") - mean(rows, "off", "pesq")
        s = mean(rows, "on", "stoi") - mean(rows, "off", "stoi")
        print(f"  {snr:>2} dB: PESQ-WB on-off {p:+.2f}, STOI on-off {s:+.3f}")
        if snr == 15:
            continue
        need = 0.5 if snr == 0 else 0.6
        if p < need:
            failures.append(f"{snr} dB: PESQ-WB {p:+.2f} over the three noises (at least +{need})")
        if snr == 0 and s < 0.02:
            failures.append(f"{snr} dB: STOI {s:+.3f} over the three noises (at least +0.02)")
    print("acceptance: " + ("all met" if not failures else f"{len(failures)} missed"))
    for failure in failures:
        print("  missed: " + failure)


def inputs(folder):
    """The speed bench's rows of real speech: 80 s of one voice in a quiet room, and 60 s of it
    in pink noise at 5 dB SNR."""
    os.makedirs(folder, exist_ok=True)
    voice = "en_US_f_Allison"
    talk = np.concatenate([prompt(voice, "demo-instruct"), prompt(voice, "vm-intro")])[: int(77 * RATE)]
    quiet = os.path.join(folder, "real-80s.wav")
    if not os.path.exists(quiet):
        clean, _ = message(talk, None, None, voice, 0)
        rng_room = 0.6 * coloured("pink", len(clean), 11) + 0.4 * coloured("brown", len(clean), 12)
        room = rng_room * 10 ** ((SPEECH_LEVEL - 45) / 20)
        write(quiet, clean + room)
    noisy = os.path.join(folder, "noisy-60s.wav")
    if not os.path.exists(noisy):
        mixed, _ = message(talk[: 58 * RATE], "pink", 5, voice, 13)
        write(noisy, mixed)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "table":
        with open(sys.argv[2]) as f:
            table([dict(r, name=tuple(r["name"])) for r in json.load(f)])
    elif len(sys.argv) == 3 and sys.argv[1] == "inputs":
        inputs(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "grid":
        grid(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
