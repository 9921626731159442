"""The two engines a phone's browser can be, behind one interface the scenarios use.

- `Chromium`: Debian's chromium, headless, through chromedriver and its DevTools protocol
  (positions, permissions, network conditions, device metrics, a second tab).
- `WebKit`: WebKitGTK, Safari's engine: the MiniBrowser under Xvfb through WebKitWebDriver, with
  Safari's rule that sound needs a tap (`--media-playback-requires-user-gesture=true`) and a
  mock microphone. Its driver has none of the DevTools commands, so the pages are opened
  through a `TestOrigin` (test_origin.py) that adds the test's shims (shim/) to each page and
  stands in for the network: positions come from the geolocation shim, the slow uplink and the
  lost network from the origin, and a hidden page is a minimized window. The screen is a
  375x667 phone's: an Xvfb display of that size, a window manager that lets the window fill
  it, and the MiniBrowser full screen, so its toolbar takes none of it.

What an engine cannot do is said where it is asked (`Unsupported`), so a scenario can say so
and check what the page shows instead.
"""
import base64
import json
import os
import re
import shutil
import subprocess
import time

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_origin import SHIM_FOLDER, TestOrigin

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
MINIBROWSER_PATHS = ["/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser", "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser"]
WEBKIT_DRIVER = shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
PHONE = (375, 667)
ENGINES = ("chromium", "webkit")
ENGINE_NAMES = {"chromium": "Chromium", "webkit": "WebKitGTK"}


class Unsupported(Exception):
    """The engine cannot do this step; the message says why."""


def minibrowser():
    return next((path for path in MINIBROWSER_PATHS if os.access(path, os.X_OK)), None)


def missing_tools(engine):
    """The programs an engine's tests need that this machine lacks."""
    if engine == "chromium":
        return [tool for tool in (CHROMIUM, CHROMEDRIVER) if not shutil.which(tool)]
    needed = [WEBKIT_DRIVER, "Xvfb", "matchbox-window-manager"]
    return [tool for tool in needed if not shutil.which(tool)] + ([] if minibrowser() else ["MiniBrowser"])


def open_browser(engine, **options):
    return (Chromium if engine == "chromium" else WebKit)(**options)


class Browser:
    """What both engines share: finding, waiting, reading the page's problems."""

    engine = ""
    name = ""

    def __init__(self):
        self.console = []
        self.page_problems = []

    def open(self, url):
        self.collect()
        self.driver.get(url)

    def el(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def visible(self, element_id):
        try:
            return self.el(element_id).is_displayed()
        except WebDriverException:
            return False

    def text(self, element_id):
        return self.el(element_id).text

    def wait(self, condition, timeout=20, what="a condition"):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(lambda _: condition())
        except TimeoutException:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}") from None

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def js_async(self, script, *args):
        """Runs `script` with a callback as its last argument, and returns what it gives."""
        return self.driver.execute_async_script(script, *args)

    def collect(self):
        """Moves the page's own problem list (shim/watch.js) into this object."""
        try:
            self.page_problems += self.js("var p = window.__problems || []; window.__problems = []; return p;") or []
        except WebDriverException:
            pass

    def audio_events(self):
        return self.js("return window.__audio || []") or []

    def click_button(self, label, timeout=20):
        """Clicks the visible, enabled button with this label, as a person would."""
        xpath = f"//button[normalize-space()='{label}']"
        button = self.wait(lambda: next((b for b in self.driver.find_elements(By.XPATH, xpath)
                                         if b.is_displayed() and b.is_enabled()), None),
                           timeout=timeout, what=f"a visible '{label}' button")
        button.click()

    def overflow_at(self, width, height, mobile):
        """How far the page is wider than a `width` px viewport (0 when it fits)."""
        self.emulate(width, height, mobile)
        extra = self.js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        self.end_emulation()
        return extra

    def check_fits(self, results, scenario, what):
        """The page fits a 375x667 phone, and a 1280x800 desktop where the engine can lay one out,
        without sideways scrolling."""
        phone = self.overflow_at(*PHONE, True)
        sizes = self.desktop_sizes()
        desktop = self.overflow_at(1280, 800, False) if sizes else 0
        label = "375x667 and 1280x800" if sizes else "375x667 (this engine's screen is a phone's only)"
        results.check(scenario, f"{what} fits {label} without sideways scrolling",
                      phone <= 0 and desktop <= 0, f"wider by {phone} px on the phone, {desktop} px on the desktop")

    def check_console(self, results, scenario, allowed=()):
        """Fails on any CSP violation, JavaScript error or console error, and on a failed
        request unless its URL matches one of `allowed` (a cut connection, an expected 400)."""
        self.collect()
        problems = list(self.page_problems) + self.engine_problems(allowed)
        results.check(scenario, "no CSP violation, JavaScript error or unexpected failed request",
                      not problems, "; ".join(problems)[:2000])

    def quit(self):
        try:
            self.driver.quit()
        except WebDriverException:
            pass


# ---------------------------------------------------------------------------------------------

class Chromium(Browser):
    """Headless Chromium. `autoplay` lifts the rule that sound needs a tap first, for the pages
    whose tests are not about that rule; the run's tests keep it, as a phone does. `shims` names
    more of the test's scripts (shim/) to run before each page's own."""

    engine = "chromium"
    name = "Chromium"

    def __init__(self, microphone=None, deny_microphone=False, autoplay=True, host_alias=None, insecure_tls=False,
                 shims=()):
        super().__init__()
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                *(["--autoplay-policy=no-user-gesture-required"] if autoplay else []), "--window-size=1280,800",
                "--use-fake-device-for-media-stream",
                "--use-fake-ui-for-media-stream=deny" if deny_microphone else "--use-fake-ui-for-media-stream"]
        if microphone:
            args.append(f"--use-file-for-fake-audio-capture={microphone}%noloop")
        if host_alias:
            args.append(f"--host-resolver-rules=MAP {host_alias} 127.0.0.1")
        if insecure_tls:
            args.append("--ignore-certificate-errors")
        for arg in args:
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=webdriver.ChromeService(CHROMEDRIVER), options=options)
        for shim in ("watch", *shims):
            self.cdp("Page.addScriptToEvaluateOnNewDocument", {"source": (SHIM_FOLDER / f"{shim}.js").read_text()})
        self.origins = []
        self.hidden_target = None

    def cdp(self, command, parameters=None):
        return self.driver.execute_cdp_cmd(command, parameters or {})

    def base(self, server, fault=None):
        """Where this browser opens the server's pages: the server itself, or a test origin in
        front of it when the scenario breaks the first upload's connection."""
        if not fault:
            return server.base
        origin = TestOrigin(server.port, fault=fault)
        self.origins.append(origin)
        return origin.base

    def origin(self, base):
        return next((o for o in self.origins if o.base == base), None)

    def collect(self):
        try:
            self.console += self.driver.get_log("browser")
        except WebDriverException:
            pass
        super().collect()

    def engine_problems(self, allowed):
        problems = []
        for entry in self.console:
            message = entry.get("message", "")
            if entry.get("level") not in ("SEVERE", "WARNING"):
                continue
            if "Content Security Policy" in message or "Refused to" in message:
                problems.append(f"console: {message}")
            elif "Failed to load resource" in message or "net::ERR_" in message:
                if not any(re.search(pattern, message) for pattern in allowed):
                    problems.append(f"unexpected failed request: {message}")
            elif entry.get("level") == "SEVERE":
                problems.append(f"console error: {message}")
        return problems

    # The phone's position and permissions.
    def grant_run_permissions(self, origin):
        self.cdp("Browser.grantPermissions", {"origin": origin, "permissions": ["geolocation", "wakeLockScreen"]})

    def deny_geolocation(self, origin):
        self.cdp("Browser.setPermission", {"origin": origin, "permission": {"name": "geolocation"}, "setting": "denied"})

    def move_to(self, latitude, longitude, accuracy=5):
        self.cdp("Emulation.setGeolocationOverride", {"latitude": latitude, "longitude": longitude, "accuracy": accuracy})

    # The network.
    def throttle_upload(self, bytes_per_second):
        self.cdp("Network.enable")
        self.cdp("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1,
                                                      "uploadThroughput": bytes_per_second or -1})

    def set_offline(self, offline):
        self.cdp("Network.enable")
        self.cdp("Network.emulateNetworkConditions", {"offline": offline, "latency": 0, "downloadThroughput": -1,
                                                      "uploadThroughput": -1})

    # Another app in front, and back.
    def hide(self):
        self.hidden_target = self.cdp("Target.createTarget", {"url": "about:blank", "background": False})

    def show(self):
        self.cdp("Page.bringToFront")
        if self.hidden_target:
            self.cdp("Target.closeTarget", {"targetId": self.hidden_target["targetId"]})
            self.hidden_target = None

    # The screen.
    def desktop_sizes(self):
        return True

    def emulate(self, width, height, mobile, scale=1):
        """Lays the page out as on a `width` x `height` screen until `end_emulation()`."""
        self.cdp("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": scale,
                                                        "mobile": mobile})
        time.sleep(0.3)

    def end_emulation(self):
        self.cdp("Emulation.clearDeviceMetricsOverride")

    def screenshots(self, folder, name, focus_id=None):
        """A 375x667 phone view, the whole page at 375 px, and a 1280x800 desktop view."""
        folder.mkdir(parents=True, exist_ok=True)
        self.emulate(*PHONE, mobile=True, scale=2)
        scroll_to(self, focus_id)
        capture = lambda **extra: base64.b64decode(self.cdp("Page.captureScreenshot", {"format": "png", **extra})["data"])
        (folder / f"{name}-phone.png").write_bytes(capture())
        (folder / f"{name}-phone-full.png").write_bytes(capture(captureBeyondViewport=True))
        self.emulate(1280, 800, mobile=False)
        scroll_to(self, focus_id)
        (folder / f"{name}-desktop.png").write_bytes(capture())
        self.end_emulation()

    def quit(self):
        for origin in self.origins:
            origin.close()
        super().quit()


def scroll_to(browser, focus_id):
    if focus_id:
        browser.js("var e = document.getElementById(arguments[0]); if (e) e.scrollIntoView({block: 'center'});", focus_id)
        time.sleep(0.2)


# ---------------------------------------------------------------------------------------------

class Display:
    """One Xvfb screen the size of a phone's, with a window manager that lets a window go full
    screen, shared by every WebKit browser of the run."""

    started = None

    @classmethod
    def ensure(cls):
        if cls.started:
            return
        read, write = os.pipe()
        server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{PHONE[0]}x{PHONE[1]}x24",
                                   "-nolisten", "tcp"], pass_fds=(write,), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        os.close(write)
        number = b""
        while not number.endswith(b"\n"):
            chunk = os.read(read, 16)
            if not chunk:
                raise RuntimeError("Xvfb did not start")
            number += chunk
        os.close(read)
        os.environ["DISPLAY"] = f":{number.decode().strip()}"
        manager = subprocess.Popen(["matchbox-window-manager", "-use_titlebar", "no"], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        cls.started = (server, manager)

    @classmethod
    def stop(cls):
        if cls.started:
            for process in reversed(cls.started):
                process.terminate()
                process.wait(timeout=10)
            cls.started = None


class WebKit(Browser):
    """WebKitGTK's MiniBrowser, full screen on a 375x667 display, with Safari's rule that sound
    needs a tap. `microphone` is a WAV file the microphone shim plays to the page (None: the
    engine's own mock device, which plays tones); `deny_microphone` makes getUserMedia fail as a
    denied permission does."""

    engine = "webkit"
    name = "WebKitGTK"

    def __init__(self, microphone=None, deny_microphone=False, autoplay=False, host_alias=None, insecure_tls=False,
                 shims=()):
        super().__init__()
        self.shims = list(shims)
        if host_alias:
            raise Unsupported("WebKitGTK's driver cannot map a host name to this machine")
        Display.ensure()
        options = webdriver.WebKitGTKOptions()
        options.binary_location = minibrowser()
        for arg in ("--automation", "--full-screen", "--enable-media-stream=true", "--enable-mock-capture-devices=true",
                    "--media-playback-requires-user-gesture=true", *(["--ignore-tls-errors"] if insecure_tls else [])):
            options.add_argument(arg)
        self.driver = webdriver.WebKitGTK(options=options, service=webdriver.WebKitGTKService(WEBKIT_DRIVER))
        self.driver.set_script_timeout(60)
        self.microphone, self.deny_microphone = microphone, deny_microphone
        self.deny_location = False
        self.origins = []

    def settings(self):
        settings = {"denyGeolocation": self.deny_location, "denyMicrophone": self.deny_microphone}
        if self.microphone:
            settings["microphone"] = "/__test__/microphone.wav"
        return f"window.__testSettings = {json.dumps(settings)};"

    def base(self, server, fault=None):
        """A test origin in front of the server, which adds the shims to every page."""
        origin = TestOrigin(server.port, inject=["watch", "geolocation", "microphone", *self.shims], fault=fault,
                            settings=self.settings(), certificate=getattr(server, "certificate", None))
        if self.microphone:
            origin.serve_file("microphone.wav", self.microphone.read_bytes(), "audio/wav")
        self.origins.append(origin)
        return origin.base

    def origin(self, base):
        return next((o for o in self.origins if o.base == base), None)

    def current_origin(self):
        url = self.driver.current_url
        return next((o for o in self.origins if url.startswith(o.base)), None)

    def engine_problems(self, allowed):
        problems = []
        for origin in self.origins:
            for line, status in origin.failed_answers():
                if not any(re.search(pattern, line) for pattern in allowed):
                    problems.append(f"unexpected failed request: {line} -> {status or 'no answer'}")
        return problems

    def grant_run_permissions(self, origin):
        """The geolocation shim answers without asking; WebKitGTK has no wake lock to grant."""

    def deny_geolocation(self, origin):
        self.deny_location = True
        for known in self.origins:
            known.settings = self.settings()

    def move_to(self, latitude, longitude, accuracy=5):
        self.js("if (window.__testGeolocation) window.__testGeolocation.move(arguments[0], arguments[1], arguments[2])",
                latitude, longitude, accuracy)

    def throttle_upload(self, bytes_per_second):
        for origin in self.origins:
            origin.upload_rate = bytes_per_second

    def set_offline(self, offline):
        for origin in self.origins:
            origin.offline = offline

    def hide(self):
        self.driver.minimize_window()

    def show(self):
        self.driver.maximize_window()

    def desktop_sizes(self):
        return False

    def emulate(self, width, height, mobile, scale=1):
        if (width, height) != PHONE:
            raise Unsupported(f"this engine's screen is {PHONE[0]}x{PHONE[1]}")

    def end_emulation(self):
        pass

    def screenshots(self, folder, name, focus_id=None):
        """The 375x667 phone view (the screen is a phone's, and WebKitGTK's driver cannot
        capture beyond it)."""
        folder.mkdir(parents=True, exist_ok=True)
        scroll_to(self, focus_id)
        (folder / f"{name}-phone.png").write_bytes(self.driver.get_screenshot_as_png())

    def quit(self):
        for origin in self.origins:
            origin.close()
        super().quit()
