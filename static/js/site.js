// Platform notices: a small JSON websocket (game pages use htmx's ws extension).
(function () {
  const status = document.getElementById("live-status");
  if (!status || !("WebSocket" in window)) return;
  let delay = 1000;
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
        status.textContent = frame.message;
      }
    };
    socket.onclose = () => {
      status.textContent = "Reconnecting…"; status.className = "offline";
      setTimeout(connect, delay); delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();
