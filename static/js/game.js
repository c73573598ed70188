// Live game page and replay. Plain JS, no framework.
//
// The page opens the game socket in board mode (data-socket ends in ?board=html): every
// "state" and "update" frame carries the board partial already rendered by the server
// for this viewer's kind (games/boards.py), and the page swaps it in without a request,
// so one renderer (Django templates) draws the first paint, live updates and the replay.
// Moves go back over the socket with the ply of the board shown (data-ply).
(function () {
  "use strict";

  // The moves list scrolls in its own box (.move-scroll, its height capped by the CSS;
  // no id, so htmx's settling leaves the height set here alone). After each render the
  // box shows whole entries only, the latest (on a replay, the current step) among them:
  // it is cut to the entries that fit, ending on that one once it lies beyond the first
  // screenful. Only the box scrolls, never the page.
  function keepMoveInView() {
    const list = document.getElementById("move-list");
    const box = list && list.parentElement;
    const item = list && (list.querySelector("li.current") || list.lastElementChild);
    if (!item || !box.classList.contains("move-scroll")) return;
    box.style.height = "";
    const cap = box.clientHeight;
    if (box.scrollHeight <= cap) return;
    // Measured unrounded: entries are fractions of a pixel tall, and the roundings add up.
    const origin = list.getBoundingClientRect().top;
    const size = (el) => el.getBoundingClientRect().height;
    const itemBottom = item.getBoundingClientRect().bottom - origin;
    const beyond = itemBottom > cap;
    let height = 0;
    let entry = beyond ? item : list.firstElementChild;
    while (entry && height + size(entry) <= cap) {
      height += size(entry);
      entry = beyond ? entry.previousElementSibling : entry.nextElementSibling;
    }
    height = Math.max(height, size(item));
    const style = getComputedStyle(box);
    const borders = parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
    box.style.height = `${height + borders}px`;
    box.scrollTop = beyond ? itemBottom - height : 0;
  }
  // Entries change height once the fonts and styles have loaded, or the window's width.
  window.addEventListener("load", keepMoveInView);
  window.addEventListener("resize", keepMoveInView);
  if (document.fonts) document.fonts.ready.then(keepMoveInView);

  // -- replay: arrow keys drive the step links ---------------------------------------
  const replayPage = document.getElementById("replay-page");
  if (replayPage) {
    const keys = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };
    document.addEventListener("keydown", (event) => {
      const tag = (event.target.tagName || "").toLowerCase();
      if (tag === "input" || tag === "textarea" || tag === "select") return;
      const id = keys[event.key];
      if (!id) return;
      event.preventDefault();
      step(id);
    });
    // One step request at a time, read from the links as they are once the last one
    // has been swapped in: keys pressed meanwhile wait their turn, so a quick End then
    // Left lands on the step before the last, never on a stale link.
    const queue = [];
    let stepping = false;
    function step(id) {
      queue.push(id);
      if (!stepping) stepNext();
    }
    function stepNext() {
      const link = queue.length ? document.getElementById(queue.shift()) : null;
      const url = link && link.getAttribute("href");  // none at the first or last step: nowhere to go
      if (!url) { stepping = false; if (queue.length) stepNext(); return; }
      stepping = true;
      htmx.ajax("GET", url, { target: "#replay-step", swap: "outerHTML" })
        .then(() => history.pushState(null, "", url))
        .finally(stepNext);
    }
    // Keep focus on the same control after htmx swaps the step in.
    let focusedId = null;
    document.body.addEventListener("htmx:beforeSwap", () => { focusedId = document.activeElement && document.activeElement.id; });
    document.body.addEventListener("htmx:afterSwap", () => {
      keepMoveInView();
      const el = focusedId && document.getElementById(focusedId);
      if (el) el.focus();
    });
    keepMoveInView();
    return;
  }

  const page = document.getElementById("game-page");
  if (!page) return;
  const errors = document.getElementById("game-errors");
  const connection = document.getElementById("connection");
  const observers = document.getElementById("observer-count");
  const observersBox = document.getElementById("observers");  // none on a lesson: nobody watches it
  let socket = null;
  let delay = 1000;
  let shownPly = -1;
  // A server that hangs (rather than dies) never closes its sockets: a move it has not
  // answered in MOVE_WAIT, or a ping after QUIET_FOR of silence not answered in PONG_WAIT,
  // and the socket is taken for dead and a new one opened, whose state frame says
  // whether the move counted. Reconnects back off from 1 s to MAX_DELAY (a clock runs).
  const MOVE_WAIT = 5000, QUIET_FOR = 20000, PONG_WAIT = 5000, MAX_DELAY = 5000;
  let sentPly = null, moveTimer = null, lastFrameAt = Date.now(), pingSentAt = null;
  // Picks in progress (Tactic-Toe plan, Nine-Square marks) survive re-renders of the
  // board caused by the other player's moves, as long as the phase is the same.
  let picks = [];
  let picksKey = "";

  function board() { return document.getElementById("board"); }
  function currentPly() { const b = board(); return b ? parseInt(b.dataset.ply, 10) : 0; }

  // The message sits under the board and its controls (templates/games/game.html), where
  // the move was tried; scrolled to if it is off screen (a phone's tall board).
  function showError(message) {
    errors.textContent = message;
    if (!message) return;
    errors.scrollIntoView({ block: "nearest" });
    setTimeout(() => { if (errors.textContent === message) errors.textContent = ""; }, 8000);
  }

  // -- the socket ------------------------------------------------------------------
  function moveAnswered() { clearTimeout(moveTimer); moveTimer = null; sentPly = null; }

  function offline() { connection.textContent = "Reconnecting…"; connection.className = "offline"; }

  // The observer cap is reached (4429 after an "observers-full" error frame,
  // docs/protocol.md): no fault to show in red, and nothing a quick retry would change.
  // The board (from the page itself) stays; the reason stays in view with when the page
  // tries again, every FULL_RETRY_MIN to FULL_RETRY_MIN + FULL_RETRY_SPREAD, at random so
  // the viewers turned away together do not all come back together.
  const FULL_RETRY_MIN = 15000, FULL_RETRY_SPREAD = 15000;
  let waitingForPlace = false, refusal = null, fullMessage = "This game has as many observers as it allows.";
  function waitForPlace() {
    waitingForPlace = true;
    const wait = FULL_RETRY_MIN + Math.random() * FULL_RETRY_SPREAD;
    // Said once (an alert): the same words at each try are not announced again.
    const words = `${fullMessage} This page tries again by itself every ${FULL_RETRY_MIN / 1000} to ` +
      `${(FULL_RETRY_MIN + FULL_RETRY_SPREAD) / 1000} seconds.`;
    if (errors.textContent !== words) errors.textContent = words;
    errors.classList.add("is-waiting");
    connection.textContent = "Waiting for a place to watch"; connection.className = "waiting";
    if (observersBox) observersBox.hidden = true;  // this page is not among them: its count would read 0
    setTimeout(connect, wait);
  }
  function placeFound() {
    waitingForPlace = false;
    errors.textContent = ""; errors.classList.remove("is-waiting");
    if (observersBox) observersBox.hidden = false;
    connection.textContent = "Live"; connection.className = "live";
  }

  // Leave a socket that stopped answering (its events ignored from now on) for a new one.
  function abandon(message) {
    const old = socket;
    socket = null; pingSentAt = null; clearTimeout(moveTimer); moveTimer = null;
    if (old) {
      old.onopen = old.onmessage = old.onclose = null;
      try { old.close(); } catch (e) { /* closing a dead socket: nothing to do */ }
    }
    offline();
    if (message) showError(message);
    connect();
  }

  setInterval(() => {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    if (pingSentAt !== null) {
      if (Date.now() - pingSentAt > PONG_WAIT) abandon("");
    } else if (Date.now() - lastFrameAt > QUIET_FOR) {
      pingSentAt = Date.now();
      socket.send(JSON.stringify({ type: "ping" }));
    }
  }, 2500);

  function connect() {
    socket = window.openSocket(page.dataset.socket);
    socket.onopen = () => {
      delay = 1000;
      // Waiting for a place: the server may refuse again at once, so the page says "Live"
      // only once its state frame shows it is in.
      if (!waitingForPlace) { connection.textContent = "Live"; connection.className = "live"; }
    };
    socket.onmessage = (event) => {
      lastFrameAt = Date.now(); pingSentAt = null;  // any frame shows the server is there
      let frame;
      try { frame = JSON.parse(event.data); } catch (e) { return; }
      switch (frame.type) {
        case "state":
          if (waitingForPlace) placeFound();
          // After a reconnect: did the move that went unanswered count?
          if (sentPly !== null) {
            showError(frame.ply > sentPly ? "" : "Your last move did not reach the server: please play it again.");
            moveAnswered();
          }
          // falls through: a state frame shows its board as an update does
        case "update":
          if (observers && typeof frame.observers === "number") observers.textContent = frame.observers;
          if (typeof frame.board === "string") showBoard(frame);
          if (frame.type === "update" && sentPly !== null && frame.ply > sentPly) moveAnswered();
          break;
        case "observers":
          if (observers) observers.textContent = frame.count;
          break;
        case "ack":
          if (frame.for === "claim-timeout") { claiming = false; break; }
          moveAnswered();
          showError(""); // the board follows with the "update" every socket gets
          break;
        case "note": {
          const text = document.getElementById("note-text");
          if (text && document.activeElement !== text) text.value = frame.text;
          break;
        }
        case "error":
          // The page's own time-out claim, refused: the server's check was first, or this
          // browser's clock is ahead. Nothing for the player to read.
          if (claiming && (frame.code === "no-time-out" || frame.code === "game-over")) { claiming = false; break; }
          moveAnswered();  // refused: its message says why (a stale ply's state follows)
          refusal = frame.code;
          // A full game's refusal is said by the close that follows, with when the page tries again.
          if (frame.code !== "observers-full") showError(frame.message || frame.code);
          else fullMessage = frame.message || fullMessage;
          break;
      }
    };
    socket.onclose = (event) => {
      const refused = refusal; refusal = null;
      // 4403 (a ban or the observer policy), 4410 (kicked or banned while watching) and
      // 4404 (no such game) will not change by retrying: stop, and leave the reason the
      // error frame gave.
      if (event.code === 4403 || event.code === 4410 || event.code === 4404) {
        waitingForPlace = false;
        connection.textContent = "Disconnected"; connection.className = "offline";
        return;
      }
      socket = null; pingSentAt = null; clearTimeout(moveTimer); moveTimer = null;
      if (event.code === 4429 && refused === "observers-full") { waitForPlace(); return; }
      offline();
      // 4429 without that refusal is the server's flood close: come back no sooner than MAX_DELAY.
      if (event.code === 4429) delay = MAX_DELAY;
      // A little jitter, so that the crowd of a restarted server does not come back at once.
      setTimeout(connect, delay + Math.random() * 500); delay = Math.min(delay * 2, MAX_DELAY);
    };
  }

  function send(frame) {
    if (!socket || socket.readyState !== WebSocket.OPEN) { showError("Not connected; retrying…"); return; }
    socket.send(JSON.stringify(frame));
  }

  function sendMove(move) {
    if (!socket || socket.readyState !== WebSocket.OPEN) { showError("Not connected; retrying…"); return; }
    sentPly = currentPly();
    send({ type: "move", ply: sentPly, move: move });
    clearTimeout(moveTimer);
    moveTimer = setTimeout(() => abandon("The server has not answered your move: reconnecting to see whether it counted…"),
                           MOVE_WAIT);
  }

  // Swap in the board a frame brought. A frame at the same ply is applied (a game
  // starting, a resignation or a time-out change no ply); only one older than the board
  // shown is ignored. Focus stays on the control used, or goes to the status line when
  // that control is gone (the move was made).
  function showBoard(frame) {
    const shown = board();
    if (!shown || frame.ply < shownPly) return;
    const template = document.createElement("template");
    template.innerHTML = frame.board.trim();
    const fresh = template.content.firstElementChild;
    if (!fresh || fresh.id !== "board") return;
    const active = document.activeElement;
    const focusedId = active && active.id;
    // A control without an id (a Tic Tac Two card, an action button) is found by nothing:
    // the focus goes to the turn line too, not to <body> (the next Tab would start at the top).
    const wasOnBoard = active && shown.contains(active);
    // The fresh board's message line is empty: the page's own takes its place, with what
    // it says and its live region (a new node may not be read out).
    const line = fresh.querySelector("#game-errors");
    if (line) line.replaceWith(errors);
    fillCsrfTokens(fresh);
    shown.replaceWith(fresh);
    htmx.process(fresh);
    afterRender();
    const el = focusedId && document.getElementById(focusedId);
    if (el && !el.disabled) el.focus();
    else if (focusedId || wasOnBoard) {
      const status = document.getElementById("turn-status");
      if (status) status.focus();
    }
  }

  // A pushed board is rendered without a request, so its forms (rematch, a match's
  // version, the next lesson) come without a CSRF token: they get the page's own, the
  // one <body>'s hx-headers give htmx (templates/base.html).
  function fillCsrfTokens(root) {
    let token = "";
    try { token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; } catch (e) { return; }
    root.querySelectorAll('form[method="post"]').forEach((form) => {
      if (form.querySelector('input[name="csrfmiddlewaretoken"]')) return;
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = token;
      form.prepend(input);
    });
  }

  // -- after each render -----------------------------------------------------------
  function afterRender() {
    const b = board();
    if (!b) return;
    shownPly = parseInt(b.dataset.ply, 10);
    // Accept, decline and cancel answer an open challenge: once the board says it started
    // or was called off, they go (they sit outside the board, which the socket replaces).
    if (b.dataset.status !== "open") {
      document.querySelectorAll(".challenge-answer, .challenge-cancel").forEach((el) => el.remove());
    }
    // A new phase of picking (a new round, a new roll, the turn passing) starts empty.
    const planTitle = document.querySelector("#plan-panel h2");
    const marksPanel = document.getElementById("marks-panel");
    const phase = (planTitle ? planTitle.textContent : "") + (marksPanel ? marksPanel.dataset.need : "") + b.dataset.myTurn;
    if (phase !== picksKey) { picks = []; picksKey = phase; }
    renderPicks();
    tickClocks();
    keepMoveInView();
    announce();
    setRoving(null);
    renderHooks.forEach((hook) => hook(b));
  }

  // -- the seam for a variant's own board script (Variant.board_script) ----------------
  // The script runs after this one: it registers onRender (called with the #board
  // element after every render, the first included) and plays with sendMove, so the
  // socket, the ply and the error line stay this file's alone.
  const renderHooks = [];
  window.GamePage = {
    sendMove: (move) => sendMove(move),
    showError: (message) => showError(message),
    onRender: (hook) => { renderHooks.push(hook); const b = board(); if (b) hook(b); },
  };

  // The board is replaced on each update, so its own live regions would be new nodes
  // that screen readers may not read; this region outside it stays and is told.
  const announcer = document.getElementById("announcer");
  let lastAnnounced = "";
  function announce() {
    const status = document.getElementById("turn-status");
    const moves = document.querySelectorAll("#move-list li:not(.muted)");
    const last = moves.length ? moves[moves.length - 1].textContent.replace(/\s+/g, " ").trim() : "";
    const text = [last, status ? status.textContent.replace(/\s+/g, " ").trim() : ""].filter(Boolean).join(". ");
    if (announcer && text !== lastAnnounced) { announcer.textContent = text; lastAnnounced = text; }
  }

  // -- clicks: plain moves, plan squares, nine-square marks -----------------------------
  // An unplayable square of the live board is aria-disabled, not disabled, so the
  // arrow keys can still reach it; a click (or Enter/Space) on it does nothing.
  function unavailable(el) { return el.disabled || el.getAttribute("aria-disabled") === "true"; }

  page.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target || unavailable(target) || !page.contains(target)) return;
    if (target.dataset.move && !target.classList.contains("plan-square") && !target.classList.contains("mark-square")) {
      sendMove(JSON.parse(target.dataset.move));
    } else if (target.classList.contains("plan-square")) {
      togglePlan(parseInt(target.dataset.cell, 10));
    } else if (target.classList.contains("mark-square")) {
      toggleMark(parseInt(target.dataset.board, 10), parseInt(target.dataset.cell, 10));
    } else if (target.id === "plan-clear" || target.id === "marks-clear") {
      picks = []; renderPicks();
    } else if (target.id === "plan-submit") {
      sendMove({ plan: picks.slice() });
    } else if (target.id === "marks-submit") {
      sendMove({ marks: picks.map((p) => p.slice()) });
    } else if (target.id === "resign") {
      send({ type: "resign" });
    }
  });

  // -- keyboard: the arrow keys move between the board's squares ----------------------
  // One tab stop for the whole board (a roving tabindex); the arrows go to the nearest
  // square on screen in their direction, so one rule serves every variant's layout (3x3,
  // 4x4, 5x5, Nine-Square's nine boards side by side) on a phone or a laptop. Home and
  // End go to the first and last square; Enter or Space plays the square (a button).
  function squares() { return Array.from(document.querySelectorAll("#board .square")); }
  let rovingId = null;

  function setRoving(target) {
    const all = squares();
    if (!all.length) return;
    const chosen = target || document.getElementById(rovingId) || all.find((sq) => !unavailable(sq)) || all[0];
    if (!all.includes(chosen)) return;
    all.forEach((sq) => { sq.tabIndex = sq === chosen ? 0 : -1; });
    rovingId = chosen.id;
  }

  function neighbour(from, key) {
    const all = squares();
    if (key === "Home") return all[0];
    if (key === "End") return all[all.length - 1];
    const a = from.getBoundingClientRect();
    const ax = a.left + a.width / 2;
    const ay = a.top + a.height / 2;
    let best = null;
    let bestScore = Infinity;
    for (const sq of all) {
      if (sq === from) continue;
      const b = sq.getBoundingClientRect();
      const dx = b.left + b.width / 2 - ax;
      const dy = b.top + b.height / 2 - ay;
      // Along the arrow it must move forward; across it, stay within the same row or column.
      const along = { ArrowRight: dx, ArrowLeft: -dx, ArrowDown: dy, ArrowUp: -dy }[key];
      const across = key === "ArrowRight" || key === "ArrowLeft" ? Math.abs(dy) : Math.abs(dx);
      const size = key === "ArrowRight" || key === "ArrowLeft" ? a.height : a.width;
      if (along <= 1 || across > size / 2) continue;
      const score = along + across * 4;
      if (score < bestScore) { best = sq; bestScore = score; }
    }
    return best;
  }

  page.addEventListener("keydown", (event) => {
    const from = event.target.closest && event.target.closest("#board .square");
    if (!from || !["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) return;
    event.preventDefault();
    const to = neighbour(from, event.key);
    if (to) { setRoving(to); to.focus(); }
  });
  page.addEventListener("focusin", (event) => {
    const sq = event.target.closest && event.target.closest("#board .square");
    if (sq) setRoving(sq);
  });

  page.addEventListener("submit", (event) => {
    if (event.target.id !== "action-form") return;
    event.preventDefault();
    const select = document.getElementById("action-select");
    if (select && select.value) sendMove(JSON.parse(select.value));
  });

  function togglePlan(cell) {
    const panel = document.getElementById("plan-panel");
    const repeats = panel && panel.dataset.repeats === "1";
    const at = picks.indexOf(cell);
    if (!repeats && at >= 0) picks.splice(at, 1);
    else if (picks.length < 3) picks.push(cell);
    else showError("A plan has three squares: clear it or submit it.");
    renderPicks();
  }

  function toggleMark(boardNo, cell) {
    const panel = document.getElementById("marks-panel");
    const need = panel ? parseInt(panel.dataset.need, 10) : 0;
    const at = picks.findIndex((p) => p[0] === boardNo && p[1] === cell);
    if (at >= 0) picks.splice(at, 1);
    else if (picks.length < need) picks.push([boardNo, cell]);
    else showError(`The die says ${need}: unpick a square first.`);
    renderPicks();
  }

  function renderPicks() {
    const planOut = document.getElementById("plan-output");
    if (planOut) {
      document.querySelectorAll(".plan-square").forEach((sq) => {
        const n = parseInt(sq.dataset.cell, 10);
        const order = picks.map((c, i) => (c === n ? i + 1 : 0)).filter(Boolean);
        sq.classList.toggle("picked", order.length > 0);
        sq.dataset.order = order.join(",");
        sq.setAttribute("aria-pressed", order.length ? "true" : "false");
      });
      planOut.textContent = picks.length ? picks.join(", ") : "none yet";
      document.getElementById("plan-submit").disabled = picks.length !== 3;
    }
    const marksOut = document.getElementById("marks-output");
    if (marksOut) {
      const need = parseInt(document.getElementById("marks-panel").dataset.need, 10);
      document.querySelectorAll(".mark-square").forEach((sq) => {
        const on = picks.some((p) => p[0] === +sq.dataset.board && p[1] === +sq.dataset.cell);
        sq.classList.toggle("picked", on);
        sq.setAttribute("aria-pressed", on ? "true" : "false");
      });
      marksOut.textContent = `${picks.length} of ${need} chosen`;
      document.getElementById("marks-submit").disabled = picks.length !== need;
    }
  }

  // -- clocks count down between frames, from the deadlines the server sent -------------
  // A clock run out is flagged by the server's check within 5 s (beat, run by a Celery
  // worker). Should that check be down, both pages waited on a 0:00 for good (a chaos
  // probe: beat killed): a player's page claims the time-out itself once the deadline is
  // CLAIM_AFTER behind, once per deadline; the server decides (docs/protocol.md).
  const CLAIM_AFTER = 6000;
  let claimedFor = null, claiming = false;
  function claimIfOver(deadline, ms) {
    if (page.dataset.seat === "" || ms > -CLAIM_AFTER || claimedFor === deadline) return;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    claimedFor = deadline; claiming = true;
    socket.send(JSON.stringify({ type: "claim-timeout" }));
  }
  function tickClocks() {
    document.querySelectorAll("#board .clock").forEach((clock) => {
      const deadline = clock.dataset.deadline;
      let ms = null;
      if (deadline) { ms = new Date(deadline).getTime() - Date.now(); claimIfOver(deadline, ms); }
      else if (clock.dataset.clockMs) ms = parseInt(clock.dataset.clockMs, 10);
      if (ms === null) return;
      ms = Math.max(0, ms);
      clock.textContent = clockText(ms);
      clock.classList.toggle("low", Boolean(deadline) && ms <= 10000);
    });
  }
  const clockText = window.clockText;
  setInterval(tickClocks, 500);

  afterRender();
  connect();
})();
