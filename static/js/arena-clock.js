// An arena's time left (templates/league/_section_facts.html): the server writes the end
// and the time left at render; this counts it down each second. It counts from the
// render's "left", not the end, so a wrong clock on the device changes nothing; and it
// looks the clock up on every tick, as a live refresh swaps the facts for new ones.
(function () {
  // The same face as games/time_controls.py clock_text: 0:42, 1:02:03, 2d 23:59.
  function clockText(ms) {
    const total = Math.ceil(ms / 1000);
    const two = (n) => String(n).padStart(2, "0");
    const days = Math.floor(total / 86400), hours = Math.floor((total % 86400) / 3600);
    const minutes = Math.floor((total % 3600) / 60), secs = total % 60;
    if (days) return `${days}d ${two(hours)}:${two(minutes)}`;
    if (hours) return `${hours}:${two(minutes)}:${two(secs)}`;
    return `${minutes}:${two(secs)}`;
  }
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
