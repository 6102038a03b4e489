"""The web app in a real browser (issue #12): what a player does and sees, end to end.

One `swingmaster serve` for the module (fresh home), headless Chromium per test. Run through
scripts/test-browser.sh (called by `make test`). Screenshots of every page at phone (375 px) and
desktop (1440 px) widths go to .build/screenshots/ — look at them.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

import support
from support import DESKTOP, PHONE, SAMPLE, browser, no_horizontal_scroll, screenshot, severe_console_errors, wait

SERVER = None


def setUpModule():
    global SERVER
    SERVER = support.Server()


def tearDownModule():
    if SERVER:
        SERVER.stop()


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", *args], check=True)


class PageHelpers:
    """What every browser test here does to a page: open a path of the server, find by id, click."""

    def open(self, path):
        self.driver.get(SERVER.url + path)

    def by_id(self, name):
        return self.driver.find_element(By.ID, name)

    def click(self, element):
        """Clicks `element` after scrolling it to the middle of the window (not under the sticky header)."""
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()


class WebAppTests(PageHelpers, unittest.TestCase):
    def setUp(self):
        self.driver = browser(*DESKTOP)
        self.expected_statuses = ()
        self.tmp = tempfile.mkdtemp(prefix="swing-browser-files-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def tearDown(self):
        try:
            errors = severe_console_errors(self.driver, self.expected_statuses)
        finally:
            self.driver.quit()
        self.assertEqual(errors, [], "the pages logged console errors")

    # -- helpers -------------------------------------------------------------------------------

    def choose_hand(self):
        self.open("/onboarding")
        self.driver.find_element(By.CSS_SELECTOR, '.hand[data-hand="right"]').click()
        wait(self.driver, lambda d: d.find_element(By.ID, "go").text == "Upload a video", message="the hand was not taken")

    def upload(self, path, swing_check=True):
        """Picks `path` through the real file input on /sessions/new; returns once the upload is sent. When the
        page asks which person is the player (the demo has two walkers), Swingmaster is left to choose."""
        self.choose_file(path, swing_check)
        wait(self.driver, lambda d: d.find_element(By.ID, "progress").is_displayed() or d.find_element(By.ID, "who").is_displayed(),
             90, "no progress after choosing a file")
        if self.by_id("who").is_displayed():
            self.click(self.by_id("who-skip"))
        wait(self.driver, lambda d: d.find_element(By.ID, "progress").is_displayed(), 30, "no progress after choosing a file")

    def choose_file(self, path, swing_check=True):
        self.open("/sessions/new")
        wait(self.driver, lambda d: d.find_element(By.ID, "hand-label").text != "…", message="the page did not load the hand")
        if self.by_id("swing-check").is_selected() != swing_check:
            self.by_id("swing-check").click()
        self.by_id("file").send_keys(path)

    def wait_for_results(self, timeout=240):
        wait(self.driver, lambda d: re.search(r"/sessions/\d+$", d.current_url), timeout,
             f"the analysis did not reach the results page; server log:\n{SERVER.log_text()}")
        return int(self.driver.current_url.rsplit("/", 1)[1])

    def video_plays(self):
        """The shot page's video has data and its clock advances when played."""
        video = self.by_id("video")
        wait(self.driver, lambda d: d.execute_script("return arguments[0].readyState", video) >= 2, 60,
             "the video never had a frame to show")
        start = self.driver.execute_script("return arguments[0].currentTime", video)
        self.driver.execute_script("arguments[0].play()", video)
        wait(self.driver, lambda d: d.execute_script("return arguments[0].currentTime", video) > start + 0.1, 30,
             "the video did not play (currentTime stood still)")

    # -- tests ---------------------------------------------------------------------------------

    def any_session(self):
        """The id of a stored session, analysing the demo clip first when there is none."""
        sessions = SERVER.api("/api/sessions")["sessions"]
        if not sessions:
            self.choose_hand()
            self.upload(SAMPLE)
            self.wait_for_results()
            sessions = SERVER.api("/api/sessions")["sessions"]
        return sessions[0]["id"]

    def test_1_first_visit_to_shot_view(self):
        d = self.driver
        self.open("/")
        wait(d, lambda d: d.current_url.endswith("/onboarding"), message="a first visit should start with onboarding")
        self.assertIn("How to film", d.page_source)
        self.assertEqual(self.by_id("go").get_attribute("aria-disabled"), "true")
        self.choose_hand()
        self.by_id("go").click()
        wait(d, lambda d: d.current_url.endswith("/sessions/new"))

        # The demo's people walk past (no swing): with the check off every hit heard is a shot, so the
        # pager below has shots to turn.
        self.upload(SAMPLE, swing_check=False)
        seen = set()

        def stages_progress(d):
            if re.search(r"/sessions/\d+$", d.current_url):
                return True
            try:
                for li in d.find_elements(By.CSS_SELECTOR, "#stages li"):
                    cls = li.get_attribute("class")
                    if "active" in cls or "done" in cls:
                        seen.add(li.text.split("\n")[0])
                return d.find_element(By.ID, "job-error").is_displayed()
            except (StaleElementReferenceException, NoSuchElementException):
                return False   # the page is moving on to the results
        wait(d, stages_progress, 240, "the job neither finished nor failed")
        if "/new" in d.current_url:
            self.fail(f"the analysis of the sample failed: {d.find_element(By.ID, 'job-error').text}")
        session = self.wait_for_results()
        self.assertTrue(seen & {"Extracting audio", "Detecting contacts", "Running body pose", "Computing statistics"},
                        f"no stage was seen live: {seen}")

        # Results: shot count and a consistency score, the scatter drawn, a row per shot.
        wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#shots tbody tr")) > 0, 30, "no shot rows")
        stats = self.by_id("stats").text
        self.assertRegex(stats.lower(), r"shots?")
        self.assertRegex(stats.lower(), r"consistency")
        shots = len(d.find_elements(By.CSS_SELECTOR, "#shots tbody tr"))
        self.assertGreaterEqual(shots, 2)
        self.assertTrue(self.canvas_has_pixels("scatter"), "the contact scatter is empty")

        # The video with the skeleton: drawn on the server on request, its progress shown, then downloaded.
        self.by_id("dl-annotated").click()
        said = set()

        def annotated_ready(d):
            text = d.find_element(By.ID, "dl-status").text
            said.add(re.sub(r"\d+ %", "N %", text))
            return "downloading" in text or "error" in d.find_element(By.ID, "dl-status").get_attribute("class")
        wait(d, annotated_ready, 180, "the annotated video was never ready")
        self.assertIn("downloading", self.by_id("dl-status").text, f"the page said: {said}")
        self.assertIn("Drawing the skeleton on your video… N %", said, "no progress was shown while it was drawn")
        self.assertTrue(re.search(r"/sessions/\d+$", d.current_url), "the download left the results page")

        # Shot 1: the video plays, the overlay draws, the skeleton turns when dragged, ← → change shots.
        self.open(f"/sessions/{session}/shots/1")
        wait(d, lambda d: "Shot 1 of" in d.find_element(By.ID, "counter").text, 30)
        self.video_plays()
        wait(d, lambda d: self.canvas_has_pixels("overlay"), 30, "nothing was drawn over the video")
        self.driver.execute_script("document.getElementById('video').pause()")
        before = d.execute_script("return document.getElementById('skeleton').toDataURL()")
        ActionChains(d).move_to_element(self.by_id("skeleton")).click_and_hold().move_by_offset(120, 30).release().perform()
        wait(d, lambda d: d.execute_script("return document.getElementById('skeleton').toDataURL()") != before, 10,
             "dragging did not turn the skeleton")
        self.assertTrue(self.canvas_has_pixels("series"), "the wrist time series is empty")
        d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        wait(d, lambda d: d.current_url.endswith("/shots/2"), 10, "→ did not open the next shot")
        wait(d, lambda d: "Shot 2 of" in d.find_element(By.ID, "counter").text, 30)
        d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
        wait(d, lambda d: d.current_url.endswith("/shots/1"), 10, "← did not go back")

    def test_2_every_page_at_phone_and_desktop_width(self):
        d = self.driver
        sid = self.any_session()
        pages = {"home": "/", "onboarding": "/onboarding", "new": "/sessions/new", "results": f"/sessions/{sid}",
                 "shot": f"/sessions/{sid}/shots/1", "compare": "/compare", "progress": "/progress", "login": "/login"}
        ready = {"home": "#sessions li", "results": "#shots tbody tr", "shot": "#metrics .stat, #metrics > *",
                 "compare": "#pick-a option"}
        for width, height in (PHONE, DESKTOP):
            d.set_window_size(width, height)
            for name, path in pages.items():
                self.open(path)
                if name in ready:
                    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ready[name]), 30, f"{name} did not fill in")
                if name == "shot":
                    wait(d, lambda d: d.execute_script("return document.getElementById('video').readyState") >= 2, 60)
                    d.execute_script("const v = document.getElementById('video'); v.currentTime = v.currentTime + 0.6")
                    time.sleep(0.8)
                time.sleep(0.4)
                self.assertTrue(no_horizontal_scroll(d), f"{name} scrolls sideways at {width} px")
                if name == "results":
                    # The session's sound delay in words, from the document's soundDelay (issue #38).
                    delay = SERVER.api(f"/api/sessions/{sid}")["session"]["soundDelay"]
                    line = d.find_element(By.ID, "sound-delay").text
                    if delay["source"] == "none":   # nothing measured: the heard time, and why
                        self.assertIn("measured when they were heard", line)
                        self.assertIn(delay["reason"], line)
                    else:
                        self.assertIn(f"{round(abs(delay['ms']))} ms", line)
                        if delay["source"] == "measured":
                            self.assertIn("Sound reached your phone", line)
                screenshot(d, name)

    def test_3_cancel_stores_nothing(self):
        long = os.path.join(self.tmp, "long practice.mp4")
        ffmpeg("-stream_loop", "5", "-i", SAMPLE, "-c", "copy", "-t", "70", long)
        before = len(SERVER.api("/api/sessions")["sessions"])
        media_before = SERVER.media_files()
        self.choose_hand()
        self.upload(long)
        d = self.driver
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#stages li.active"), 120, "the job never started")
        self.by_id("cancel").click()
        wait(d, lambda d: d.find_element(By.ID, "job-error").is_displayed(), 60, "cancelling said nothing")
        self.assertIn("Nothing was stored", self.by_id("job-error").text)
        time.sleep(1)
        self.assertEqual(len(SERVER.api("/api/sessions")["sessions"]), before, "a cancelled job stored a session")
        self.assertEqual(SERVER.media_files(), media_before, "a cancelled job left its upload behind")

    def test_4_a_file_that_is_not_a_video_gets_the_servers_sentence(self):
        fake = os.path.join(self.tmp, "notes.mp4")
        with open(fake, "w") as f:
            f.write("these are my notes, not a video\n" * 20)
        before = len(SERVER.api("/api/sessions")["sessions"])
        self.expected_statuses = (422,)   # the server's answer to this file, shown on the page
        self.choose_hand()
        self.upload(fake)
        wait(self.driver, lambda d: d.find_element(By.ID, "job-error").is_displayed(), 60, "no error shown")
        text = self.by_id("job-error").text
        self.assertIn("notes.mp4", text)
        self.assertNotIn(SERVER.home, text, "the sentence leaks a server path")
        self.assertTrue(self.by_id("again").is_displayed(), "no way to try another video")
        self.assertEqual(len(SERVER.api("/api/sessions")["sessions"]), before)

    def test_5_an_iphone_hevc_mov_plays_in_the_shot_view(self):
        mov = os.path.join(self.tmp, "IMG_0042.MOV")
        ffmpeg("-i", SAMPLE, "-c:v", "libx265", "-x265-params", "log-level=error", "-preset", "ultrafast",
               "-tag:v", "hvc1", "-c:a", "aac", mov)
        self.choose_hand()
        self.upload(mov)
        session = self.wait_for_results()
        self.open(f"/sessions/{session}/shots/1")
        self.video_plays()

    def canvas_has_pixels(self, canvas_id):
        return self.driver.execute_script("""
            const c = document.getElementById(arguments[0]);
            if (!c || !c.width || !c.height) return false;
            const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            for (let i = 3; i < data.length; i += 16) if (data[i] > 0) return true;
            return false;""", canvas_id)

    def test_6_results_show_and_filter_by_stroke_type(self):
        d = self.driver
        sid = self.any_session()
        doc = SERVER.api(f"/api/sessions/{sid}")["session"]
        by = doc["stats"]["byStroke"]
        d.set_window_size(*DESKTOP)
        self.open(f"/sessions/{sid}")
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#shots tbody tr"), 30, "the results did not fill in")
        # Every measured shot names its stroke in the table, as the document does.
        strokes = [r.find_elements(By.TAG_NAME, "td")[-1].text for r in d.find_elements(By.CSS_SELECTOR, "#shots tbody tr")]
        self.assertEqual(sorted(strokes), sorted(s["stroke"].capitalize() if s.get("stroke") else "–" for s in doc["shots"]))
        # One button per stroke present, beside "All strokes"; choosing one shows only its shots and statistics.
        buttons = d.find_elements(By.CSS_SELECTOR, "#strokes button")
        self.assertEqual(len(buttons), 1 + len(by), [b.text for b in buttons])
        self.assertEqual(buttons[0].get_attribute("aria-pressed"), "true")
        name, stats = next(iter(by.items()))
        target = next(b for b in buttons if b.text.lower().startswith(name))
        self.assertIn(f"({stats['shotCount']})", target.text)
        target.click()
        pressed = lambda d: [b.text for b in d.find_elements(By.CSS_SELECTOR, '#strokes button[aria-pressed="true"]')]
        wait(d, lambda d: pressed(d) and pressed(d)[0].lower().startswith(name), 5, "the stroke button did not stay pressed")
        rows = d.find_elements(By.CSS_SELECTOR, "#shots tbody tr")
        self.assertEqual(len(rows), sum(1 for s in doc["shots"] if s.get("stroke") == name))
        self.assertIn(str(stats["shotCount"]), d.find_element(By.ID, "stats").text)
        screenshot(d, "results-stroke")
        d.set_window_size(*PHONE)
        time.sleep(0.5)
        self.assertTrue(no_horizontal_scroll(d), "the results page scrolls sideways on a phone with a stroke chosen")
        screenshot(d, "results-stroke")

        # Compare lists each shot with its stroke and can list one stroke only.
        self.open("/compare")
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, f'#stroke option[value="{name}"]'), 30, "compare offers no stroke filter")
        self.assertTrue(any(o.text.endswith(f"· {name}") for o in d.find_elements(By.CSS_SELECTOR, "#pick-a option")),
                        "no shot in the compare list names its stroke")
        Select(self.by_id("stroke")).select_by_value(name)
        wait(d, lambda d: all(o.text.endswith(name) for o in d.find_elements(By.CSS_SELECTOR, "#pick-a option")), 10,
             "the stroke filter left other strokes in the list")

        # The progress page follows one stroke type across sessions.
        summaries = SERVER.api("/api/sessions")["sessions"]
        self.assertEqual(next(s for s in summaries if s["id"] == sid)["byStroke"][name]["shots"], stats["shotCount"])
        self.open("/progress")
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, f'#strokes [data-stroke="{name}"]'), 30, "the progress page offers no stroke")
        self.click(d.find_element(By.CSS_SELECTOR, f'#strokes [data-stroke="{name}"]'))
        wait(d, lambda d: d.execute_script("return document.querySelector('#strokes [aria-pressed=\"true\"]')?.dataset.stroke") == name, 5)
        self.assertTrue(self.canvas_has_pixels("consistency"), "nothing drawn for one stroke")
        self.assertTrue(no_horizontal_scroll(d), "the progress page scrolls sideways on a phone")
        screenshot(d, "progress-stroke")

    def test_6b_the_bodys_angles_on_the_results_shot_and_compare_pages(self):
        """Issue #41: the body measures at contact, as the document has them, on every page that shows a shot."""
        d = self.driver
        sid = self.any_session()
        doc = SERVER.api(f"/api/sessions/{sid}")["session"]
        measures = SERVER.api("/api/vocabulary")["bodyMeasures"]
        shot = next(s for s in doc["shots"] if s.get("angles"))

        def shown(m, v):
            return f"{round(v)}°" if m["unit"] == "deg" else f"{v:.2f}×"
        for width, height in (DESKTOP, PHONE):
            d.set_window_size(width, height)
            # Results: each measure's mean over the session's shots.
            self.open(f"/sessions/{sid}")
            wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#body-stats .stat"), 30, "the results show no body measures")
            text = self.by_id("body-stats").text
            for m in measures:
                self.assertIn(m["label"], text)
                self.assertIn(shown(m, doc["stats"]["angles"][m["id"]]["mean"]), text)
            d.execute_script("document.getElementById('body-card').scrollIntoView()")
            self.assertTrue(no_horizontal_scroll(d), f"the results scroll sideways at {width} px")
            screenshot(d, "results-body")
            if width == DESKTOP[0]:
                # The highlights: cut on the server with its progress shown, then downloaded; the browser plays them.
                self.by_id("dl-highlights").click()
                wait(d, lambda d: "downloading" in d.find_element(By.ID, "dl-status").text
                     or "error" in d.find_element(By.ID, "dl-status").get_attribute("class"), 180, "the highlights were never ready")
                self.assertIn("Your highlights are downloading", self.by_id("dl-status").text)
                d.execute_script("""const v = document.createElement('video'); v.id = 'reel'; v.muted = true;
                  v.src = `/api/sessions/${arguments[0]}/highlights.mp4`; document.body.append(v); v.play();""", sid)
                wait(d, lambda d: d.execute_script("return document.getElementById('reel').currentTime") > 0.3, 60,
                     "the browser did not play the highlights")

            # The shot: a tile per measure with its value at contact and its range over the swing, the joint
            # angles charted over the swing and drawn on the skeleton, and their definitions.
            self.open(f"/sessions/{sid}/shots/{shot['index']}")
            wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#body .stat")) == len(measures), 30, "the shot shows no body measures")
            tiles = [t.text for t in d.find_elements(By.CSS_SELECTOR, "#body .stat")]
            for m, tile in zip(measures, tiles):
                self.assertIn(m["label"], tile)
                self.assertIn(shown(m, shot["angles"][m["id"]]), tile)
                lo, hi = shot["angleRange"][m["id"]]
                self.assertIn(f"{shown(m, lo)} to {shown(m, hi)} over the swing", tile)
            self.assertTrue(self.canvas_has_pixels("angle-series"), "the angles over the swing are not drawn")
            self.assertEqual(len(d.find_elements(By.CSS_SELECTOR, "#definitions dt")), len(measures))
            # This swing for OpenSim: the links give the shot's frames only (a TRC row per posed frame).
            trc = d.execute_async_script("""const done = arguments[arguments.length - 1];
              fetch(document.getElementById('dl-shot-trc').href).then((r) => r.text()).then(done, (e) => done(String(e)));""")
            rows = trc.split("\n\n")[-1].strip().split("\n")
            frames = SERVER.api(f"/api/sessions/{sid}/shots/{shot['index']}")["frames"]
            self.assertEqual(len(rows), len(frames), "the swing's TRC does not hold the swing's frames")
            self.assertIn(f"session-{sid}-shot-{shot['index']}.trc", trc.split("\n")[0])
            wait(d, lambda d: d.execute_script("return document.getElementById('video').readyState") >= 2, 60)
            d.execute_script("const v = document.getElementById('video'); v.currentTime = arguments[0]", shot["contactTime"])
            # The joint angles are drawn on the skeleton: the elbow's violet wedge and value (no other drawing there
            # is violet).
            wedge = """const c = document.getElementById('skeleton'), x = c.getContext('2d');
              const p = x.getImageData(0, 0, c.width, c.height).data; let n = 0;
              for (let i = 0; i < p.length; i += 4) if (Math.abs(p[i] - 185) < 30 && Math.abs(p[i + 1] - 156) < 30 && Math.abs(p[i + 2] - 255) < 30) n++;
              return n;"""
            wait(d, lambda d: d.execute_script(wedge) > 40, 10, "no joint angle is drawn on the skeleton")
            self.assertTrue(no_horizontal_scroll(d), f"the shot view scrolls sideways at {width} px")
            d.execute_script("document.getElementById('skeleton').scrollIntoView()")
            time.sleep(0.6)
            screenshot(d, "shot-angles")
            d.execute_script("document.getElementById('body-card').scrollIntoView()")
            time.sleep(0.3)
            screenshot(d, "shot-body")

            # Compare: a row per measure, each shot's value at contact.
            self.open("/compare")
            wait(d, lambda d: measures[0]["label"] in d.find_element(By.ID, "table").text, 30, "compare shows no body measures")
            table = self.by_id("table").text
            for m in measures:
                self.assertIn(m["label"], table)
            self.assertTrue(no_horizontal_scroll(d), f"compare scrolls sideways at {width} px")
            screenshot(d, "compare-body")

    def test_7_the_player_corrects_the_contacts(self):
        d = self.driver
        # A session analysed with the swing check (the default), so the demo's walkers are not shots.
        sid = next((s["id"] for s in SERVER.api("/api/sessions")["sessions"]
                    if SERVER.api(f"/api/sessions/{s['id']}")["session"].get("rejectedContacts")), None)
        if sid is None:
            self.choose_hand()
            self.upload(SAMPLE)
            sid = self.wait_for_results()
        doc = SERVER.api(f"/api/sessions/{sid}")["session"]
        shots, rejected = len(doc["shots"]), doc.get("rejectedContacts") or []
        self.assertTrue(rejected, "the demo's walkers should not all be shots")
        d.set_window_size(*DESKTOP)
        self.open(f"/sessions/{sid}")
        marks = lambda d, state=None: d.find_elements(By.CSS_SELECTOR, "#timeline-marks .m" + (f".{state}" if state else ""))
        wait(d, lambda d: len(marks(d)) == shots + len(rejected) and d.find_elements(By.CSS_SELECTOR, "#timeline rect.env"), 30,
             "the timeline did not show every contact over the sound")
        self.assertEqual(len(d.find_elements(By.CSS_SELECTOR, "#rejected li")), len(rejected))
        self.assertIn("No swing", self.by_id("rejected").text)
        # Each mark says why it is not a shot in the program's words for its kind, not one label for all.
        labels = {r["id"]: r["label"] for r in SERVER.api("/api/vocabulary")["rejections"]}
        said = [m.get_attribute("aria-label") for m in marks(d, "rejected")]
        self.assertEqual(sorted(said), sorted(f"{labels[r['kind']]} at {r['time']:.2f} s" for r in rejected if r["kind"] != "removed"))
        self.assertIn("not counted", self.by_id("stats").text)
        self.assertFalse(self.by_id("undo").is_enabled(), "undo offered before any change")
        screenshot(d, "results-contacts")

        # Count a rejected hit: it becomes a shot, the table and the statistics follow without a reload.
        self.click(d.find_element(By.CSS_SELECTOR, "#rejected li button"))
        wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#shots tbody tr")) == shots + 1, 60, "the restored hit is not in the table")
        self.assertIn("counts as a shot", self.by_id("edit-status").text)
        self.assertEqual(len(d.find_elements(By.CSS_SELECTOR, "#rejected li")), len(rejected) - 1)
        self.assertTrue(self.by_id("undo").is_enabled())

        # Take a shot out from its mark.
        self.click(marks(d, "shot")[0])
        wait(d, lambda d: self.by_id("edit-remove").is_displayed(), 5, "selecting a shot offers no way to take it out")
        self.click(self.by_id("edit-remove"))
        wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#shots tbody tr")) == shots, 60, "the hit was not taken out")
        wait(d, lambda d: marks(d, "removed"), 5, "a taken-out hit is not marked")

        # Add a missed hit by clicking the sound where there is none (11 s into the 12-s clip), then undo it.
        box = self.by_id("timeline")
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        start, duration = doc.get("start") or 0, doc["duration"]
        offset = int(box.size["width"] * ((11.0 - start) / duration - 0.5))
        ActionChains(d).move_to_element_with_offset(box, offset, 20).click().perform()
        wait(d, lambda d: self.by_id("edit-add").is_displayed(), 5, "clicking the sound offers no way to add a hit")
        asked = float(re.search(r"at ([0-9.]+) s", self.by_id("edit-add").text).group(1))
        self.assertLess(abs(asked - 11.0), 0.1, "the click and the time offered disagree")
        screenshot(d, "results-add")
        self.click(self.by_id("edit-add"))
        wait(d, lambda d: marks(d, "added"), 90, f"the added hit is not marked: {self.by_id('edit-status').text}")
        self.assertEqual(len(d.find_elements(By.CSS_SELECTOR, "#shots tbody tr")), shots + 1)
        added = SERVER.api(f"/api/sessions/{sid}")["session"]
        self.assertTrue(any(s.get("origin") == "added" and s["status"] == "ok" for s in added["shots"]))
        for size in (PHONE, DESKTOP):
            d.set_window_size(*size)
            time.sleep(0.5)
            self.assertTrue(no_horizontal_scroll(d), f"the results page scrolls sideways at {size[0]} px with the timeline")
            screenshot(d, "results-edited")
        for _ in range(3):
            before = len(SERVER.api(f"/api/sessions/{sid}")["session"].get("edits") or [])
            self.click(self.by_id("undo"))
            wait(d, lambda d: len(SERVER.api(f"/api/sessions/{sid}")["session"].get("edits") or []) == before - 1, 30, "undo did nothing")
        wait(d, lambda d: not self.by_id("undo").is_enabled(), 10, "undo still offered with no change left")

        # Listen again for more hits: the session is re-heard, the button stays pressed, nothing else is lost.
        pressed = lambda d: d.execute_script("return document.querySelector('#sensitivity [aria-pressed=\"true\"]')?.dataset.level")
        self.assertEqual(pressed(d), "normal")
        self.click(d.find_element(By.CSS_SELECTOR, '#sensitivity [data-level="more"]'))
        wait(d, lambda d: pressed(d) == "more", 60,
             f"listening again did not finish: {self.by_id('edit-status').text}")
        self.assertEqual(SERVER.api(f"/api/sessions/{sid}")["session"].get("sensitivity"), "more")
        screenshot(d, "results-listen")
        self.click(d.find_element(By.CSS_SELECTOR, '#sensitivity [data-level="normal"]'))
        wait(d, lambda d: SERVER.api(f"/api/sessions/{sid}")["session"].get("sensitivity") is None, 60, "back to normal failed")
        # The expert's thresholds.
        self.click(self.by_id("expert").find_element(By.TAG_NAME, "summary"))
        self.by_id("threshold-factor").send_keys("2.2")
        self.click(self.by_id("listen-expert"))
        wait(d, lambda d: (SERVER.api(f"/api/sessions/{sid}")["session"].get("detectorThresholds") or {}).get("peakThresholdFactor") == 2.2,
             60, f"the expert threshold was not used: {self.by_id('edit-status').text}")
        self.by_id("threshold-factor").clear()
        self.by_id("threshold-factor").send_keys("0")
        self.expected_statuses = (422,)   # the server's sentence for an out-of-range threshold, shown on the page
        self.click(self.by_id("listen-expert"))
        wait(d, lambda d: "1 to 20" in self.by_id("edit-status").text, 30, "an out-of-range threshold got no sentence")
        screenshot(d, "results-expert")
        back = SERVER.api(f"/api/sessions/{sid}")["session"]
        self.assertEqual([s["time"] for s in back["shots"]], [s["time"] for s in doc["shots"]])
        self.assertEqual(len(d.find_elements(By.CSS_SELECTOR, "#shots tbody tr")), shots)


    def test_7_frame_steps_follow_a_phone_videos_own_frame_times(self):
        # The sample as a phone records it: 30 fps with runs of frames dropped (tools/make_vfr_clip.py).
        clip = os.path.join(self.tmp, "phone-vfr.mp4")
        subprocess.run([sys.executable, os.path.join(support.ROOT, "tools", "make_vfr_clip.py"), clip, "--source", SAMPLE,
                        "--fps", "30", "--size", "640x360", "--duration", "6", "--drop", "0.6:1.6", "--drop", "3.0:3.4"],
                       check=True)
        with open(clip + ".frames.json") as f:
            truth = json.load(f)["times"]
        self.choose_hand()
        self.upload(clip, swing_check=False)   # the demo's walkers: frame timing is tested here, not the swing check
        session = self.wait_for_results()
        view = SERVER.api(f"/api/sessions/{session}/shots/1")
        posed = [f["time"] for f in view["frames"]]
        # Every frame the shot view names is a frame of the video, numbered as a decoder counts them.
        for f in view["frames"]:
            self.assertAlmostEqual(truth[f["videoFrame"]], f["time"], delta=1e-3)
        contact = view["shot"]["contactVideoFrame"]
        self.assertLessEqual(abs(truth[contact] - view["shot"]["contactTime"]), 1 / 60 + 1e-3)
        self.open(f"/sessions/{session}/shots/1")
        video = self.by_id("video")
        wait(self.driver, lambda d: d.execute_script("return arguments[0].readyState", video) >= 1, 60, "no video metadata")
        now = lambda: self.driver.execute_script("return arguments[0].currentTime", video)
        # "One frame forward" lands on the next posed frame's own time, across the dropped run, never on
        # start + 1/fps (a time no frame has).
        for want in posed[:6]:
            self.by_id("fwd").click()
            wait(self.driver, lambda d: abs(now() - want) < 2e-3, 5, f"the step went to {now()}, not the frame at {want}")
        self.by_id("back").click()
        wait(self.driver, lambda d: abs(now() - posed[4]) < 2e-3, 5, f"the step back went to {now()}, not {posed[4]}")

    def test_8_learn_my_racket_then_hear_an_upload_with_it(self):
        """A session with 13 hits teaches "your racket's sound" on its results page; the upload page offers it
        (chosen, the detector's sensitivity set aside); a video uploaded with it says so on its results; the
        player can forget it. A session with fewer than 10 hits says why it cannot teach one."""
        d = self.driver
        # 36 s of the demo's court sound hitting 13 times under its footage (tools/demo_sample_audio.py, as
        # the Swift suites' CourtSession makes it).
        times = [2.0 + 2.6 * k for k in range(13)]
        wav, court = os.path.join(self.tmp, "court.wav"), os.path.join(self.tmp, "court.mp4")
        subprocess.run([sys.executable, os.path.join(support.ROOT, "tools", "demo_sample_audio.py"), "--duration", "36", "--seed", "5",
                        "--contacts", ",".join(map(str, times)), "--wav", wav, "--truth", os.path.join(self.tmp, "court.truth.json")],
                       check=True, capture_output=True)
        ffmpeg("-stream_loop", "3", "-i", SAMPLE, "-i", wav, "-map", "0:v", "-map", "1:a", "-t", "36",
               "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", court)
        self.choose_hand()
        self.upload(court, swing_check=False)
        sid = self.wait_for_results()
        wait(d, lambda d: "13 hits" in self.by_id("racket-need").text, 30, f"the hits to learn from: {self.by_id('racket-need').text}")
        self.assertTrue(self.by_id("racket-learn").is_enabled())
        self.assertFalse(self.by_id("racket-heard").is_displayed(), "a session heard by the detector claims a racket sound")
        self.click(self.by_id("racket-learn"))
        wait(d, lambda d: "Learnt" in self.by_id("racket-status").text, 90, f"learning did not finish: {self.by_id('racket-status').text}")
        self.assertIn("13 of your hits", self.by_id("racket-status").text)
        self.assertEqual(self.by_id("racket-learn").text, "Learn it again from these hits")
        sounds = SERVER.api("/api/racket-sounds")["racketSounds"]
        self.assertEqual([(s["sessionId"], s["contacts"]) for s in sounds], [(sid, 13)])
        for size in (PHONE, DESKTOP):
            d.set_window_size(*size)
            self.driver.execute_script("document.getElementById('racket').scrollIntoView({block: 'center'})")
            time.sleep(0.4)
            self.assertTrue(no_horizontal_scroll(d), f"the results page scrolls sideways at {size[0]} px with the racket sound")
            screenshot(d, "results-racket-learnt")

        # The upload page offers it, chosen; the sensitivity is the racket sound's own.
        self.open("/sessions/new")
        wait(d, lambda d: self.by_id("racket-row").is_displayed(), 30, "the upload page does not offer the racket sound")
        chosen = Select(self.by_id("racket-sound")).first_selected_option
        self.assertEqual(chosen.get_attribute("value"), str(sounds[0]["id"]))
        self.assertIn(f"Your racket: {sounds[0]['name']} (13 hits)", chosen.text)
        self.assertFalse(self.by_id("sensitivity").is_displayed(), "the detector's sensitivity is offered beside the racket sound")
        for size in (PHONE, DESKTOP):
            d.set_window_size(*size)
            time.sleep(0.4)
            self.assertTrue(no_horizontal_scroll(d), f"the upload page scrolls sideways at {size[0]} px with the racket sound")
            screenshot(d, "new-racket-sound")
        # The demo clip heard with it: its results say so, and four hits are too few to learn from.
        self.upload(SAMPLE, swing_check=False)
        demo = self.wait_for_results()
        job = SERVER.api("/api/jobs")["jobs"][0]
        self.assertEqual(job["racketSound"], sounds[0]["id"])
        self.assertEqual(SERVER.api(f"/api/sessions/{demo}")["session"]["contactModel"]["contacts"], 13)
        wait(d, lambda d: self.by_id("racket-heard").is_displayed(), 30, "the results do not say the racket sound heard them")
        self.assertIn("heard with your racket's sound", self.by_id("racket-heard").text)
        self.assertIn("at least 10 hits; this session has 4", self.by_id("racket-need").text)
        self.assertFalse(self.by_id("racket-learn").is_enabled())
        # Beside the sensitivity levels, "Your racket" is the one pressed; Normal hears it with the detector,
        # and "Your racket" with the racket sound again.
        pressed = lambda d: d.execute_script("return document.querySelector('#sensitivity [aria-pressed=\"true\"]')?.dataset.level")
        wait(d, lambda d: pressed(d) == "racket", 30, "the racket sound is not the pressed way of listening")
        screenshot(d, "results-racket-heard")
        self.click(d.find_element(By.CSS_SELECTOR, '#sensitivity [data-level="normal"]'))
        wait(d, lambda d: pressed(d) == "normal", 60, f"listening with the detector did not finish: {self.by_id('edit-status').text}")
        self.assertIsNone(SERVER.api(f"/api/sessions/{demo}")["session"].get("contactModel"))
        self.assertFalse(self.by_id("racket-heard").is_displayed())
        self.click(d.find_element(By.CSS_SELECTOR, '#sensitivity [data-level="racket"]'))
        wait(d, lambda d: pressed(d) == "racket", 60, f"listening with the racket sound did not finish: {self.by_id('edit-status').text}")
        self.assertEqual(SERVER.api(f"/api/sessions/{demo}")["session"]["contactModel"]["contacts"], 13)

        # Forgotten from the upload page: the choice goes, and the sensitivity is back.
        self.open("/sessions/new")
        wait(d, lambda d: self.by_id("racket-row").is_displayed(), 30, "the racket sound is not offered")
        self.click(self.by_id("racket-forget"))
        wait(d, lambda d: not self.by_id("racket-row").is_displayed(), 30, "forgetting left the racket sound offered")
        self.assertTrue(self.by_id("sensitivity").is_displayed() and self.by_id("sensitivity").is_enabled())
        self.assertEqual(SERVER.api("/api/racket-sounds")["racketSounds"], [])


class WhoIsThePlayerTests(PageHelpers, unittest.TestCase):
    """The player says who they are (issue #39): on the upload page the demo's two walkers are outlined and the
    player taps one; the upload carries the choice and the results page shows it; tapping another person there
    measures every shot again on them. Looked at on a phone and a desktop width."""

    def setUp(self):
        self.driver = browser(*DESKTOP)

    def tearDown(self):
        try:
            errors = severe_console_errors(self.driver)
        finally:
            self.driver.quit()
        self.assertEqual(errors, [], "the pages logged console errors")


    def tap(self, box):
        """Taps the middle of a person's outline (a pointer click on the frame, as a finger would)."""
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        ActionChains(self.driver).move_to_element(box).click().perform()

    @staticmethod
    def hips(box):
        return [float(v) for v in box.get_attribute("data-hips").split(",")]

    def boxes(self, root):
        return self.driver.find_elements(By.CSS_SELECTOR, f"#{root} .person-box")

    def test_1_upload_tap_yourself_then_tap_someone_else_on_the_results(self):
        d = self.driver
        WebAppTests.choose_hand(self)
        WebAppTests.choose_file(self, SAMPLE)
        wait(d, lambda d: self.by_id("who").is_displayed(), 90, "the two walkers were not offered to choose from")
        wait(d, lambda d: len(self.boxes("who-picker")) >= 2, 10, "fewer than two people outlined")
        boxes = self.boxes("who-picker")
        buttons = d.find_elements(By.CSS_SELECTOR, "#who-picker .person-button")
        self.assertEqual(len(buttons), len(boxes), "not one button per person")
        self.assertFalse(self.by_id("who-go").is_enabled(), "analysing offered before anyone was chosen")
        self.assertTrue(self.by_id("who-summary").get_attribute("hidden") is not None)
        # Left to right, each outline inside the picture.
        xs = [self.hips(b)[0] for b in boxes]
        self.assertEqual(xs, sorted(xs))
        screenshot(d, "new-who")

        # The keyboard: a person's button, Space.
        d.execute_script("arguments[0].focus()", buttons[0])
        buttons[0].send_keys(Keys.SPACE)
        wait(d, lambda d: buttons[0].get_attribute("aria-pressed") == "true", 5, "Space on a person's button chose nobody")
        self.assertIn("You: the person in the blue outline", self.by_id("who-summary").text)

        # A tap on the other walker's outline: they are chosen, the summary names their colour.
        self.tap(boxes[1])
        wait(d, lambda d: "chosen" in boxes[1].get_attribute("class"), 5, "tapping an outline chose nobody")
        self.assertEqual(buttons[1].get_attribute("aria-pressed"), "true")
        self.assertEqual(buttons[0].get_attribute("aria-pressed"), "false")
        self.assertIn("You: the person in the yellow outline", self.by_id("who-summary").text)
        self.assertIn("You (2)", boxes[1].text)
        self.assertTrue(self.by_id("who-go").is_enabled())
        tapped = self.hips(boxes[1])
        moment = float(self.by_id("who-moment").get_attribute("value"))
        screenshot(d, "new-who-chosen")
        d.set_window_size(*PHONE)
        time.sleep(0.5)
        self.assertTrue(no_horizontal_scroll(d), "the picker scrolls sideways on a phone")
        for b in d.find_elements(By.CSS_SELECTOR, "#who-picker .person-button"):
            self.assertGreaterEqual(b.size["height"], 44, "a person's button is too small for a thumb")
        screenshot(d, "new-who-chosen")
        # Tapping anywhere takes the nearest person: the far left edge of the picture, level with the first walker.
        frame = d.find_element(By.CSS_SELECTOR, "#who-picker .people-overlay")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", frame)
        first = self.hips(boxes[0])
        ActionChains(d).move_to_element_with_offset(frame, int(-frame.size["width"] / 2) + 3,
                                                    int((first[1] - 0.5) * frame.size["height"])).click().perform()
        wait(d, lambda d: "chosen" in self.boxes("who-picker")[0].get_attribute("class"), 5, "a tap beside the people chose nobody")
        self.tap(self.boxes("who-picker")[1])
        wait(d, lambda d: "chosen" in self.boxes("who-picker")[1].get_attribute("class"), 5)
        d.set_window_size(*DESKTOP)

        # Analyse: the upload carries the point and the moment; the progress says who is measured.
        self.click(self.by_id("who-go"))
        wait(d, lambda d: self.by_id("progress").is_displayed(), 30, "no progress after choosing")
        self.assertIn("Measuring you: the person in the yellow outline", self.by_id("progress-player").text)
        jobs = SERVER.api("/api/jobs")["jobs"]
        carried = [float(v) for v in jobs[0]["player"].replace("@", ",").split(",")]
        self.assertAlmostEqual(carried[0], tapped[0], delta=1e-3)
        self.assertAlmostEqual(carried[1], tapped[1], delta=1e-3)
        self.assertAlmostEqual(carried[2], moment, delta=0.06)
        sid = WebAppTests.wait_for_results(self)
        player = SERVER.api(f"/api/sessions/{sid}")["session"]["player"]
        self.assertAlmostEqual(player["x"], tapped[0], delta=1e-3)
        wait(d, lambda d: "You: the person you tapped at" in self.by_id("who-line").text, 30, "the results do not say who was measured")
        self.assertEqual(self.by_id("who-open").text, "Change")
        screenshot(d, "results-who")

        # The results page: the frame where the player tapped, their outline marked; tap the other walker.
        self.click(self.by_id("who-open"))
        wait(d, lambda d: len(self.boxes("who-picker")) >= 2, 60, f"no people on the results page: {self.by_id('who-status').text}")
        wait(d, lambda d: any("chosen" in b.get_attribute("class") for b in self.boxes("who-picker")), 5,
             "the person measured now is not marked")
        self.assertIn("the person measured now", self.by_id("who-status").text)
        other = next(b for b in self.boxes("who-picker") if "chosen" not in b.get_attribute("class"))
        wanted = self.hips(other)
        self.tap(other)
        wait(d, lambda d: self.by_id("who-measure").is_enabled(), 5, "tapping someone did not offer to measure them")
        for size in (PHONE, DESKTOP):
            d.set_window_size(*size)
            time.sleep(0.5)
            self.assertTrue(no_horizontal_scroll(d), f"the results page scrolls sideways at {size[0]} px with the picker open")
            screenshot(d, "results-who-open")
        self.click(self.by_id("who-measure"))
        wait(d, lambda d: "Measured again" in self.by_id("who-done").text, 180,
             f"measuring the other person did not finish: {self.by_id('who-status').text}")
        again = SERVER.api(f"/api/sessions/{sid}")["session"]["player"]
        self.assertAlmostEqual(again["x"], wanted[0], delta=1e-3)
        self.assertAlmostEqual(again["y"], wanted[1], delta=1e-3)
        # It survives a reload, and is shown.
        d.refresh()
        wait(d, lambda d: "You: the person you tapped at" in self.by_id("who-line").text, 30)
        self.click(self.by_id("who-open"))
        wait(d, lambda d: any("chosen" in b.get_attribute("class") for b in self.boxes("who-picker")), 60)
        chosen = next(b for b in self.boxes("who-picker") if "chosen" in b.get_attribute("class"))
        self.assertAlmostEqual(self.hips(chosen)[0], wanted[0], delta=0.02)
        screenshot(d, "results-who-after")


if __name__ == "__main__":
    unittest.main()
