// Platform notices: a small JSON websocket (game pages use htmx's ws extension).
(function () {
  const status = document.getElementById("live-status");
  if (!status || !("WebSocket" in window)) return;
  let delay = 1000;
  // A notice for this user (a pairing: "your game is ready") stays on the page, with
  // its link, until they dismiss it; the footer keeps the connection's state.
  const notices = document.getElementById("notices");
  // The navigation's unread count: every notice frame and "unread" frame carries it.
  const badge = document.getElementById("unread-count");
  function showUnread(count) {
    if (!badge || typeof count !== "number") return;
    badge.textContent = String(count);
    badge.dataset.unread = String(count);
    badge.hidden = count === 0;
  }
  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }
  function showNotice(frame) {
    if (!notices) return;
    const item = document.createElement("p");
    item.className = "message notice-live";
    item.textContent = frame.message + " ";
    if (frame.url && frame.url.startsWith("/")) {
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
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${status.dataset.socket}`);
    socket.onopen = () => { delay = 1000; status.textContent = "Live"; status.className = "live"; };
    socket.onmessage = (event) => {
      const frame = JSON.parse(event.data);
      if (frame.type === "heartbeat") {
        status.textContent = "Live · server checked in " + new Date(frame.at).toLocaleTimeString();
        status.className = "live";
      } else if (frame.type === "notice") {
        showNotice(frame);
        showUnread(frame.unread);
      } else if (frame.type === "unread") {
        showUnread(frame.unread);
      }
    };
    socket.onclose = () => {
      status.textContent = "Reconnecting…"; status.className = "offline";
      setTimeout(connect, delay); delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();
