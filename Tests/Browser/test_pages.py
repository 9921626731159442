#!/usr/bin/env python3
"""Browser tests of the recording page and the runner's page, in both engines a phone's browser
can be: Chromium, and WebKitGTK (Safari's engine, with Safari's rule that sound needs a tap).

Starts a real `voicemsg-server serve` on loopback with a temporary data folder, creates runs
through the API, and drives each engine through Selenium (browsers.py) with a microphone that
plays a real speech WAV made by espeak-ng: Chromium's fake device reads the file; in WebKitGTK
the test's microphone shim plays it to the page's own MediaRecorder (shim/microphone.js). ffmpeg
judges the processed audio.

Two scenarios start servers of their own: `countdown` with --max-recording-seconds 8, and
`https` with --tls-cert/--tls-key and a self-signed certificate made by openssl, opened (in
Chromium) under a host name that is not localhost, as a phone on the LAN opens it.

Every scenario reads the page's own error and CSP-violation events and console errors
(shim/watch.js), and the failed requests (Chromium's console; in WebKitGTK the test origin's
answers), and fails on any that it does not expect. Screenshots go to out/screenshots/ENGINE/:
NAME-phone.png (375x667) in both engines, and in Chromium also NAME-phone-full.png (the whole
page at 375 px wide) and NAME-desktop.png (1280x800).

    scripts/browser-tests.sh                      # installs what is missing, then runs both files
    python3 Tests/Browser/test_pages.py --server .build/debug/voicemsg-server [--engine webkit] [--only record]
"""
import base64
import json
import re
import ssl
import subprocess
import sys
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import harness
from browsers import Unsupported
from harness import ROOT
from harness import Server, judge_audio, manifest, played_report, run, run_messages, upload, wait_settled


# A recording of the kind an iPhone's Voice Memos makes (samples/README.md): AAC-LC in an M4A.
IPHONE_SAMPLE = ROOT / "samples/07-halfway-iphone.m4a"


# ---------------------------------------------------------------------------------------------
# What a person does with an audio player's own controls

def press_play(browser, element_id):
    """Taps the play button of an <audio controls> element, at its left end, as a person does:
    with Safari's rule, a play() from a script would be refused."""
    player = browser.el(element_id)
    browser.js("arguments[0].scrollIntoView({block: 'center'})", player)
    left, top, height = browser.js("var r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.height]", player)
    tap = ActionBuilder(browser.driver)
    tap.pointer_action.move_to_location(int(left + 24), int(top + height / 2)).click()
    tap.perform()


def plays(browser, element_id, timeout=10):
    """Whether the player's time moves past 0.3 s after a tap on its play button."""
    press_play(browser, element_id)
    try:
        browser.wait(lambda: browser.js("return document.getElementById(arguments[0]).currentTime", element_id) > 0.3,
                     timeout=timeout, what=f"{element_id} to play")
    except AssertionError:
        return False
    browser.js("document.getElementById(arguments[0]).pause()", element_id)
    return True


def judge_webm_in_browser(results, scenario, browser, run_, message_id):
    """The browser decodes the message served as WebM (?container=webm) and as Ogg to the same
    sound at 48 kHz: WebM's codec delay and discard padding are honoured as the Ogg file's
    pre-skip and end trimming are. Safari on iOS 17.4 to 18.3 gets WebM. Chromium does it to the
    sample. WebKitGTK decodes both through GStreamer, which ends the WebM one sample later (it
    rounds the discard padding through nanoseconds): there the two must agree to the sample but
    in the last 10 ms."""
    decoded = browser.js_async("""
      const [id, token, done] = arguments;
      const decode = (query) => fetch(`/v1/messages/${id}/audio${query}`, {headers: {Authorization: `Bearer ${token}`}})
        .then((response) => response.arrayBuffer())
        .then((bytes) => new OfflineAudioContext(1, 48000, 48000).decodeAudioData(bytes))
        .then((buffer) => buffer.getChannelData(0));
      Promise.all([decode(""), decode("?container=webm")]).then(([ogg, webm]) => {
        const common = Math.min(ogg.length, webm.length);
        let worst = 0, product = 0, oggEnergy = 0, webmEnergy = 0;
        for (let i = 0; i < common; i++) {
          worst = Math.max(worst, Math.abs(ogg[i] - webm[i]));
          product += ogg[i] * webm[i];
          oggEnergy += ogg[i] * ogg[i];
          webmEnergy += webm[i] * webm[i];
        }
        const correlation = product / Math.sqrt(oggEnergy * webmEnergy);
        done({ogg: ogg.length, webm: webm.length, difference: worst, correlation});
      }, (error) => done({error: String(error)}));
    """, message_id, run_["ownerToken"])
    if "error" in decoded:
        results.check(scenario, f"{browser.name} decodes the WebM and the Ogg file", False, decoded["error"])
    elif browser.engine == "chromium":
        results.check(scenario, "Chromium decodes the WebM to the Ogg file's samples, to the sample",
                      decoded["webm"] == decoded["ogg"] and decoded["difference"] < 1e-3, str(decoded))
    else:
        results.check(scenario, f"{browser.name} decodes the WebM to the Ogg file's sound, lined up",
                      abs(decoded["webm"] - decoded["ogg"]) <= 1 and decoded["correlation"] >= 0.999, str(decoded))


# ---------------------------------------------------------------------------------------------
# Steps on the recording page

def open_recording_page(browser, base, run_):
    browser.open(f"{base}/r/{run_['id']}#invite={run_['inviteToken']}")
    browser.wait(lambda: browser.visible("recorder"), what="the recorder to show")


def choose_preset(browser, marker):
    label = browser.driver.find_element(By.CSS_SELECTOR, f'input[name="preset"][value="{marker}"]')
    browser.js("arguments[0].click()", label)


def type_name(browser, name):
    field = browser.el("sender-name")
    field.clear()
    field.send_keys(name)


def record_for(browser, seconds):
    browser.el("record-button").click()
    browser.wait(lambda: browser.visible("stop-button"), what="recording to start")
    time.sleep(seconds)


def record_until(browser, clock, timeout=30):
    """Keeps recording until the page's timer reads `clock` (as "0:06") or more: a busy machine
    may tick past it."""
    def seconds(text):
        minutes, _, rest = text.partition(":")
        return int(minutes) * 60 + int(rest) if minutes.isdigit() and rest.isdigit() else -1
    browser.wait(lambda: seconds(browser.text("timer")) >= seconds(clock), timeout=timeout, what=f"the timer to reach {clock}")


def stop(browser):
    browser.el("stop-button").click()
    browser.wait(lambda: browser.visible("preview"), what="the preview")


def wait_sent_status(browser, timeout=60):
    """Waits until the sent card's badge says Ready, Played or Failed; returns its text."""
    browser.wait(lambda: browser.visible("sent"), what="the sent card")
    browser.wait(lambda: browser.text("sent-badge") in ("Ready", "Played", "Failed"), timeout=timeout,
                 what="the message to be ready or failed")
    return browser.text("sent-badge")


def saved_recording(browser, run_id, path):
    """The recording the page keeps in IndexedDB for this run, written to `path`, and the length
    the page gives it: (path, seconds)."""
    encoded, seconds = browser.js_async("""
      const done = arguments[arguments.length - 1];
      const open = indexedDB.open('voicemsg', 1);
      open.onsuccess = () => {
        const get = open.result.transaction('recordings').objectStore('recordings').get(arguments[0]);
        get.onsuccess = () => {
          const bytes = get.result && get.result.bytes ? new Uint8Array(get.result.bytes) : new Uint8Array();
          let text = "";
          for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
          done([btoa(text), get.result ? get.result.durationSeconds : null]);
        };
      };
    """, run_id)
    path.write_bytes(base64.b64decode(encoded))
    return path, seconds


def recorded_seconds(path):
    """The length of a recording by ffprobe, decoding it whole (a recorder's WebM states none)."""
    output = run(["ffmpeg", "-hide_banner", "-i", str(path), "-f", "null", "-"]).stderr
    times = re.findall(r"time=(\d+):(\d+):([\d.]+)", output)
    hours, minutes, seconds = times[-1] if times else (0, 0, 0)
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def recorder_fault(browser, damaged, ffmpeg_seconds, engine_seconds=None, recorded_for=None):
    """Whether WebKitGTK's MediaRecorder (see docs/operations.md, "The web pages in a real
    browser") made a file that is not the recording: packets ffmpeg cannot decode, a length its
    own engine and ffmpeg disagree on by more than a quarter of a second, or half a second or
    more short of the time it ran. Chromium's recorder is held to the recording itself."""
    if browser.engine != "webkit":
        return False
    disagree = engine_seconds is not None and abs(engine_seconds - ffmpeg_seconds) > 0.25
    short = recorded_for is not None and ffmpeg_seconds < recorded_for - 0.5
    return bool(damaged) or disagree or short


def check_damaged_refusal(results, name, browser, damaged, status, error, expected):
    """WebKitGTK's recorder on this machine writes MP4 fragments whose packets are out of step
    with their index, from one recording to the next (docs/operations.md, "The browser tests"); a
    real iPhone records through Apple's encoder. When ffmpeg finds `damaged` packets it cannot
    decode in what the page recorded, the server must refuse it as damaged and the page say so in
    plain words; the check the scenario meant (`expected`) is skipped, saying why."""
    shown = browser.text("failed") if browser.visible("failed") else ""
    results.check(name, "a recording the browser damaged is refused, and the page says so in plain words",
                  status == "Failed" and any(word in (error or "") for word in ("damaged", "truncated or corrupt"))
                  and "damaged" in shown
                  and "record it again" in shown.lower(), f"{error!r}; {shown.strip()!r}")
    results.skip(name, expected, f"{browser.name}'s recorder made {damaged} packets ffmpeg cannot decode")


def recorded_the_mock_device(browser, path):
    """Whether WebKitGTK's MediaRecorder kept its mock capture device's tones in place of the
    stream the microphone shim gave the page (docs/operations.md, "The browser tests"). The
    test's speech starts after half a second of digital silence and pauses 0.4 s between its
    sentences; the mock device's tone never drops below -25 dBFS. So a recording of the speech
    (or of the silence) has a quarter of a second below -50 dBFS, by ffmpeg, and the tones have
    none. Chromium's recorder is held to the recording itself."""
    if browser.engine != "webkit":
        return False
    output = subprocess.run(["ffmpeg", "-i", str(path), "-af", "silencedetect=noise=-50dB:duration=0.25", "-f", "null", "-"],
                            capture_output=True, text=True).stderr
    return "silence_start" not in output


def check_tones_verdict(results, name, browser, status, error, expected):
    """The mock device's tones are a beep a second over a steady tone. The server's speech test
    has refused them every time here (their longest burst, 120 to 140 ms, is short of the 150 ms
    of voiced sound it asks for), but a longer beep could pass it. The page must show the verdict
    the server gave: a refusal as no speech, in plain words, or the message ready. The check the
    scenario meant (`expected`) is skipped, saying why."""
    shown = browser.text("failed") if browser.visible("failed") else ""
    if status == "Failed":
        results.check(name, "the tones the browser recorded in place of the speech are refused as no speech, in plain words",
                      "no speech found" in (error or "") and "hear anyone speaking" in shown, f"{error!r}; {shown.strip()!r}")
    else:
        results.check(name, "the tones the browser recorded in place of the speech were taken as speech, and the page says ready",
                      status in ("Ready", "Played") and not error, f"badge {status!r}; {error!r}")
    results.skip(name, expected, f"{browser.name}'s recorder kept its mock device's tones, not the stream the page gave it")


def check_recorder_verdict(results, name, browser, damaged, tones, status, error, expected):
    """When WebKitGTK's recorder damaged the file or kept its mock device's tones, checks the
    server's verdict on what it made in place of `expected`, which is skipped, and returns
    True; else returns False, and the caller checks `expected` itself."""
    if damaged:
        check_damaged_refusal(results, name, browser, damaged, status, error, expected)
    elif tones:
        check_tones_verdict(results, name, browser, status, error, expected)
    return bool(damaged or tones)


def undecodable_packets(path):
    """How many of a recording's packets ffmpeg's decoder refuses."""
    output = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "null", "-"], capture_output=True, text=True).stderr
    return output.count("Error while decoding")


def message_id_on_page(browser, run_id):
    """The message id the page keeps in IndexedDB for this run."""
    return browser.js_async("""
      const done = arguments[arguments.length - 1];
      const open = indexedDB.open('voicemsg', 1);
      open.onsuccess = () => {
        const get = open.result.transaction('recordings').objectStore('recordings').get(arguments[0]);
        get.onsuccess = () => done(get.result ? get.result.messageID : null);
        get.onerror = () => done(null);
      };
      open.onerror = () => done(null);
    """, run_id)


# ---------------------------------------------------------------------------------------------
# Scenarios

def scenario_record_and_send(ctx):
    name = "record-and-send"
    results, server = ctx.results, ctx.server
    run_ = ctx.plan_run(server, "Berlin Marathon", 42195)
    browser = ctx.open_browser(microphone=ctx.fixtures["speech"])
    try:
        open_recording_page(browser, browser.base(server), run_)
        browser.screenshots(ctx.shots, f"{name}-0-idle")
        browser.check_fits(results, name, "the recording page")
        results.check(name, "the page shows the run's title and planned distance",
                      browser.text("run-title") == "Berlin Marathon" and "42.2 km" in browser.text("run-distance"),
                      f"{browser.text('run-title')!r}, {browser.text('run-distance')!r}")
        presets = [e.get_attribute("value") for e in browser.driver.find_elements(By.CSS_SELECTOR, 'input[name="preset"]')]
        results.check(name, "the presets are offered", presets == ["1km", "5km", "halfway", "finish-1km", "finish"], str(presets))

        # A typed point resolves through the server, and a bad one shows the server's reason.
        browser.el("marker-custom").send_keys("finish-2km")
        browser.wait(lambda: "Plays at" in browser.text("marker-help"), what="the typed point to resolve")
        results.check(name, "a typed point shows where it resolves", "40.2 km" in browser.text("marker-help"),
                      browser.text("marker-help"))
        browser.el("marker-custom").clear()
        browser.el("marker-custom").send_keys("5xx")
        browser.wait(lambda: "invalid distance marker" in browser.text("marker-help"), what="the refusal")
        results.check(name, "a bad point is refused with the server's reason",
                      "expected a distance in m, km or mi" in browser.text("marker-help")
                      and browser.el("marker-custom").get_attribute("aria-invalid") == "true",
                      browser.text("marker-help"))
        browser.el("marker-custom").clear()

        # By keyboard alone: Tab to the presets, arrows to "halfway", Tab on to the name, then
        # to Record, and Enter.
        keys = ActionChains(browser.driver)
        browser.el("run-title").click()  # where sequential focus navigation starts
        for _ in range(3):
            keys.send_keys(Keys.TAB).perform()
            if browser.js("return document.activeElement.name") == "preset":
                break
        ring = browser.js("var s = document.activeElement.nextElementSibling; var c = getComputedStyle(s);"
                          "return [document.activeElement.value, c.outlineStyle, c.outlineWidth]")
        results.check(name, "Tab reaches the presets, with a visible focus ring", ring[0] == "1km" and ring[1] == "solid"
                      and ring[2] != "0px", str(ring))
        keys.send_keys(Keys.SPACE, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT).perform()
        results.check(name, "arrow keys choose halfway, which resolves to 21.1 km",
                      "Plays at 21.1 km" in browser.text("marker-help"), browser.text("marker-help"))
        browser.js("document.getElementById('marker-custom').focus()")
        keys.send_keys(Keys.TAB).perform()
        results.check(name, "Tab goes on to the name", browser.js("return document.activeElement.id") == "sender-name")
        keys.send_keys("Ann", Keys.TAB).perform()
        results.check(name, "Tab goes on to Record", browser.js("return document.activeElement.id") == "record-button")
        keys.send_keys(Keys.ENTER).perform()
        browser.wait(lambda: browser.visible("stop-button"), what="recording to start from the keyboard")
        results.check(name, "Enter starts recording and focus moves to Stop",
                      browser.js("return document.activeElement.id") == "stop-button")
        time.sleep(1.5)
        results.check(name, "the recording indicator pulses while recording",
                      "is-recording" in browser.el("recorder").get_attribute("class")
                      and browser.js("return getComputedStyle(document.querySelector('.recording-dot')).animationName") == "pulse")
        results.check(name, "the timer is in monospace mm:ss",
                      re.fullmatch(r"\d+:\d\d", browser.text("timer")) is not None
                      and "mono" in browser.js("return getComputedStyle(document.getElementById('timer')).fontFamily"),
                      browser.text("timer"))
        # The loudest the meter shows over a second (words have pauses between them).
        levels = []
        for _ in range(20):
            levels.append(browser.js("return new DOMMatrix(getComputedStyle(document.getElementById('level-fill')).transform).a"))
            time.sleep(0.05)
        results.check(name, "the level meter moves with the voice", max(levels) > 0.2,
                      f"largest scaleX {max(levels):.2f} of {len(levels)} looks")
        browser.screenshots(ctx.shots, f"{name}-1-recording", "recorder")
        record_until(browser, "0:06")
        keys.send_keys(Keys.ENTER).perform()
        browser.wait(lambda: browser.visible("preview"), what="the preview after Enter on Stop")
        results.check(name, "after Stop, focus moves to Send", browser.js("return document.activeElement.id") == "send-button")
        time.sleep(0.5)
        level = browser.js("return new DOMMatrix(getComputedStyle(document.getElementById('level-fill')).transform).a")
        results.check(name, "after Stop, the level meter is empty and stays so", level == 0, f"scaleX {level}")
        # The page gives the recording's own length (whole seconds, rounded down), as ffmpeg
        # decodes the bytes it kept: the recorder ran 6 s, the recording is a little shorter, as
        # it starts at the microphone's first sound.
        recorded, page_seconds = saved_recording(browser, run_["id"], ctx.folder / f"{ctx.engine}-recorded")
        length = recorded_seconds(recorded)
        shown = f"0:{int(page_seconds or 0):02d}"
        timer = browser.text("timer")
        damaged = undecodable_packets(recorded)
        tones = recorded_the_mock_device(browser, recorded)
        said = "about 6 s were recorded, and the page says the recording's own length (ffmpeg)"
        evidence = f"{length:.2f} s by ffmpeg, {page_seconds} s on the page; timer {timer}"
        fault = ("kept its mock device's tones, not the speech" if tones
                 else "made a file its own decoder and ffmpeg disagree on" if recorder_fault(browser, damaged, length, page_seconds)
                 else None)
        if fault:
            results.skip(name, said, f"{browser.name}'s recorder {fault}: {evidence}")
            results.check(name, "the timer shows the length the page has", timer == shown, evidence)
        else:
            results.check(name, said, 5.0 <= length <= 7.2 and page_seconds is not None and abs(page_seconds - length) <= 0.25
                          and timer == shown, evidence)
        meta = browser.text("preview-meta")
        # A friend never sees a format name: the preview gives the length and the size only.
        results.check(name, "the preview gives the length and size, and no format name",
                      shown in meta and "KB" in meta
                      and not any(word in meta.lower() for word in ("webm", "ogg", "mp4", "opus", "aac", "wav", "mp3")), meta)
        # Preview: tap its play button, and see the time advance.
        results.check(name, "the preview plays", plays(browser, "preview-audio"))
        browser.screenshots(ctx.shots, f"{name}-2-preview", "preview")

        # A slow uplink (20 KB/s), so the progress bar can be seen moving.
        browser.throttle_upload(20000)
        browser.el("send-button").click()
        seen = set()
        deadline = time.time() + 30
        while time.time() < deadline and not browser.visible("sent"):
            seen.add(browser.js("return document.getElementById('upload-bar').getAttribute('aria-valuenow')"))
            if len(seen) == 3:
                browser.screenshots(ctx.shots, f"{name}-3-sending", "upload")
            time.sleep(0.1)
        browser.throttle_upload(None)
        between = sorted(int(v) for v in seen if v and 0 < int(v) < 100)
        if browser.engine == "chromium":
            results.check(name, "the progress bar moves during the upload", len(between) >= 2, f"saw {between}%")
        else:
            # WebKitGTK's network stack reports an upload of 80 KB in one or two steps, whatever
            # the uplink: the bar is there while it goes, and ends full.
            results.check(name, "the progress bar shows the upload while it goes", bool(seen - {None}), f"saw {sorted(seen - {None})}%")
        status = wait_sent_status(browser)
        browser.screenshots(ctx.shots, f"{name}-4-sent", "sent")
        message_id = message_id_on_page(browser, run_["id"])
        messages = run_messages(server, run_)
        results.check(name, "exactly one message, at halfway, from Ann",
                      len(messages) == 1 and messages[0]["marker"] == "50%" and messages[0]["sender"] == "Ann"
                      and messages[0]["id"] == message_id, json.dumps(messages)[:300])
        error = messages[0].get("error", "") if messages else ""
        source = ctx.fixtures["speech"]
        expected = f"the recorded message reaches ready (sending {IPHONE_SAMPLE.name} instead)"
        if check_recorder_verdict(results, name, browser, damaged, tones, status, error, expected):
            # The send path goes on with an iPhone's kind of recording, chosen as a file.
            browser.el("again-button").click()
            browser.wait(lambda: browser.visible("recorder"), what="the recorder again")
            browser.el("file-input").send_keys(str(IPHONE_SAMPLE))
            browser.wait(lambda: browser.visible("preview"), what="the preview of the iPhone recording")
            browser.el("send-button").click()
            status = wait_sent_status(browser)
            message_id = message_id_on_page(browser, run_["id"])
            message = next((m for m in run_messages(server, run_) if m["id"] == message_id), {})
            error = message.get("error", "")
            source = ctx.folder / "iphone-sample.wav"
            run(["ffmpeg", "-v", "error", "-y", "-i", str(IPHONE_SAMPLE), "-c:a", "pcm_s16le", str(source)])
        results.check(name, "the message reaches ready, followed live on the page", status in ("Ready", "Played"),
                      f"badge {status!r}; {error}")
        if status == "Failed":
            results.check(name, "a failure is explained in plain words only",
                          browser.visible("failed") and browser.text("failed-text")
                          and (error or "") not in browser.text("failed") and message_id not in browser.text("failed"),
                          browser.text("failed"))
        else:
            browser.wait(lambda: browser.visible("processed"), timeout=10, what="the processed player")
            results.check(name, "the processed version plays on the page", plays(browser, "processed-audio"))
            browser.screenshots(ctx.shots, f"{name}-5-ready", "sent")
            asked = browser.js("return performance.getEntriesByType('resource').map(e => e.name)"
                               ".filter(n => n.includes('/v1/messages/' + arguments[0] + '?wait='))", message_id)
            results.check(name, "the page follows the message by long poll, giving the status it shows",
                          any(re.search(r"\?wait=25&status=(queued|processing)$", n) for n in asked),
                          str([n.split("?")[1] for n in asked]))
            judge_audio(results, name, server, run_, message_id, source, ctx.folder)
            # The runner's app reports it played; the sender's page hears it without a reload.
            played = played_report(server, run_, message_id, 21100, 6727)
            browser.wait(lambda: browser.text("sent-badge") == "Played", timeout=30, what="the played report on the page")
            results.check(name, "the sender's page says where and when the runner heard it",
                          played == 200 and "Played at 21.1 km, 1:52:07 into the run" in browser.text("sent-detail"),
                          f"HTTP {played}; {browser.text('sent-detail')!r}")
            said = f"{browser.text('sent-heading')} {browser.text('sent-text')} {browser.text('processed-label')}"
            results.check(name, "once played, the page speaks of it in the past, not as still to come",
                          "heard your message" in said and "will hear" not in said, said)
            browser.screenshots(ctx.shots, f"{name}-6-played", "sent")
            browser.check_fits(results, name, "the sent card")
        # The refused typed point is a 400 by design: the page shows the server's reason.
        browser.check_console(results, name, allowed=[r"/markers/resolve\?marker=5xx"])
    finally:
        browser.quit()


def scenario_failure(ctx):
    name = "failure"
    results, server = ctx.results, ctx.server
    run_ = ctx.plan_run(server, "Parkrun", 5000)
    browser = ctx.open_browser(microphone=ctx.fixtures["silence"])
    try:
        open_recording_page(browser, browser.base(server), run_)
        choose_preset(browser, "finish")
        type_name(browser, "Bo")
        record_for(browser, 4)
        results.check(name, "a silent microphone is flagged while recording", browser.visible("level-warning"),
                      browser.text("level-warning"))
        browser.screenshots(ctx.shots, f"{name}-1-silent-microphone", "recorder")
        stop(browser)
        recorded = saved_recording(browser, run_["id"], ctx.folder / f"{ctx.engine}-silent")[0]
        damaged, tones = undecodable_packets(recorded), recorded_the_mock_device(browser, recorded)
        browser.el("send-button").click()
        status = wait_sent_status(browser)
        messages = run_messages(server, run_)
        error = messages[0].get("error", "") if messages else ""
        shown = browser.text("failed")
        expected = "recorded silence fails with the no-speech reason in plain words"
        if not check_recorder_verdict(results, name, browser, damaged, tones, status, error, expected):
            results.check(name, expected,
                          status == "Failed" and "no speech" in (error or "") and "couldn’t hear anyone speaking" in shown,
                          f"badge {status!r}; {error!r}; {shown.strip()[:200]}")
        results.check(name, "the sender sees no server wording, no message id",
                      "no speech" not in shown and "damaged:" not in shown and messages and messages[0]["id"] not in shown,
                      shown.strip()[:200])
        browser.screenshots(ctx.shots, f"{name}-2-recorded-silence", "sent")

        # The same failure today, through the file input with a WAV libsndfile reads.
        browser.el("again-button").click()
        browser.wait(lambda: browser.visible("recorder"), what="the recorder again")
        browser.el("file-input").send_keys(str(ctx.fixtures["silence"]))
        browser.wait(lambda: browser.visible("preview"), what="the preview of the file")
        browser.el("send-button").click()
        status = wait_sent_status(browser)
        shown = browser.text("failed")
        message_id = message_id_on_page(browser, run_["id"])
        error = next((m.get("error") or "" for m in run_messages(server, run_) if m["id"] == message_id), "")
        results.check(name, "a silent WAV fails with the no-speech reason in plain words",
                      status == "Failed" and "couldn’t hear anyone speaking" in shown and "no speech found" in error,
                      f"badge {status!r}; {error!r}; {shown.strip()[:200]}")
        results.check(name, "the failure offers a way to try again",
                      browser.visible("again-button") and browser.text("again-button") == "Record again")
        browser.screenshots(ctx.shots, f"{name}-3-no-speech", "sent")
        browser.check_console(results, name)
    finally:
        browser.quit()


def scenario_no_microphone(ctx):
    name = "no-microphone"
    results, server = ctx.results, ctx.server
    run_ = ctx.plan_run(server, "Sunday long run", 30000)
    browser = ctx.open_browser(microphone=ctx.fixtures["speech"], deny_microphone=True)
    try:
        open_recording_page(browser, browser.base(server), run_)
        browser.el("record-button").click()
        browser.wait(lambda: browser.visible("mic-problem"), what="the microphone explanation")
        results.check(name, "a denied permission is explained as such",
                      browser.text("mic-problem-title") == "Microphone permission was denied"
                      and "choose a recording" in browser.text("mic-problem-text").lower(),
                      browser.text("mic-problem"))
        results.check(name, "choosing a recording is offered prominently",
                      "button-primary" in browser.el("choose-file").get_attribute("class"))
        browser.screenshots(ctx.shots, f"{name}-1-denied", "recorder")

        choose_preset(browser, "5km")
        type_name(browser, "Cy")
        browser.el("file-input").send_keys(str(ctx.fixtures["memo"]))
        browser.wait(lambda: browser.visible("preview"), what="the preview of the M4A")
        results.check(name, "the chosen M4A is previewed", "voice-memo.m4a" in browser.text("preview-meta"),
                      browser.text("preview-meta"))
        browser.el("send-button").click()
        status = wait_sent_status(browser)
        messages = run_messages(server, run_)
        results.check(name, "the M4A is sent: one message at 5 km from Cy",
                      len(messages) == 1 and messages[0]["marker"] == "5000m" and messages[0]["sender"] == "Cy",
                      json.dumps(messages)[:300])
        error = messages[0].get("error", "") if messages else ""
        results.check(name, "the M4A reaches ready", status == "Ready", f"badge {status!r}; {error}")
        browser.screenshots(ctx.shots, f"{name}-2-sent-m4a", "sent")
        browser.check_console(results, name)
    finally:
        browser.quit()

    # Over plain http from another host the page says why the microphone is unavailable.
    try:
        browser = ctx.open_browser(microphone=ctx.fixtures["speech"], host_alias="phone.test")
    except Unsupported as reason:
        results.skip(name, "over plain http from another host the page says so", str(reason))
        return
    try:
        browser.open(f"http://phone.test:{server.port}/r/{run_['id']}#invite={run_['inviteToken']}")
        browser.wait(lambda: browser.visible("recorder"), what="the recorder to show")
        results.check(name, "over plain http from another host the page says so",
                      browser.visible("mic-problem") and "secure connection" in browser.text("mic-problem-title")
                      and not browser.el("record-button").is_enabled(), browser.text("mic-problem"))
        browser.screenshots(ctx.shots, f"{name}-3-insecure-origin", "recorder")
        browser.check_console(results, f"{name}/insecure")
    finally:
        browser.quit()


def scenario_runner_page(ctx):
    name = "runner-page"
    results, server = ctx.results, ctx.server
    run_ = ctx.plan_run(server, "Half marathon", 21097.5)
    speech, silence = ctx.fixtures["memo_wav"], ctx.fixtures["silence"]
    ids = [upload(server, run_, speech, "finish", "Dee"), upload(server, run_, speech, "5km", "Eve"),
           upload(server, run_, silence, "halfway", "Fay"), upload(server, run_, speech, "1km", "Gus")]
    settled = wait_settled(server, run_, ids)
    results.check(name, "three WAV messages are ready and the silent one failed",
                  sorted(m["status"] for m in settled.values()) == ["failed", "ready", "ready", "ready"],
                  str({m["sender"]: m["status"] for m in settled.values()}))
    # The judge of the record scenario, on audio the server can decode today.
    judge_audio(results, name, server, run_, ids[0], speech, ctx.folder)

    browser = ctx.open_browser()
    base = browser.base(server)
    try:
        browser.open(f"{base}/runs/{run_['id']}#owner={run_['ownerToken']}&invite={run_['inviteToken']}")
        browser.wait(lambda: len(browser.driver.find_elements(By.CSS_SELECTOR, ".message-card")) == 4,
                     what="four message cards")
        judge_webm_in_browser(results, name, browser, run_, ids[0])
        # Live without a timer: while nothing changes, the page's request for the list is held
        # by the server (?wait=25 with its ETag), so none is answered in 4 quiet seconds; a
        # page polling every 2 s would have had two answers.
        count_list = ("return performance.getEntriesByType('resource')"
                      ".filter(e => e.name.includes('/runs/' + arguments[0] + '/messages')).length")
        time.sleep(1)
        before = browser.js(count_list, run_["id"])
        time.sleep(4)
        after = browser.js(count_list, run_["id"])
        results.check(name, "the list is long-polled: no answer while nothing changes",
                      before >= 1 and after == before, f"{before} list answers, then {after - before} in 4 quiet seconds")
        browser.screenshots(ctx.shots, f"{name}-0-top")
        browser.check_fits(results, name, "the runner's page")
        cards = browser.driver.find_elements(By.CSS_SELECTOR, ".message-card")
        senders = [c.find_element(By.CSS_SELECTOR, ".sender").text for c in cards]
        tags = [c.find_element(By.CSS_SELECTOR, ".distance-tag").text for c in cards]
        badges = [c.find_element(By.CSS_SELECTOR, ".badge").text for c in cards]
        results.check(name, "the cards are in marker order", senders == ["Gus", "Eve", "Fay", "Dee"], f"{senders} {tags}")
        results.check(name, "each card has its Distance Tag", tags == ["1 km", "5 km", "10.5 km", "21.1 km"], str(tags))
        results.check(name, "the badges say ready and failed", badges == ["Ready", "Ready", "Failed", "Ready"], str(badges))
        failed_text = cards[2].find_element(By.CSS_SELECTOR, ".error-state").text
        results.check(name, "the failed message shows its reason", "couldn’t hear anyone speaking" in failed_text
                      and "no speech found" in failed_text, failed_text[:200])
        points = browser.driver.find_elements(By.CSS_SELECTOR, ".timeline-point")
        positions = [browser.js("return arguments[0].style.getPropertyValue('--at')", p) for p in points]
        results.check(name, "the timeline puts each message at its marker",
                      positions == ["4.74%", "23.70%", "50.00%", "100.00%"], str(positions))
        invite = browser.el("invite-link").get_attribute("value")
        results.check(name, "the invite link is shown",
                      invite == f"{base}/r/{run_['id']}#invite={run_['inviteToken']}", invite)
        browser.el("copy-button").click()
        browser.wait(lambda: browser.text("copy-button") in ("Copied", "Select and copy"), what="the copy feedback")
        results.check(name, "Copy copies the invite link", browser.text("copy-button") == "Copied", browser.text("copy-button"))

        # Play a ready message: the audio is fetched with the owner token and plays.
        cards[0].find_element(By.CSS_SELECTOR, "button.button-primary").click()
        browser.wait(lambda: browser.js("var a = document.querySelector('.message-card audio:not([hidden])');"
                                        "return a ? a.currentTime : 0") > 0.3, what="the message to play")
        results.check(name, "Play plays the processed message", True)

        # Live: a new upload appears without a reload, and becomes ready.
        new_id = upload(server, run_, speech, "finish-1km", "Hal")
        browser.wait(lambda: "Hal" in [e.text for e in browser.driver.find_elements(By.CSS_SELECTOR, ".sender")],
                     timeout=30, what="the new message to appear live")
        browser.wait(lambda: browser.driver.find_element(By.CSS_SELECTOR, f"#msg-{new_id} .badge").text == "Ready",
                     timeout=60, what="the new message to become ready live")
        senders = [e.text for e in browser.driver.find_elements(By.CSS_SELECTOR, ".sender")]
        results.check(name, "a new message appears live, in its place, and turns ready",
                      senders == ["Gus", "Eve", "Fay", "Hal", "Dee"], str(senders))
        # On a phone, Hal's 20.1 km and Dee's 21.1 km are a few px apart on the timeline: each
        # still gets its own target, none over another, and each stays over its place on the track.
        browser.emulate(375, 667, mobile=True)
        layout = browser.js("""
          var list = document.getElementById('timeline').getBoundingClientRect();
          return Array.from(document.querySelectorAll('.timeline-point'), function (p) {
            var r = p.getBoundingClientRect();
            var at = parseFloat(p.style.getPropertyValue('--at')) / 100;
            return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                    off: (r.left + r.right) / 2 - (list.left + at * list.width), stacked: p.classList.contains('is-stacked')};
          });""")
        browser.end_emulation()
        overlaps = [(i, j) for i in range(len(layout)) for j in range(i + 1, len(layout))
                    if layout[i]["left"] < layout[j]["right"] and layout[j]["left"] < layout[i]["right"]
                    and layout[i]["top"] < layout[j]["bottom"] and layout[j]["top"] < layout[i]["bottom"]]
        results.check(name, "on a phone, timeline points 1 km apart each keep a 44 px target of their own",
                      len(layout) == 5 and not overlaps and any(p["stacked"] for p in layout)
                      and all(abs(p["off"]) < 1 for p in layout),
                      f"{len(layout)} points, overlapping {overlaps}, offsets {[round(p['off'], 1) for p in layout]}")
        browser.screenshots(ctx.shots, f"{name}-1-messages", "list")
        # Widened in place (a phone turned, a window dragged): 1 km is then over 44 px, the
        # redraw drops the second lane, and the timeline's height changes. Done inside the
        # ResizeObserver's callback, that is a "ResizeObserver loop" error on the page (CI
        # caught it once in the emulated phone above; this provokes it every time).
        browser.collect()
        before = list(browser.page_problems)
        lanes = browser.js_async("""
          var done = arguments[arguments.length - 1], box = document.querySelector('.timeline');
          var lanes = function () { return parseInt(getComputedStyle(box).getPropertyValue('--lanes'), 10) || 1; };
          // Waits (at most 5 s) for the lanes to differ from `from`, and gives what they are then.
          var settle = function (from, then) {
            var until = Date.now() + 5000;
            (function look() { if (lanes() !== from || Date.now() > until) then(lanes()); else setTimeout(look, 50); })();
          };
          var before = lanes();
          box.style.width = '2000px';
          settle(before, function (wider) {
            box.style.width = '';
            settle(wider, function (after) { done([before, wider, after]); });
          });""")
        browser.collect()
        loops = [p for p in browser.page_problems[len(before):] if "ResizeObserver" in p]
        results.check(name, "the timeline redraws its lanes when it widens, without a ResizeObserver loop",
                      lanes[1] < lanes[0] and lanes[2] == lanes[0] and not loops, f"lanes {lanes}; {loops}")

        # Played: the app's report reaches the card live, with a Success Green check.
        played = played_report(server, run_, ids[3], 1000, 372)
        gus = f"#msg-{ids[3]}"
        browser.wait(lambda: browser.driver.find_element(By.CSS_SELECTOR, f"{gus} .badge").text == "Played",
                     timeout=30, what="the played badge")
        line = browser.driver.find_element(By.CSS_SELECTOR, f"{gus} .played-line")
        colours = browser.js("""
          var probe = document.createElement('span');
          probe.style.color = 'var(--color-success-green-strong)';
          document.body.append(probe);
          var green = getComputedStyle(probe).color;
          probe.remove();
          var check = arguments[0].querySelector('svg');
          var badgeCheck = document.querySelector(arguments[1] + ' .badge svg');
          return [green, check ? getComputedStyle(check).color : null, badgeCheck ? getComputedStyle(badgeCheck).color : null];
        """, line, gus)
        results.check(name, "a played message shows a Success Green check and where it played, live",
                      played == 200 and line.is_displayed() and "Played at 1 km, 6:12 into the run" in line.text
                      and colours[1] == colours[0] and colours[2] is not None,
                      f"HTTP {played}; {line.text!r}; green {colours[0]}, check {colours[1]}, badge check {colours[2]}")
        browser.screenshots(ctx.shots, f"{name}-1b-played", gus.lstrip("#"))

        # Delete: confirm inside the card; the message leaves the manifest.
        eve = browser.driver.find_element(By.CSS_SELECTOR, f"#msg-{ids[1]}")
        eve.find_element(By.CSS_SELECTOR, "button.button-secondary").click()
        browser.wait(lambda: eve.find_element(By.CSS_SELECTOR, ".confirm").is_displayed(), what="the confirmation")
        browser.screenshots(ctx.shots, f"{name}-2-confirm-delete", f"msg-{ids[1]}")
        eve.find_element(By.CSS_SELECTOR, ".confirm .button-destructive").click()
        def card_note():
            """None once the card has left the page, else its note's text if shown ("" if not).
            Looked at by script rather than through element handles: the long poll may take
            the card off the page while the driver looks, and WebKitGTK's driver then fails
            even a fresh search with a stale element."""
            return browser.js("var card = document.getElementById(arguments[0]); if (!card) return null;"
                              "var help = card.querySelector('.help');"
                              "return help && help.offsetParent !== null ? help.textContent : ''", f"msg-{ids[1]}")
        browser.wait(lambda: card_note() != "", what="the delete to finish")
        note = card_note()
        gone_from_page = note is None
        in_manifest = ids[1] in [m["id"] for m in manifest(server, run_)["messages"]]
        results.check(name, "Delete removes the message from the page and the manifest",
                      gone_from_page and not in_manifest, note or f"in manifest: {in_manifest}")
        browser.screenshots(ctx.shots, f"{name}-3-after-delete", "list")

        # Keyboard: Tab reaches the controls, and focus is visible.
        browser.js("document.activeElement.blur(); window.scrollTo(0, 0)")
        ActionChains(browser.driver).send_keys(Keys.TAB).perform()
        focused = browser.js("var e = document.activeElement; return [e.id || e.textContent.trim(), getComputedStyle(e).outlineStyle, getComputedStyle(e).outlineWidth]")
        results.check(name, "Tab reaches the first control with a visible focus ring",
                      focused[1] == "solid" and focused[2] != "0px", str(focused))
        browser.check_console(results, name)
    finally:
        browser.quit()


def scenario_dropped_connection(ctx):
    results, server = ctx.results, ctx.server
    for mode in ("cut-request", "lose-response"):
        name = f"dropped-{mode}"
        run_ = ctx.plan_run(server, "Trail run", 15000)
        browser = ctx.open_browser(microphone=ctx.fixtures["speech"])
        try:
            base = browser.base(server, fault=mode)
            origin = browser.origin(base)
            open_recording_page(browser, base, run_)
            choose_preset(browser, "finish-1km")
            type_name(browser, "Ida")
            record_for(browser, 3)
            stop(browser)
            key_before = browser.js_async("""
              const done = arguments[arguments.length - 1];
              const open = indexedDB.open('voicemsg', 1);
              open.onsuccess = () => {
                const get = open.result.transaction('recordings').objectStore('recordings').get(arguments[0]);
                get.onsuccess = () => done(get.result ? get.result.idempotencyKey : null);
              };
            """, run_["id"])
            results.check(name, "the recording and its Idempotency-Key are kept in IndexedDB", bool(key_before), str(key_before))
            browser.el("send-button").click()
            browser.wait(lambda: browser.visible("send-error"), what="the dropped connection to show")
            results.check(name, "the dropped upload is explained, with the recording kept",
                          "connection dropped" in browser.text("send-error-title")
                          and "saved on this device" in browser.text("send-error-text"),
                          browser.text("send-error"))
            browser.screenshots(ctx.shots, f"{name}-1-dropped", "preview")
            # A reload keeps the recording: the retry needs no new recording.
            browser.driver.refresh()
            browser.wait(lambda: browser.visible("preview"), what="the saved recording after a reload")
            results.check(name, "after a reload the recording is still there",
                          "Saved on this device" in browser.text("preview-meta"), browser.text("preview-meta"))
            browser.el("send-button").click()
            wait_sent_status(browser)
            messages = run_messages(server, run_)
            results.check(name, "the retry makes exactly one message",
                          len(messages) == 1 and origin.uploads == 2, f"{len(messages)} messages after {origin.uploads} upload attempts")
            results.check(name, "the page follows that one message", message_id_on_page(browser, run_["id"]) == (messages[0]["id"] if messages else None))
            browser.screenshots(ctx.shots, f"{name}-2-retried", "sent")
            browser.check_console(results, name, allowed=[r"/messages\?marker=", r"net::ERR_(EMPTY_RESPONSE|CONNECTION_RESET|CONNECTION_CLOSED)"])
        finally:
            browser.quit()


def scenario_countdown(ctx):
    """A server with a short limit (--max-recording-seconds 8): the page states it, refuses a
    longer file before sending, counts down in the last half of it, stops by itself, and the
    server, with the same limit, accepts what it recorded."""
    name = "countdown"
    results, limit = ctx.results, 8
    server = Server(ctx.binary, ctx.folder, name="short-limit", extra=["--max-recording-seconds", str(limit)])
    ctx.logs.append(server.log_path)
    browser = None
    try:
        run_ = ctx.plan_run(server, "Track session", 5000)
        browser = ctx.open_browser(microphone=ctx.fixtures["speech"])
        open_recording_page(browser, browser.base(server), run_)
        results.check(name, "the page states the server's limit", browser.text("limit-help") == "Up to 8 seconds.",
                      browser.text("limit-help"))
        choose_preset(browser, "finish")
        type_name(browser, "Jo")

        # A 12 s file is refused on the page, with the limit, before any upload.
        browser.el("file-input").send_keys(str(ctx.fixtures["silence"]))
        browser.wait(lambda: browser.visible("preview"), what="the preview of the long file")
        results.check(name, "a file longer than the limit is refused before sending",
                      "lasts 0:12; the server accepts up to 0:08" in browser.text("send-error")
                      and not browser.el("send-button").is_enabled(), browser.text("send-error"))

        browser.el("record-button").click()
        browser.wait(lambda: browser.visible("stop-button"), what="recording to start")
        browser.wait(lambda: browser.text("timer") == "0:01", what="the timer to reach 0:01")
        results.check(name, "no countdown early in the recording", not browser.visible("countdown"),
                      browser.text("countdown"))
        browser.wait(lambda: browser.visible("countdown"), timeout=15, what="the countdown")
        first, timer_then = browser.text("countdown"), browser.text("timer")
        results.check(name, "the countdown appears in the last half of the limit, naming it",
                      re.fullmatch(r"0:0[1-4] left: the recording stops at 0:08\.", first) is not None
                      and timer_then in ("0:03", "0:04", "0:05"), f"{first!r} at {timer_then}")
        seen = [first]
        deadline = time.time() + 15
        while time.time() < deadline and not browser.visible("preview"):
            text = browser.js("var c = document.getElementById('countdown'); return c.hidden ? '' : c.textContent")
            if text and text != seen[-1]:
                seen.append(text)
            if len(seen) == 2 and not (ctx.shots / f"{name}-1-countdown-phone.png").exists():
                browser.screenshots(ctx.shots, f"{name}-1-countdown", "recorder")
            time.sleep(0.1)
        left = [int(re.match(r"0:0(\d)", t).group(1)) for t in seen]
        results.check(name, "the countdown counts down", len(left) >= 2 and left == sorted(left, reverse=True)
                      and len(set(left)) == len(left), str(seen))
        results.check(name, "the recording stops by itself at the limit",
                      browser.visible("preview") and not browser.visible("stop-button"),
                      f"timer {browser.text('timer')}")
        at_limit, page_seconds = saved_recording(browser, run_["id"], ctx.folder / f"{ctx.engine}-at-limit")
        damaged = undecodable_packets(at_limit)
        tones = recorded_the_mock_device(browser, at_limit)
        kept = recorded_seconds(at_limit)
        faulty = recorder_fault(browser, damaged, kept, page_seconds, recorded_for=7.5)
        if faulty and not damaged:
            results.skip(name, "about 7.5 s were kept, within the limit",
                         f"{browser.name}'s recorder kept {kept:.2f} s by ffmpeg ({page_seconds} s by the engine) of the 7.5 s it ran")
        else:
            results.check(name, "about 7.5 s were kept, within the limit", browser.text("timer") in ("0:07", "0:08"),
                          browser.text("timer"))
        announced = browser.js("return document.getElementById('announcer').textContent")
        results.check(name, "the page says it stopped at the limit, on screen and to a screen reader",
                      "stopped at its 0:08 limit" in browser.text("limit-help") and "reached its 0:08 limit" in announced,
                      f"{browser.text('limit-help')!r}; announced {announced!r}")
        results.check(name, "the recording at the limit can be sent", browser.el("send-button").is_enabled())
        browser.screenshots(ctx.shots, f"{name}-2-stopped-at-limit", "preview")
        browser.el("send-button").click()
        status = wait_sent_status(browser)
        messages = run_messages(server, run_)
        error = messages[0].get("error", "") if messages else ""
        accepted = "the server, with the same limit, accepts it: the message is ready"
        # Where the recorder damaged the file, its verdict stands in for the check.
        if not check_recorder_verdict(results, name, browser, damaged, tones, status, error, accepted):
            if faulty:
                results.skip(name, accepted, f"the recorder's file, {kept:.2f} s by ffmpeg: badge {status!r}; {error}")
            else:
                results.check(name, accepted, status == "Ready" and len(messages) == 1 and messages[0]["durationSeconds"] <= limit,
                              f"badge {status!r}; {json.dumps(messages)[:300]} {error}")
        browser.check_console(results, name)
    finally:
        if browser:
            browser.quit()
        server.stop()


def scenario_https(ctx):
    """`serve --tls-cert --tls-key` with a self-signed certificate made by openssl, opened as a
    phone on the LAN would: by a host name that is not localhost, over https (the browser accepts
    the certificate as the user does on the warning page). The page is a secure context, so the
    microphone works: record, send, ready; the runner's page shows an https invite link.
    WebKitGTK's driver cannot map a host name, so it opens the page at 127.0.0.1, over https."""
    name = "https-phone"
    results = ctx.results
    cert, key = ctx.folder / "phone-cert.pem", ctx.folder / "phone-key.pem"
    run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
         "-days", "2", "-subj", "/CN=phone.test", "-addext", "subjectAltName=DNS:phone.test,IP:127.0.0.1"])
    server = Server(ctx.binary, ctx.folder, name="https", extra=["--tls-cert", str(cert), "--tls-key", str(key)])
    ctx.logs.append(server.log_path)
    # The API calls of this script trust exactly that certificate.
    server.tls = ssl.create_default_context(cafile=str(cert))
    server.certificate = (cert, key)
    browser = None
    try:
        results.check(name, "the server listens on https", server.scheme == "https", server.base)
        run_ = ctx.plan_run(server, "Lakeside 10k", 10000)
        try:
            browser = ctx.open_browser(microphone=ctx.fixtures["speech"], host_alias="phone.test", insecure_tls=True)
            base, host = f"https://phone.test:{server.port}", "phone.test"
        except Unsupported as reason:
            results.skip(name, "the page opened by a host name that is not localhost", str(reason))
            browser = ctx.open_browser(microphone=ctx.fixtures["speech"], insecure_tls=True)
            base, host = browser.base(server), "127.0.0.1"
        open_recording_page(browser, base, run_)
        secure = browser.js("return [window.isSecureContext, location.protocol, location.hostname]")
        results.check(name, f"over https from {host} the page is a secure context", secure == [True, "https:", host],
                      str(secure))
        results.check(name, "the microphone is offered: no warning, Record enabled",
                      not browser.visible("mic-problem") and browser.el("record-button").is_enabled(),
                      browser.text("mic-problem") if browser.visible("mic-problem") else "")
        choose_preset(browser, "5km")
        type_name(browser, "Kim")
        record_for(browser, 3)
        stop(browser)
        browser.screenshots(ctx.shots, f"{name}-1-preview", "preview")
        recorded = saved_recording(browser, run_["id"], ctx.folder / f"{ctx.engine}-https")[0]
        damaged, tones = undecodable_packets(recorded), recorded_the_mock_device(browser, recorded)
        browser.el("send-button").click()
        status = wait_sent_status(browser)
        messages = run_messages(server, run_)
        error = messages[0].get("error", "") if messages else ""
        if not check_recorder_verdict(results, name, browser, damaged, tones, status, error, "recorded and sent over https: ready"):
            results.check(name, "recorded and sent over https: one message, ready",
                          status == "Ready" and len(messages) == 1 and messages[0]["sender"] == "Kim",
                          f"badge {status!r}; {json.dumps(messages)[:300]}")
        browser.screenshots(ctx.shots, f"{name}-2-sent", "sent")
        browser.check_console(results, name)

        browser.open(f"{base}/runs/{run_['id']}#owner={run_['ownerToken']}&invite={run_['inviteToken']}")
        browser.wait(lambda: len(browser.driver.find_elements(By.CSS_SELECTOR, ".message-card")) == 1, what="the message card")
        invite = browser.el("invite-link").get_attribute("value")
        results.check(name, "the runner's page gives the https invite link", invite == f"{base}/r/{run_['id']}#invite={run_['inviteToken']}",
                      invite)
        browser.check_console(results, f"{name}/runner")
    finally:
        if browser:
            browser.quit()
        server.stop()


# ---------------------------------------------------------------------------------------------


SCENARIOS = {
    "record": scenario_record_and_send,
    "failure": scenario_failure,
    "no-microphone": scenario_no_microphone,
    "runner": scenario_runner_page,
    "dropped": scenario_dropped_connection,
    "countdown": scenario_countdown,
    "https": scenario_https,
}


if __name__ == "__main__":
    sys.exit(harness.main(SCENARIOS, __doc__, "browser tests", "voicemsg-browser-"))
