// BrowserStorage front end: keeps one text in the browser's localStorage under the model's "key", for every tab
// alike, or (per_tab) one text for each tab. It draws nothing.
// On render it sends back what was kept ({type: "restore", value, tab: whether it is this tab's own, held: whether
// another open tab holds it, and this tab does not take it up, refused: whether the browser refuses to keep
// anything}); whenever Python changes "saved" it writes it ("" removes the entry). A browser that refuses storage
// (private mode, blocked) restores "" and keeps nothing, and the app works on without it.

// read(), write() and keeps() are kept.js's, put before this module (widgets/storage.py: kept_script).

const LIMIT = 20000;  // characters sent back at most (Python refuses more anyway)

// Per tab, each tab has an id, kept in its sessionStorage under key + "#tab" (sessionStorage outlives a reload of
// the tab, and only that), and its text is kept twice: in its sessionStorage under the key, and in localStorage
// under key + "#set:" + its id, as {"at": when it was written (ms), "value": the text}. The browser keeps the sets
// of MOST_SETS tabs at most; past that the oldest is dropped.
// - A reload of a tab takes up the tab's own text, from its sessionStorage, while the browser still keeps the tab's
//   set. Where the tab kept a text but its set is gone, another tab took it up (this tab was closed and the browser
//   reopened it with its sessionStorage, or a new tab opened while this one reloaded): the tab then does as a new tab
//   does, so that it takes up nothing while that tab is open.
// - A new tab asks over a BroadcastChannel which of the tabs that kept a set are still open (each open tab answers
//   for its own id; the asker listens for HOLDER_WAIT_MS), and takes up the newest set whose tab did not answer: a
//   closed tab's. It moves that set under its own id (removed from the closed tab's), so that no two tabs take one
//   set up. If every set belongs to an open tab, it takes up nothing and says the newest of them is held elsewhere,
//   for two tabs going on with two copies of one match would answer one move two ways.
// - A tab the browser duplicated has a copy of the other's sessionStorage, its id too: it asks about that id as
//   well, and if a tab answers for it, it takes a fresh id and takes up nothing, its own text being held elsewhere.
// Before per-tab sets, the browser kept one text for all tabs under the key itself and the id of the tab holding it
// under key + "#holder": the first tab that renders moves that text into the set of that tab (written now) and
// removes both entries, so that it is taken up as any other set.
const HOLDER_WAIT_MS = 400;
const MOST_SETS = 6;
const ID_MOST = 40;  // characters of a tab's id (ours have about 20); a longer one is not ours

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

function freshId() {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

// This page's mark, the same for every widget of it: a tab never takes its own answers for another tab's.
function pageMark() {
  if (typeof window.leopardTutorPage !== "string") window.leopardTutorPage = freshId();
  return window.leopardTutorPage;
}

// The sets the browser keeps under `key`, newest first: [{id, at, value}]. An entry that is not such a set (damaged,
// foreign, too long) is removed.
function keptSets(key) {
  const prefix = `${key}#set:`;
  const names = [];
  try {
    for (let i = 0; i < window.localStorage.length; i += 1) names.push(window.localStorage.key(i));
  } catch (refused) {
    return [];
  }
  const sets = [];
  for (const name of names) {
    if (typeof name !== "string" || !name.startsWith(prefix)) continue;
    const id = name.slice(prefix.length);
    let found = null;
    try {
      found = JSON.parse(read(name));
    } catch (damaged) {
      found = null;
    }
    if (found && typeof found === "object" && typeof found.value === "string" && found.value
        && found.value.length <= LIMIT && Number.isFinite(found.at) && id && id.length <= ID_MOST) {
      sets.push({ id, at: found.at, value: found.value });
    } else {
      write(name, "");
    }
  }
  return sets.sort((a, b) => b.at - a.at);
}

// Keep `value` as the set of the tab `id` ("" removes it), moved from the tab `from` if given (its set removed),
// and drop the oldest sets past MOST_SETS.
function keepSet(key, id, value, from = "") {
  if (!value) {
    write(`${key}#set:${id}`, "");
    return;
  }
  write(`${key}#set:${id}`, JSON.stringify({ at: Date.now(), value }));
  if (from) write(`${key}#set:${from}`, "");
  for (const old of keptSets(key).slice(MOST_SETS)) write(`${key}#set:${old.id}`, "");
}

// The one text all tabs kept before per-tab sets, moved into the set of the tab that held it.
function moveOldText(key) {
  const old = read(key);
  const holder = read(`${key}#holder`);
  if (old && old.length <= LIMIT) keepSet(key, holder && holder.length <= ID_MOST ? holder : "before", old);
  if (old) write(key, "");
  if (holder) write(`${key}#holder`, "");
}

// What the browser keeps, told to the kernel; not once the page's kernel is gone (a page left while the other tabs
// were asked, a reload), the one case where sending fails: there is nobody to tell, and the next page is told afresh.
function tell(model, message) {
  try {
    model.send(message);
  } catch {
    // (the kernel is gone)
  }
}

function keepForAll(model, key) {
  const kept = read(key);
  tell(model, { type: "restore", value: kept.length <= LIMIT ? kept : "", tab: false, held: false, refused: !keeps() });
  const save = () => write(key, model.get("saved"));
  model.on("change:saved", save);
  return () => model.off("change:saved", save);
}

function keepPerTab(model, key) {
  moveOldText(key);
  const given = readTab(`${key}#tab`);  // null: a new tab
  const ownKept = readTab(key);  // this tab's text (null: a new tab)
  let me = given && given.length <= ID_MOST ? given : freshId();
  writeTab(`${key}#tab`, me);
  const page = pageMark();
  const asked = new Set([...(me === given ? [me] : []), ...keptSets(key).map((set) => set.id)]);
  const open = new Set();  // the asked ids that an open tab answered for
  const channel = "BroadcastChannel" in window ? new BroadcastChannel(key) : null;
  const heard = (event) => {
    const data = event.data;
    if (!data || typeof data !== "object" || data.page === page) return;
    if (data.ask === me) channel.postMessage({ here: me, page });
    else if (typeof data.here === "string" && asked.has(data.here)) open.add(data.here);
  };
  let waiting = null;
  let unsaved = false;  // "saved" changed before this tab knew which set is its own
  const save = () => {
    if (waiting !== null) {
      unsaved = true;
      return;
    }
    const saved = model.get("saved");
    writeTab(key, saved);
    keepSet(key, me, saved);
  };
  const settle = () => {
    waiting = null;
    const copy = me === given && open.has(given);  // another open tab has this tab's id: this one is its duplicate
    if (copy) {
      me = freshId();
      writeTab(`${key}#tab`, me);
    }
    const all = keptSets(key);
    const sets = all.filter((set) => set.id !== me);
    const taken = ownKept && keeps() && sets.length === all.length;  // this tab's set is gone: another took it up
    const reload = me === given && ownKept !== null && !taken;
    let value = "";
    let held = false;
    if (reload) {
      value = ownKept;
    } else {
      const free = copy ? undefined : sets.find((set) => !open.has(set.id));
      if (free) {  // a closed tab's: this tab's own from now on
        value = free.value;
        keepSet(key, me, value, free.id);
      } else if (copy) {
        const original = sets.find((set) => set.id === given);
        value = ownKept !== null ? ownKept : original ? original.value : "";
      } else {
        value = sets.length ? sets[0].value : "";
      }
      held = !free && value !== "";
      writeTab(key, held ? "" : value);  // a reload of this tab takes up what it took up, or nothing
    }
    value = value.length <= LIMIT ? value : "";
    tell(model, { type: "restore", value, tab: reload, held, refused: !keeps() });
    if (unsaved) save();
  };
  if (channel) channel.addEventListener("message", heard);
  if (channel && asked.size) {
    waiting = setTimeout(settle, HOLDER_WAIT_MS);
    for (const id of asked) channel.postMessage({ ask: id, page });
  } else {
    settle();
  }
  model.on("change:saved", save);
  return () => {
    model.off("change:saved", save);
    clearTimeout(waiting);
    if (channel) channel.close();
  };
}

export default {
  render({ model, el }) {
    el.hidden = true;
    const key = model.get("key");
    return model.get("per_tab") ? keepPerTab(model, key) : keepForAll(model, key);
  },
};
