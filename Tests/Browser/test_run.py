#!/usr/bin/env python3
"""Browser tests of the run itself, in Chromium and in WebKitGTK (Safari's engine), against a
real voicemsg-server: a run is planned on `/`, three messages are sent, and the runner gets
ready, starts, and hears each message at its marker while a route derived from a real GPX track
is replayed at one fix a second: in Chromium through `Emulation.setGeolocationOverride`, in
WebKitGTK through the test's geolocation shim (browsers.py says why).

Both engines run with sound allowed only after a tap, as a phone's browser does: Chromium
without --autoplay-policy=no-user-gesture-required, WebKitGTK with
--media-playback-requires-user-gesture=true (Safari's rule). The page must unlock its player in
the Start tap, play every message at its marker with no tap of its own, and after a reload ask
for one tap.

Scenarios:
  run      plan on /, send three messages, Get ready, Start, run, Finish; screenshots at 375x667
  offline  Get ready, then the network off and the server stopped: the page reloads from its
           cache, plays every message at its marker, and its played reports reach the server,
           once each, when the server returns
  reload   a reload mid-run keeps the distance and replays nothing; a page hidden for 60 s
           (another tab in Chromium, a minimized window in WebKitGTK) takes the wake lock again
           where the engine has one, and a marker crossed meanwhile plays on its return
  course   planned with a GPX course on /, its outline on the plan, record and run screens, a
           wrong turn off the course and back, each message within 15 m of its point on it, the
           finish where the course ends
  aac      a browser that plays no Opus (Safari before iOS 17.4, shim/no-opus.js) keeps the AAC
           in MP4 at Get ready and plays the run from it
  refusals a run refused by the server's limits, and a location the phone denies, are said
           in words

    scripts/browser-tests.sh                 # installs what is missing, runs both test files
    python3 Tests/Browser/test_run.py --server .build/debug/voicemsg-server [--engine webkit] [--only run]
"""
import json
import math
import os
import sys
import time
import xml.etree.ElementTree as ElementTree

from selenium.webdriver.common.by import By

import harness
from harness import ROOT, Server, http, run_messages, upload, wait_settled

# A fix a second, 4 m apart along the route: 4 m/s, a runner's pace (4:10 a km).
FIX_SECONDS = 1.0
FIX_METERS = 4.0
MARKERS = [("100m", 100.0, "Mum"), ("200m", 200.0, "Dad"), ("300m", 300.0, "Kim")]
PLANNED_KM = "0.4"


# ---------------------------------------------------------------------------------------------
# The route: the Strava run of samples/gpx (mapbox/togeojson, BSD-2-Clause; see its README),
# smoothed as the tracker corpus smooths it, and walked at an even pace.

def route(meters_needed):
    """(latitude, longitude) every FIX_METERS along the smoothed track, for `meters_needed` m."""
    tree = ElementTree.parse(ROOT / "samples/gpx/strava-run-gap.gpx")
    ns = {"g": "http://www.topografix.com/GPX/1/1"}
    raw = [(float(p.get("lat")), float(p.get("lon"))) for p in tree.getroot().iterfind(".//g:trkpt", ns)]
    window = 7
    smooth = []
    for i in range(len(raw)):
        part = raw[max(0, i - window // 2): i + window // 2 + 1]
        smooth.append((sum(p[0] for p in part) / len(part), sum(p[1] for p in part) / len(part)))

    def distance(a, b):
        north = (b[0] - a[0]) * 111_132.954
        east = (b[1] - a[1]) * 111_319.488 * math.cos(math.radians((a[0] + b[0]) / 2))
        return math.hypot(north, east)

    points = [smooth[0]]
    along, target = 0.0, FIX_METERS
    for a, b in zip(smooth, smooth[1:]):
        step = distance(a, b)
        while step > 0 and along + step >= target:
            share = (target - along) / step
            points.append((a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share))
            target += FIX_METERS
            if target > meters_needed + FIX_METERS:
                return points
        along += step
    return points


class Runner:
    """The runner's phone: the page in one engine, sound only after a tap, its position moved
    by the engine's own means (browsers.py)."""

    def __init__(self, ctx, server, deny_location=False, shims=()):
        self.browser = ctx.open_browser(autoplay=False, shims=shims)
        self.driver = self.browser.driver
        self.base = self.browser.base(server)
        if deny_location:
            self.browser.deny_geolocation(self.base)
        else:
            self.browser.grant_run_permissions(self.base)
        self.fixes = []

    def click(self, label, timeout=20):
        self.browser.click_button(label, timeout)

    def move_to(self, point):
        self.browser.move_to(point[0], point[1], 5)

    def meters(self):
        value = self.browser.js("var e = document.getElementById('stat-distance'); return e ? e.dataset.meters : null")
        return float(value) if value not in (None, "") else None

    def audio(self):
        return self.browser.audio_events()

    def run_along(self, points, until=None):
        """One fix per point, FIX_SECONDS apart; after each, the distance the page shows."""
        for point in points:
            self.move_to(point)
            time.sleep(FIX_SECONDS)
            self.fixes.append((time.time(), self.meters()))
            if until and until():
                return

    def quit(self):
        self.browser.quit()


def crossing_fix(fixes, marker):
    """The index of the first fix whose distance reached `marker`."""
    return next((i for i, (_, meters) in enumerate(fixes) if meters is not None and meters >= marker), None)


def fix_at(fixes, moment):
    """The index of the last fix read before `moment` (seconds since 1970)."""
    index = None
    for i, (at, _) in enumerate(fixes):
        if at <= moment:
            index = i
    return index


def check_plays(results, name, runner, numbers, offset=0):
    """Each message reached `playing` and then `ended`, in marker order, once, within 2 fixes
    of the page's distance crossing its marker."""
    events = runner.audio()
    playing = [e for e in events if e["type"] == "playing"]
    ended = [e for e in events if e["type"] == "ended"]
    results.check(name, "each message played, then ended, in marker order, none twice",
                  [e["number"] for e in playing] == numbers and [e["number"] for e in ended] == numbers,
                  f"playing {[e['number'] for e in playing]}, ended {[e['number'] for e in ended]}")
    for event in playing:
        marker = MARKERS[event["number"]][1]
        crossed = crossing_fix(runner.fixes, marker)
        started = fix_at(runner.fixes, event["at"] / 1000)
        results.check(name, f"message {event['number']} ({marker:.0f} m) starts within 2 fixes of the crossing",
                      crossed is not None and started is not None and abs(started - crossed) <= 2,
                      f"crossed at fix {crossed}, started after fix {started}, the page showing {event['meters']:.1f} m")


def check_reports(results, name, server, runner, run_, ids):
    """The played report of each message is at its marker (within 15 m); returns how many
    reports the page had answered by the server (a request that never reached it has no
    resource timing entry, or a status of 0 in it), by message."""
    messages = {m["id"]: m for m in run_messages(server, run_)}
    for (marker, meters, sender), message_id in zip(MARKERS, ids):
        at = messages.get(message_id, {}).get("playedAtMeters")
        results.check(name, f"the played report of {sender}'s message is at its marker (within 15 m)",
                      at is not None and abs(at - meters) <= 15, f"atMeters {at} for {marker}")
    names = runner.browser.js(
        "return performance.getEntriesByType('resource').filter(e => !('responseStatus' in e) || e.responseStatus > 0)"
        ".map(e => e.name)") or []
    origin = runner.browser.origin(runner.base) if hasattr(runner.browser, "origin") else None
    if origin is not None and runner.browser.engine == "webkit":
        # WebKit's resource timing has no status: the test origin counts what reached the server.
        answered = [line for line, status in origin.answers if status is not None and status < 400]
        return [sum(1 for line in answered if f"/v1/messages/{i}/played " in line) for i in ids]
    return [sum(1 for entry in names if entry.endswith(f"/v1/messages/{i}/played")) for i in ids]


def send_messages(ctx, server, run_):
    ids = [upload(server, run_, ctx.fixtures["memo_wav"], marker, sender) for marker, _, sender in MARKERS]
    settled = wait_settled(server, run_, ids)
    ctx.results.check(ctx.name, "the three messages are ready", all(settled[i]["status"] == "ready" for i in ids),
                      str({settled[i]["sender"]: settled[i]["status"] for i in ids}))
    return ids


def make_run(ctx, server, title="Test run"):
    return ctx.plan_run(server, title, float(PLANNED_KM) * 1000, runner_name="Sam")


def get_ready(runner, name, results):
    get_ready_count(runner, name, results, 3)


def create_run(ctx, runner):
    """Presses Create run on the plan page and reads the new run's id and tokens from the
    runner's page it opens (`/runs/{id}#owner=…&invite=…`)."""
    runner.click("Create run")
    runner.browser.wait(lambda: "/runs/" in runner.driver.current_url and runner.browser.visible("run-card"),
                        what="the runner's page of the new run")
    url = runner.driver.current_url
    fragment = dict(part.split("=", 1) for part in url.split("#", 1)[1].split("&"))
    run_ = {"id": url.split("/runs/")[1].split("#")[0], "ownerToken": fragment["owner"], "inviteToken": fragment["invite"]}
    ctx.tokens += [run_["ownerToken"], run_["inviteToken"]]
    return run_


def listed_run(runner, title):
    """Whether `/` lists the run as Created, and what it shows. WebKit hands localStorage to a
    new page through its storage process, so the list is waited for rather than read at once;
    if it never comes, the detail says what the page's storage held."""
    def listed():
        text = runner.browser.text("run-list")
        return title in text and "Created" in text
    try:
        runner.browser.wait(listed, timeout=10, what="the run in the list")
        return True, runner.browser.text("run-list")
    except AssertionError as error:
        stored = runner.browser.js("return localStorage.getItem('voicemsg.runs')")
        return False, f"{error}; the list shows {runner.browser.text('run-list')!r}, localStorage holds {stored!r}"


def get_ready_pass(runner, count):
    """Presses Get ready (or Get ready again) and waits for the pass to end: every message is
    checked within 8 s a container, so a pass ends within 30 s a message."""
    button = runner.browser.el("ready-button")
    runner.browser.wait(lambda: button.is_displayed() and button.is_enabled(), what="Get ready to be pressable")
    button.click()
    began = time.time()
    runner.browser.wait(lambda: f"of {count} messages ready to play" in runner.browser.text("ready-summary")
                        or "Not ready" in runner.browser.text("ready-summary"),
                        timeout=30 * count + 30, what=f"Get ready's verdict on {count} messages")
    summary = runner.browser.text("ready-summary")
    return summary.startswith(f"{count} of {count} "), f"{summary} {runner.browser.text('ready-notes')} (after {time.time() - began:.1f} s)"


def get_ready_count(runner, name, results, count):
    ready, detail = get_ready_pass(runner, count)
    if not ready and runner.browser.engine == "webkit":
        # WebKitGTK's GStreamer decoder has been seen to stop answering decodeAudioData for a
        # whole pass on this machine, after another WebKit browser came and went; the page then
        # says which messages did not open, and a runner presses Get ready again.
        results.skip(name, f"Get ready readies all {count} messages at the first press",
                     f"WebKitGTK's decoder did not answer: {detail}")
        ready, detail = get_ready_pass(runner, count)
    results.check(name, f"Get ready says all {count} messages are ready", ready, detail)
    start = runner.browser.el("start-button")
    results.check(name, "Start is enabled once ready", start.is_enabled())


def check_tap_rule(results, name, runner):
    """The engine holds the phone's rule: a script's play() without a tap is refused."""
    refused = runner.browser.js_async("""
      const done = arguments[arguments.length - 1];
      const audio = new Audio("/static/icon.svg");
      audio.play().then(() => { audio.pause(); done("played"); }, (error) => done(error.name));""")
    results.check(name, "sound without a tap is refused, as on a phone", refused == "NotAllowedError", str(refused))


def check_screen_note(results, name, runner):
    """The page holds the wake lock, taken in the Start tap (WebKitGTK, as Safari from iOS 16.4,
    grants it only inside a tap)."""
    held = runner.browser.el("screen-on-note").get_attribute("data-wake-lock")
    results.check(name, "the wake lock is held", held == "held", held)


# ---------------------------------------------------------------------------------------------
# Scenarios

def scenario_run(ctx):
    name = ctx.name = "run"
    results, server = ctx.results, ctx.server
    runner = Runner(ctx, server)
    base = runner.base
    try:
        runner.browser.open(f"{base}/")
        runner.browser.screenshots(ctx.shots, "run-0-plan")
        runner.browser.el("run-title-input").send_keys("Sunday tempo run")
        runner.driver.find_element(By.XPATH, "//label[normalize-space()='Other']").click()
        runner.browser.el("distance-typed").send_keys(PLANNED_KM)
        runner.browser.el("runner-name").clear()
        runner.browser.el("runner-name").send_keys("Sam")
        run_ = create_run(ctx, runner)
        run_id, url = run_["id"], runner.driver.current_url
        invite = runner.browser.el("invite-link").get_attribute("value")
        results.check(name, "the runner's page has the invite link ready to share",
                      invite.endswith(f"/r/{run_id}#invite={run_['inviteToken']}"), invite)
        info = json.loads(http("GET", f"{server.base}/v1/runs/{run_id}", token=run_["inviteToken"])[1])
        results.check(name, "the run has its title, target distance and runner",
                      (info["title"], info["plannedDistanceMeters"], info.get("runnerName")) == ("Sunday tempo run", 400, "Sam"),
                      str(info))
        runner.browser.open(f"{base}/")
        results.check(name, "/ lists the run under your runs on this device", *listed_run(runner, "Sunday tempo run"))
        runner.browser.open(url)
        runner.browser.wait(lambda: runner.browser.visible("run-card"), what="the run card")

        ids = send_messages(ctx, server, run_)
        check_tap_rule(results, name, runner)
        get_ready(runner, name, results)
        runner.browser.screenshots(ctx.shots, "run-1-ready", focus_id="run-card")

        runner.click("Start")
        runner.browser.wait(lambda: runner.browser.visible("run-screen"), what="the run screen")
        note = runner.browser.text("screen-on-note")
        results.check(name, "the run screen says plainly that the screen must stay on", "screen" in note, note)
        check_screen_note(results, name, runner)
        points = route(float(PLANNED_KM) * 1000 + 40)
        runner.run_along(points[:40])
        runner.browser.screenshots(ctx.shots, "run-2-running")
        # A small phone shows the Message Preview Bubbles whole, above Pause and Finish, without
        # scrolling: who is coming next is what the runner glances at.
        runner.browser.emulate(375, 667, mobile=True, scale=2)
        bubbles, controls = runner.browser.js("""window.scrollTo(0, 0);
            const b = document.getElementById('bubbles').getBoundingClientRect();
            const c = document.getElementById('run-controls').getBoundingClientRect();
            return [[b.top, b.bottom], [c.top, c.bottom]]""")
        runner.browser.end_emulation()
        results.check(name, "at 375x667 the Message Preview Bubbles are on screen whole, above Pause and Finish",
                      bubbles[0] >= 0 and bubbles[1] <= controls[0] <= 667,
                      f"bubbles {bubbles[0]:.0f}-{bubbles[1]:.0f} px, controls from {controls[0]:.0f} px")
        runner.run_along(points[40:], until=lambda: len([e for e in runner.audio() if e["type"] == "ended"]) == 3
                         and runner.meters() > 320)
        check_plays(results, name, runner, [0, 1, 2])
        # The strip follows the messages: on a phone, where the three bubbles do not fit side by
        # side, the last one played is in view at the end, not cut off at the right edge.
        runner.browser.emulate(375, 667, mobile=True, scale=2)
        time.sleep(2)
        strip, last = runner.browser.js("""const s = document.getElementById('bubbles');
            const r = s.getBoundingClientRect(), b = s.children[2].getBoundingClientRect();
            return [[r.left, r.right, s.scrollWidth - s.clientWidth], [b.left, b.right]]""")
        runner.browser.end_emulation()
        results.check(name, "at 375x667 the strip has brought the last message's bubble into view",
                      strip[2] > 0 and last[0] >= strip[0] - 0.5 and last[1] <= strip[1] + 0.5,
                      f"strip {strip[0]:.0f}-{strip[1]:.0f} px (scrolls {strip[2]:.0f} px), Kim's bubble {last[0]:.0f}-{last[1]:.0f} px")
        runner.click("Finish")
        runner.click("Finish the run")
        runner.browser.wait(lambda: runner.browser.visible("finished"), timeout=30, what="the finished screen")
        runner.browser.screenshots(ctx.shots, "run-3-finished", focus_id="finished")
        results.check(name, "the finished screen says what was played", "3 of 3" in runner.browser.text("finished-text"),
                      runner.browser.text("finished-text"))
        time.sleep(2)
        posts = check_reports(results, name, server, runner, run_, ids)
        results.check(name, "one played report per message reached the server", posts == [1, 1, 1], f"{posts} by message")
        runner.browser.emulate(375, 667, mobile=True, scale=2)
        small = runner.browser.js("""return [...document.querySelectorAll('#run-screen button, #finished button')]
            .filter(b => b.offsetParent).map(b => b.getBoundingClientRect()).filter(r => r.height < 44 || r.width < 44).length""")
        runner.browser.end_emulation()
        results.check(name, "every control on the run screen is a 44 px target at 375x667", small == 0, f"{small} smaller")
        runner.browser.check_fits(results, name, "the run screen")
        runner.browser.check_console(results, name)
    finally:
        runner.quit()


def scenario_offline(ctx):
    name = ctx.name = "offline"
    results = ctx.results
    server = Server(ctx.binary, ctx.folder, name=f"{ctx.engine}-offline-server")
    ctx.logs.append(server.log_path)
    port = server.port
    run_ = make_run(ctx, server, "Offline run")
    runner = Runner(ctx, server)
    try:
        ids = send_messages(ctx, server, run_)
        link = f"{runner.base}/runs/{run_['id']}#owner={run_['ownerToken']}&invite={run_['inviteToken']}"
        runner.browser.open(link)
        runner.browser.wait(lambda: runner.browser.visible("run-card"), what="the run card")
        get_ready(runner, name, results)
        # No network and no server: the page must come back from what the phone kept.
        runner.browser.set_offline(True)
        server.stop()
        runner.driver.refresh()
        runner.browser.wait(lambda: runner.browser.visible("run-card"), timeout=30, what="the page from its cache")
        results.check(name, "offline, the page reloads from its cache and still offers Start",
                      runner.browser.el("start-button").is_enabled(), runner.browser.text("start-help"))
        runner.click("Start")
        points = route(float(PLANNED_KM) * 1000 + 40)
        runner.run_along(points, until=lambda: len([e for e in runner.audio() if e["type"] == "ended"]) == 3
                         and runner.meters() > 320)
        check_plays(results, name, runner, [0, 1, 2])
        queued = runner.browser.js(f"return JSON.parse(localStorage.getItem('voicemsg.reports.{run_['id']}') || '[]').length")
        results.check(name, "while offline the played reports wait on the phone", queued == 3, f"{queued} queued")
        # The server returns on its port, with its data; the network comes back.
        returned = time.time()
        server = Server(ctx.binary, ctx.folder, name=f"{ctx.engine}-offline-server", port=port)
        runner.browser.set_offline(False)
        deadline = returned + 10
        while time.time() < deadline:
            messages = {m["id"]: m for m in run_messages(server, run_)}
            if all(messages[i].get("playedAtMeters") is not None for i in ids):
                break
            time.sleep(0.5)
        took = time.time() - returned
        posts = check_reports(results, name, server, runner, run_, ids)
        results.check(name, "the reports arrive within 10 s of the server's return", took <= 10, f"{took:.1f} s")
        results.check(name, "each report arrives once", posts == [1, 1, 1], f"{posts} by message")
        runner.browser.check_console(results, name, allowed=[r"ERR_INTERNET_DISCONNECTED", r"ERR_CONNECTION_REFUSED",
                                                             r"Failed to load resource", r"net::ERR_", r"/played ",
                                                             r"^GET /"])
    finally:
        runner.quit()
        server.stop()


def scenario_reload_and_hide(ctx):
    name = ctx.name = "reload"
    results, server = ctx.results, ctx.server
    run_ = make_run(ctx, server, "Reload run")
    runner = Runner(ctx, server)
    try:
        send_messages(ctx, server, run_)
        link = f"{runner.base}/runs/{run_['id']}#owner={run_['ownerToken']}&invite={run_['inviteToken']}"
        runner.browser.open(link)
        runner.browser.wait(lambda: runner.browser.visible("run-card"), what="the run card")
        get_ready(runner, name, results)
        runner.click("Start")
        # Long enough for a minute hidden at the runner's pace beyond the third marker.
        points = route(float(PLANNED_KM) * 1000 + 60 / FIX_SECONDS * FIX_METERS)
        # Past the first marker, then a reload.
        runner.run_along(points, until=lambda: len([e for e in runner.audio() if e["type"] == "ended"]) == 1
                         and runner.meters() > 130)
        before = runner.meters()
        played_before = runner.audio()
        next_point = len(runner.fixes)
        runner.driver.refresh()
        runner.browser.wait(lambda: runner.browser.visible("continue"), timeout=30, what="Continue the run")
        after = runner.meters()
        results.check(name, "after a reload the distance is kept (within one fix)",
                      after is not None and abs(after - before) <= FIX_METERS * 1.5, f"{before:.1f} m, then {after:.1f} m")
        runner.browser.screenshots(ctx.shots, "run-4-continue")
        runner.click("Continue the run")
        # Until the second marker has played.
        runner.run_along(points[next_point:], until=lambda: len([e for e in runner.audio() if e["type"] == "ended"]) == 1
                         and runner.meters() > 230)
        replayed = [e for e in runner.audio() if e["number"] == 0]
        results.check(name, "after the reload nothing plays again", not replayed and played_before,
                      f"after the reload: {runner.audio()}")
        # Hidden for 60 s while the runner passes the third marker.
        hidden_from = len(runner.fixes)
        runner.browser.hide()
        time.sleep(1)
        hidden_state = runner.browser.js("return document.visibilityState")
        lock = runner.browser.el("screen-on-note").get_attribute("data-wake-lock")
        start = time.time()
        index = hidden_from
        while time.time() - start < 60:
            runner.move_to(points[min(index, len(points) - 1)])
            index += 1
            time.sleep(FIX_SECONDS)
        during = [e for e in runner.audio() if e["number"] == 2]
        results.check(name, "while hidden, the page got no position and played nothing", not during, str(during))
        results.check(name, "the page was hidden, and holds no wake lock",
                      hidden_state == "hidden" and lock in ("hidden", "released", "unavailable"), f"{hidden_state}, wake lock {lock}")
        returned = time.time()
        runner.browser.show()
        # Counted in fixes sent before it played, not seconds: how long the browser takes to show
        # the page again is the machine's, not the page's.
        sent = []
        for point in points[index:index + 10] or points[-1:] * 10:
            sent.append(time.time())
            runner.move_to(point)
            time.sleep(FIX_SECONDS)
            if any(e["number"] == 2 and e["type"] == "playing" for e in runner.audio()):
                break
        third = next((e for e in runner.audio() if e["number"] == 2 and e["type"] == "playing"), None)
        before = len([moment for moment in sent if third and moment <= third["at"] / 1000])
        results.check(name, "the marker crossed while hidden plays within 2 fixes of the return",
                      third is not None and before <= 2,
                      f"after {before} fix{'' if before == 1 else 'es'}, {(third['at'] / 1000 - returned):.1f} s after the return"
                      if third else "it did not play")
        runner.browser.wait(lambda: runner.browser.el("screen-on-note").get_attribute("data-wake-lock") == "held",
                            timeout=5, what="the wake lock taken again")
        results.check(name, "back in front, the page takes the wake lock again", True)
        runner.browser.check_console(results, name)
    finally:
        runner.quit()


def scenario_aac(ctx):
    """A browser that plays no Opus, as Safari on iOS 16.4 to 17.3 (shim/no-opus.js): Get ready
    keeps the AAC in MP4 of every message, and the run plays them at their markers."""
    name = ctx.name = "aac"
    results, server = ctx.results, ctx.server
    run_ = make_run(ctx, server, "AAC run")
    runner = Runner(ctx, server, shims=["no-opus"])
    try:
        send_messages(ctx, server, run_)
        runner.browser.open(f"{runner.base}/runs/{run_['id']}#owner={run_['ownerToken']}&invite={run_['inviteToken']}")
        runner.browser.wait(lambda: runner.browser.visible("run-card"), what="the run card")
        results.check(name, "the player says it plays no Opus", runner.browser.js(
            "return document.createElement('audio').canPlayType('audio/ogg; codecs=\"opus\"')") == "")
        get_ready(runner, name, results)
        kept = runner.browser.js(f"return (JSON.parse(localStorage.getItem('voicemsg.session.{run_['id']}')).messages || [])"
                                 ".map(m => m.type)")
        results.check(name, "Get ready kept every message as AAC in MP4", kept == ["audio/mp4"] * 3, str(kept))
        runner.click("Start")
        points = route(float(PLANNED_KM) * 1000 + 40)
        runner.run_along(points, until=lambda: len([e for e in runner.audio() if e["type"] == "ended"]) == 3
                         and runner.meters() > 320)
        check_plays(results, name, runner, [0, 1, 2])
        runner.browser.check_console(results, name)
    finally:
        runner.quit()


def offset(point, bearing_degrees, meters):
    """The place `meters` from `point` towards `bearing_degrees` (0 north, 90 east)."""
    north = math.cos(math.radians(bearing_degrees)) * meters / 111_132.954
    east = math.sin(math.radians(bearing_degrees)) * meters / (111_319.488 * math.cos(math.radians(point[0])))
    return (point[0] + north, point[1] + east)


def course_run(course_points, turn_at, spur_meters):
    """The runner's way along a course given as points FIX_METERS apart: on it to `turn_at` m,
    then a wrong turn `spur_meters` out at right angles and back, then on to the end. The spur
    goes to the left, away from the rest of this course: to the right it would run onto the
    course 50 m further on, which no tracker could tell from the runner being there. Returns the
    fixes and, for each, where along the course the runner truly is."""
    turn = int(turn_at / FIX_METERS)
    a, b = course_points[turn - 1], course_points[turn]
    heading = math.degrees(math.atan2((b[1] - a[1]) * math.cos(math.radians(a[0])), b[0] - a[0]))
    steps = int(spur_meters / FIX_METERS)
    out = [offset(b, heading - 90, FIX_METERS * i) for i in range(1, steps + 1)]
    fixes = course_points[:turn + 1] + out + out[-2::-1] + course_points[turn:]
    truth = [i * FIX_METERS for i in range(turn + 1)] + [turn * FIX_METERS] * (2 * steps - 1) \
        + [i * FIX_METERS for i in range(turn, len(course_points))]
    return fixes, truth, (turn + 1, turn + 2 * steps)


def write_gpx(points, path):
    """A GPX file with one track of `points`, as a race publishes its course."""
    rows = "".join(f'<trkpt lat="{lat:.7f}" lon="{lon:.7f}"/>' for lat, lon in points)
    path.write_text('<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="voicemsg tests" '
                    f'xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Test course</name><trkseg>{rows}</trkseg></trk></gpx>')


def scenario_course(ctx):
    """A run with its course: planned on / with a GPX file, the outline on the plan, record and
    run screens, a wrong turn of 60 m off the course and back on the way, and each message at its
    point on the course, within 15 m of where the runner truly was, the finish at the course's end."""
    name = ctx.name = "course"
    results, server = ctx.results, ctx.server
    course_points = route(560)
    length = (len(course_points) - 1) * FIX_METERS
    gpx = ctx.folder / f"{ctx.engine}-course.gpx"
    write_gpx(course_points, gpx)
    # The finish is the planned distance, which the runner types as the race's official one,
    # longer than its GPX measures: it plays where the course ends all the same.
    markers = [("100m", 100.0, "Mum"), ("200m", 200.0, "Dad"), ("300m", 300.0, "Kim"), ("400m", 400.0, "Lee"),
               ("finish", length, "Ann")]
    runner = Runner(ctx, server)
    try:
        runner.browser.open(f"{runner.base}/")
        runner.browser.el("run-title-input").send_keys("Course run")
        # Files that are no course are refused on the page, in the words the runner can act on,
        # and nothing is drawn. A point that is no place on Earth is left out, as the server
        # leaves it out; a point whose place is not a number refuses the file, as there.
        refusals = [
            ("not-gpx", "hello, this is not GPX", "is not a GPX file"),
            ("short", None, "shorter than 100 m"),
            ("one-place", '<trkpt lat="95" lon="0"/><trkpt lat="51.5" lon="-0.1"/>',
             "no course in it: no track or route with two or more places (1 of its points is not a place on Earth)"),
            ("no-number", '<trkpt lat="51.5" lon="east"/><trkpt lat="51.6" lon="-0.1"/>', "without a latitude and longitude in numbers"),
        ]
        for label, body, reason in refusals:
            bad = ctx.folder / f"{ctx.engine}-{label}.gpx"
            if label == "short":
                write_gpx(course_points[:3], bad)
            elif label == "not-gpx":
                bad.write_text(body)
            else:
                bad.write_text(f'<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>{body}</trkseg></trk></gpx>')
            runner.browser.el("course-input").send_keys(str(bad))
            runner.browser.wait(lambda: runner.browser.visible("course-error"), what=f"the refusal of {label}.gpx")
            said = runner.browser.text("course-error")
            results.check(name, f"a course file that is no course ({label}) is refused in plain words, nothing drawn",
                          reason in said and not runner.browser.visible("course-preview"), said)
        runner.browser.el("course-input").send_keys(str(gpx))
        runner.browser.wait(lambda: runner.browser.visible("course-preview"), what="the course's outline")
        typed = runner.browser.js("return document.getElementById('distance-typed').value")
        results.check(name, "a chosen course is drawn, and the target distance becomes its length",
                      runner.browser.js("return document.querySelectorAll('#course-outline path.course-line').length") == 1
                      and abs(float(typed) * 1000 - length) < 8, f"target {typed} km; {runner.browser.text('course-caption')}")
        # The 560 m course drawn 320 units wide: the bar is the round length nearest under a
        # quarter of the width, and says so. It is drawn once the outline is laid out, when
        # the browser next reports the drawing's size.
        bar = "return document.querySelector('#course-outline .course-scale text')?.textContent"
        try:
            runner.browser.wait(lambda: runner.browser.js(bar), timeout=5, what="the scale bar")
        except AssertionError:
            pass
        scale = runner.browser.js(bar)
        results.check(name, "the outline has a scale bar with a round length", scale in ("50 m", "100 m", "200 m"), f"{scale!r}")
        north = runner.browser.js("return document.querySelector('#course-outline .course-north text')?.textContent")
        results.check(name, "a north arrow says which way is up", north == "N", f"{north!r}")
        runner.browser.screenshots(ctx.shots, "course-0-plan", focus_id="course-preview")
        runner.browser.el("distance-typed").clear()
        runner.browser.el("distance-typed").send_keys("0.6")
        run_ = create_run(ctx, runner)
        run_id = run_["id"]
        info = json.loads(http("GET", f"{server.base}/v1/runs/{run_id}", token=run_["inviteToken"])[1])
        course = info.get("course") or {}
        results.check(name, "the server keeps the course, simplified, and gives it to friends",
                      abs(course.get("lengthMeters", 0) - length) < 8 and 2 <= len(course.get("points", [])) <= len(course_points),
                      f"{course.get('lengthMeters')} m, {len(course.get('points', []))} of {len(course_points)} points")
        ids = [upload(server, run_, ctx.fixtures["memo_wav"], marker, sender) for marker, _, sender in markers]
        settled = wait_settled(server, run_, ids)
        results.check(name, "the five messages are ready", all(settled[i]["status"] == "ready" for i in ids))
        # A friend's view: the course with a dot where the chosen point lies.
        friend = ctx.open_browser()
        try:
            friend.open(f"{friend.base(server)}/r/{run_id}#invite={run_['inviteToken']}")
            friend.wait(lambda: friend.visible("course-preview"), what="the course on the recording page")
            friend.js("document.querySelector('input[name=\"preset\"][value=\"halfway\"]').click()")
            friend.wait(lambda: "dot" in friend.text("course-caption"), what="the friend's point on the course")
            results.check(name, "the recording page shows the course with the friend's point on it",
                          friend.js("return document.querySelectorAll('#course-outline .course-mark').length") == 1,
                          friend.text("course-caption"))
            friend.screenshots(ctx.shots, "course-1-record", focus_id="course-preview")
            friend.check_console(results, f"{name}/record")
        finally:
            friend.quit()
        runner.driver.refresh()
        runner.browser.wait(lambda: runner.browser.visible("course-preview"), what="the course on the runner's page")
        get_ready_count(runner, name, results, len(markers))
        # Start pressed in the start's pen, 60 m behind the start line: the run screen says the
        # runner is not at the start yet, not that they are off the course.
        a, b = course_points[0], course_points[1]
        heading = math.degrees(math.atan2((b[1] - a[1]) * math.cos(math.radians(a[0])), b[0] - a[0]))
        pen = [offset(a, heading + 180, 60 - FIX_METERS * k) for k in range(15)]
        runner.move_to(pen[0])
        runner.click("Start")
        runner.browser.wait(lambda: runner.browser.visible("run-course"), what="the course on the run screen")
        for index, point in enumerate(pen):
            runner.move_to(point)
            time.sleep(FIX_SECONDS)
            if index == 7:
                waiting = (runner.browser.text("run-status-badge"), runner.browser.text("now-playing"),
                           runner.browser.js("return document.body.classList.contains('is-off-course')"))
                results.check(name, "in the start's pen the run screen says the runner is not at the start yet, not as a warning",
                              waiting[0] == "Not at the start" and "begins where you reach its start" in waiting[1]
                              and waiting[2] is False, str(waiting))
                runner.browser.screenshots(ctx.shots, "course-2-before-start")
        fixes, truth, (left, back) = course_run(course_points, 230, 60)
        # Over the line and on a few steps, as a runner does.
        (a_lat, a_lon), (b_lat, b_lon) = course_points[-2], course_points[-1]
        fixes += [(b_lat + k * (b_lat - a_lat), b_lon + k * (b_lon - a_lon)) for k in range(1, 6)]
        truth += [length] * 5
        seen_off = False
        started_at = {}
        for index, point in enumerate(fixes):
            runner.move_to(point)
            time.sleep(FIX_SECONDS)
            off_now = runner.browser.text("run-status-badge") == "Off course"
            if off_now and not seen_off:
                runner.browser.screenshots(ctx.shots, "course-2-off-course")
            seen_off = seen_off or off_now
            for event in runner.audio():
                if event["type"] == "playing" and event["number"] not in started_at:
                    started_at[event["number"]] = index
            if len(started_at) == len(markers) and index > back:
                break
        results.check(name, "the run screen says \"Off course\" on the wrong turn", seen_off)
        results.check(name, "each message played, in marker order, once",
                      [e["number"] for e in runner.audio() if e["type"] == "playing"] == list(range(len(markers))),
                      str([e["number"] for e in runner.audio() if e["type"] == "playing"]))
        for number, (marker, meters, sender) in enumerate(markers):
            index = started_at.get(number)
            true_place = truth[index] if index is not None else None
            results.check(name, f"{sender}'s message ({marker}) starts within 15 m of its point on the course",
                          true_place is not None and abs(true_place - meters) <= 15 and not (left < index < back),
                          f"started at fix {index}, the runner truly {true_place} m along the course")
        runner.click("Finish")
        runner.click("Finish the run")
        runner.browser.wait(lambda: runner.browser.visible("finished"), timeout=30, what="the celebration")
        results.check(name, "the celebration draws the course with where each message played",
                      runner.browser.js("return document.querySelectorAll('#finished-outline .course-mark.is-played').length")
                      == len(markers), runner.browser.text("finished-text"))
        numbers = runner.browser.js(
            "return [...document.querySelectorAll('#finished-outline .course-mark-number, #finished-heard .heard-number')]"
            ".map(n => n.textContent)")
        expected = [str(n + 1) for n in range(len(markers))]
        results.check(name, "the dots on the outline are numbered as the list of who was heard",
                      numbers == expected + expected, str(numbers))
        runner.browser.screenshots(ctx.shots, "course-3-finished", focus_id="finished")
        # On a long course, messages a few hundred metres apart would cover one another's
        # numbers: the page's own drawing, given a 10 km course, draws them as one.
        drawn = runner.browser.js_async("""
            const done = arguments[arguments.length - 1];
            Promise.all([import("/static/course-outline.js"), import("/static/course.js")]).then(([outline, course]) => {
              const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
              svg.setAttribute("class", "course-outline");
              document.body.append(svg);
              const marks = [5000, 5150, 5300, 9000].map((meters, index) => ({ meters, kind: "played", number: index + 1 }));
              outline.drawOutline(svg, course.courseLine([[51.5, -0.1], [51.59, -0.1]]), { marks });
              done([...svg.querySelectorAll(".course-dots > *")].map((shape) => shape.tagName + ":" + (shape.textContent || "")));
              svg.remove();
            }, (error) => done(String(error)));""")
        results.check(name, "numbered dots that would cover one another are drawn as one, with all their numbers",
                      drawn == ["rect:", "text:1–3", "circle:", "text:4"], str(drawn))
        runner.browser.check_console(results, name)
    finally:
        runner.quit()


def scenario_refusals(ctx):
    """What the runner is told when the server will not plan a run, or the phone will not give
    the page its position."""
    name = ctx.name = "refusals"
    results = ctx.results
    for extra, label, expected in (
        (["--runs-per-minute", "1"], "a second run within the minute", "Too many runs were planned from this network"),
        (["--admin-only-runs"], "a server closed to the public", "lets only its administrator plan runs"),
    ):
        # The admin token comes from the environment, as an operator gives it.
        os.environ["VOICEMSG_ADMIN_TOKEN"] = "an-admin-token-only-the-operator-knows"
        try:
            server = Server(ctx.binary, ctx.folder, name=f"{ctx.engine}-refusals-{extra[0][2:]}", extra=extra)
        finally:
            del os.environ["VOICEMSG_ADMIN_TOKEN"]
        ctx.logs.append(server.log_path)
        runner = Runner(ctx, server)
        try:
            attempts = 2 if "--runs-per-minute" in extra else 1
            for _ in range(attempts):
                runner.browser.open(f"{runner.base}/")
                runner.browser.el("run-title-input").send_keys("Planned twice")
                runner.click("Create run")
                time.sleep(1)
            runner.browser.wait(lambda: runner.browser.visible("plan-error"), what="the refusal")
            text = runner.browser.text("plan-error")
            results.check(name, f"{label} is refused in words", expected in text, text)
            runner.browser.check_console(results, name, allowed=[r"/v1/runs"])
        finally:
            runner.quit()
            server.stop()

    server = ctx.server
    run_ = make_run(ctx, server, "No location")
    runner = Runner(ctx, server, deny_location=True)
    try:
        send_messages(ctx, server, run_)
        runner.browser.open(f"{runner.base}/runs/{run_['id']}#owner={run_['ownerToken']}")
        runner.browser.wait(lambda: runner.browser.visible("run-card"), what="the run card")
        get_ready(runner, name, results)
        runner.click("Start")
        runner.browser.wait(lambda: runner.browser.visible("location-problem"), what="the location problem")
        text = runner.browser.text("location-problem")
        results.check(name, "a denied location says what to do", "Allow location for this site" in text, text)
        runner.browser.check_console(results, name)
    finally:
        runner.quit()


SCENARIOS = {
    "run": scenario_run, "offline": scenario_offline, "reload": scenario_reload_and_hide, "aac": scenario_aac,
    "course": scenario_course, "refusals": scenario_refusals,
}


if __name__ == "__main__":
    sys.exit(harness.main(SCENARIOS, __doc__, "run tests", "voicemsg-run-"))
