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


def missing_browser() -> str | None:
    """Why the browser test cannot run here, or None."""
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed (pip install -e '.[dev]')"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not path.exists():
            return f"{path} is missing (apt-get install {package})"
    return None


@pytest.fixture
def demo_url(tmp_path: Path) -> Iterator[str]:
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
        process.send_signal(signal.SIGINT)  # Ctrl+C: the demo closes the bot and its database
        _, err = process.communicate(timeout=WAIT)
    # The demo logs bot errors; a clean run has none.
    assert "Traceback" not in err, err
    assert process.returncode == 130, err  # what a shell expects after Ctrl+C


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
            NoSuchElementException,
            StaleElementReferenceException,
        )
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        self.driver = driver
        self.by = By
        self.shots = shots
        # The page redraws its messages on every publication: an element found a moment ago
        # may be gone; looking again is the answer.
        self.wait = WebDriverWait(
            driver,
            WAIT,
            ignored_exceptions=(
                StaleElementReferenceException,
                NoSuchElementException,
                ElementClickInterceptedException,
            ),
        )

    def text(self) -> str:
        """The messages the page shows now."""
        elements = self.driver.find_elements(self.by.ID, "channel-message-list")
        return str(elements[0].text) if elements else ""

    def until(self, what: str, check: Callable[[], object]) -> Any:
        """Wait until ``check()`` is truthy (the page polls the bot); fail naming ``what``."""
        from selenium.common.exceptions import TimeoutException

        try:
            return self.wait.until(lambda _: check())
        except TimeoutException:
            self.screenshot("failure")
            pytest.fail(f"the page never showed {what}; it shows:\n{self.text()}")

    def shows(self, text: str) -> None:
        """Wait until the messages contain ``text``."""
        self.until(repr(text), lambda: text in self.text())

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
            box = self.driver.find_element(self.by.ID, "channel-composer-input")
            box.click()
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

    def go(self, place: str) -> None:
        """Follow a link of the demo's bar (a channel, or the DMs) and wait for the page."""
        self.until(
            f"the {place} link",
            lambda: self.driver.find_element(self.by.LINK_TEXT, place).click() or True,
        )
        self.until(
            f"the {place} view",
            lambda: (
                self.driver.find_elements(
                    self.by.CSS_SELECTOR, "#kapshap-demo-bar a[aria-current='page']"
                )
                and self.driver.find_element(
                    self.by.CSS_SELECTOR, "#kapshap-demo-bar a[aria-current='page']"
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
    page.click("Add AI")
    page.choose("Computer level…", "greedy")
    page.shows("Added a computer player (greedy).")
    page.click("Start")
    page.until("the running table", lambda: page.buttons("My hand"))
    assert "Seats" in page.text() and "Wall" in page.text()

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
    assert "alice" in text and "AI 1 (greedy)" in text
