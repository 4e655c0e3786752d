// BrowserStorage front end: keeps one text in the browser's localStorage under the model's "key".
// On render it sends back what was kept ({type: "restore", value}); whenever Python changes "saved"
// it writes it ("" removes the entry). It draws nothing. A browser that refuses storage (private
// mode, blocked) restores "" and keeps nothing, and the app works on without it.

// read() and write() are kept.js's, put before this module (widgets/storage.py: kept_script).

const LIMIT = 20000;  // characters sent back at most (Python refuses more anyway)

export default {
  render({ model, el }) {
    el.hidden = true;
    const key = model.get("key");
    const kept = read(key);
    model.send({ type: "restore", value: kept.length <= LIMIT ? kept : "" });
    const save = () => write(key, model.get("saved"));
    model.on("change:saved", save);
    return () => model.off("change:saved", save);
  },
};
