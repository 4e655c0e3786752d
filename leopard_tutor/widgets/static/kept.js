// What the page keeps in the browser's localStorage, read and written so that a browser that refuses
// storage (private mode, blocked, full) keeps nothing and breaks nothing. Put before storage.js and
// language.js, which use these two (widgets/storage.py: kept_script).

function read(key) {
  try {
    return window.localStorage.getItem(key) || "";
  } catch (refused) {
    return "";
  }
}

// Whether the browser keeps what the page writes (a test entry, written and removed): false where it refuses.
function keeps() {
  try {
    window.localStorage.setItem("leopard_tutor.probe", "1");
    window.localStorage.removeItem("leopard_tutor.probe");
    return true;
  } catch (refused) {
    return false;
  }
}

function write(key, value) {
  try {
    if (value) window.localStorage.setItem(key, value);
    else window.localStorage.removeItem(key);
  } catch (refused) {
    // full or blocked: nothing is kept, nothing breaks
  }
}
