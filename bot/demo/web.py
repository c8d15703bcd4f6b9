"""What the demo's own web server serves and refuses: the page's additions (the capability,
the bar, the ticking times), the addresses it answers to, and its refusals."""

from __future__ import annotations

import contextlib
import html
import socket
from collections.abc import Sequence

from aiohttp import web

# Where the demo's own files are served; everything else goes to the preview session.
PREFIX = "/kapshap-demo"


def inject(index_html: str, capability: str) -> str:
    """The preview's page with its session's capability, the demo's address fix-up, styles
    and bar. The capability is in the page, which only the demo's own address can read."""
    tags = (
        f'<meta name="kapshap-demo-session" content="{html.escape(capability)}">\n'
        f'    <script src="{PREFIX}/boot.js"></script>\n'
        f'    <link rel="stylesheet" href="{PREFIX}/nav.css">\n'
        f'    <script src="{PREFIX}/nav.js" defer></script>\n'
        f'    <script src="{PREFIX}/time.js" defer></script>\n'
    )
    return index_html.replace("</head>", f"    {tags}  </head>", 1)


def unavailable() -> web.Response:
    """The answer when the preview session cannot be reached (the page polls, then recovers)."""
    return web.Response(status=503, text="The demo is changing its view: reload the page.")


EVERYWHERE = frozenset({"0.0.0.0", "::", ""})
"""``--host`` values that listen on every network interface."""


def allowed_hosts(host: str, port: int, names: Sequence[str] = ()) -> frozenset[str]:
    """The Host headers a browser sends to the demo at ``host:port``, lower case.

    ``host`` itself (``localhost`` and ``127.0.0.1`` alike on the loopback address); on every
    interface (0.0.0.0, ::) the loopback names and this machine's name and addresses; and
    each of ``names``. Port 80 also without the port, which browsers leave out."""
    loopback = {"127.0.0.1", "localhost"}
    hosts = {host.lower()} | {name.lower() for name in names if name}
    if host in loopback:
        hosts |= loopback
    elif host == "::1":
        hosts |= {"localhost"}
    elif host in EVERYWHERE:
        hosts.discard(host)
        hosts |= loopback | {"::1"} | _machine_names()
    bracketed = {f"[{name}]" if ":" in name else name for name in hosts}
    with_port = {f"{name}:{port}" for name in bracketed}
    return frozenset(with_port | bracketed if port == 80 else with_port)


def _machine_names() -> set[str]:
    """This machine's name, its fully qualified name and the addresses they resolve to."""
    names = {socket.gethostname(), socket.getfqdn()}
    for name in tuple(names):
        with contextlib.suppress(OSError):
            for *_, address in socket.getaddrinfo(name, None):
                names.add(str(address[0]).split("%")[0])
    return {name.lower() for name in names if name}


def refuse(status: int, reason: str) -> web.Response:
    """A plain refusal: the status and one line that says why."""
    return web.Response(status=status, text=reason + "\n", headers={"Cache-Control": "no-store"})


async def not_found(request: web.Request) -> web.Response:
    """Anything else under the demo's own prefix (a GET never changes the view)."""
    return refuse(404, "Not found.")


# Before the preview's own scripts (modules, which run later): put the session's capability,
# from the page's <meta>, in the address, where the preview reads it.
BOOT_JS = """\
"use strict";
(() => {
  const meta = document.querySelector('meta[name="kapshap-demo-session"]');
  const wanted = meta ? `#${meta.content}` : location.hash;
  if (location.hash !== wanted) history.replaceState(null, "", `/${wanted}`);
})();
"""


# The bar above the preview. Plain DOM, no inline script or style: the preview's page allows
# only scripts and styles from its own address (Content-Security-Policy).
NAV_JS = """\
"use strict";
(async () => {
  const state = await (await fetch("@PREFIX@/state", { cache: "no-store" })).json();
  const bar = document.createElement("nav");
  bar.id = "kapshap-demo-bar";
  bar.setAttribute("aria-label", "Kap Shap demo");
  // A change of view is a POST (the demo refuses one from another site); then the page
  // reloads on the new session.
  const go = async (member, place) => {
    const answer = await fetch("@PREFIX@/view", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ member, place }),
    });
    if (answer.ok) location.replace("/");
  };
  const title = document.createElement("strong");
  title.textContent = `${state.labels.title} \u00b7 ${state.server}`;
  bar.append(title);
  const who = document.createElement("label");
  who.textContent = `${state.labels.you} `;
  const picker = document.createElement("select");
  picker.id = "kapshap-demo-member";
  for (const name of state.members) {
    const option = document.createElement("option");
    option.value = option.textContent = name;
    option.selected = name === state.member;
    picker.append(option);
  }
  picker.addEventListener("change", () => go(picker.value, state.channel || "dm"));
  who.append(picker);
  bar.append(who);
  const places = document.createElement("span");
  places.className = "kapshap-demo-places";
  const link = (text, place, current) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    button.dataset.place = place;
    if (current) button.setAttribute("aria-current", "page");
    button.addEventListener("click", () => go(state.member, place));
    places.append(button);
  };
  const draw = (threads) => {
    places.replaceChildren();
    for (const channel of state.channels) link(`#${channel}`, channel, channel === state.channel);
    // A tournament's match threads, where its tables are.
    for (const thread of threads) {
      link(`🧵 ${thread.name}`, thread.id, thread.id === state.channel);
    }
    link(state.labels.dms, "dm", state.channel === null);
  };
  draw(state.threads);
  bar.append(places);
  document.body.prepend(bar);
  // Threads open as the bot plays (a tournament's rounds): look for new ones now and then.
  let known = JSON.stringify(state.threads);
  setInterval(async () => {
    const fresh = await (await fetch("@PREFIX@/state", { cache: "no-store" })).json();
    if (JSON.stringify(fresh.threads) !== known) {
      known = JSON.stringify(fresh.threads);
      draw(fresh.threads);
    }
  }, 3000);
})();
""".replace("@PREFIX@", PREFIX)

# Discord's timestamps as the member's client shows them. simcord's preview writes each
# <t:UNIX:STYLE> once, as a <time datetime=…>, in the page's locale and relative to the moment
# it published the page: a countdown then stands still, and two pages published at different
# moments disagree. This script finds each one's style (the text simcord wrote for it) and
# writes it again every second: relative ones (R) from the demo's virtual clock, absolute ones
# in the member's language (zh-CN dates as 2026-01-01).
TIME_JS = """\
"use strict";
(async () => {
  const state = await (await fetch("@PREFIX@/state", { cache: "no-store" })).json();
  const locale = state.locale;
  let offset = state.now - Date.now();  // the virtual clock, ahead of (or behind) this one
  // simcord's formats of the absolute styles (preview/static/text.js), in UTC as its page.
  const FORMATS = {
    t: { hour: "numeric", minute: "2-digit" },
    T: { hour: "numeric", minute: "2-digit", second: "2-digit" },
    d: { year: "numeric", month: "2-digit", day: "2-digit" },
    D: { year: "numeric", month: "long", day: "numeric" },
    f: { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" },
    F: {
      weekday: "long", year: "numeric", month: "long", day: "numeric",
      hour: "numeric", minute: "2-digit",
    },
  };
  const format = (date, style) =>
    new Intl.DateTimeFormat(locale, { timeZone: "UTC", ...FORMATS[style] }).format(date);
  const absolute = (date, style) => {
    if (style === "d" && locale === "zh-CN") {
      const part = Object.fromEntries(
        new Intl.DateTimeFormat(locale, { timeZone: "UTC", ...FORMATS.d })
          .formatToParts(date).map(({ type, value }) => [type, value]));
      return `${part.year}-${part.month}-${part.day}`;
    }
    return format(date, style);
  };
  const relative = (date, now) => {
    const seconds = (date.getTime() - now) / 1000;
    const size = Math.abs(seconds);
    const [unit, amount] = size < 60 ? ["second", seconds]
      : size < 3600 ? ["minute", seconds / 60]
        : size < 86400 ? ["hour", seconds / 3600]
          : size < 2592000 ? ["day", seconds / 86400]
            : size < 31536000 ? ["month", seconds / 2592000] : ["year", seconds / 31536000];
    const rounded = Math.round(amount);
    const text = new Intl.RelativeTimeFormat(locale, { numeric: rounded ? "always" : "auto" })
      .format(rounded, unit);
    // "2 分钟后" as "2 分鐘後": a space between the number and the unit in Chinese.
    return locale.startsWith("zh") ? text.replace(/([0-9])(?=[^0-9 ,.])/u, "$1 ") : text;
  };
  const styleOf = (time) => {
    if (!time.dataset.kapshapStyle) {
      const date = new Date(time.dateTime);
      time.dataset.kapshapStyle =
        Object.keys(FORMATS).find((style) => format(date, style) === time.textContent) || "R";
    }
    return time.dataset.kapshapStyle;
  };
  const render = (now = Date.now() + offset) => {
    for (const time of document.querySelectorAll("time.discord-timestamp[datetime]")) {
      const date = new Date(time.dateTime);
      if (!Number.isFinite(date.getTime())) continue;
      const style = styleOf(time);
      const text = style === "R" ? relative(date, now) : absolute(date, style);
      if (time.textContent !== text) time.textContent = text;
    }
  };
  window.kapshapDemoTime = { render, now: () => Date.now() + offset };
  render();
  // At once on each new publication (before it shows simcord's frozen text), then each second.
  new MutationObserver(() => render()).observe(document.body, { childList: true, subtree: true });
  setInterval(render, 1000);
  setInterval(async () => {
    const fresh = await (await fetch("@PREFIX@/state", { cache: "no-store" })).json();
    offset = fresh.now - Date.now();
  }, 30000);
})();
""".replace("@PREFIX@", PREFIX)

NAV_CSS = """\
#kapshap-demo-bar {
  flex: 0 0 auto; display: flex; flex-wrap: wrap; align-items: center; gap: 6px 16px;
  padding: 6px 12px; background: #1e1f22; color: #dbdee1; border-bottom: 1px solid #ffffff14;
  font-size: 14px; line-height: 20px;
}
#kapshap-demo-bar strong { color: #f2f3f5; }
#kapshap-demo-bar select {
  background: #383a40; color: #f2f3f5; border: 0; border-radius: 4px; padding: 2px 6px;
}
#kapshap-demo-bar .kapshap-demo-places { display: flex; flex-wrap: wrap; gap: 4px; }
#kapshap-demo-bar .kapshap-demo-places button {
  color: #b5bac1; background: none; border: 0; font: inherit; cursor: pointer;
  padding: 2px 8px; border-radius: 4px;
}
#kapshap-demo-bar .kapshap-demo-places button:hover { background: #35373c; color: #f2f3f5; }
#kapshap-demo-bar .kapshap-demo-places button[aria-current="page"] {
  background: #404249; color: #ffffff;
}
/* The session lists one viewer: the bar above is where the visitor changes member. */
.viewer-control { display: none !important; }
"""
