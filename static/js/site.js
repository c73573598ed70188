// A clock's face, the same as games/time_controls.py clock_text: 0:42, 1:02:03, 2d 23:59
// (the game page's clocks and an arena's time left).
window.clockText = function (ms) {
  const total = Math.ceil(ms / 1000);
  const two = (n) => String(n).padStart(2, "0");
  const days = Math.floor(total / 86400), hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60), secs = total % 60;
  if (days) return `${days}d ${two(hours)}:${two(minutes)}`;
  if (hours) return `${hours}:${two(minutes)}:${two(secs)}`;
  return `${minutes}:${two(secs)}`;
};

// A websocket that gives up on a handshake nobody answers (a hung server process behind
// the port): the browser has no handshake timeout of its own, so a page would say
// "Reconnecting…" for good. Closed after HANDSHAKE_WAIT, its page's onclose retries as
// after any drop. Every page's socket opens through here (this file loads first).
window.openSocket = (function () {
  const HANDSHAKE_WAIT = 10000;
  return function (path) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${path}`);
    const timer = setTimeout(() => { if (socket.readyState === WebSocket.CONNECTING) socket.close(); }, HANDSHAKE_WAIT);
    socket.addEventListener("open", () => clearTimeout(timer));
    socket.addEventListener("close", () => clearTimeout(timer));
    return socket;
  };
})();

// Platform notices: a small JSON websocket (game pages use htmx's ws extension).
(function () {
  const status = document.getElementById("live-status");
  if (!status || !("WebSocket" in window)) return;
  let delay = 1000;
  // A notice for this user (a pairing: "your game is ready") stays on the page, with
  // its link, until they dismiss it; the footer keeps the connection's state.
  const notices = document.getElementById("notices");
  // The navigation's unread count (on the inbox link, and on the phone's "Menu" button):
  // every notice frame and "unread" frame carries it.
  const badges = document.querySelectorAll(".unread-badge");
  function showUnread(count) {
    if (typeof count !== "number") return;
    badges.forEach((badge) => {
      badge.textContent = String(count);
      badge.dataset.unread = String(count);
      if (badge.hasAttribute("aria-label")) badge.setAttribute("aria-label", `${count} unread notices`);
      badge.hidden = count === 0;
    });
  }
  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }
  // A notice about the page open ("Mei accepted your challenge" on that game's page):
  // said without a link to this very page, and marked read, since it is seen where it
  // happened (docs/game-page.md).
  function aboutThisPage(url) {
    try { return new URL(url, window.location.origin).pathname === window.location.pathname; }
    catch (e) { return false; }
  }
  function markRead(id) {
    fetch(`/api/v1/accounts/notices/${id}/read/`, {
      method: "POST", credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
    }).then(() => fetchUnread()).catch(() => { /* it stays unread in the inbox: no harm */ });
  }
  // Shows the notice; true when it was about this page and is being marked read.
  function showNotice(frame) {
    if (!notices) return false;
    const item = document.createElement("p");
    item.className = "message notice-live";
    item.textContent = frame.message + " ";
    const here = Boolean(frame.url && frame.url.startsWith("/") && aboutThisPage(frame.url));
    if (here && Number.isInteger(frame.id) && csrfToken()) markRead(frame.id);
    if (frame.url && frame.url.startsWith("/") && !here) {
      const label = frame.event === "pairing" ? "Go to the game" : "Open";
      if (Number.isInteger(frame.id) && csrfToken()) {
        // Through the inbox, so opening it marks it read: a POST with the CSRF token.
        const form = document.createElement("form");
        form.method = "post"; form.action = `/accounts/notices/${frame.id}/`; form.className = "inline-form";
        const token = document.createElement("input");
        token.type = "hidden"; token.name = "csrfmiddlewaretoken"; token.value = csrfToken();
        const open = document.createElement("button");
        open.type = "submit"; open.className = "link-button"; open.textContent = label;
        form.append(token, open);
        item.appendChild(form);
      } else {
        const link = document.createElement("a");
        link.href = frame.url; link.textContent = label;
        item.appendChild(link);
      }
    }
    const close = document.createElement("button");
    close.type = "button"; close.className = "link-button"; close.textContent = "Dismiss";
    close.setAttribute("aria-label", "Dismiss this notice");
    close.addEventListener("click", () => item.remove());
    item.appendChild(document.createTextNode(" "));
    item.appendChild(close);
    notices.appendChild(item);
    return here && Number.isInteger(frame.id) && Boolean(csrfToken());
  }
  // The heartbeat comes every `every` seconds (its frame says, 30 by default). With none
  // for LATE_AFTER of them (Redis away, the worker or beat down) the socket is still
  // open but nothing live comes through it: the footer says so, not "Live" for good.
  // The page's other live parts hear it too: "live:late" then, and "live:caught-up" at
  // the first heartbeat after it or after any gap (a live message sent meanwhile may be
  // lost: the section page fetches its live part again, static/js/section-live.js).
  const LATE_AFTER = 2.5;
  let every = 30, lastBeat = "", lateTimer = null, late = false, beatAt = null;
  function expectBeat() {
    clearTimeout(lateTimer);
    lateTimer = setTimeout(() => {
      status.textContent = lastBeat ? `Live updates are late: the server last checked in at ${lastBeat} UTC`
        : "Live updates are late: no word from the server since this page connected";
      status.className = "offline";
      late = true;
      document.dispatchEvent(new CustomEvent("live:late"));
    }, every * LATE_AFTER * 1000);
  }
  // A notice stored while nothing live came through (the heartbeat late or missed) was
  // pushed to nobody: its count comes from the inbox instead (docs/protocol.md).
  function fetchUnread() {
    fetch("/api/v1/accounts/notices/unread-count/", { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((answer) => (answer.ok ? answer.json() : null))
      .then((body) => { if (body) showUnread(body.unread); })
      .catch(() => { /* the next notice or reconnect puts it right */ });
  }
  function connect() {
    const socket = window.openSocket(status.dataset.socket);
    socket.onopen = () => { delay = 1000; status.textContent = "Live"; status.className = "live"; expectBeat(); };
    socket.onmessage = (event) => {
      const frame = JSON.parse(event.data);
      if (frame.type === "heartbeat") {
        // In UTC on the 24-hour clock, as every time on the site is written ("H:i UTC"),
        // not in the browser's own zone and locale.
        const at = new Date(frame.at).toISOString().slice(11, 19);
        status.textContent = `Live · server checked in ${at} UTC`;
        status.className = "live";
        lastBeat = at;
        if (typeof frame.every === "number" && frame.every > 0) every = frame.every;
        const gap = beatAt !== null && Date.now() - beatAt > every * 1500;
        beatAt = Date.now();
        if (late || gap) {
          document.dispatchEvent(new CustomEvent("live:caught-up"));
          if (badges.length) setTimeout(fetchUnread, Math.random() * 2000);  // spread: every page at once
        }
        late = false;
        expectBeat();
      } else if (frame.type === "notice") {
        const read = showNotice(frame);
        showUnread(read && typeof frame.unread === "number" ? Math.max(0, frame.unread - 1) : frame.unread);
      } else if (frame.type === "unread") {
        showUnread(frame.unread);
      }
    };
    socket.onclose = () => {
      clearTimeout(lateTimer); beatAt = null;
      status.textContent = "Reconnecting…"; status.className = "offline";
      setTimeout(connect, delay); delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();

// The main menu on a phone: folded behind its "Menu" button (site.css shows the button
// and hides the list below 600 px); the list stays open on wider screens and without script.
(function () {
  const toggle = document.querySelector(".nav-toggle");
  const nav = toggle && toggle.closest(".nav");
  if (!nav) return;
  toggle.hidden = false;
  nav.classList.add("is-foldable");
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("is-open", open);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && nav.classList.contains("is-open")) { toggle.click(); toggle.focus(); }
  });
})();

// The lobby's form: House rules lists the chosen variant's sets only, and another
// variant sets the rules back to its standard ones (the server refuses a set of another
// variant, games/views.py create). Without script every set is listed, with its variant.
(function () {
  const variant = document.getElementById("id_variant");
  const rules = document.getElementById("id_rule_set");
  if (!variant || !rules) return;
  function onlyThisVariant() {
    const chosen = rules.selectedOptions[0];
    if (chosen && chosen.dataset.variant && chosen.dataset.variant !== variant.value) rules.value = "";
    for (const option of rules.options) {
      const other = Boolean(option.dataset.variant) && option.dataset.variant !== variant.value;
      option.hidden = other;
      option.disabled = other;
    }
  }
  variant.addEventListener("change", onlyThisVariant);
  onlyThisVariant();
})();

// A click that cannot be undone (starting an event, withdrawing mid-event) asks first:
// the question is in data-confirm on the submit button (or its form), in words. Set
// here, not inline, for the Content-Security-Policy; without script the click just acts.
document.addEventListener("submit", (event) => {
  const button = event.submitter;
  const question = (button && button.dataset.confirm) || event.target.dataset.confirm;
  if (question && !window.confirm(question)) {
    event.preventDefault();
    event.stopImmediatePropagation();  // nor htmx, had it hooked the form
  }
}, true);
