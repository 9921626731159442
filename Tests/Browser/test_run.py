#!/usr/bin/env python3
"""Browser tests of the run itself, in headless Chromium, against a real voicemsg-server: a run
is planned on `/`, three messages are sent, and the runner gets ready, starts, and hears each
message at its marker while a route derived from a real GPX track is replayed through
`Emulation.setGeolocationOverride`.

Chromium runs here WITHOUT --autoplay-policy=no-user-gesture-required, as a phone would: the
page must unlock its player in the Start tap, and after a reload it must ask for a tap.

Scenarios:
  run      plan on /, send three messages, Get ready, Start, run, Finish; screenshots at 375x667
  offline  Get ready, then the network off and the server stopped: the page reloads from its
           cache, plays every message at its marker, and its played reports reach the server,
           once each, when the server returns
  reload   a reload mid-run keeps the distance and replays nothing; a page hidden for 60 s
           takes the wake lock again, and a marker crossed meanwhile plays on its return
  refusals a run refused by the server's limits, and a location the phone denies, are said
           in words

    scripts/browser-tests.sh                 # installs what is missing, runs both test files
    python3 Tests/Browser/test_run.py --server .build/debug/voicemsg-server [--only run]
"""
import argparse
import math
import os
import sys
import time
import xml.etree.ElementTree as ElementTree

from selenium.webdriver.common.by import By

import test_pages as pages
from test_pages import Browser, Server, http, run, upload, wait_settled

ROOT = pages.ROOT
# A fix every half second, 2.5 m apart along the route: 5 m/s, a fast but real running pace.
FIX_SECONDS = 0.5
FIX_METERS = 2.5
MARKERS = [("100m", 100.0, "Mum"), ("200m", 200.0, "Dad"), ("300m", 300.0, "Kim")]
PLANNED_KM = "0.4"

# Installed before any page script: what the page's one audio player does, with the distance
# the page showed at that moment.
AUDIO_WATCH = """
window.__audio = [];
document.addEventListener('DOMContentLoaded', function () {
  var player = document.getElementById('player');
  if (!player) return;
  ['playing', 'ended'].forEach(function (type) {
    player.addEventListener(type, function () {
      if (player.muted || player.dataset.number === undefined || player.dataset.number === '-1') return;
      var distance = document.getElementById('stat-distance');
      window.__audio.push({type: type, number: Number(player.dataset.number), at: Date.now(),
                           meters: Number(distance && distance.dataset.meters)});
    });
  });
});
"""


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
    """The runner's phone: the page in Chromium, its position moved by CDP."""

    def __init__(self, origin):
        self.browser = Browser(autoplay=False)
        self.driver = self.browser.driver
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": AUDIO_WATCH})
        self.driver.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": origin, "permissions": ["geolocation", "wakeLockScreen"]})
        self.fixes = []

    def click(self, label, timeout=20):
        """Clicks the visible button with this label, as a person would."""
        xpath = f"//button[normalize-space()='{label}']"
        button = self.browser.wait(lambda: next((b for b in self.driver.find_elements(By.XPATH, xpath)
                                                 if b.is_displayed() and b.is_enabled()), None),
                                   timeout=timeout, what=f"a visible '{label}' button")
        button.click()

    def move_to(self, point):
        self.driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                                    {"latitude": point[0], "longitude": point[1], "accuracy": 5})

    def meters(self):
        value = self.browser.js("var e = document.getElementById('stat-distance'); return e ? e.dataset.meters : null")
        return float(value) if value not in (None, "") else None

    def audio(self):
        return self.browser.js("return window.__audio || []") or []

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
    resource timing entry), by message."""
    messages = {m["id"]: m for m in pages.run_messages(server, run_)}
    for (marker, meters, sender), message_id in zip(MARKERS, ids):
        at = messages.get(message_id, {}).get("playedAtMeters")
        results.check(name, f"the played report of {sender}'s message is at its marker (within 15 m)",
                      at is not None and abs(at - meters) <= 15, f"atMeters {at} for {marker}")
    # A request the network refused has a status of 0 in its entry.
    names = runner.browser.js(
        "return performance.getEntriesByType('resource').filter(e => e.responseStatus > 0).map(e => e.name)") or []
    return [sum(1 for entry in names if entry.endswith(f"/v1/messages/{i}/played")) for i in ids]


def send_messages(ctx, server, run_):
    ids = [upload(server, run_, ctx.fixtures["memo_wav"], marker, sender) for marker, _, sender in MARKERS]
    settled = wait_settled(server, run_, ids)
    ctx.results.check(ctx.name, "the three messages are ready", all(settled[i]["status"] == "ready" for i in ids),
                      str({settled[i]["sender"]: settled[i]["status"] for i in ids}))
    return ids


def make_run(server, title="Test run"):
    body = pages.json.dumps({"title": title, "plannedDistanceMeters": float(PLANNED_KM) * 1000, "runnerName": "Sam"}).encode()
    status, data, _ = http("POST", f"{server.base}/v1/runs", body=body, headers={"Content-Type": "application/json"})
    assert status == 201, f"creating a run answered {status}"
    return pages.json.loads(data)


def get_ready(runner, name, results):
    runner.click("Get ready")
    runner.browser.wait(lambda: "3 of 3 messages ready to play" in runner.browser.text("ready-summary"), timeout=60,
                        what="three messages ready")
    results.check(name, "Get ready says all three messages are ready", True, runner.browser.text("ready-summary"))
    start = runner.browser.el("start-button")
    results.check(name, "Start is enabled once ready", start.is_enabled())


# ---------------------------------------------------------------------------------------------
# Scenarios

def scenario_run(ctx):
    name = ctx.name = "run"
    results, server = ctx.results, ctx.server
    runner = Runner(server.base)
    try:
        runner.browser.open(f"{server.base}/")
        runner.browser.screenshots(ctx.shots, "run-0-plan")
        runner.browser.el("run-title-input").send_keys("Sunday tempo run")
        runner.driver.find_element(By.XPATH, "//label[normalize-space()='Other']").click()
        runner.browser.el("distance-typed").send_keys(PLANNED_KM)
        runner.browser.el("runner-name").clear()
        runner.browser.el("runner-name").send_keys("Sam")
        runner.click("Create run")
        runner.browser.wait(lambda: "/runs/" in runner.driver.current_url and runner.browser.visible("run-card"),
                            what="the runner's page of the new run")
        url = runner.driver.current_url
        run_id = url.split("/runs/")[1].split("#")[0]
        fragment = dict(part.split("=", 1) for part in url.split("#", 1)[1].split("&"))
        run_ = {"id": run_id, "ownerToken": fragment["owner"], "inviteToken": fragment["invite"]}
        ctx.tokens += [run_["ownerToken"], run_["inviteToken"]]
        invite = runner.browser.el("invite-link").get_attribute("value")
        results.check(name, "the runner's page has the invite link ready to share",
                      invite.endswith(f"/r/{run_id}#invite={run_['inviteToken']}"), invite)
        info = pages.json.loads(http("GET", f"{server.base}/v1/runs/{run_id}", token=run_["inviteToken"])[1])
        results.check(name, "the run has its title, target distance and runner",
                      (info["title"], info["plannedDistanceMeters"], info.get("runnerName")) == ("Sunday tempo run", 400, "Sam"),
                      str(info))
        runner.browser.open(f"{server.base}/")
        listed = runner.browser.text("run-list")
        results.check(name, "/ lists the run under your runs on this device", "Sunday tempo run" in listed
                      and "Created" in listed, listed)
        runner.browser.open(url)
        runner.browser.wait(lambda: runner.browser.visible("run-card"), what="the run card")

        ids = send_messages(ctx, server, run_)
        get_ready(runner, name, results)
        runner.browser.screenshots(ctx.shots, "run-1-ready", focus_id="run-card")

        runner.click("Start")
        runner.browser.wait(lambda: runner.browser.visible("run-screen"), what="the run screen")
        note = runner.browser.text("screen-on-note")
        results.check(name, "the run screen says plainly that the screen must stay on", "screen" in note, note)
        results.check(name, "the wake lock is held", runner.browser.el("screen-on-note").get_attribute("data-wake-lock") == "held")
        points = route(float(PLANNED_KM) * 1000 + 40)
        runner.run_along(points[:80])
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
        runner.run_along(points[80:], until=lambda: len([e for e in runner.audio() if e["type"] == "ended"]) == 3
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
        for width, height in ((375, 667),):
            runner.browser.emulate(width, height, mobile=True, scale=2)
            small = runner.browser.js("""return [...document.querySelectorAll('#run-screen button, #finished button')]
                .filter(b => b.offsetParent).map(b => b.getBoundingClientRect()).filter(r => r.height < 44 || r.width < 44).length""")
            runner.browser.end_emulation()
            results.check(name, f"every control on the run screen is a 44 px target at {width}x{height}", small == 0, f"{small} smaller")
        runner.browser.check_fits(results, name, "the run screen")
        runner.browser.check_console(results, name)
    finally:
        runner.quit()


def scenario_offline(ctx):
    name = ctx.name = "offline"
    results = ctx.results
    server = Server(ctx.binary, ctx.folder, name="offline-server")
    ctx.logs.append(server.log_path)
    port = server.port
    run_ = make_run(server, "Offline run")
    ctx.tokens += [run_["ownerToken"], run_["inviteToken"]]
    runner = Runner(server.base)
    try:
        ids = send_messages(ctx, server, run_)
        link = f"{server.base}/runs/{run_['id']}#owner={run_['ownerToken']}&invite={run_['inviteToken']}"
        runner.browser.open(link)
        runner.browser.wait(lambda: runner.browser.visible("run-card"), what="the run card")
        get_ready(runner, name, results)
        # No network and no server: the page must come back from what the phone kept.
        runner.driver.execute_cdp_cmd("Network.enable", {})
        runner.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
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
        server = Server(ctx.binary, ctx.folder, name="offline-server", port=port)
        runner.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        deadline = returned + 10
        while time.time() < deadline:
            messages = {m["id"]: m for m in pages.run_messages(server, run_)}
            if all(messages[i].get("playedAtMeters") is not None for i in ids):
                break
            time.sleep(0.5)
        took = time.time() - returned
        posts = check_reports(results, name, server, runner, run_, ids)
        results.check(name, "the reports arrive within 10 s of the server's return", took <= 10, f"{took:.1f} s")
        results.check(name, "each report arrives once", posts == [1, 1, 1], f"{posts} by message")
        runner.browser.check_console(results, name, allowed_network=[r"ERR_INTERNET_DISCONNECTED", r"ERR_CONNECTION_REFUSED",
                                                                    r"Failed to load resource", r"net::ERR_"])
    finally:
        runner.quit()
        server.stop()


def scenario_reload_and_hide(ctx):
    name = ctx.name = "reload"
    results, server = ctx.results, ctx.server
    run_ = make_run(server, "Reload run")
    ctx.tokens += [run_["ownerToken"], run_["inviteToken"]]
    runner = Runner(server.base)
    try:
        send_messages(ctx, server, run_)
        link = f"{server.base}/runs/{run_['id']}#owner={run_['ownerToken']}&invite={run_['inviteToken']}"
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
        other = runner.driver.execute_cdp_cmd("Target.createTarget", {"url": "about:blank", "background": False})
        time.sleep(1)
        hidden_state = runner.browser.js("return document.visibilityState")
        released = runner.browser.el("screen-on-note").get_attribute("data-wake-lock")
        start = time.time()
        index = hidden_from
        while time.time() - start < 60:
            runner.move_to(points[min(index, len(points) - 1)])
            index += 1
            time.sleep(FIX_SECONDS)
        during = [e for e in runner.audio() if e["number"] == 2]
        results.check(name, "while hidden, the page got no position and played nothing", not during, str(during))
        results.check(name, "the page was hidden, and its wake lock released",
                      hidden_state == "hidden" and released == "released", f"{hidden_state}, wake lock {released}")
        returned = time.time()
        runner.driver.execute_cdp_cmd("Page.bringToFront", {})
        for point in points[index:index + 10] or points[-1:] * 10:
            runner.move_to(point)
            time.sleep(FIX_SECONDS)
            if any(e["number"] == 2 and e["type"] == "playing" for e in runner.audio()):
                break
        third = next((e for e in runner.audio() if e["number"] == 2 and e["type"] == "playing"), None)
        results.check(name, "the marker crossed while hidden plays within 2 s of the return",
                      third is not None and third["at"] / 1000 - returned <= 2,
                      f"{(third['at'] / 1000 - returned):.1f} s after the return" if third else "it did not play")
        runner.browser.wait(lambda: runner.browser.el("screen-on-note").get_attribute("data-wake-lock") == "held",
                            timeout=5, what="the wake lock taken again")
        results.check(name, "back in front, the page takes the wake lock again", True)
        runner.driver.execute_cdp_cmd("Target.closeTarget", {"targetId": other["targetId"]})
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
            server = Server(ctx.binary, ctx.folder, name=f"refusals-{extra[0][2:]}", extra=extra)
        finally:
            del os.environ["VOICEMSG_ADMIN_TOKEN"]
        ctx.logs.append(server.log_path)
        runner = Runner(server.base)
        try:
            attempts = 2 if "--runs-per-minute" in extra else 1
            for _ in range(attempts):
                runner.browser.open(f"{server.base}/")
                runner.browser.el("run-title-input").send_keys("Planned twice")
                runner.click("Create run")
                time.sleep(1)
            runner.browser.wait(lambda: runner.browser.visible("plan-error"), what="the refusal")
            text = runner.browser.text("plan-error")
            results.check(name, f"{label} is refused in words", expected in text, text)
            runner.browser.check_console(results, name, allowed_network=[r"/v1/runs - Failed to load resource: the server responded with a status of (429|401)"])
        finally:
            runner.quit()
            server.stop()

    server = ctx.server
    run_ = make_run(server, "No location")
    ctx.tokens += [run_["ownerToken"], run_["inviteToken"]]
    runner = Runner(server.base)
    try:
        runner.driver.execute_cdp_cmd("Browser.setPermission", {
            "origin": server.base, "permission": {"name": "geolocation"}, "setting": "denied"})
        send_messages(ctx, server, run_)
        runner.browser.open(f"{server.base}/runs/{run_['id']}#owner={run_['ownerToken']}")
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
    "run": scenario_run, "offline": scenario_offline, "reload": scenario_reload_and_hide, "refusals": scenario_refusals,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default=str(ROOT / ".build/debug/voicemsg-server"))
    parser.add_argument("--screenshots", default=str(ROOT / "out/screenshots"))
    parser.add_argument("--only", action="append", choices=sorted(SCENARIOS), help="run only these scenarios")
    args = parser.parse_args()

    return pages.run_scenarios(SCENARIOS, args, "run tests", "voicemsg-run-")


if __name__ == "__main__":
    sys.exit(main())
