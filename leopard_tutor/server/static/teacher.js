// The teacher's class page: the students' table (the students seen last, saying how many of how many when not
// every one, sortable, refreshed every 2 s without a reload), the class's defaults, unlocking lessons, watching a
// class table and forgetting the class. Every word comes from the server (the catalogue's "teacher" book); every
// name is put in as text, never as markup.
(() => {
  "use strict";
  const REFRESH_MS = 2000;
  const words = JSON.parse(document.getElementById("lt-texts").textContent);
  const token = new URLSearchParams(location.search).get("token") || "";
  const lang = encodeURIComponent(document.documentElement.lang || "");  // the page's: every answer in it
  const api = (path) => `teacher/api/${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`
    + `&lang=${lang}`;
  const byId = (id) => document.getElementById(id);
  const make = (tag, text, attributes = {}) => {
    const element = document.createElement(tag);
    if (text !== undefined && text !== null) element.textContent = String(text);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    return element;
  };
  const state = {
    sortColumn: 0, ascending: true, columns: [], students: [], watching: null, choicesShown: false, shown: "",
  };

  const say = (message) => { byId("lt-status").textContent = message; };

  async function send(path, body) {
    const reply = await fetch(api(path), {
      method: "POST", cache: "no-store", credentials: "omit",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    if (!reply.ok) {
      const error = new Error(String(reply.status));
      if (reply.status === 503) error.words = (await reply.text()).trim();  // a change the server could not store
      throw error;
    }
    return reply.json();
  }

  function renderNotStored(line) {  // the changes the server could not store since it started, if any
    const notice = byId("lt-not-stored");
    if (notice.textContent !== (line || "")) notice.textContent = line || "";
    notice.hidden = !line;
  }

  function label() {
    document.title = words.title;
    byId("lt-heading").textContent = words.heading;
    byId("lt-students-title").textContent = words.students;
    byId("lt-counted").textContent = words.counted;
    byId("lt-empty").textContent = words.no_students;
    const exporter = byId("lt-export");
    exporter.textContent = words.export;
    exporter.href = api("class.csv");
    byId("lt-unlock-class").textContent = words.unlock_class;
    byId("lt-defaults-title").textContent = words.defaults;
    byId("lt-rules-label").textContent = words.rules;
    byId("lt-level-label").textContent = words.level;
    byId("lt-save").textContent = words.save;
    byId("lt-tables-title").textContent = words.tables;
    byId("lt-forget").textContent = words.forget;
  }

  function compare(a, b) {
    const x = a.cells[state.sortColumn].sort, y = b.cells[state.sortColumn].sort;
    const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return state.ascending ? order : -order;
  }

  function renderHeader() {
    const row = byId("lt-columns");
    row.replaceChildren();
    state.columns.forEach((title, index) => {
      const cell = make("th", null, { scope: "col" });
      cell.setAttribute("aria-sort", index === state.sortColumn ? (state.ascending ? "ascending" : "descending") : "none");
      const button = make("button", title, { type: "button" });
      button.addEventListener("click", () => {
        state.ascending = state.sortColumn === index ? !state.ascending : true;
        state.sortColumn = index;
        renderHeader();
        renderRows();
      });
      cell.append(button);
      row.append(cell);
    });
    row.append(make("th", words.actions, { scope: "col" }));
  }

  function renderRows() {
    const body = byId("lt-rows");
    const rows = [...state.students].sort(compare).map((student) => {
      const row = make("tr", null, { "data-id": student.id });
      student.cells.forEach((cell, index) => {
        const element = make(index === 0 ? "th" : "td", cell.text, index === 0 ? { scope: "row" } : {});
        if (index === 4 && student.away) element.className = "lt-away";
        row.append(element);
      });
      const unlock = make("button", student.unlock_all ? words.unlocked : words.unlock, { type: "button" });
      unlock.disabled = student.unlock_all;
      unlock.addEventListener("click", () => act(() => send("unlock", { visitor: student.id })));
      const actions = make("td");
      actions.append(unlock);
      row.append(actions);
      return row;
    });
    body.replaceChildren(...rows);
    byId("lt-empty").hidden = rows.length > 0;
  }

  function renderChoices(choices, defaults) {
    for (const [id, key] of [["lt-rules", "rules"], ["lt-level", "levels"]]) {
      const menu = byId(id);
      menu.replaceChildren(make("option", words.as_chosen, { value: "" }),
        ...choices[key].map(([value, name]) => make("option", name, { value })));
    }
    byId("lt-rules").value = defaults.rules || "";
    byId("lt-level").value = defaults.level || "";
    state.choicesShown = true;
  }

  function renderTables(tables) {
    const list = byId("lt-tables");
    if (!tables.length) {
      list.replaceChildren(make("li", words.no_tables));
      return;
    }
    list.replaceChildren(...tables.map((table) => {
      const item = make("li", `${table.code}: ${table.names.join(" \u2013 ")} `);
      const watching = state.watching === table.code;
      const button = make("button", watching ? words.stop_watching : words.watch, { type: "button" });
      button.addEventListener("click", () => {
        state.watching = watching ? null : table.code;
        refresh();
      });
      item.append(button);
      return item;
    }));
  }

  function renderWatch(view) {
    const box = byId("lt-watch");
    box.hidden = !view;
    if (!view) {
      box.replaceChildren();
      return;
    }
    const parts = [];
    if (view.gone || view.waiting) parts.push(make("p", view.gone || view.waiting));
    for (const square of view.squares || []) {
      const figure = make("figure");
      figure.append(make("figcaption", square.title));
      const grid = make("div", null, { class: "lt-square" });
      for (const space of square.spaces) {
        const cell = make("div", space.top || String(space.space), { class: space.top ? "lt-space" : "lt-space lt-empty" });
        if (space.pile > 1) cell.append(make("small", `\u00d7${space.pile}`));
        grid.append(cell);
      }
      figure.append(grid);
      parts.push(figure);
    }
    if (view.lines) {
      const list = make("ul");
      list.append(...view.lines.map((line) => make("li", line)));
      parts.push(list);
    }
    box.replaceChildren(...parts);
  }

  let timer = null;
  async function refresh() {
    clearTimeout(timer);
    try {
      const reply = await fetch(api("class"), { cache: "no-store", credentials: "omit" });
      if (!reply.ok) throw new Error(String(reply.status));
      const data = await reply.json();
      if (JSON.stringify(data.columns) !== JSON.stringify(state.columns)) {
        state.columns = data.columns;
        renderHeader();
      }
      const shown = JSON.stringify([data.students, data.shown, data.tables, state.watching]);
      if (state.watching && !data.tables.some((table) => table.code === state.watching)) state.watching = null;
      if (shown !== state.shown) {  // redrawn only on a change, so that a focused button keeps its focus
        state.shown = shown;
        state.students = data.students;
        byId("lt-shown").textContent = data.shown;  // how many of how many, when not every student is shown
        byId("lt-shown").hidden = !data.shown;
        renderRows();
        renderTables(data.tables);
      }
      if (!state.choicesShown) renderChoices(data.choices, data.defaults);
      renderNotStored(data.not_stored);
      let view = null;
      if (state.watching) {
        const watched = await fetch(api(`watch?table=${encodeURIComponent(state.watching)}`),
          { cache: "no-store", credentials: "omit" });
        view = watched.ok ? await watched.json() : null;
      }
      renderWatch(view);
      if (byId("lt-status").dataset.offline) {
        delete byId("lt-status").dataset.offline;
        say("");
      }
    } catch (error) {
      byId("lt-status").dataset.offline = "1";
      say(words.offline);
    }
    timer = setTimeout(refresh, REFRESH_MS);
  }

  async function act(action, done) {
    try {
      await action();
      if (done) say(done);
    } catch (error) {
      say(error.words || words.offline);
    }
    refresh();
  }

  label();
  byId("lt-unlock-class").addEventListener("click", () => act(() => send("unlock", { visitor: "all" })));
  byId("lt-defaults").addEventListener("submit", (event) => {
    event.preventDefault();
    act(() => send("defaults", { rules: byId("lt-rules").value || null, level: byId("lt-level").value || null }),
      words.saved);
  });
  byId("lt-forget").addEventListener("click", () => {
    if (window.confirm(words.forget_confirm)) act(() => send("forget", { confirm: true }), words.forgotten);
  });
  refresh();
})();
