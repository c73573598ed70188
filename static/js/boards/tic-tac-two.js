// Tic Tac Two on the board: choose a held action ("Use Swap"...), then aim it on the
// grid. Every target comes from the server's legal moves (the board template renders
// them); this script only shows the chosen action's targets. Single-pick targets
// (Double, Dibs, Intersect squares; Wall borders; topple and Shift arrows) carry the
// whole move in data-move, which game.js plays. Swap takes two picks: the first square
// is kept here (data-pick, never data-move), then its legal partners carry the move.
// The chosen action and the first pick survive re-renders of the same position.
(function () {
  "use strict";
  if (!window.GamePage) return;

  let aim = "";      // the action being aimed ("" = none: squares write the letter)
  let first = null;  // Swap's first square
  let key = "";      // the position the choice belongs to (ply + whose turn)

  function root(board) { return board.querySelector(".t2"); }

  function squares(board) { return Array.from(board.querySelectorAll(".t2 .square")); }

  function setSquare(sq, move, extra) {
    if (move) sq.dataset.move = move; else delete sq.dataset.move;
    delete sq.dataset.pick;
    if (extra) sq.dataset.pick = "1";
    const usable = Boolean(move) || Boolean(extra);
    if (usable) sq.removeAttribute("aria-disabled"); else sq.setAttribute("aria-disabled", "true");
  }

  function apply(board) {
    const t2 = root(board);
    if (!t2) return;
    const tools = Array.from(t2.querySelectorAll(".t2-tool"));
    if (aim && !tools.some((t) => t.dataset.aim === aim)) { aim = ""; first = null; }
    t2.dataset.aim = aim;
    tools.forEach((t) => t.setAttribute("aria-pressed", t.dataset.aim === aim ? "true" : "false"));
    const cancel = t2.querySelector("#t2-cancel");
    if (cancel) cancel.hidden = !aim;
    const help = t2.querySelector("#t2-aim-help");
    if (help) {
      const tool = tools.find((t) => t.dataset.aim === aim);
      let text = tool ? tool.dataset.help : help.dataset.idle;
      if (aim === "swap" && first !== null) text = `Swap: square ${first} chosen; now choose a highlighted square next to it (Escape or Cancel to go back).`;
      help.textContent = text || "";
    }
    squares(board).forEach((sq) => {
      const n = parseInt(sq.dataset.cell, 10);
      sq.classList.remove("t2-first", "t2-can");
      if (!aim) {
        // Back to writing the letter, as the server rendered it.
        if (sq.dataset.write) setSquare(sq, sq.dataset.write); else setSquare(sq, "");
        return;
      }
      if (aim === "double" || aim === "dibs" || aim === "intersect") {
        setSquare(sq, sq.dataset["t" + aim[0].toUpperCase() + aim.slice(1)] || "");
      } else if (aim === "swap") {
        const partners = (sq.dataset.swap || "").split(" ").filter(Boolean).map(Number);
        if (first === null) setSquare(sq, "", partners.length > 0);
        else if (n === first) { setSquare(sq, "", true); sq.classList.add("t2-first"); }
        else if (partners.includes(first)) {
          setSquare(sq, JSON.stringify({ type: "swap", cells: [Math.min(n, first), Math.max(n, first)] }));
        } else setSquare(sq, "");
      } else {
        setSquare(sq, ""); // Wall, topple, Shift: the targets are on the lines and edges
      }
      if (sq.dataset.move || sq.dataset.pick) sq.classList.add("t2-can");
    });
  }

  function choose(board, action, fromKeyboard) {
    aim = aim === action ? "" : action;
    first = null;
    apply(board);
    if (fromKeyboard && aim) focusFirstTarget(board);
  }

  function focusFirstTarget(board) {
    const target = board.querySelector(".t2 .square.t2-can, .t2 .t2-target");
    const shown = Array.from(board.querySelectorAll(".t2 .square.t2-can, .t2 .t2-target"))
      .find((el) => el.offsetParent !== null);
    (shown || target || board).focus();
  }

  function cancel(board) {
    if (first !== null) first = null; else aim = "";
    apply(board);
    const tool = aim && board.querySelector(`.t2-tool[data-aim="${aim}"]`);
    const back = tool || board.querySelector(".t2-tool");
    if (back) back.focus();
  }

  window.GamePage.onRender((board) => {
    const now = `${board.dataset.ply}|${board.dataset.myTurn}`;
    if (now !== key) { key = now; aim = ""; first = null; }
    apply(board);
  });

  document.addEventListener("click", (event) => {
    const board = document.getElementById("board");
    const el = event.target.closest && event.target.closest("button");
    if (!board || !el || !board.contains(el) || el.getAttribute("aria-disabled") === "true") return;
    if (el.classList.contains("t2-tool")) {
      choose(board, el.dataset.aim, event.detail === 0);
    } else if (el.id === "t2-cancel") {
      cancel(board);
    } else if (el.dataset.pick && aim === "swap") {
      const n = parseInt(el.dataset.cell, 10);
      first = first === n ? null : n;
      apply(board);
    }
  });

  document.addEventListener("keydown", (event) => {
    const board = document.getElementById("board");
    if (event.key !== "Escape" || !board || !aim) return;
    event.preventDefault();
    cancel(board);
  });

  // Hovering or focusing a Shift arrow outlines the row or column it would push.
  function preview(event, on) {
    const el = event.target.closest && event.target.closest(".t2-shift-target");
    if (!el) return;
    el.dataset.squares.split(" ").forEach((n) => {
      const sq = document.getElementById(`sq-${n}`);
      if (sq) sq.classList.toggle("t2-preview", on);
    });
  }
  document.addEventListener("mouseover", (e) => preview(e, true));
  document.addEventListener("mouseout", (e) => preview(e, false));
  document.addEventListener("focusin", (e) => preview(e, true));
  document.addEventListener("focusout", (e) => preview(e, false));
})();
