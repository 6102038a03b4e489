"""The model studio in a real browser (docs/studio.md): the /models catalog page and the /detect studio on a
picture, on a (fake) camera and on a video, end to end against `swingmaster serve`.

One server for the module (fresh home), headless Chromium per test; the camera test launches Chromium with
a fake camera playing a y4m made with ffmpeg. The models are the SwingVision YOLO fixtures (random weights,
so what they find is meaningless, but yolo11n does find things at conf 0.25). Screenshots of both pages at
375 and 1440 px go to .build/screenshots/ (studio-*) — look at them.
"""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By

import support
from support import DESKTOP, PHONE, ROOT, browser, no_horizontal_scroll, screenshot, severe_console_errors, wait

SERVER = None
FILES = None
FIXTURES = os.path.join(ROOT, "Tests", "SwingVisionTests", "Fixtures", "yolo")
YOLO11N = os.path.join(FIXTURES, "yolo11n.onnx")
ASTRONAUT = os.path.join(FIXTURES, "astronaut.ppm")


def setUpModule():
    global SERVER, FILES
    FILES = tempfile.mkdtemp(prefix="swing-studio-files-")
    # The picture: the fixtures' public-domain photograph as a PNG. (ffmpeg's testsrc bars are so saturated
    # that the random-weight yolo11n scores them 1.0, so even conf 0.99 would keep 300 boxes; on the photo
    # its scores stay below 0.98.) The camera: the same photo panning up and down, 3 s at 15 fps.
    ffmpeg("-i", ASTRONAUT, os.path.join(FILES, "astronaut.png"))
    ffmpeg("-loop", "1", "-i", ASTRONAUT, "-vf", "scale=640:640,crop=640:480:0:'80+60*sin(t)'", "-r", "15", "-t", "3",
           "-pix_fmt", "yuv420p", os.path.join(FILES, "camera.y4m"))
    with open(os.path.join(FILES, "broken.onnx"), "w") as f:
        f.write("this is a note, not an ONNX model\n" * 10)
    SERVER = support.Server()


def tearDownModule():
    if SERVER:
        SERVER.stop()
    if FILES:
        shutil.rmtree(FILES, ignore_errors=True)


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", *args], check=True)


def ensure_model(path):
    """Adds the fixture `path` to the server's catalog through the API unless it is there already."""
    model_id = os.path.splitext(os.path.basename(path))[0].lower()
    try:
        return SERVER.api(f"/api/models/{model_id}")
    except urllib.error.HTTPError as e:
        if e.code != 404:
            raise
    with open(path, "rb") as f:
        req = urllib.request.Request(SERVER.url + "/api/models", data=f.read(), method="POST",
                                     headers={"Content-Type": "application/octet-stream",
                                              "X-Filename": os.path.basename(path)})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


def patch_model(model_id, body):
    req = urllib.request.Request(f"{SERVER.url}/api/models/{model_id}", data=json.dumps(body).encode(), method="PATCH",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


class StudioCase(unittest.TestCase):
    """A Chromium per test and the helpers; no tests of its own."""
    extra_args = ()

    def setUp(self):
        self.started = time.time()
        self.driver = browser(*DESKTOP, extra_args=self.extra_args)
        self.expected_statuses = ()

    def tearDown(self):
        try:
            errors = severe_console_errors(self.driver, self.expected_statuses)
        finally:
            self.driver.quit()
        print(f"  ({self.id().rsplit('.', 1)[1]}: {time.time() - self.started:.1f} s)", flush=True)
        self.assertEqual(errors, [], "the pages logged console errors")

    # -- helpers -------------------------------------------------------------------------------

    def open(self, path):
        self.driver.get(SERVER.url + path)

    def by_id(self, name):
        return self.driver.find_element(By.ID, name)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def card(self, model_id):
        found = self.driver.find_elements(By.CSS_SELECTOR, f'[data-model-id="{model_id}"]')
        return found[0] if found else None

    def card_text(self, model_id):
        """The card's text read in one step (a card is replaced whole when the server answers)."""
        return self.js("return document.querySelector(`[data-model-id=\"${arguments[0]}\"]`)?.innerText ?? ''", model_id)

    def wait_models_listed(self):
        wait(self.driver, lambda d: self.by_id("models").get_attribute("aria-busy") == "false", 30,
             "the models page did not load its list")

    def click(self, element):
        """Clicks `element` after scrolling it to the middle of the window (not under the sticky header)."""
        self.js("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def set_range(self, name, value):
        """Moves a slider as a user would: a new value, then the input event."""
        self.js("const r = document.getElementById(arguments[0]); r.value = arguments[1];"
                "r.dispatchEvent(new Event('input', {bubbles: true}));", name, str(value))

    def detections(self):
        value = self.by_id("overlay").get_attribute("data-detections")
        return int(value) if value not in (None, "") else -1

    def drawn_pixels(self):
        """How many pixels of the overlay canvas are painted (sampled every 4th pixel)."""
        return self.js("""
            const c = document.getElementById('overlay');
            if (!c.width || !c.height) return 0;
            const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 3; i < data.length; i += 16) if (data[i] > 0) n++;
            return n;""")

    def status_fps(self):
        value = self.by_id("status").get_attribute("data-fps")
        return float(value) if value else 0.0

    def wait_for_drawing(self, message, timeout=60):
        wait(self.driver, lambda d: self.detections() > 0 and self.drawn_pixels() > 0, timeout,
             f"{message}; status: {self.by_id('status').text!r}, error: {self.by_id('error').text!r}; "
             f"server log:\n{SERVER.log_text()}")


class PageTests(StudioCase):
    # -- /models -------------------------------------------------------------------------------

    def test_1_models_page_adds_a_model_and_keeps_its_defaults(self):
        d = self.driver
        self.open("/models")
        self.wait_models_listed()
        self.assertEqual(d.find_element(By.CSS_SELECTOR, '[data-nav="models"]').get_attribute("aria-current"), "page")

        # The bundled BlazePose models say what they are and cannot be removed.
        for m in SERVER.api("/api/models?hidden=1")["models"]:
            if m["kind"] == "blazepose":
                card = self.card(m["id"])
                self.assertIsNotNone(card, f"no card for the bundled model {m['id']}")
                self.assertIn("Pose (BlazePose) — used by session analysis", card.text)
                self.assertNotIn("Open in studio", card.text)
                remove = [b for b in card.find_elements(By.TAG_NAME, "button") if b.text == "Remove"][0]
                self.assertFalse(remove.is_enabled(), "a bundled model offers Remove")
                self.assertIn("cannot be removed", card.text)

        # A file that is not a model: the server's sentence, nothing added.
        self.expected_statuses = (415, 422)
        before = len(SERVER.api("/api/models?hidden=1")["models"])
        self.by_id("model-file").send_keys(os.path.join(FILES, "broken.onnx"))
        wait(d, lambda d: self.by_id("add-error").is_displayed(), 60, "no error for a file that is not a model")
        self.assertTrue(self.by_id("add-error").text.endswith("."), self.by_id("add-error").text)
        self.assertEqual(len(SERVER.api("/api/models?hidden=1")["models"]), before)

        # The real model through the page's file input: a card with what the catalog knows. (Another test
        # may have added it through the API already: remove it first.)
        if self.card("yolo11n") is not None:
            SERVER.api("/api/models/yolo11n", method="DELETE")
            self.driver.refresh()
            self.wait_models_listed()
        self.by_id("model-file").send_keys(YOLO11N)
        wait(d, lambda d: self.card("yolo11n") is not None, 120,
             f"the uploaded model has no card; page said {self.by_id('add-error').text!r}; log:\n{SERVER.log_text()}")
        self.assertIn("Added", self.by_id("add-status").text)
        card = self.card("yolo11n")
        self.assertIn("yolo11n", card.text)
        self.assertIn("YOLO · Detect", card.text)
        self.assertIn("640 × 640 px", card.text)
        self.assertIn("80 classes", card.text)
        studio = card.find_element(By.LINK_TEXT, "Open in studio")
        self.assertTrue(studio.get_attribute("href").endswith("/detect?model=yolo11n"))
        self.assertFalse(self.by_id("add-error").is_displayed())

        # Defaults: bad JSON is caught on the page; good values are saved and still there after a reload.
        card.find_element(By.CSS_SELECTOR, "details.defaults summary").click()
        form = card.find_element(By.CSS_SELECTOR, "form.defaults-form")
        form.find_element(By.NAME, "maxDet").clear()
        form.find_element(By.NAME, "maxDet").send_keys("120")
        form.find_element(By.NAME, "lineWidth").clear()
        form.find_element(By.NAME, "lineWidth").send_keys("3")
        form.find_element(By.CSS_SELECTOR, 'select[name="interpreter"] option[value="counter"]').click()
        options = form.find_element(By.NAME, "interpreterOptions")
        options.clear()
        options.send_keys('{"minimumConfidence": 0.2')
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        self.assertIn("not valid JSON", form.text)
        self.assertEqual(SERVER.api("/api/models/yolo11n")["defaults"]["maxDet"], 300, "invalid options were sent")
        options.send_keys("}")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(d, lambda d: "Defaults saved." in self.card_text("yolo11n"), 30, "saving the defaults said nothing")
        stored = SERVER.api("/api/models/yolo11n")["defaults"]
        self.assertEqual((stored["maxDet"], stored["lineWidth"], stored["interpreter"]), (120, 3, "counter"))
        self.assertEqual(stored["interpreterOptions"], {"minimumConfidence": 0.2})

        self.driver.refresh()
        self.wait_models_listed()
        form = self.card("yolo11n").find_element(By.CSS_SELECTOR, "form.defaults-form")
        self.assertEqual(form.find_element(By.NAME, "maxDet").get_attribute("value"), "120")
        self.assertEqual(form.find_element(By.NAME, "lineWidth").get_attribute("value"), "3")
        self.assertEqual(form.find_element(By.NAME, "interpreter").get_attribute("value"), "counter")
        self.assertEqual(json.loads(form.find_element(By.NAME, "interpreterOptions").get_attribute("value")),
                         {"minimumConfidence": 0.2})

        # Favourite: pressed, stored, first in the list.
        star = self.card("yolo11n").find_element(By.CSS_SELECTOR, "button.star")
        if star.get_attribute("aria-pressed") != "true":
            star.click()
            wait(d, lambda d: self.js("return document.querySelector('[data-model-id=yolo11n] button.star')?.getAttribute('aria-pressed')") == "true", 30)
        self.assertTrue(SERVER.api("/api/models/yolo11n")["favorite"])
        self.driver.refresh()
        self.wait_models_listed()
        first = d.find_element(By.CSS_SELECTOR, "#models > li")
        self.assertEqual(first.get_attribute("data-model-id"), "yolo11n", "a favourite is not listed first")
        self.by_id("f-fav").click()
        self.assertEqual([c.get_attribute("data-model-id") for c in d.find_elements(By.CSS_SELECTOR, "#models > li")], ["yolo11n"])
        self.by_id("f-fav").click()

        # Hide: gone from the list (and from the studio's), back with "Show hidden", then shown again.
        hide = [b for b in self.card("yolo11n").find_elements(By.TAG_NAME, "button") if b.text == "Hide"][0]
        hide.click()
        wait(d, lambda d: self.card("yolo11n") is None, 30, "a hidden model stayed in the list")
        self.assertNotIn("yolo11n", [m["id"] for m in SERVER.api("/api/models")["models"]])
        self.by_id("f-hidden").click()
        wait(d, lambda d: self.card("yolo11n") is not None, 30, "Show hidden did not bring it back")
        self.assertIn("Hidden", self.card("yolo11n").text)
        [b for b in self.card("yolo11n").find_elements(By.TAG_NAME, "button") if b.text == "Show"][0].click()
        wait(d, lambda d: "Hidden" not in self.js("return document.querySelector('[data-model-id=yolo11n] .badges')?.innerText ?? 'Hidden'"), 30)
        self.by_id("f-hidden").click()

        # Remove asks first; "Keep it" keeps it. (Removing for real is tested on a second model.)
        ensure_model(os.path.join(FIXTURES, "tiny26-detect.onnx"))
        self.driver.refresh()
        self.wait_models_listed()
        [b for b in self.card("tiny26-detect").find_elements(By.TAG_NAME, "button") if b.text == "Remove"][0].click()
        dialog = self.by_id("confirm-remove")
        self.assertTrue(dialog.is_displayed())
        self.assertIn("tiny26-detect", self.by_id("remove-text").text)
        dialog.find_element(By.CSS_SELECTOR, 'button[value="cancel"]').click()
        self.assertIsNotNone(self.card("tiny26-detect"))
        [b for b in self.card("tiny26-detect").find_elements(By.TAG_NAME, "button") if b.text == "Remove"][0].click()
        dialog.find_element(By.CSS_SELECTOR, 'button[value="remove"]').click()
        wait(d, lambda d: self.card("tiny26-detect") is None, 30, "Remove did not remove the card")
        self.assertNotIn("tiny26-detect", [m["id"] for m in SERVER.api("/api/models?hidden=1")["models"]])

        for size in (PHONE, DESKTOP):
            d.set_window_size(*size)
            time.sleep(0.4)
            self.assertTrue(no_horizontal_scroll(d), f"/models scrolls sideways at {size[0]} px")
            self.js("window.scrollTo(0, 0)")
            screenshot(d, "studio-models")

    # -- /detect on a picture ------------------------------------------------------------------

    def test_2_studio_draws_detections_on_a_picture(self):
        d = self.driver
        ensure_model(YOLO11N)
        patch_model("yolo11n", {"defaults": {"maxDet": 120, "lineWidth": 3, "interpreter": "passthrough"}})
        self.open("/detect?model=yolo11n")
        wait(d, lambda d: self.by_id("model").get_attribute("value") == "yolo11n", 30, "?model= did not pick the model")
        self.assertEqual(self.by_id("tab-detect").get_attribute("aria-selected"), "true")
        self.assertEqual(self.by_id("maxDet").get_attribute("value"), "120", "the model's stored default was not applied")
        self.assertEqual(self.by_id("lineWidth").get_attribute("value"), "3")
        self.assertEqual(self.by_id("interpreter").get_attribute("value"), "passthrough")
        self.assertEqual(d.find_element(By.CSS_SELECTOR, '[data-nav="detect"]').get_attribute("aria-current"), "page")

        self.by_id("image-file").send_keys(os.path.join(FILES, "astronaut.png"))
        self.wait_for_drawing("nothing was drawn over the picture")
        status = self.by_id("status").text
        for part in ("yolo11n", "input 640×640", "inference", "network", "found"):
            self.assertIn(part, status)
        found = self.detections()

        # Confidence 0.99: nothing left to draw. Back to 0.25: the boxes return.
        self.set_range("conf", 0.99)
        wait(d, lambda d: self.detections() == 0 and self.drawn_pixels() == 0, 30, "conf 0.99 still draws something")
        self.assertEqual(self.by_id("conf-out").text, "0.99")
        self.set_range("conf", 0.25)
        wait(d, lambda d: self.detections() == found, 30, "conf 0.25 did not bring the same detections back")

        # Thicker lines are drawn without asking the server again.
        before = self.drawn_pixels()
        self.set_range("lineWidth", 8)
        wait(d, lambda d: self.drawn_pixels() > before, 10, "a wider line did not paint more")

        # The class filter: none kept, nothing drawn; all again.
        self.click(self.by_id("classes-box").find_element(By.TAG_NAME, "summary"))
        self.click(self.by_id("classes-none"))
        wait(d, lambda d: self.drawn_pixels() == 0, 30, "with no class kept, something is still drawn")
        self.click(self.by_id("classes-all"))
        wait(d, lambda d: self.detections() == found, 30)
        chips = d.find_elements(By.CSS_SELECTOR, "#classes .chip")
        self.assertEqual(len(chips), 80)

        # The counter interpreter shows a banner with the counts.
        d.find_element(By.CSS_SELECTOR, '#interpreter option[value="counter"]').click()
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#banners .banner.counter"), 30, "the counter showed no banner")
        self.assertIn("Counted", d.find_element(By.CSS_SELECTOR, "#banners .banner.counter").text)

        # The raw JSON panel holds the last answer; snapshot and download are offered.
        self.click(self.by_id("raw-box").find_element(By.TAG_NAME, "summary"))
        # The panel is filled on the <details> "toggle" event, which the browser fires after the click returns.
        wait(d, lambda d: self.by_id("raw").text.strip().startswith("{"), 10, "the raw JSON panel stayed empty when opened")
        raw = json.loads(self.by_id("raw").text)
        self.assertEqual(raw["interpretation"]["interpreter"], "counter")
        self.assertEqual(len(raw["results"][0]["detections"]), found)
        self.assertTrue(self.by_id("snapshot").is_enabled() and self.by_id("download").is_enabled())

        # "None" really means none (the model's stored default interpreter is not applied instead).
        d.find_element(By.CSS_SELECTOR, '#interpreter option[value=""]').click()
        wait(d, lambda d: '"interpretation"' not in self.by_id("raw").get_attribute("textContent")
             or '"interpretation": null' in self.by_id("raw").get_attribute("textContent"), 30,
             "with the interpreter set to None the answer still carries an interpretation")
        d.find_element(By.CSS_SELECTOR, '#interpreter option[value="counter"]').click()

        for size in (PHONE, DESKTOP):
            d.set_window_size(*size)
            self.set_range("conf", 0.25)     # a fresh answer, so a banner shows in the screenshot
            wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#banners .banner"), 30)
            time.sleep(0.5)
            self.assertTrue(no_horizontal_scroll(d), f"/detect scrolls sideways at {size[0]} px")
            self.assertGreater(self.drawn_pixels(), 0, f"nothing drawn at {size[0]} px")
            self.js("window.scrollTo(0, 0)")
            screenshot(d, "studio-detect-image")

        # The examples drawn by the page run too.
        self.click(self.by_id("examples").find_element(By.CSS_SELECTOR, "button.example"))
        wait(d, lambda d: self.detections() >= 0 and "640×480" in self.by_id("status").text, 30, "an example picture did not run")

    def test_3_other_tasks_segment_and_classify(self):
        d = self.driver
        ensure_model(os.path.join(FIXTURES, "tiny26-segment.onnx"))
        ensure_model(os.path.join(FIXTURES, "tiny-classify.onnx"))
        self.open("/detect?model=tiny-classify")
        wait(d, lambda d: self.by_id("tab-classify").get_attribute("aria-selected") == "true", 30,
             "?model= of a classifier did not open the Classify tab")
        self.by_id("image-file").send_keys(os.path.join(FILES, "astronaut.png"))
        wait(d, lambda d: "top classes" in self.by_id("status").text and self.drawn_pixels() > 0, 60,
             f"a classifier drew no bars; error: {self.by_id('error').text!r}")
        self.assertFalse(self.by_id("iou").is_displayed(), "a classifier offers an IoU slider")
        self.assertTrue(self.by_id("conf").is_displayed())

        self.click(self.by_id("tab-segment"))
        wait(d, lambda d: self.by_id("model").get_attribute("value") == "tiny26-segment", 10)
        self.set_range("conf", 0.01)
        wait(d, lambda d: self.detections() > 0 and self.drawn_pixels() > 0, 60,
             f"the segment model drew nothing at conf 0.01; error: {self.by_id('error').text!r}")
        self.click(self.by_id("raw-box").find_element(By.TAG_NAME, "summary"))
        wait(d, lambda d: self.by_id("raw").get_attribute("textContent").strip().startswith("{"), 10,
             "the raw JSON panel stayed empty when opened")
        raw = self.by_id("raw").get_attribute("textContent")
        self.assertIn('"size": [512, 512]', raw, "no mask at the picture's size in the result")
        self.assertIn("runs in all)", raw, "the panel did not shorten the masks' run lists")

        # A task without a model says where to add one.
        self.click(self.by_id("tab-obb"))
        self.assertFalse(self.by_id("model").is_enabled())
        self.assertIn("Models page", self.by_id("model-note").text)

    # -- /detect on the camera ------------------------------------------------------------------

    def test_5_a_page_that_is_not_secure_says_why_there_is_no_camera(self):
        # studio.test is an ordinary http:// origin (not localhost), so the browser withholds the camera.
        self.driver.quit()
        self.driver = browser(*DESKTOP, extra_args=["--host-resolver-rules=MAP studio.test 127.0.0.1",
                                                    "--disable-features=HttpsUpgrades"])
        self.driver.get(f"http://studio.test:{SERVER.port}/detect")
        d = self.driver
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#model option"), 30)
        d.find_element(By.CSS_SELECTOR, 'input[name="input"][value="camera"]').find_element(By.XPATH, "..").click()
        wait(d, lambda d: self.by_id("camera-why").is_displayed(), 10, "no sentence about the missing camera")
        self.assertIn("secure", self.by_id("camera-why").text)
        self.assertIn("https://", self.by_id("camera-why").text)

    # -- the drawing and the banners, as modules -----------------------------------------------

    def test_6_masks_keypoints_and_banner_rules(self):
        self.open("/detect")
        out = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            (async () => {
              const o = await import('/static/js/overlay.js');
              const b = await import('/static/js/banners.js');
              const r = {};
              // COCO RLE, column-major, 0-runs first: a 2×3 picture (size [h, w]) with runs 1 off, 2 on, 1 off, 2 on.
              r.rle = Array.from(o.decodeRLE({ size: [2, 3], counts: [1, 2, 1, 2] }));
              // A 10×10 mask at x 70–79, y 70–79 of a 100×100 picture, and one visible keypoint of 17.
              const counts = [70 * 100 + 70];
              for (let x = 70; x < 80; x++) counts.push(10, x < 79 ? 90 : 100 * 100 - (79 * 100 + 80));
              const kps = Array.from({ length: 17 }, () => [5, 5, 0]);
              kps[0] = [20, 90, 0.2]; kps[1] = [30, 90, 0.9];
              const frame = { width: 100, height: 100, detections: [
                { classId: 3, label: 'm', confidence: 0.9, box: { x1: 70, y1: 70, x2: 80, y2: 80 }, mask: { size: [100, 100], counts } },
                { classId: 0, label: 'p', confidence: 0.8, box: { x1: 0, y1: 0, x2: 1, y2: 1 }, keypoints: kps },
              ] };
              const canvas = document.createElement('canvas'); canvas.width = 200; canvas.height = 200;
              const ctx = canvas.getContext('2d');
              o.drawResult(ctx, frame, { width: 200, height: 200 }, { lineWidth: 2 });
              const px = (x, y) => Array.from(ctx.getImageData(x, y, 1, 1).data);
              r.inMask = px(150, 150); r.outsideMask = px(120, 150); r.hiddenKeypoint = px(40, 180); r.shownKeypoint = px(60, 180);
              r.maskColor = o.classRGB(3);
              // Banners: what each interpreter shows.
              r.poker = b.bannerFor({ interpreter: 'poker', result: { hand: 'Full house', cards: ['KH', 'KD', 'KS', '3C', '10D'] } });
              r.noCards = b.bannerFor({ interpreter: 'poker', result: { hand: 'No cards', cards: [] } });
              r.counter = b.bannerFor({ interpreter: 'counter', result: { counts: { person: 2, dog: 1 }, total: 3 } });
              r.contact = b.bannerFor({ interpreter: 'tennis-contact', result: { contact: { time: 1.234, rule: 'iou', confidence: 0.8 } } });
              r.noContact = b.bannerFor({ interpreter: 'tennis-contact', result: { contact: null, reason: 'apart' } });
              r.passthrough = b.bannerFor({ interpreter: 'passthrough', result: { detections: [] } });
              // Timing: three different answers at once show one by one, 0.8 s apart, newest on top; a repeat is dropped.
              const box = document.createElement('div'); document.body.append(box);
              const stack = new b.Banners(box);
              for (const n of [1, 2, 3, 3]) stack.show({ interpreter: 'counter', result: { counts: { ball: n }, total: n } });
              const titles = () => Array.from(box.children).map((c) => c.querySelector('strong').textContent);
              const sleep = (ms) => new Promise((s) => setTimeout(s, ms));
              r.at0 = titles(); await sleep(400); r.at04 = titles(); await sleep(500); r.at09 = titles();
              await sleep(800); r.at17 = titles(); await sleep(2700); r.at44 = titles();
              return r;
            })().then(done, (e) => done({ error: String(e) }));""")
        self.assertNotIn("error", out, out.get("error"))
        self.assertEqual(out["rle"], [0, 1, 1, 1, 0, 1], "RLE is column-major with 0-runs first")
        self.assertGreater(out["inMask"][3], 0, "the mask was not filled")
        self.assertTrue(all(abs(a - b) <= 3 for a, b in zip(out["inMask"][:3], out["maskColor"])),
                        f"the mask is not in its class colour: {out['inMask']} vs {out['maskColor']}")
        self.assertEqual(out["outsideMask"][3], 0, "paint outside the mask")
        self.assertEqual(out["hiddenKeypoint"][3], 0, "a keypoint with visibility < 0.5 was drawn")
        self.assertGreater(out["shownKeypoint"][3], 0, "a visible keypoint was not drawn")
        self.assertEqual(out["poker"], {"kind": "poker", "title": "Full house", "detail": "K♥ K♦ K♠ 3♣ 10♦"})
        self.assertIsNone(out["noCards"])
        self.assertEqual(out["counter"]["title"], "Counted 3")
        self.assertEqual(out["counter"]["detail"], "2× person · 1× dog")
        self.assertEqual(out["contact"], {"kind": "contact", "title": "Contact", "detail": "at 1.23 s · iou rule · 0.80"})
        self.assertIsNone(out["noContact"])
        self.assertIsNone(out["passthrough"])
        self.assertEqual(out["at0"], ["Counted 1"])
        self.assertEqual(out["at04"], ["Counted 1"], "a second banner came sooner than 0.8 s")
        self.assertEqual(out["at09"], ["Counted 2", "Counted 1"], "the newest banner is not on top")
        self.assertEqual(out["at17"], ["Counted 3", "Counted 2", "Counted 1"], "the repeated answer made a banner of its own")
        self.assertEqual(out["at44"], ["Counted 3", "Counted 2"], "the first banner stayed longer than 4 s")


class CameraTests(StudioCase):
    """The same server, a Chromium whose fake camera plays the photo panning (3 s, looped)."""

    @property
    def extra_args(self):
        return ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                f"--use-file-for-fake-video-capture={os.path.join(FILES, 'camera.y4m')}"]

    def test_4_camera_frames_over_the_websocket(self):
        d = self.driver
        ensure_model(YOLO11N)
        patch_model("yolo11n", {"defaults": {}})
        self.open("/detect?model=yolo11n")
        wait(d, lambda d: self.by_id("model").get_attribute("value") == "yolo11n", 30)
        d.find_element(By.CSS_SELECTOR, 'input[name="input"][value="camera"]').find_element(By.XPATH, "..").click()
        wait(d, lambda d: self.status_fps() > 0, 60,
             f"no FPS from the camera; live: {self.by_id('live-state').text!r}, error: {self.by_id('error').text!r}, "
             f"why: {self.by_id('camera-why').text!r}; server log:\n{SERVER.log_text()}")
        self.wait_for_drawing("nothing was drawn over the camera")
        self.assertTrue(self.by_id("camera").is_displayed())
        self.assertFalse(self.by_id("camera-why").is_displayed())
        status = self.by_id("status").text
        self.assertRegex(status, r"\d+\.\d FPS")
        self.assertIn("network", status)

        # A slider change goes over the socket as JSON and applies to the next frame.
        self.set_range("conf", 0.99)
        wait(d, lambda d: self.detections() == 0, 30, "conf 0.99 over the socket still draws detections")
        self.set_range("conf", 0.25)
        self.wait_for_drawing("conf 0.25 over the socket drew nothing")

        # The counter interpreter over the socket: a banner.
        d.find_element(By.CSS_SELECTOR, '#interpreter option[value="counter"]').click()
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#banners .banner.counter"), 30, "no banner from the live counter")

        # Tracking on: the answers carry track ids (the panel shows the last one); off again: none.
        self.click(self.by_id("track"))
        self.click(self.by_id("raw-box").find_element(By.TAG_NAME, "summary"))
        wait(d, lambda d: '"trackId"' in self.by_id("raw").get_attribute("textContent"), 30,
             "tracking on, but no result carried a trackId")
        self.click(self.by_id("track"))
        wait(d, lambda d: '"trackId"' not in self.by_id("raw").get_attribute("textContent"), 30,
             "tracking off, but results still carry track ids")
        self.click(self.by_id("raw-box").find_element(By.TAG_NAME, "summary"))

        # Pause stops the frames; Resume starts them again.
        self.click(self.by_id("pause"))
        self.assertEqual(self.by_id("pause").text, "Resume")
        time.sleep(0.5)
        sent = self.js("return document.getElementById('status').dataset.fps")
        time.sleep(1.0)
        self.assertEqual(self.js("return document.getElementById('status').dataset.fps"), sent, "frames kept coming while paused")
        self.click(self.by_id("pause"))
        self.assertEqual(self.by_id("pause").text, "Pause")

        for size in (PHONE, DESKTOP):
            d.set_window_size(*size)
            time.sleep(1.5)
            self.assertTrue(no_horizontal_scroll(d), f"/detect (camera) scrolls sideways at {size[0]} px")
            self.assertGreater(self.drawn_pixels(), 0)
            self.js("window.scrollTo(0, 0)")
            screenshot(d, "studio-detect-camera")


class VideoTests(StudioCase):
    """The video input: a clip made here with ffmpeg (the photo panning, 3 s at 15 fps, H.264) runs as a job."""

    @classmethod
    def setUpClass(cls):
        cls.clip = os.path.join(FILES, "rally.mp4")
        ffmpeg("-loop", "1", "-i", ASTRONAUT, "-vf", "scale=640:640,crop=640:480:0:'80+60*sin(t)'", "-r", "15", "-t", "3",
               "-pix_fmt", "yuv420p", "-c:v", "libx264", cls.clip)

    def clip_js(self, script):
        return self.js(f"const clip = document.getElementById('clip'); {script}")

    def test_7_a_video_runs_as_a_job_and_plays_with_its_detections(self):
        d = self.driver
        ensure_model(YOLO11N)
        patch_model("yolo11n", {"defaults": {"interpreter": "counter"}})
        self.open("/detect?model=yolo11n")
        wait(d, lambda d: self.by_id("model").get_attribute("value") == "yolo11n", 30)
        d.find_element(By.CSS_SELECTOR, 'input[name="input"][value="video"]').find_element(By.XPATH, "..").click()
        self.assertTrue(self.by_id("video-panel").is_displayed())
        self.assertFalse(self.by_id("image-panel").is_displayed())
        self.assertFalse(self.by_id("video-start").is_enabled(), "Start is offered before a video is chosen")

        self.by_id("video-file").send_keys(self.clip)
        self.assertIn("rally.mp4", self.by_id("video-name").text)
        self.by_id("stride").clear()
        self.by_id("stride").send_keys("3")
        self.click(self.by_id("video-start"))
        wait(d, lambda d: self.by_id("video-progress").get_attribute("value") == "1"
             and "100 %" in self.by_id("video-state").text, 180,
             f"the job did not reach 100 %; state: {self.by_id('video-state').text!r}, error: {self.by_id('error').text!r}; "
             f"server log:\n{SERVER.log_text()}")
        self.assertIn("15 frames", self.by_id("video-state").text)
        self.assertIn("Counter over 15 frames", self.by_id("video-summary").text)

        # The upload plays under the drawing; a seek draws the processed frame nearest the new time.
        wait(d, lambda d: self.clip_js("return clip.readyState") >= 2, 30, "the video did not load")
        self.assertTrue(self.by_id("clip").is_displayed())
        self.assertFalse(self.by_id("placeholder").is_displayed())
        self.clip_js("clip.currentTime = 1.0;")
        wait(d, lambda d: self.by_id("overlay").get_attribute("data-frame") == "15" and self.drawn_pixels() > 0, 30,
             f"nothing drawn for the frame at 1.0 s (frame {self.by_id('overlay').get_attribute('data-frame')!r})")
        self.assertGreater(self.detections(), 0)
        before = self.drawn_pixels()
        self.set_range("lineWidth", 8)
        wait(d, lambda d: self.drawn_pixels() > before, 10, "a wider line did not redraw the video's frame")
        # Confidence applies at once, on the page: 0.99 leaves nothing; back to 0.25 brings the boxes back.
        self.set_range("conf", 0.99)
        wait(d, lambda d: self.detections() == 0 and self.drawn_pixels() == 0, 10, "conf 0.99 still draws on the video")
        self.set_range("conf", 0.25)
        wait(d, lambda d: self.detections() > 0, 10)

        # Playing: the drawing follows the frames and the counter's banners come as playback passes them.
        self.clip_js("clip.currentTime = 0; clip.play();")
        wait(d, lambda d: self.clip_js("return clip.currentTime") > 1.5, 30, "the video does not play")
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#banners .banner.counter"), 10, "no banner while playing")
        self.assertNotEqual(self.by_id("overlay").get_attribute("data-frame"), "15", "the drawing did not follow playback")
        self.clip_js("clip.pause(); clip.currentTime = 2.0;")
        wait(d, lambda d: self.by_id("overlay").get_attribute("data-frame") == "30", 10)

        # The downloads: the annotated MP4 and the JSON.
        mp4 = self.by_id("video-mp4").get_attribute("href")
        with urllib.request.urlopen(urllib.request.Request(mp4, headers={"Range": "bytes=0-1023"}), timeout=30) as r:
            self.assertEqual((r.status, r.headers["Content-Type"]), (206, "video/mp4"))
            self.assertEqual(len(r.read()), 1024)
        with urllib.request.urlopen(self.by_id("video-json").get_attribute("href"), timeout=30) as r:
            result = json.loads(r.read())
        self.assertEqual(len(result["results"]), 15)
        self.assertEqual(result["interpretation"]["interpreter"], "counter")
        runs = SERVER.api("/api/models/yolo11n")["runs"]
        self.assertEqual((runs[0]["source"], runs[0]["frames"]), ("video", 15))

        for size in (PHONE, DESKTOP):
            d.set_window_size(*size)
            time.sleep(0.6)
            self.clip_js("clip.currentTime = 1.0;")
            wait(d, lambda d: self.drawn_pixels() > 0, 10, f"nothing drawn at {size[0]} px")
            self.assertTrue(no_horizontal_scroll(d), f"/detect (video) scrolls sideways at {size[0]} px")
            self.js("window.scrollTo(0, 0)")
            screenshot(d, "studio-detect-video")

        # Back to a picture: the image input works as before and the video is put away.
        d.find_element(By.CSS_SELECTOR, 'input[name="input"][value="image"]').find_element(By.XPATH, "..").click()
        self.assertFalse(self.by_id("clip").is_displayed())
        self.by_id("image-file").send_keys(os.path.join(FILES, "astronaut.png"))
        self.wait_for_drawing("the image input drew nothing after the video")


    def test_8_video_timing_rules(self):
        self.open("/detect")
        out = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('/static/js/detect-video.js').then((m) => {
              const frames = [0, 0.2, 0.4, 0.6].map((time, i) => ({ time, frame: 3 * i }));
              done({
                nearest: [-1, 0, 0.09, 0.11, 0.3, 0.5, 0.61, 9].map((t) => m.nearestFrame(frames, t)),
                none: m.nearestFrame([], 1),
                counter: m.timeline({ interpreter: 'counter', result: { frames: [{ frame: 0, time: 0, result: { counts: { a: 1 }, total: 1 } }] } }),
                contact: m.timeline({ interpreter: 'tennis-contact', result: { contacts: [], frameContacts: [{ time: 1.5, frame: 45 }] } }),
                poker: m.summaryText({ interpreter: 'poker', result: { hand: 'Pair', cards: ['KH', 'KD'], frame: 12 } }),
                tennis: m.summaryText({ interpreter: 'tennis-contact', result: { contacts: [{ time: 1.234 }, { time: 3.5 }] } }),
              });
            }, (e) => done({ error: String(e) }));""")
        self.assertNotIn("error", out, out.get("error"))
        # Ties go to the earlier frame; before the first and after the last, the first and the last.
        self.assertEqual(out["nearest"], [0, 0, 0, 1, 1, 2, 3, 3])
        self.assertEqual(out["none"], -1)
        self.assertEqual(out["counter"], [{"time": 0, "interpretation": {"interpreter": "counter", "result": {"counts": {"a": 1}, "total": 1}}}])
        self.assertEqual(out["contact"][0]["interpretation"]["result"]["contact"]["frame"], 45)
        self.assertEqual(out["poker"], "Poker: the best hand is Pair (K♥ K♦), first seen in frame 12.")
        self.assertEqual(out["tennis"], "Tennis contact: 2 contacts, at 1.23 s, 3.50 s.")

class TennisCameraTests(StudioCase):
    """Tennis mode (docs/studio.md): a fake camera playing a photo of a footballer (SwingPose's messi5.jpg, a
    real person for BlazePose) and tools/make_tennis_fixture.py's model, which finds a racket and a ball
    touching on any picture that is not black."""

    @classmethod
    def setUpClass(cls):
        cls.photo = os.path.join(ROOT, "Tests", "SwingPoseTests", "Fixtures", "messi5.jpg")
        cls.video = os.path.join(FILES, "tennis.y4m")
        if not os.path.exists(cls.video):
            # The photo drifting slowly sideways (BlazePose tracks the player from frame to frame), 3 s at 15 fps.
            ffmpeg("-loop", "1", "-i", cls.photo, "-vf", "scale=700:436,crop=640:400:'30+30*sin(t)':18", "-r", "15",
                   "-t", "3", "-pix_fmt", "yuv420p", cls.video)

    @property
    def extra_args(self):
        return ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                f"--use-file-for-fake-video-capture={self.video}"]

    def bones(self):
        value = self.by_id("overlay").get_attribute("data-bones")
        return int(value) if value not in (None, "") else -1

    def test_10_tennis_mode_draws_the_player_with_the_boxes(self):
        d = self.driver
        ensure_model(os.path.join(FIXTURES, "tennis-contact.onnx"))
        self.open("/detect?model=tennis-contact")
        wait(d, lambda d: self.by_id("model").get_attribute("value") == "tennis-contact", 30)
        self.assertTrue(self.by_id("tennis-row").is_displayed(), "no Tennis mode switch for a detect model")
        self.click(self.by_id("tennis"))
        self.assertEqual(self.by_id("interpreter").get_attribute("value"), "tennis-contact")

        # A picture: the skeleton and the two boxes, and the contact banner.
        self.by_id("image-file").send_keys(self.photo)
        wait(d, lambda d: self.bones() > 5 and self.detections() == 2 and self.drawn_pixels() > 0, 60,
             f"no skeleton over the picture; status: {self.by_id('status').text!r}, error: {self.by_id('error').text!r}")
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#banners .banner.contact"), 30, "no contact banner on the picture")

        # The camera: answers with the pose, the FPS, the time BlazePose took.
        self.click(d.find_element(By.CSS_SELECTOR, 'input[name="input"][value="camera"]').find_element(By.XPATH, ".."))
        wait(d, lambda d: self.status_fps() > 0 and self.bones() > 5 and self.drawn_pixels() > 0, 90,
             f"no skeleton over the camera; live: {self.by_id('live-state').text!r}, error: {self.by_id('error').text!r}; "
             f"server log:\n{SERVER.log_text()}")
        self.assertEqual(self.detections(), 2)
        self.assertRegex(self.by_id("status").text, r"pose \d+(\.\d)? ms")
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#banners .banner.contact"), 30, "no contact banner on the camera")
        text = self.by_id("banners").text
        self.assertIn("Contact", text)
        self.assertRegex(text, r"at \d+\.\d\d s · proximity rule")
        # The ball stays on the racket frame after frame: one contact, one banner (not one every 0.8 s).
        time.sleep(2.5)
        camera_banners = [b.text for b in d.find_elements(By.CSS_SELECTOR, "#banners .banner.contact") if "at 0.00 s" not in b.text]
        self.assertEqual(len(camera_banners), 1, f"a lasting contact made {len(camera_banners)} banners: {camera_banners}")
        self.assertGreater(self.status_fps(), 0)

        # Off again: the socket reopens without the pose; the boxes stay.
        self.click(self.by_id("tennis"))
        wait(d, lambda d: self.bones() == 0 and self.detections() == 2, 60, "tennis mode off, but the skeleton is still drawn")
        self.click(self.by_id("tennis"))
        wait(d, lambda d: self.bones() > 5, 60, "tennis mode on again, but no skeleton")

        for size in (PHONE, DESKTOP):
            d.set_window_size(*size)
            time.sleep(1.5)
            self.assertTrue(no_horizontal_scroll(d), f"/detect (tennis mode) scrolls sideways at {size[0]} px")
            self.assertGreater(self.bones(), 5)
            self.js("window.scrollTo(0, 0)")
            screenshot(d, "studio-tennis-camera")

        # Only detect models have the switch.
        self.click(self.by_id("tab-classify"))
        wait(d, lambda d: not self.by_id("tennis-row").is_displayed(), 10, "the Tennis mode switch shows for a classifier tab")


if __name__ == "__main__":
    unittest.main()


class RunsTests(StudioCase):
    """The detection runs: the /detections page and the model card's recent runs, after real runs."""

    def test_9_runs_are_listed_with_what_the_interpreter_saw(self):
        d = self.driver
        ensure_model(YOLO11N)
        flipped = os.path.join(FILES, "astronaut-flipped.png")
        ffmpeg("-i", os.path.join(FILES, "astronaut.png"), "-vf", "hflip", flipped)
        # Two runs on two pictures with the counter.
        for path in (os.path.join(FILES, "astronaut.png"), flipped):
            with open(path, "rb") as f:
                body = f.read()
            req = urllib.request.Request(f"{SERVER.url}/api/detect?model=yolo11n&interpret=counter", data=body, method="POST")
            with urllib.request.urlopen(req, timeout=60) as r:
                self.assertEqual(r.status, 200)
        runs = SERVER.api("/api/detections?model=yolo11n")["runs"]
        self.assertGreaterEqual(len(runs), 2)

        for width, height in (PHONE, DESKTOP):
            d.set_window_size(width, height)
            self.open("/detections")
            wait(d, lambda d: self.by_id("runs").get_attribute("aria-busy") == "false", 30, "the runs page did not load")
            items = d.find_elements(By.CSS_SELECTOR, "#runs li.run")
            self.assertGreaterEqual(len(items), 2)
            first = items[0].text
            self.assertIn("yolo11n", first)
            self.assertIn("a picture", first)
            self.assertRegex(first, r"Counter: peak \d+× ")
            self.assertTrue(no_horizontal_scroll(d), f"the runs page scrolls sideways at {width} px")
            self.assertEqual(d.find_element(By.CSS_SELECTOR, '[data-nav="models"]').get_attribute("aria-current"), "page")
            screenshot(d, "studio-detections")

        # Filtering by a model that never ran: the empty state says what to do.
        self.open("/detections?model=pose_detection")
        wait(d, lambda d: self.by_id("runs").get_attribute("aria-busy") == "false", 30)
        self.assertTrue(self.by_id("no-runs").is_displayed())
        self.assertEqual(self.by_id("f-model").get_attribute("value"), "pose_detection")

        # The model's card lists its latest runs and links to all of them.
        self.open("/models")
        self.wait_models_listed()
        text = self.card_text("yolo11n")
        self.assertIn("Recent runs", text)
        self.assertIn("Counter: peak", text)
        link = self.card("yolo11n").find_element(By.LINK_TEXT, "All runs of this model")
        self.assertTrue(link.get_attribute("href").endswith("/detections?model=yolo11n"))
        screenshot(d, "studio-models-runs")
