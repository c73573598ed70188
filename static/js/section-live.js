// A section's page follows its websocket group (/ws/sections/<id>/, docs/protocol.md):
// each "update" frame makes htmx fetch the live part again (#section-live, its
// "section-update" trigger). While the socket is down the live part is polled every
// data-poll seconds instead, and every (re)connect fetches it once, so an update sent
// while the socket was away is never missed. A refresh never lands under a press or
// after a form is sent: swapping the button between its mousedown and mouseup would
// swallow the click (seen in a browser test), so it waits for the release instead. A
// "deleted" update replaces the page's content with a note saying so.
(function () {
  const first = document.getElementById("section-live");
  if (!first || !first.dataset.socket || !("WebSocket" in window)) return;
  const path = first.dataset.socket;
  const pollMs = 1000 * (Number(first.dataset.poll) || 5);
  const status = document.getElementById("section-connection");
  let delay = 1000, poller = null, pending = null, done = false, pressed = false, held = false, catchingUp = false;
  let following = false;  // the socket is open and joined

  function refresh() {
    if (pressed) { held = true; return; }
    const live = document.getElementById("section-live");  // htmx replaces it on each refresh
    if (!live || !live.dataset.socket) { done = true; return; }  // over: nothing follows it now
    if (window.htmx) window.htmx.trigger(live, "section-update");
  }
  // Several updates in a burst (a round's results, then its standings) make one fetch,
  // after a random 0.2-1.2 s so that a crowd watching one section does not fetch at once.
  function refreshSoon() {
    if (!pending) pending = setTimeout(() => { pending = null; refresh(); }, 200 + Math.random() * 1000);
  }
  function release() {
    pressed = false;
    if (held) { held = false; refreshSoon(); }
  }
  document.addEventListener("pointerdown", () => { pressed = true; }, true);
  document.addEventListener("pointerup", release, true);
  document.addEventListener("pointercancel", release, true);
  window.addEventListener("blur", release);  // a press that ends outside the window
  // A form sent the plain way (not by htmx, which prevents the default) leaves the page.
  window.addEventListener("submit", (event) => { if (!event.defaultPrevented) done = true; });
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.elt.id !== "section-live") return;
    if (done) event.detail.shouldSwap = false;
    else if (pressed) { event.detail.shouldSwap = false; held = true; }
    // "Live" once the catch-up refresh after a (re)connect lands (the swap follows in
    // this same task): from then on the page is current, not merely connected.
    else if (catchingUp) { catchingUp = false; show("Live", true); }
  });
  document.body.addEventListener("htmx:responseError", (event) => {
    if (event.detail.elt.id === "section-live" && event.detail.xhr.status === 404) gone("section", first.dataset.tournament);
  });
  function show(text, live) {
    if (!status) return;
    status.hidden = false;
    status.textContent = text;
    status.className = `section-connection small ${live ? "is-live live" : "is-offline offline"}`;
  }
  function poll(on) {
    if (on && !poller) poller = setInterval(refresh, pollMs);
    if (!on && poller) { clearInterval(poller); poller = null; }
  }
  // The organisers deleted this section or its tournament: say so where the live part
  // was, and follow nothing more (every control on the page would meet a 404 now).
  function gone(what, url) {
    done = true; poll(false);
    if (status) status.hidden = true;
    const note = document.createElement("p");
    note.className = "notice";
    note.setAttribute("role", "alert");
    note.textContent = `The organisers deleted this ${what === "tournament" ? "tournament" : "section"}. `;
    if (url) {
      const link = document.createElement("a");
      link.href = url;
      link.textContent = what === "tournament" ? "Back to the club" : "Back to the tournament";
      note.append(link);
    }
    const main = document.getElementById("main");
    if (main) main.replaceChildren(note);
  }
  function connect() {
    const socket = window.openSocket(path);
    socket.onmessage = (event) => {
      const frame = JSON.parse(event.data);
      if (frame.type === "following") {
        delay = 1000; poll(false); following = true;
        if (window.htmx) { catchingUp = true; refresh(); } else show("Live", true);
      } else if (frame.type === "update" && frame.event === "deleted") {
        gone(frame.what, frame.url);
        socket.close();
      } else if (frame.type === "update") {
        refreshSoon();
      }
    };
    socket.onclose = (event) => {
      catchingUp = false; following = false;
      if (event.code === 4404) { if (!done) gone("section", first.dataset.tournament); return; }  // no such section: deleted while away
      if (done) return;
      poll(true);
      show(`Reconnecting… meanwhile this page refreshes every ${pollMs / 1000} seconds.`, false);
      setTimeout(connect, delay); delay = Math.min(delay * 2, 30000);
    };
  }
  // The platform's heartbeat is late (static/js/site.js): Redis is away, so this socket,
  // though open, hears nothing. Poll as while it is down; once the heartbeat is back, an
  // update sent meanwhile was lost: fetch the live part once more. The page said "Live"
  // and stayed stale after Redis came back (a chaos probe).
  document.addEventListener("live:late", () => {
    if (done || !following) return;
    poll(true);
    show(`Live updates are late: meanwhile this page refreshes every ${pollMs / 1000} seconds.`, false);
  });
  document.addEventListener("live:caught-up", () => {
    if (done || !following) return;
    poll(false);
    if (window.htmx) { catchingUp = true; refresh(); } else show("Live", true);
  });
  connect();
})();
