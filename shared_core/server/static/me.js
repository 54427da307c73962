// Progressive enhancement only: every control works without this script.
// The erase button stays disabled until the confirmation word is typed.
document.addEventListener("DOMContentLoaded", function () {
  var input = document.getElementById("confirm");
  var button = document.getElementById("erase-submit");
  if (!input || !button) return;
  var word = (input.getAttribute("data-word") || "ERASE").toUpperCase();
  function sync() { button.disabled = input.value.trim().toUpperCase() !== word; }
  input.addEventListener("input", sync);
  sync();
});
