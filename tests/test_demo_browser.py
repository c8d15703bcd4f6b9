"""``kapshap demo`` played in a real browser: headless Chromium driven by Selenium.

The demo runs as a subprocess (``python -m bot demo``, the ``kapshap demo`` command); Debian's
``chromium`` and ``chromium-driver`` packages provide the browser (nothing is downloaded).
Where they are missing the test is skipped with the reason, except under CI (``CI=true``), where
it fails: ``.ci/run`` installs them.

The screenshots it takes are the README's pictures: ``KAPSHAP_DEMO_SCREENSHOTS=docs/images``
writes them there (otherwise they go to a temporary folder)::

    KAPSHAP_DEMO_SCREENSHOTS=docs/images .venv/bin/python -m pytest -q tests/test_demo_browser.py
"""

from __future__ import annotations

import importlib.util
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROME_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1200,960",
)
SEED = 7  # the deals of this run (the demo's --seed), so the game goes the same way each time
WAIT = 20.0  # seconds: the longest any one step may take before the test gives up
REVIEW_WAIT = 120.0  # seconds: a review's play-outs, on a machine other jobs share


def missing_browser() -> str | None:
    """Why the browser test cannot run here, or None."""
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed (pip install -e '.[dev]')"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not path.exists():
            return f"{path} is missing (apt-get install {package})"
    return None


@pytest.fixture
def demo_lang() -> str:
    """The demo's ``--lang`` (a test parametrizes it to play another)."""
    return "en"


@pytest.fixture
def demo_url(tmp_path: Path, demo_lang: str) -> Iterator[str]:
    """``kapshap demo`` on a free port, with its database in ``tmp_path``; its address."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bot",
            "demo",
            "--seed",
            str(SEED),
            "--data-dir",
            str(tmp_path / "data"),
            "--env-file",
            str(tmp_path / "none.env"),
            "--lang",
            demo_lang,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    stdout = process.stdout
    threading.Thread(target=lambda: [lines.put(line) for line in stdout], daemon=True).start()
    try:
        try:
            first = lines.get(timeout=WAIT)
        except queue.Empty:
            pytest.fail("kapshap demo printed no address")
        match = re.search(r"http://127\.0\.0\.1:\d+/", first)
        assert match, f"no address in {first!r}"
        yield match.group(0)
    finally:
        err = stop(process)
    # The demo logs bot errors (and its clock driver's); a clean run has none.
    assert "Traceback" not in err and " ERROR " not in err, err
    assert process.returncode == 130, err  # Ctrl+C, as a shell expects


def stop(process: subprocess.Popen[str], wait: float = WAIT) -> str:
    """Stop ``process`` as Ctrl+C does, or, if it ignores SIGINT (started under ``nohup`` or
    as a background job), with SIGTERM, then SIGKILL; what it wrote to stderr."""
    for send in (
        lambda: process.send_signal(signal.SIGINT),  # the demo closes the bot and its database
        process.terminate,  # SIGTERM: the demo stops as cleanly
        process.kill,
    ):
        send()
        try:
            return str(process.communicate(timeout=wait)[1] or "")
        except subprocess.TimeoutExpired:
            continue
    process.wait()
    return ""


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    """Headless Chromium with a fresh profile."""
    reason = missing_browser()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser test must run in CI: {reason}")
        pytest.skip(f"no browser to test the demo in: {reason}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in CHROME_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


class Page:
    """The demo page as a visitor uses it: what it shows, buttons, slash commands, the bar."""

    def __init__(self, driver: Any, shots: Path) -> None:
        from selenium.common.exceptions import (
            ElementClickInterceptedException,
            ElementNotInteractableException,
            NoSuchElementException,
            StaleElementReferenceException,
        )
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        self.driver = driver
        self.by = By
        self.shots = shots
        # The page redraws its messages on every publication, and reloads when the view
        # changes: an element found a moment ago may be gone, or not take keys yet; looking
        # again is the answer.
        self.ignored = (
            StaleElementReferenceException,
            NoSuchElementException,
            ElementClickInterceptedException,
            ElementNotInteractableException,
        )
        self.wait = WebDriverWait(driver, WAIT, ignored_exceptions=self.ignored)

    def text(self) -> str:
        """The messages the page shows now, as read (without the invisible word joiners that
        keep a tile's notation on one line)."""
        elements = self.driver.find_elements(self.by.ID, "channel-message-list")
        return str(elements[0].text).replace("\u2060", "") if elements else ""

    def until(self, what: str, check: Callable[[], object], wait: float = WAIT) -> Any:
        """Wait until ``check()`` is truthy (the page polls the bot), at most ``wait`` seconds;
        fail naming ``what``."""
        from selenium.common.exceptions import TimeoutException
        from selenium.webdriver.support.ui import WebDriverWait

        waiting = (
            self.wait
            if wait == WAIT
            else WebDriverWait(self.driver, wait, ignored_exceptions=self.ignored)
        )
        try:
            return waiting.until(lambda _: check())
        except TimeoutException:
            self.screenshot("failure")
            pytest.fail(f"the page never showed {what}; it shows:\n{self.text()}")

    def shows(self, text: str, wait: float = WAIT) -> None:
        """Wait until the messages contain ``text``."""
        self.until(repr(text), lambda: text in self.text(), wait)

    def buttons(self, label: str) -> list[Any]:
        """The enabled message buttons whose label starts with ``label``."""
        return [
            b
            for b in self.driver.find_elements(self.by.CSS_SELECTOR, "#channel-message-list button")
            if b.text.strip().startswith(label) and b.is_enabled()
        ]

    def click(self, label: str) -> str:
        """Click the last button labelled ``label…`` (the newest message's); its label."""

        def click() -> str | None:
            buttons = self.buttons(label)
            if not buttons:
                return None
            text = str(buttons[-1].text.strip())
            self.driver.execute_script(
                "arguments[0].scrollIntoView({block: 'center'})", buttons[-1]
            )
            buttons[-1].click()
            return text

        return str(self.until(f"a {label!r} button", click))

    def choose(self, placeholder: str, option: str) -> None:
        """Open the select showing ``placeholder`` and pick the option starting with ``option``."""
        path = f"//*[normalize-space()='{placeholder}']"
        self.until(
            f"the {placeholder!r} select",
            lambda: self.driver.find_element(self.by.XPATH, path).click() or True,
        )

        def pick() -> bool:
            for element in self.driver.find_elements(self.by.CSS_SELECTOR, "[role=option]"):
                if element.text.startswith(option):
                    element.click()
                    return True
            return False

        self.until(f"the option {option!r}", pick)

    def slash(self, command: str) -> None:
        """Type ``command`` in the composer, pick it from the list, send it."""
        from selenium.webdriver.common.keys import Keys

        def type_it() -> bool:
            if not self.composer_ready():
                return False
            box = self.driver.find_element(self.by.ID, "channel-composer-input")
            # Focused, not clicked: a click may land on what a screenshot's scroll put over it.
            self.driver.execute_script("arguments[0].focus()", box)
            box.send_keys(command)
            return True

        self.until("the composer", type_it)
        self.until(
            f"{command} in the command list",
            lambda: any(
                e.text.strip().startswith(command)
                for e in self.driver.find_elements(self.by.CSS_SELECTOR, ".command-entry.is-active")
            ),
        )
        self.driver.find_element(self.by.ID, "channel-composer-input").send_keys(Keys.ENTER)
        self.until(
            "the send button",
            lambda: self.driver.find_element(self.by.ID, "send-message").click() or True,
        )

    def composer_ready(self) -> bool:
        """Whether the page would send what is typed now. Until the page has its view of the
        channel (it reloads on a change of place, and polls before it shows it) and while an
        action is pending, it keeps the send button disabled and Enter leaves a line where it
        is: typed then, a command is never sent (a loaded machine once showed it)."""
        return bool(
            self.driver.execute_script(
                "const send = document.getElementById('send-message');"
                "const app = document.getElementById('preview-app');"
                "return !!send && !send.disabled && !(app && app.ariaBusy === 'true');"
            )
        )

    def type(self, line: str, wait: float = WAIT) -> None:
        """Type ``line`` in the composer and send it as it is (a command with its options
        typed out: ``/table new game:Kap Tai Shap``); ``wait``: how long the command may take."""
        from selenium.webdriver.common.keys import Keys

        def send() -> bool:
            # An empty composer: the last command is done with it (it clears it when the
            # command settles); then the line, checked before it is sent.
            box = self.driver.find_element(self.by.ID, "channel-composer-input")
            if box.get_attribute("value") or not self.composer_ready():
                return False
            box.send_keys(line)
            if box.get_attribute("value") != line:
                box.clear()
                return False
            box.send_keys(Keys.ENTER)
            return True

        self.until("the composer", send)
        # Sent: the composer let go of the line, or the command's answer is on the page (a long
        # command, a review, holds the composer until it settles, which may outlast WAIT).
        used = f"used {line.split()[0]}"
        self.until(
            f"{line} sent",
            lambda: (
                self.driver.find_element(self.by.ID, "channel-composer-input").get_attribute(
                    "value"
                )
                != line
                or used in self.text()
            ),
            wait,
        )

    def go(self, place: str) -> None:
        """Press a place of the demo's bar (a channel, or the DMs) and wait for the page."""
        self.until(
            f"the {place} button",
            lambda: (
                self.driver.find_element(
                    self.by.XPATH,
                    f"//*[@id='kapshap-demo-bar']//button[normalize-space()='{place}']",
                ).click()
                or True
            ),
        )
        self.until(
            f"the {place} view",
            lambda: (
                self.driver.find_elements(
                    self.by.CSS_SELECTOR, "#kapshap-demo-bar [aria-current='page']"
                )
                and self.driver.find_element(
                    self.by.CSS_SELECTOR, "#kapshap-demo-bar [aria-current='page']"
                ).text
                == place
            ),
        )

    def scroll_to(self, selector: str, block: str = "start") -> None:
        """Bring the last element matching ``selector`` into view (for a screenshot)."""
        self.driver.execute_script(
            "const all = document.querySelectorAll(arguments[0]);"
            "if (all.length) all[all.length - 1].scrollIntoView({block: arguments[1]});",
            selector,
            block,
        )

    def screenshot(self, name: str) -> None:
        """A small PNG of the page (256 colours) in the screenshots folder."""
        from PIL import Image

        path = self.shots / f"demo-{name}.png"
        self.driver.save_screenshot(str(path))
        with Image.open(path) as image:
            small = image.convert("RGB").quantize(colors=256)
        small.save(path, optimize=True)


def test_a_visitor_plays_a_game_in_the_browser(demo_url: str, browser: Any, tmp_path: Path) -> None:
    shots = Path(os.environ.get("KAPSHAP_DEMO_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page = Page(browser, shots)
    browser.get(demo_url)
    page.shows("Welcome to the Kap Shap demo!")
    page.screenshot("welcome")

    # Open a table with a slash command, add a computer player, start.
    page.slash("/table new")
    page.shows("new table")
    page.shows("Host: @alice")  # a mention, shown as Discord shows it: the name
    page.click("Add AI")
    page.choose("Computer level…", "Club")
    page.shows("Added a computer player (Club).")
    page.click("Start")
    page.until("the running table", lambda: page.buttons("My hand"))
    assert "Seats" in page.text() and "Wall" in page.text()
    check_the_countdown(page)

    # The hand arrives by DM, as a picture; play a move there with the buttons.
    page.go("DMs with Kap Shap")
    page.shows("Your hand")
    page.until(
        "the picture of the hand",
        lambda: browser.execute_script(
            "return [...document.querySelectorAll('#channel-message-list img')]"
            ".some(i => i.complete && i.naturalWidth > 200)"
        ),
    )
    page.scroll_to("#channel-message-list img", "end")
    page.screenshot("hand")
    if page.buttons("Draw"):
        page.click("Draw")
    discarded = page.click("Discard").removeprefix("Discard ").strip()

    # Back in the channel, the table message shows that move; play the next with /draw.
    page.go("#kap-shap")
    # The discard is in the recent moves, as laid or as taken by the computer.
    move = re.compile(rf"alice discarded {discarded} |took {discarded} .* discarded by alice")
    page.until(f"alice's discard of {discarded}", lambda: move.search(page.text()))
    page.slash("/draw")
    page.shows("alice drew")
    page.scroll_to("#channel-message-list .embed-card")
    page.screenshot("table")
    text = page.text()
    assert "Kap Shap 夾十 — table" in text
    assert "alice" in text and "AI 1 (Club)" in text

    # Resign, then review the game: long work for the bot, which the demo's clock waits for.
    found = re.search(r"Kap Shap 夾十 — table ([0-9a-f]+)", text)
    assert found, text
    page.slash("/table resign")
    confirm = ("Resign", "Confirm", "Yes")  # a confirmation, if the command asks for one
    page.until(
        "the resignation",
        lambda: "resigned" in page.text() or any(page.buttons(label) for label in confirm),
    )
    if "resigned" not in page.text():
        page.click(next(label for label in confirm if page.buttons(label)))
    page.shows("resigned")
    page.type(f"/review game:{found[1]}", REVIEW_WAIT)  # a command typed out, options and all
    page.shows(f"Review of game {found[1]}", REVIEW_WAIT)

    # The welcome's own example, typed as it reads.
    page.go("#kap-tai-shap")
    page.type("/table new game:Kap Tai Shap")
    page.shows("Kap Tai Shap 夾大十 — new table")

    # A tournament: its match is played in a thread, which the bar reaches.
    page.go("#lounge")
    page.type("/tournament new name:Demo Cup")
    page.shows("Demo Cup")
    page.slash("/tournament join")
    page.shows("Players (1)")
    page.type("/tournament fill count:1")
    page.shows("Players (2)")
    page.slash("/tournament start")
    page.go("\U0001f9f5 Demo Cup · R1-1")
    page.until("the match's table", lambda: page.buttons("My hand"))
    assert "Demo Cup" in page.text() and "Computer 1" in page.text()


def check_the_countdown(page: Page) -> None:
    """The turn's countdown is Discord's relative timestamp, worded from the demo's clock each
    time the page draws it (every second), not frozen at the moment simcord published it."""
    last_relative = (
        "[...document.querySelectorAll('#channel-message-list time.discord-timestamp')]"
        ".filter(t => t.dataset.kapshapStyle === 'R').at(-1)"
    )
    deadline = page.until(
        "the turn's countdown",
        lambda: page.driver.execute_script(
            f"const t = {last_relative}; return t ? Date.parse(t.dateTime) : null"
        ),
    )

    def shown_at(moment: float) -> str:
        return str(
            page.driver.execute_script(
                f"kapshapDemoTime.render(arguments[0]); return {last_relative}.textContent",
                moment,
            )
        )

    assert shown_at(deadline - 30_000) == "in 30 seconds"
    assert shown_at(deadline - 120_000) == "in 2 minutes"
    assert shown_at(deadline + 5_000) == "5 seconds ago"
    now = page.driver.execute_script("return kapshapDemoTime.now()")
    assert shown_at(now) in {"in 2 minutes", "in 1 minute"}  # a 2-minute timer


@pytest.mark.parametrize("demo_lang", ["zh-CN"])
def test_a_chinese_visitor_sees_commands_and_times_in_chinese(
    demo_url: str, browser: Any, tmp_path: Path
) -> None:
    """In ``--lang zh-CN`` the composer lists the commands by their Chinese names (as the
    member's Discord client would), and times read as that client shows them."""
    page = Page(browser, tmp_path)
    browser.get(demo_url)
    page.shows("欢迎试玩夹十")
    page.slash("/筹码 每日筹码")
    page.shows("你领取了")
    page.slash("/筹码 每日筹码")
    page.shows("下次可领：24 小时后（2026年1月2日")
    page.slash("/筹码 记录")
    page.shows("2026-01-01 +100 每日筹码")


@pytest.mark.parametrize("ignored", [("SIGINT",), ("SIGINT", "SIGTERM")])
def test_stop_ends_a_server_that_ignores_ctrl_c(ignored: tuple[str, ...]) -> None:
    """A demo started under ``nohup`` or in the background ignores SIGINT: the fixture's
    ``stop`` then terminates it, or kills it, instead of leaving it running."""
    ignore = "".join(f"signal.signal(signal.{name}, signal.SIG_IGN); " for name in ignored)
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import signal, sys, time; {ignore}print(flush=True); time.sleep(600)",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        process.stdout.readline()  # its signal dispositions are set
        stop(process, wait=1.0)
        assert process.poll() is not None
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
