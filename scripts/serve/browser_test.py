#!/usr/bin/env python3
"""The live page of `vision-tasks serve` in a real browser (headless Chromium driven by selenium).

Makes a fake camera clip from a folder of frames (ffmpeg, .y4m), starts `vision-tasks serve --port 0`
with a random `--token`, opens the page as `/?token=T` and, for each task (default pose, hands and
face-landmarks), selects it, ticks a boolean option, clicks Camera and waits until the page has
drawn 5 results. Then it checks the JSON the page received last: its shape, and that it equals the
API's own answer for the same JPEG bytes (the page keeps the frame it sent last as a data URL) with
the same query. Last it gives the page a PNG through its file input and checks that result the same
way. Screenshots go to out/serve-page-<task>.png. The server and the browser are always stopped;
the whole run is bounded (--budget, default 180 s). Exits 1 on any failure.

    python3 scripts/serve/browser_test.py [--binary PATH] [--models DIR] [--frames DIR] [--image PNG]
                                          [--tasks pose,hands,face-landmarks] [--no-token]

Needs selenium: scripts/serve/browser-test.sh makes .venv/browser with it (this script re-runs
itself with that venv's Python when selenium is missing here), plus chromium, chromedriver and
ffmpeg on the PATH.
"""

import argparse
import base64
import json
import os
import secrets
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
VENV = REPO / ".venv" / "browser"

try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError:
    python = VENV / "bin" / "python"
    if python.exists() and Path(sys.prefix).resolve() != VENV.resolve():
        os.execv(str(python), [str(python), __file__, *sys.argv[1:]])
    sys.exit("error: selenium is missing; run scripts/serve/browser-test.sh (it makes .venv/browser with it)")

# Per task: a boolean option the test ticks (so the query the page builds is exercised), the
# number of landmarks per detection, and whether a detection is required in the camera clip.
TASKS = {
    "pose": {"option": "segmentation", "landmarks": 33, "required": True},
    "hands": {"option": None, "landmarks": 21, "required": False},
    "face-landmarks": {"option": "blendshapes", "landmarks": 478, "required": True},
    "objects": {"option": None, "landmarks": None, "required": False},
    "faces": {"option": None, "landmarks": None, "required": True},
    "segment": {"option": "category-mask", "landmarks": None, "required": False},
}


class Failure(Exception):
    """A check that did not hold."""


class OutOfTime(Exception):
    """The overall time budget ran out."""


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(REPO / ".build" / "release" / "vision-tasks"))
    parser.add_argument("--models", default=str(REPO.parent / "shared" / "models"))
    parser.add_argument("--frames", default=str(REPO.parent / "shared" / "images" / "frames" / "gesture_test_video"))
    parser.add_argument("--image", default=str(REPO.parent / "shared" / "images" / "decoded" / "business-person.png"))
    parser.add_argument("--tasks", default="pose,hands,face-landmarks", help="comma-separated, in order")
    parser.add_argument("--clip-width", type=int, default=640, help="width of the fake camera (default 640)")
    parser.add_argument("--results", type=int, default=5, help="results to wait for per task (default 5)")
    parser.add_argument("--wait", type=float, default=60, help="seconds to wait for them per task (default 60)")
    parser.add_argument("--budget", type=float, default=180, help="seconds for the whole run (default 180)")
    parser.add_argument("--no-token", action="store_true", help="run the server without --token")
    parser.add_argument("--out", default=str(REPO / "out"), help="folder of the screenshots (default out/)")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--chromedriver", default=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    parser.add_argument("--headful", action="store_true", help="show the browser window")
    arguments = parser.parse_args()
    arguments.tasks = [task.strip() for task in arguments.tasks.split(",") if task.strip()]
    for task in arguments.tasks:
        if task not in TASKS:
            parser.error(f"unknown task {task!r} (one of {', '.join(TASKS)})")
    return arguments


def log(message):
    print(message, flush=True)


def check(condition, message):
    if not condition:
        raise Failure(message)


# ---- fake camera ----


def make_clip(frames, width, folder):
    """The frames as a .y4m clip that Chromium's fake camera loops; returns (path, width, height)."""
    pictures = sorted(Path(frames).glob("*.png"))
    check(pictures, f"no PNG frames in {frames}")
    listing = Path(folder) / "frames.txt"
    listing.write_text("".join(f"file '{picture}'\nduration 0.0333333\n" for picture in pictures))
    clip = Path(folder) / "camera.y4m"
    subprocess.run(
        ["ffmpeg", "-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", str(listing),
         "-vf", f"scale={width}:-2,fps=30", "-pix_fmt", "yuv420p", str(clip)],
        check=True, timeout=60)
    with open(clip, "rb") as file:
        header = file.readline().decode("ascii").split()
    size = {field[0]: field[1:] for field in header[1:]}
    return clip, int(size["W"]), int(size["H"])


# ---- the server ----


class Server:
    """`vision-tasks serve --port 0` as a child process; stderr is kept for the report."""

    def __init__(self, binary, models, token):
        command = [binary, "serve", "--port", "0", "--models", models]
        if token:
            command += ["--token", token]
        self.token = token
        self.lines = []
        self.address = None
        self.ready = threading.Event()
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True, start_new_session=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        prefix = "serve: listening on "
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))
            if self.address is None and line.startswith(prefix):
                self.address = line[len(prefix):].strip().rstrip("/")
                self.ready.set()
        self.ready.set()

    def wait(self, seconds):
        self.ready.wait(seconds)
        if self.address is None:
            raise Failure("the server named no address; its standard error:\n" + self.tail())
        return self.address

    def tail(self, count=15):
        return "\n".join("    " + line for line in self.lines[-count:]) or "    (nothing)"

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        return self.process.returncode

    def request(self, method, path, body=None, content_type=None, token=True):
        """(status, parsed JSON or raw text) of one API call."""
        request = urllib.request.Request(self.address + path, data=body, method=method)
        if content_type:
            request.add_header("Content-Type", content_type)
        if token and self.token:
            request.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, text = response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode("utf-8", "replace")
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text


# ---- the browser ----


def start_browser(arguments, clip):
    options = webdriver.ChromeOptions()
    options.binary_location = arguments.chromium
    for flag in [
        "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-video-capture={clip}", "--no-sandbox", "--disable-dev-shm-usage",
        "--window-size=1400,1000", "--no-first-run", "--disable-extensions", "--disable-gpu",
    ]:
        options.add_argument(flag)
    if not arguments.headful:
        options.add_argument("--headless=new")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=arguments.chromedriver)
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    return driver


def results(driver):
    return int(driver.execute_script("return Number(document.body.dataset.results || 0)"))


def wait_for_results(driver, count, seconds, deadline):
    """Waits until the page has drawn `count` results; returns the seconds it took."""
    started = time.monotonic()
    limit = min(started + seconds, deadline)
    while time.monotonic() < limit:
        if results(driver) >= count:
            return time.monotonic() - started
        time.sleep(0.25)
    state = driver.execute_script("return JSON.stringify({n: window.visionTasks.frameCount, "
                                  "errors: window.visionTasks.errors.slice(-3), mode: window.visionTasks.mode})")
    raise Failure(f"{results(driver)} of {count} results after {time.monotonic() - started:.0f} s; page: {state}")


def snapshot(driver):
    """What the page received last, read at once (the page updates these together)."""
    text = driver.execute_script(
        "const v = window.visionTasks; return JSON.stringify({result: v.lastResult, task: v.lastTask, "
        "query: v.lastQuery, frame: v.lastFrameDataURL, type: v.lastFrameType, count: v.frameCount, "
        "errors: v.errors, latency: v.latencyMs, fps: v.fps})")
    return json.loads(text)


def browser_errors(driver):
    try:
        entries = driver.get_log("browser")
    except WebDriverException:
        return []
    return [entry["message"] for entry in entries if entry.get("level") == "SEVERE"]


def external_requests(driver, origin):
    names = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    return [name for name in names if not (name.startswith(origin) or name.startswith("data:"))]


def open_page(driver, server, task):
    url = server.address + "/"
    if server.token:
        url += "?token=" + server.token
    driver.get(url)
    Select(driver.find_element(By.ID, "task")).select_by_value(task)
    option = TASKS[task]["option"]
    if option:
        box = driver.find_element(By.CSS_SELECTOR, f"input[data-option='{option}']")
        if not box.is_selected():
            box.click()


# ---- checks ----


def check_shape(task, result, width, height, query, required):
    """The answer has the fields `vision-tasks TASK` prints, of the right sizes."""
    check(isinstance(result, dict), f"{task}: the result is not an object: {str(result)[:200]}")
    check(result.get("file") == "-", f"{task}: file is {result.get('file')!r}, not '-'")
    check((result.get("width"), result.get("height")) == (width, height),
          f"{task}: size {result.get('width')}x{result.get('height')}, expected {width}x{height}")
    check(isinstance(result.get("timestampInMilliseconds"), int), f"{task}: no timestampInMilliseconds")
    landmarks = TASKS[task]["landmarks"]

    def landmark_lists(key, what):
        lists = result.get(key)
        check(isinstance(lists, list), f"{task}: no {key} list")
        if required:
            check(len(lists) >= 1, f"{task}: no {what} found")
        for points in lists:
            check(len(points) == landmarks, f"{task}: {len(points)} {key} per {what}, expected {landmarks}")
            for point in points:
                check(all(isinstance(point.get(axis), (int, float)) for axis in "xyz"), f"{task}: bad point {point}")
        return lists

    if task == "pose":
        poses = landmark_lists("landmarks", "pose")
        check(len(result.get("worldLandmarks", [])) == len(poses), "pose: worldLandmarks do not match landmarks")
        for pose in poses:
            check(all("visibility" in point and "presence" in point for point in pose), "pose: no visibility")
            inside = [point for point in pose[:13] if 0 <= point["x"] <= 1 and 0 <= point["y"] <= 1]
            check(len(inside) >= 8, "pose: the head and shoulders are not in the picture")
        if "segmentation=true" in query.split("&"):
            masks = result.get("segmentationMasks")
            check(isinstance(masks, list) and len(masks) == len(poses), "pose: segmentationMasks missing")
            for mask in masks:
                check({"width", "height", "mean"} <= set(mask), f"pose: bad mask summary {mask}")
    elif task == "hands":
        hands = landmark_lists("landmarks", "hand")
        check(len(result.get("handedness", [])) == len(hands), "hands: handedness does not match landmarks")
        check(len(result.get("worldLandmarks", [])) == len(hands), "hands: worldLandmarks do not match landmarks")
    elif task == "face-landmarks":
        faces = landmark_lists("faceLandmarks", "face")
        if "blendshapes=true" in query.split("&"):
            shapes = result.get("faceBlendshapes")
            check(isinstance(shapes, list) and len(shapes) == len(faces), "face-landmarks: faceBlendshapes missing")
            for face in shapes:
                check(len(face) == 52, f"face-landmarks: {len(face)} blendshapes, expected 52")
    elif task in ("objects", "faces"):
        detections = result.get("detections")
        check(isinstance(detections, list), f"{task}: no detections list")
        if required:
            check(len(detections) >= 1, f"{task}: nothing found")
        for detection in detections:
            check({"x", "y", "width", "height"} <= set(detection.get("boundingBox", {})), f"{task}: bad box")
    elif task == "segment":
        check(isinstance(result.get("labels"), list), "segment: no labels")


def check_same_as_api(server, task, seen):
    """The page's last result equals the API's answer to the same bytes and query."""
    frame = seen.get("frame") or ""
    check(frame.startswith("data:") and "," in frame, f"{task}: the page kept no frame (lastFrameDataURL)")
    header, payload = frame.split(",", 1)
    data = base64.b64decode(payload)
    content_type = seen.get("type") or header[len("data:"):].split(";")[0]
    query = seen.get("query") or ""
    status, answer = server.request("POST", f"/v1/{task}" + (f"?{query}" if query else ""), data, content_type)
    check(status == 200, f"{task}: the API answered the page's frame with {status}: {str(answer)[:300]}")
    if answer != seen["result"]:
        differences = []
        for key in sorted(set(answer) | set(seen["result"])):
            mine, theirs = seen["result"].get(key), answer.get(key)
            if mine != theirs:
                shown = f"{key} (page {mine}, API {theirs})" if len(f"{mine}{theirs}") < 60 else key
                differences.append(shown)
        raise Failure(f"{task}: the page's result differs from the API's for the same bytes: {', '.join(differences)}")
    return data, content_type


def png_size(path):
    with open(path, "rb") as file:
        head = file.read(24)
    check(head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG")
    return struct.unpack(">II", head[16:24])


# ---- the run ----


def run_camera(driver, server, task, arguments, clip_size, deadline):
    open_page(driver, server, task)
    # Count the API calls in flight at once: the page must keep it to one.
    driver.execute_script(
        "const original = window.fetch; window.testInFlight = 0; window.testMaxInFlight = 0;"
        "window.fetch = async function (url, init) {"
        "  const api = String(url).startsWith('/v1/') && init && init.method === 'POST';"
        "  if (api) { window.testInFlight += 1;"
        "    window.testMaxInFlight = Math.max(window.testMaxInFlight, window.testInFlight); }"
        "  try { return await original.apply(this, arguments); } finally { if (api) window.testInFlight -= 1; }"
        "};")
    driver.find_element(By.ID, "camera").click()
    took = wait_for_results(driver, arguments.results, arguments.wait, deadline)
    most = driver.execute_script("return window.testMaxInFlight")
    check(most == 1, f"{task}: {most} API calls were in flight at once, expected 1")
    time.sleep(0.3)  # let the overlay of the last answer be painted
    screenshot = Path(arguments.out) / f"serve-page-{task}.png"
    driver.save_screenshot(str(screenshot))
    seen = snapshot(driver)
    check(seen["task"] == task, f"{task}: the page's last task is {seen['task']!r}")
    option = TASKS[task]["option"]
    if option:
        check(f"{option}=true" in (seen["query"] or "").split("&"), f"{task}: query {seen['query']!r} lacks {option}")
    check(seen["type"] == "image/jpeg", f"{task}: the camera frame went as {seen['type']!r}, not image/jpeg")
    check_shape(task, seen["result"], *clip_size, seen["query"] or "", TASKS[task]["required"])
    data, _ = check_same_as_api(server, task, seen)
    check(data[:3] == b"\xff\xd8\xff", f"{task}: the frame sent is not a JPEG")
    driver.find_element(By.ID, "stop").click()
    return {
        "task": task, "results": seen["count"], "seconds": took, "latency": seen["latency"], "fps": seen["fps"],
        "errors": len(seen["errors"]), "screenshot": screenshot,
        "found": found(task, seen["result"]),
    }


def run_image(driver, server, arguments, deadline):
    task = "pose"
    open_page(driver, server, task)
    driver.find_element(By.ID, "file").send_keys(str(Path(arguments.image).resolve()))
    took = wait_for_results(driver, 1, arguments.wait, deadline)
    time.sleep(0.3)
    screenshot = Path(arguments.out) / "serve-page-image.png"
    driver.save_screenshot(str(screenshot))
    seen = snapshot(driver)
    check(seen["task"] == task and seen["type"] == "image/png",
          f"image: the page sent {seen['type']!r} for {seen['task']!r}, expected image/png for pose")
    check_shape(task, seen["result"], *png_size(arguments.image), seen["query"] or "", True)
    data, _ = check_same_as_api(server, task, seen)
    check(data == Path(arguments.image).read_bytes(), "image: the page did not send the file's own bytes")
    return {"task": "image " + Path(arguments.image).name, "results": seen["count"], "seconds": took,
            "latency": seen["latency"], "fps": None, "errors": len(seen["errors"]), "screenshot": screenshot,
            "found": found(task, seen["result"])}


def found(task, result):
    for key in ("landmarks", "faceLandmarks", "detections", "confidenceMasks"):
        if key in result:
            return f"{len(result[key])} {key}"
    return "no masks"


def main():
    arguments = parse_arguments()
    for path, what in [(arguments.binary, "--binary"), (arguments.models, "--models"),
                       (arguments.frames, "--frames"), (arguments.image, "--image"),
                       (arguments.chromium, "--chromium"), (arguments.chromedriver, "--chromedriver")]:
        if not os.path.exists(path):
            sys.exit(f"error: {what} {path} not found")
    if not shutil.which("ffmpeg"):
        sys.exit("error: ffmpeg not found")
    Path(arguments.out).mkdir(parents=True, exist_ok=True)

    started = time.monotonic()
    deadline = started + arguments.budget - 15  # room to stop everything

    def out_of_time(signum, frame):
        raise OutOfTime(f"the run took over {arguments.budget:.0f} s")

    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(int(arguments.budget) - 5)

    server = driver = None
    rows, failures = [], []
    folder = tempfile.mkdtemp(prefix="vision-tasks-browser-")
    try:
        clip, width, height = make_clip(arguments.frames, arguments.clip_width, folder)
        log(f"camera clip: {width}x{height}, {len(list(Path(arguments.frames).glob('*.png')))} frames looped")
        token = None if arguments.no_token else secrets.token_hex(8)
        server = Server(arguments.binary, arguments.models, token)
        address = server.wait(30)
        log(f"server: {address}" + (" (with --token)" if token else ""))
        status, page = server.request("GET", "/", token=False)
        check(status == 200 and isinstance(page, str) and "<html" in page, f"GET / answered {status}")
        if token:
            status, body = server.request("GET", "/v1/models", token=False)
            check(status == 401, f"GET /v1/models without the token answered {status}, expected 401")
        driver = start_browser(arguments, clip)
        for task in arguments.tasks:
            try:
                rows.append(run_camera(driver, server, task, arguments, (width, height), deadline))
            except Failure as failure:
                failures.append(str(failure))
        try:
            rows.append(run_image(driver, server, arguments, deadline))
        except Failure as failure:
            failures.append(str(failure))
        outside = external_requests(driver, address)
        if outside:
            failures.append(f"the page requested other origins: {outside[:5]}")
        errors = browser_errors(driver)
        if errors:
            failures.append("the browser console has errors:\n    " + "\n    ".join(errors[:10]))
    except (Failure, OutOfTime, WebDriverException, subprocess.SubprocessError, OSError) as error:
        failures.append(f"{type(error).__name__}: {error}".strip())
    finally:
        signal.alarm(0)
        if driver is not None:
            try:
                driver.quit()
            except Exception as error:  # noqa: BLE001 - stopping must go on
                failures.append(f"stopping the browser: {error}")
        if server is not None:
            status = server.stop()
            if status not in (0, None):
                failures.append(f"the server exited with status {status} on SIGTERM; its standard error:\n"
                                + server.tail())
        shutil.rmtree(folder, ignore_errors=True)

    for row in rows:
        latency = f"{row['latency']:.0f} ms" if row["latency"] is not None else "-"
        rate = f"{row['fps']:.1f}/s" if row["fps"] else "-"
        log(f"  {row['task']:<16} {row['results']:>3} results in {row['seconds']:.1f} s, last latency {latency}, "
            f"rate {rate}, {row['found']}, page errors {row['errors']}; matches the API; "
            f"{os.path.relpath(row['screenshot'], REPO)}")
    took = time.monotonic() - started
    if failures:
        for failure in failures:
            log("FAIL " + failure)
        log(f"browser test: {len(failures)} failure(s) in {took:.0f} s")
        return 1
    log(f"browser test: passed ({len(rows)} checks) in {took:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
