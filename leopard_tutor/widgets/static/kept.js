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

function write(key, value) {
  try {
    if (value) window.localStorage.setItem(key, value);
    else window.localStorage.removeItem(key);
  } catch (refused) {
    // full or blocked: nothing is kept, nothing breaks
  }
}
