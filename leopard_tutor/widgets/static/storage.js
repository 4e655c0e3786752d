// BrowserStorage front end: keeps one text in the browser's localStorage under the model's "key" (and, kept
// per tab, in the tab's sessionStorage).
// On render it sends back what was kept ({type: "restore", value, tab: whether it is this tab's own, held: whether
// another open tab holds it, and this tab does not take it up, refused: whether the browser refuses to keep
// anything}); whenever Python changes "saved"
// it writes it ("" removes the entry). It draws nothing. A browser that refuses storage (private
// mode, blocked) restores "" and keeps nothing, and the app works on without it.

// read(), write() and keeps() are kept.js's, put before this module (widgets/storage.py: kept_script).

const LIMIT = 20000;  // characters sent back at most (Python refuses more anyway)

// A text kept per tab ("per_tab") is also kept in the tab's sessionStorage, which outlives a reload of this
// tab only: a reload takes up the tab's own text, and a new tab (whose sessionStorage is empty) the text
// the browser's tabs wrote last, which is the tab's own from then on (a reload takes it up again, not what
// another tab wrote since). The tab keeps "" too, so that a tab that kept nothing takes up nothing.
// The text the tabs wrote last is held by the tab that wrote it or took it up (its id, kept in its sessionStorage,
// under the key + "#holder"). A new tab asks that tab over a BroadcastChannel whether it is still open: if it answers
// within HOLDER_WAIT_MS, the new tab takes up nothing ("held"), so that two tabs never play on two copies of one
// match; once the holder is closed, the next new tab takes the text up and holds it.
const HOLDER_WAIT_MS = 400;

function readTab(key) {
  try {
    return window.sessionStorage.getItem(key);
  } catch (refused) {
    return null;
  }
}

function writeTab(key, value) {
  try {
    window.sessionStorage.setItem(key, value);
  } catch (refused) {
    // full or blocked: the tab falls back on what the browser keeps
  }
}

// This tab's id for `key`, the same after a reload (kept in its sessionStorage).
function tabId(key) {
  const made = readTab(`${key}#tab`) || `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  writeTab(`${key}#tab`, made);
  return made;
}

export default {
  render({ model, el }) {
    el.hidden = true;
    const key = model.get("key");
    const perTab = model.get("per_tab");
    const ownKept = perTab ? readTab(key) : null;
    const kept = ownKept === null ? read(key) : ownKept;
    const value = kept.length <= LIMIT ? kept : "";
    const me = perTab ? tabId(key) : "";
    const channel = perTab && "BroadcastChannel" in window ? new BroadcastChannel(key) : null;
    const asked = (event) => {  // another tab asks whether the holder of the text written last is still open
      if (event.data && event.data.ask === me) channel.postMessage({ here: me });
    };
    if (channel) channel.addEventListener("message", asked);
    const restore = (held) => {
      const taken = held ? "" : value;
      if (perTab && ownKept === null) {
        writeTab(key, taken);  // what a new tab took up is its own
        if (taken) write(`${key}#holder`, me);
      }
      model.send({ type: "restore", value, tab: ownKept !== null, held, refused: !keeps() });  // (held: read only)
    };
    const holder = perTab && ownKept === null && value ? read(`${key}#holder`) : "";
    let waiting = null;
    const answered = (event) => {
      if (!event.data || event.data.here !== holder || waiting === null) return;
      clearTimeout(waiting);
      waiting = null;
      restore(true);
    };
    if (channel && holder && holder !== me) {
      channel.addEventListener("message", answered);
      waiting = setTimeout(() => {
        waiting = null;
        restore(false);
      }, HOLDER_WAIT_MS);
      channel.postMessage({ ask: holder });
    } else {
      restore(false);
    }
    const save = () => {
      const saved = model.get("saved");
      write(key, saved);
      if (perTab) {
        writeTab(key, saved);
        if (saved) write(`${key}#holder`, me);
      }
    };
    model.on("change:saved", save);
    return () => {
      model.off("change:saved", save);
      clearTimeout(waiting);
      if (channel) channel.close();
    };
  },
};
