// An arena's time left (templates/league/_section_facts.html): the server writes the end
// and the time left at render; this counts it down each second. It counts from the
// render's "left", not the end, so a wrong clock on the device changes nothing; and it
// looks the clock up on every tick, as a live refresh swaps the facts for new ones.
(function () {
  const clockText = window.clockText;
  const seen = new WeakMap();  // each clock element -> when this page first saw it
  function tick() {
    document.querySelectorAll(".countdown[data-left-ms]").forEach((clock) => {
      if (!seen.has(clock)) seen.set(clock, performance.now());
      const left = Number(clock.dataset.leftMs) - (performance.now() - seen.get(clock));
      clock.textContent = clockText(Math.max(0, left));
    });
  }
  tick();
  setInterval(tick, 1000);
})();
