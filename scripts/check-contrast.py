#!/usr/bin/env python3
"""Checks every colour pairing listed in web/tokens.css against WCAG 2.2.

Lines "AA: --text on --background" need 4.5:1 (body text); lines "UI: --a on --b" need 3:1
(graphics and control borders, WCAG 1.4.11). The values come from the custom properties in
the same file, so a changed colour is checked as it is. Exits 1 on any failure.
"""
import pathlib
import re
import sys

TOKENS = pathlib.Path(__file__).resolve().parent.parent / "web" / "tokens.css"


def luminance(hex_colour: str) -> float:
    value = hex_colour.lstrip("#")
    channels = [int(value[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def main() -> int:
    text = TOKENS.read_text(encoding="utf-8")
    colours = dict(re.findall(r"(--color-[a-z-]+):\s*(#[0-9A-Fa-f]{6})\s*;", text))
    pairs = re.findall(r"(AA|UI):\s*(--color-[a-z-]+) on (--color-[a-z-]+)", text)
    if not pairs:
        print("check-contrast: no 'AA: --a on --b' lines in web/tokens.css", file=sys.stderr)
        return 1
    failures = 0
    for kind, fg, bg in pairs:
        if fg not in colours or bg not in colours:
            print(f"check-contrast: web/tokens.css lists {fg} on {bg}, but one of them has no hex value")
            failures += 1
            continue
        ratio = contrast(colours[fg], colours[bg])
        need = 4.5 if kind == "AA" else 3.0
        verdict = "ok" if ratio >= need else "FAIL"
        failures += verdict == "FAIL"
        print(f"{verdict:4} {ratio:5.2f}:1 (needs {need}) {fg} {colours[fg]} on {bg} {colours[bg]}")
    print(f"check-contrast: {len(pairs) - failures} of {len(pairs)} pairings pass")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
