// Admin forms whose fields depend on a choice (a house-rule set's variant): choosing
// another reloads the form with it. A file rather than an onchange attribute, which the
// Content-Security-Policy refuses (docs/security.md, "Headers and assets").
document.addEventListener("change", (event) => {
  const field = event.target.closest("[data-reload-param]");
  if (field) location.search = new URLSearchParams({[field.dataset.reloadParam]: field.value}).toString();
});
