// django-celery-beat's periodic task form: the crontab's meaning in words under the
// field (its own inline script, moved here for the Content-Security-Policy).
(function () {
  const $ = django.jQuery;
  const readable = JSON.parse(document.getElementById("readable-crontabs").textContent);
  const help = $(".field-crontab .help");
  const original = help.html();
  $(".field-crontab_translation").hide();
  $(".field-crontab").change(function () {
    const words = readable[$("#id_crontab").val()];
    help.html(original).append("<br>", document.createTextNode("Translation: " + (words || "")));
  });
})();
