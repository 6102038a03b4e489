"""Shared set-up for the browser tests: our server on a free 127.0.0.1 port with a fresh
SWINGMASTER_HOME, and headless Chromium (Debian's chromium + chromedriver) driven by selenium.
Everything started here is stopped here, also when a test fails."""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("SWINGMASTER_BIN", os.path.join(ROOT, ".build", "debug", "swingmaster"))
SAMPLE = os.path.join(ROOT, "Samples", "demo_session.mp4")
SHOTS = os.path.join(ROOT, ".build", "screenshots")
PHONE = (375, 812)
DESKTOP = (1440, 900)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`swingmaster serve` on 127.0.0.1:<free port> with its own home folder."""

    def __init__(self):
        self.home = tempfile.mkdtemp(prefix="swing-browser-")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, SWINGMASTER_HOME=self.home)
        env.setdefault("SWINGMASTER_ONNXRUNTIME", os.path.join(ROOT, ".deps", "onnxruntime", "lib", "libonnxruntime.so"))
        self.log = open(os.path.join(self.home, "serve.log"), "w")
        self.proc = subprocess.Popen([BIN, "serve", "--host", "127.0.0.1", "--port", str(self.port),
                                      "--web-root", os.path.join(ROOT, "Web")],
                                     env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"swingmaster serve exited with {self.proc.returncode}: {self.log_text()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("swingmaster serve did not answer /healthz within 60 s")

    def log_text(self):
        self.log.flush()
        with open(os.path.join(self.home, "serve.log")) as f:
            return f.read()[-3000:]

    def api(self, path, method="GET"):
        req = urllib.request.Request(self.url + path, method=method)
        with urllib.request.urlopen(req, timeout=30) as r:
            body = r.read()
            return json.loads(body) if body else None

    def media_files(self):
        d = os.path.join(self.home, "media")
        return sorted(os.listdir(d)) if os.path.isdir(d) else []

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.home, ignore_errors=True)


def browser(width, height, extra_args=()):
    """Headless Chromium at width × height; `extra_args` are more command-line switches (a fake camera…)."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--autoplay-policy=no-user-gesture-required", "--mute-audio", f"--window-size={width},{height}",
                "--force-device-scale-factor=1", *extra_args]:
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    driver.set_window_size(width, height)
    driver.set_page_load_timeout(60)
    return driver


def wait(driver, condition, timeout=30, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.2).until(lambda d: condition(d), message)


def severe_console_errors(driver, expected_statuses=()):
    """Console errors the page raised. Aborted media requests (a page left mid-load) are not errors, and
    neither is an HTTP status the test provoked on purpose (Chromium logs every 4xx as SEVERE)."""
    out = []
    for entry in driver.get_log("browser"):
        if entry["level"] != "SEVERE":
            continue
        text = entry["message"]
        if "net::ERR_ABORTED" in text:
            continue
        if any(f"status of {code} " in text for code in expected_statuses):
            continue
        out.append(text)
    return out


def screenshot(driver, name):
    """Saves the whole page (not just the viewport) at the window's width."""
    os.makedirs(SHOTS, exist_ok=True)
    width = driver.execute_script("return window.innerWidth")
    height = driver.execute_script("return Math.max(document.documentElement.scrollHeight, window.innerHeight)")
    original = driver.get_window_size()
    driver.set_window_size(original["width"], min(max(height + 120, original["height"]), 6000))
    time.sleep(0.3)
    path = os.path.join(SHOTS, f"{name}-{width}.png")
    driver.save_screenshot(path)
    driver.set_window_size(original["width"], original["height"])
    return path


def no_horizontal_scroll(driver):
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
