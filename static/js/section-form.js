// The section form: choosing another format fetches that format's settings (a fieldset
// rendered from its declared settings) in place of the shown one. Only on a real change:
// choosing the format already shown keeps what was typed in its fields.
(function () {
  const select = document.querySelector("select[name=format][data-settings-url]");
  if (!select) return;
  select.addEventListener("change", () => {
    const shown = document.getElementById("format-settings");
    if (!window.htmx || !shown || shown.dataset.format === select.value) return;
    const url = `${select.dataset.settingsUrl}?format=${encodeURIComponent(select.value)}`;
    window.htmx.ajax("GET", url, { target: "#format-settings", swap: "outerHTML" });
  });
})();
