// T-Tic-T-Tac-Toe's board script (Variant.board_script): the tool bar, each tool's
// targets on the board, the two picks of a straight Berlin Wall, a super's 2x2 preview,
// and the keyboard among targets. The server renders every target from the legal moves
// (games/rules/variants/t_tic_t_tac_toe/board.py); a target with data-move is played by
// game.js, so this script only chooses which targets show and builds the two-pick walls.
(function () {
  "use strict";
  if (!window.GamePage) return;

  const HINTS = {
    place: "", // the board's own (data-place): it names another action only where one is offered
    curtain: "Pick a line of the grid: the Iron Curtain covers all of it.",
    wall: "Pick a square to wall in on all four sides, or a side on a line, then the side next to it in a straight line.",
    wallSecond: "Now pick the side next to it in a straight line (highlighted). Esc or the first side again to cancel.",
    super: "Pick the corner the 2x2 block's four squares share: hover or focus shows the block it gooshes.",
    checkpoint: "Pick the blockage to protect for two more full turns.",
    destroy: "Pick the blockage to destroy: wire cutters for an Iron Curtain, Ronald Reagan for a Berlin Wall.",
  };

  const TOUCH = window.matchMedia("(hover: none)");
  const TOUCH_HINT = "On a touch screen: tap a target once to see it, then again to play it.";

  // The script's state survives re-renders of #board (every socket update swaps it).
  let tool = "place";
  let firstPick = null; // the first side of a straight wall, "8|13"
  let rovingKey = null; // the last target focused in the chosen tool

  function boardEl() { return document.getElementById("board"); }
  function root() { return document.getElementById("ttt-board"); }

  // Keep the stylesheet in <head>: the board's own <link> is swapped with every update.
  function keepStylesheet(board) {
    const link = board.querySelector("link[data-ttt-css]");
    if (link && !document.head.querySelector("link[data-ttt-css]")) document.head.appendChild(link.cloneNode());
  }

  function toolsAvailable() {
    return Array.from(document.querySelectorAll("#ttt-tools [data-tool]")).map((b) => b.dataset.tool);
  }

  function layer() { return document.querySelector(`#ttt-board .ttt-layer[data-layer="${tool}"]`); }
  function targets() {
    const l = layer();
    return l ? Array.from(l.querySelectorAll(".ttt-target")).filter((t) => t.offsetParent !== null) : [];
  }
  function keyOf(target) { return target.dataset.move || target.dataset.segment || ""; }

  function render(board) {
    keepStylesheet(board);
    const r = root();
    if (!r) return;
    if (board.dataset.myTurn !== "1" || !toolsAvailable().includes(tool)) { tool = "place"; firstPick = null; }
    armed = null;
    if (firstPick && !r.querySelector(`.ttt-layer[data-layer="wall"] [data-segment="${firstPick}"]`)) firstPick = null;
    apply(false);
  }

  function apply(announce) {
    const r = root();
    if (!r) return;
    r.dataset.tool = tool;
    document.querySelectorAll("#ttt-tools [data-tool]").forEach((b) => {
      b.setAttribute("aria-pressed", b.dataset.tool === tool ? "true" : "false");
    });
    r.querySelectorAll(".ttt-layer").forEach((l) => { l.hidden = l.dataset.layer !== tool; });
    // Squares play "place" only while that tool is chosen.
    r.querySelectorAll(".square").forEach((sq) => {
      if (!("tttWas" in sq.dataset)) sq.dataset.tttWas = sq.getAttribute("aria-disabled") || "";
      if (tool === "place") {
        if (sq.dataset.tttWas) sq.setAttribute("aria-disabled", sq.dataset.tttWas);
        else sq.removeAttribute("aria-disabled");
      } else {
        sq.setAttribute("aria-disabled", "true");
      }
    });
    renderPicks();
    const hint = document.getElementById("ttt-hint");
    if (hint) {
      const text = tool === "place" ? hint.dataset.place : HINTS[tool === "wall" && firstPick ? "wallSecond" : tool];
      // A finger has no hover: say at once that a target takes two taps (see "touch" below).
      hint.textContent = tool !== "place" && TOUCH.matches ? `${text} ${TOUCH_HINT}` : text;
    }
    setRoving(null);
    if (announce) {
      const first = targets().find((t) => t.tabIndex === 0);
      if (first && tool !== "place") first.focus();
    }
  }

  // -- a straight Berlin Wall: two picks, the second among the first's partners ----------
  function renderPicks() {
    const wall = document.querySelector('#ttt-board .ttt-layer[data-layer="wall"]');
    if (!wall) return;
    const segs = Array.from(wall.querySelectorAll(".seg"));
    const first = firstPick && segs.find((s) => s.dataset.segment === firstPick);
    const partners = first ? JSON.parse(first.dataset.partners) : {};
    wall.classList.toggle("picking", Boolean(first));
    segs.forEach((s) => {
      s.classList.toggle("picked", s === first);
      s.classList.toggle("partner", Boolean(first) && s.dataset.segment in partners);
      s.setAttribute("aria-pressed", s === first ? "true" : "false");
    });
  }

  function pickSegment(seg) {
    if (!firstPick) { firstPick = seg.dataset.segment; rovingKey = firstPick; apply(false); seg.focus(); return; }
    if (seg.dataset.segment === firstPick) { firstPick = null; apply(false); seg.focus(); return; }
    const first = document.querySelector(`#ttt-board [data-segment="${firstPick}"]`);
    const move = first && JSON.parse(first.dataset.partners)[seg.dataset.segment];
    if (!move) { window.GamePage.showError("A Berlin Wall's two sides are next to each other on one line."); return; }
    firstPick = null;
    window.GamePage.sendMove(move);
  }

  // -- a super: hover or focus shows what it would goosh (and, in 2.0, write) ------------
  function preview(point, on) {
    const mine = boardEl() && boardEl().querySelector(".player.to-move .letter");
    const letter = mine ? mine.textContent.trim() : "";
    const split = (s) => (s ? s.split(" ") : []);
    split(point.dataset.goosh).forEach((n) => {
      const sq = document.getElementById(`sq-${n}`);
      if (sq) sq.classList.toggle("would-goosh", on);
    });
    split(point.dataset.fill).forEach((n) => {
      const sq = document.getElementById(`sq-${n}`);
      if (!sq) return;
      if (on && letter) sq.dataset.preview = letter; else delete sq.dataset.preview;
    });
  }

  // -- touch: the first tap shows what would be placed, the second places it ------------
  // A finger has no hover, and a curtain, a wall or a super is once per game: a tap on a
  // target arms it (drawn as on hover, the hint says so), a second tap on it plays it.
  let lastPointer = "mouse";
  let armed = null;
  document.addEventListener("pointerdown", (event) => { lastPointer = event.pointerType || "mouse"; }, true);
  document.addEventListener("click", (event) => {
    const target = event.target.closest && event.target.closest("#ttt-board .ttt-target[data-move]");
    // event.detail is 0 for Enter or Space: the keyboard's focus already showed it.
    if (!target || lastPointer !== "touch" || event.detail === 0 || keyOf(target) === armed) { armed = null; return; }
    event.preventDefault();
    event.stopPropagation(); // game.js would play it
    armed = keyOf(target);
    document.querySelectorAll("#ttt-board .ttt-target.armed").forEach((t) => t.classList.remove("armed"));
    target.classList.add("armed");
    target.focus();
    const hint = document.getElementById("ttt-hint");
    if (hint) hint.textContent = `${target.getAttribute("aria-label")}: tap it again to play it, or tap another.`;
  }, true);

  // -- events --------------------------------------------------------------------------
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button");
    if (!button || !document.getElementById("board") || !boardEl().contains(button)) return;
    if (button.matches("#ttt-tools [data-tool]")) {
      tool = button.dataset.tool;
      firstPick = null;
      armed = null;
      rovingKey = null;
      // Chosen by the keyboard (a click with no pointer): go on to the tool's targets.
      apply(event.detail === 0);
    } else if (button.matches(".ttt-target.seg")) {
      pickSegment(button);
    }
  });

  ["mouseover", "focusin"].forEach((type) => document.addEventListener(type, (event) => {
    const point = event.target.closest && event.target.closest(".ttt-target.point");
    if (point) preview(point, true);
  }));
  ["mouseout", "focusout"].forEach((type) => document.addEventListener(type, (event) => {
    const point = event.target.closest && event.target.closest(".ttt-target.point");
    if (point) preview(point, false);
  }));

  // The targets of the chosen tool are one tab stop (a roving tabindex); the arrow keys
  // go to the nearest target in their direction, Home and End to the first and last,
  // Esc drops a wall's first pick, then goes back to placing a letter.
  function setRoving(target) {
    const all = targets();
    document.querySelectorAll("#ttt-board .ttt-target").forEach((t) => { t.tabIndex = -1; });
    if (!all.length) return;
    const chosen = target || all.find((t) => keyOf(t) === rovingKey) || all[0];
    chosen.tabIndex = 0;
    rovingKey = keyOf(chosen);
  }

  function centre(el) {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  function neighbour(from, key) {
    const all = targets();
    if (key === "Home") return all[0];
    if (key === "End") return all[all.length - 1];
    const a = centre(from);
    let best = null;
    let bestScore = Infinity;
    for (const t of all) {
      if (t === from) continue;
      const b = centre(t);
      const dx = b.x - a.x, dy = b.y - a.y;
      const along = { ArrowRight: dx, ArrowLeft: -dx, ArrowDown: dy, ArrowUp: -dy }[key];
      const across = key === "ArrowRight" || key === "ArrowLeft" ? Math.abs(dy) : Math.abs(dx);
      if (along <= 1) continue;
      const score = along + across * 2;
      if (score < bestScore) { best = t; bestScore = score; }
    }
    return best;
  }

  document.addEventListener("keydown", (event) => {
    const target = event.target.closest && event.target.closest("#ttt-board .ttt-target");
    if (event.key === "Escape" && (target || event.target.closest && event.target.closest("#ttt-tools"))) {
      event.preventDefault();
      if (firstPick) { firstPick = null; apply(false); const t = targets().find((x) => x.tabIndex === 0); if (t) t.focus(); }
      else if (tool !== "place") { tool = "place"; apply(false); const b = document.getElementById("tool-place"); if (b) b.focus(); }
      return;
    }
    if (!target || !["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) return;
    event.preventDefault();
    const to = neighbour(target, event.key);
    if (to) { setRoving(to); to.focus(); }
  });

  document.addEventListener("focusin", (event) => {
    const target = event.target.closest && event.target.closest("#ttt-board .ttt-target");
    if (target) setRoving(target);
  });

  window.GamePage.onRender(render);
})();
