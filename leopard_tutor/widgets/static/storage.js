// BrowserStorage front end: keeps one text in the browser's localStorage under the model's "key" (and, kept
// per tab, in the tab's sessionStorage).
// On render it sends back what was kept ({type: "restore", value, tab: whether it is this tab's own, refused:
// whether the browser refuses to keep anything}); whenever
// Python changes "saved"
// it writes it ("" removes the entry). It draws nothing. A browser that refuses storage (private
// mode, blocked) restores "" and keeps nothing, and the app works on without it.

// read(), write() and keeps() are kept.js's, put before this module (widgets/storage.py: kept_script).

const LIMIT = 20000;  // characters sent back at most (Python refuses more anyway)

// A text kept per tab ("per_tab") is also kept in the tab's sessionStorage, which outlives a reload of this
// tab only: a reload takes up the tab's own text, and a new tab (whose sessionStorage is empty) the text
// the browser's tabs wrote last, which is the tab's own from then on (a reload takes it up again, not what
// another tab wrote since). The tab keeps "" too, so that a tab that kept nothing takes up nothing.

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

export default {
  render({ model, el }) {
    el.hidden = true;
    const key = model.get("key");
    const perTab = model.get("per_tab");
    const ownKept = perTab ? readTab(key) : null;
    const kept = ownKept === null ? read(key) : ownKept;
    const value = kept.length <= LIMIT ? kept : "";
    if (perTab && ownKept === null) writeTab(key, value);  // what a new tab took up is its own
    model.send({ type: "restore", value, tab: ownKept !== null, refused: !keeps() });
    const save = () => {
      write(key, model.get("saved"));
      if (perTab) writeTab(key, model.get("saved"));
    };
    model.on("change:saved", save);
    return () => model.off("change:saved", save);
  },
};
