// The teacher's class page: the students' table (the students seen last, saying how many of how many when not
// every one, sorted by name until a column's header is pressed, refreshed every 2 s without a reload; in the
// Lessons column a cell per stage with its stars and a "stuck" badge, when the report has them), the standings
// (today or all time, when the report has them), pairing the class for a round (its rules and match length; the
// button says "Next round" once a round was paired; "End the round" ends its tables still in play), the class's
// defaults, unlocking lessons, watching a class table (drawn with the board's own drawing of a space and a card:
// cards.js, loaded before this script), ending one, and forgetting the class (each ending asked for confirmation).
// Every word comes from the server (the catalogue's "teacher" book); every name is put in as text, never as markup.
// The page is light or dark as its address asks, else as the server's --theme says (the server's data-theme on the
// html), else as the browser prefers, and tells board.css so as the app's page does. How students join is
// teacher_join.js's.
(() => {
  "use strict";
  const REFRESH_MS = 2000;
  const words = JSON.parse(document.getElementById("lt-texts").textContent);
  // The token, from this script's own address (the page's may no longer hold it: a reload by the page's cookie);
  // then out of the page's address, which a projector shows to the class
  const token = new URL(document.currentScript.src).searchParams.get("token") || "";
  const shown = new URL(location.href);
  if (shown.searchParams.has("token")) {
    shown.searchParams.delete("token");
    history.replaceState(history.state, "", shown.pathname + shown.search + shown.hash);
  }
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
    sortColumn: 0, ascending: true, columns: [], columnKeys: [], students: [], watching: null, choicesShown: false, shown: "",
    period: "today", standings: null, watched: "", pairShown: false, closed: null, round: null,
    saidOf: undefined,  // the class (its students' ids) the answer on show speaks of: null until the next refresh
    bringIntoView: false,  // Watch was pressed: its row is scrolled into sight once its board is drawn
  };
  const ANSWERED = new Set(["pair", "end", "end_round"]);  // requests whose refusal (HTTP 400) says why, in words

  const dark = window.matchMedia("(prefers-color-scheme: dark)");
  const fixed = document.documentElement.dataset.theme;  // "light" or "dark" if the address or server chose, or "auto"
  const followScheme = () => {
    const isDark = fixed === "dark" || (fixed !== "light" && dark.matches);
    document.body.dataset.jpThemeLight = isDark ? "false" : "true";
  };

  // The answer to what the teacher did, in the header's live region, and again for the eye beside the control
  // pressed (`near`, the id of its .lt-cp-said), which may be a screen's height below the header. It is news for
  // NEWS_MS, then goes (a projected "Table NAFZ has ended" stayed until the teacher's next action): long enough to
  // be read from the back of a room, and by then the page's own parts show what it did (the table under "Closed",
  // the round, the lessons unlocked), refreshed every 2 s. It goes sooner if another answer takes its place, or once
  // the class it speaks of changes (`refresh`). The line saying the server does not answer is no news: it stays
  // while that holds, and goes once the server answers again.
  const NEWS_MS = 20000;
  let newsTimer = null;
  const say = (message, near) => {
    clearTimeout(newsTimer);
    byId("lt-status").textContent = message;
    for (const note of document.querySelectorAll(".lt-cp-said")) note.textContent = note.id === near ? message : "";
    if (message && !byId("lt-status").dataset.offline) {
      newsTimer = setTimeout(() => {
        state.saidOf = undefined;
        say("");
      }, NEWS_MS);
    }
  };

  async function send(path, body) {
    const reply = await fetch(api(path), {
      method: "POST", cache: "no-store", credentials: "omit",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    if (!reply.ok) {
      const error = new Error(String(reply.status));
      if (reply.status === 503) error.words = (await reply.text()).trim();  // a change the server could not store
      if (reply.status === 400 && ANSWERED.has(path)) error.words = (await reply.json()).said;  // why nothing was done
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
    byId("lt-export").textContent = words.export;
    byId("lt-unlock-class").textContent = words.unlock_class;
    byId("lt-defaults-title").textContent = words.defaults;
    byId("lt-rules-label").textContent = words.rules;
    byId("lt-level-label").textContent = words.level;
    byId("lt-save").textContent = words.save;
    byId("lt-tables-title").textContent = words.tables;
    byId("lt-standings-title").textContent = words.standings;
    byId("lt-standings-today").textContent = words.today;
    byId("lt-standings-all").textContent = words.all_time;
    byId("lt-forget").textContent = words.forget;
    byId("lt-rounds-title").textContent = words.rounds;
    byId("lt-rounds-help").textContent = words.rounds_help;
    // links to the parts under the students (a long class pushes them screens down), for a page projected
    byId("lt-parts").setAttribute("aria-label", words.parts);
    for (const [id, title] of [["lt-to-standings", "standings"], ["lt-to-rounds", "rounds"], ["lt-to-tables", "tables"]]) {
      byId(id).textContent = words[title];
    }
    byId("lt-pair-rules-label").textContent = words.rules;
    byId("lt-pair-length-label").textContent = words.length;
    byId("lt-end-round").textContent = words.end_round;
  }

  // Two cells' sort values in order: numbers by size, words as the page's language orders them, and a list (a group
  // first: "Now" puts the students away after every tab) part by part
  function order(x, y) {
    if (Array.isArray(x) && Array.isArray(y)) {
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const found = order(x[i], y[i]);
        if (found) return found;
      }
      return x.length - y.length;
    }
    return typeof x === "number" && typeof y === "number" ? x - y
      : String(x).localeCompare(String(y), document.documentElement.lang || undefined, { sensitivity: "base", numeric: true });
  }

  function compare(a, b) {
    const found = order(a.cells[state.sortColumn].sort, b.cells[state.sortColumn].sort);
    return state.ascending ? found : -found;
  }

  // A part drawn anew (every refresh, every 2 s in a live class) keeps the keyboard where it was: the control in
  // focus there is found again by its data-focus key (a header's sort by its column, a row's Unlock by its student,
  // a table's Watch by its code)
  function redraw(container, parts) {
    const focused = container.contains(document.activeElement) ? document.activeElement.dataset.focus : undefined;
    container.replaceChildren(...parts);
    const again = focused && [...container.querySelectorAll("[data-focus]")].find((el) => el.dataset.focus === focused);
    if (again) again.focus();
  }

  function renderHeader() {
    const row = byId("lt-columns");
    const cells = state.columns.map((title, index) => {
      const cell = make("th", null, { scope: "col" });
      cell.setAttribute("aria-sort", index === state.sortColumn ? (state.ascending ? "ascending" : "descending") : "none");
      const button = make("button", title, { type: "button", "data-focus": `sort-${index}` });
      button.addEventListener("click", () => {
        state.ascending = state.sortColumn === index ? !state.ascending : true;
        state.sortColumn = index;
        renderHeader();
        renderRows();
        // said to a screen reader (the focus stays on the button, its column's name, so the new aria-sort would not be
        // read), not to the eye: the header's words about what was done last stay as they were
        byId("lt-sorted").textContent = state.ascending ? words.sorted : words.sorted_reverse;
      });
      cell.append(button);
      return cell;
    });
    redraw(row, [...cells, make("th", words.actions, { scope: "col" })]);
  }

  function renderRows() {
    const body = byId("lt-rows");
    const rows = [...state.students].sort(compare).map((student) => {
      const row = make("tr", null, { "data-id": student.id });
      student.cells.forEach((cell, index) => {
        const key = state.columnKeys[index];  // the server's column keys (students.COLUMNS), in its order
        const when = key === "last_seen" && / /.test(cell.text) && !cell.short;
        const shown = key === "last_seen" && cell.short ? cell.short : cell.text;  // today's: the time alone
        const element = make(index === 0 ? "th" : "td", when ? null : shown, index === 0 ? { scope: "row" } : {});
        if (key === "now") element.className = student.away ? "lt-cp-now lt-cp-away" : "lt-cp-now";
        if (when) {  // "2026-03-14 09:05": the date never broken inside, the time beside it or under it
          const [date, ...time] = cell.text.split(" ");
          element.className = "lt-cp-when";
          element.append(make("span", date, { class: "lt-cp-nowrap" }), ` ${time.join(" ")}`);
        }
        if (key === "lessons") {
          element.className = "lt-cp-lessons";
          element.append(...stagesOf(student));
        }
        row.append(element);
      });
      const unlock = make("button", student.unlock_all ? words.unlocked : words.unlock,
        { type: "button", class: "lt-button", "data-focus": `unlock-${student.id}`,
          "aria-label": student.unlock_all ? student.labels.unlocked : student.labels.unlock });
      unlock.disabled = student.unlock_all;
      unlock.addEventListener("click", () => act(async () => (await send("unlock", { visitor: student.id })).said));
      const actions = make("td");
      actions.append(unlock);
      row.append(actions);
      return row;
    });
    redraw(body, rows);
    byId("lt-empty").hidden = rows.length > 0;
  }

  // A student's stages (a small cell each, the number of its stars inside, its colour deeper with each) and a
  // "stuck" badge, when the report has them.
  function stagesOf(student) {
    const parts = [];
    if (student.stuck) {
      const badge = make("div");
      badge.append(make("span", student.stuck.text, { class: "lt-cp-stuck" }));
      parts.push(badge);
    }
    if (Array.isArray(student.stages) && student.stages.length) {
      const stuckOn = student.stuck ? student.stuck.stage : null;
      const label = (stage) => `${words.stage} ${stage.stage}: ${stage.title}, ${stage.stars}/3 ${words.stars}`;
      const cells = make("div", null, { class: "lt-cp-stages", role: "list" });
      cells.append(...student.stages.map((stage) => make("span", stage.stars ? String(stage.stars) : "\u00b7", {
        class: stage.stage === stuckOn ? "lt-cp-stage lt-cp-stuck-here" : "lt-cp-stage", role: "listitem",
        "data-stars": String(stage.stars), title: label(stage), "aria-label": label(stage),
      })));
      parts.push(cells);
    }
    return parts;
  }

  function renderStandings(standings) {
    byId("lt-standings").hidden = !standings;
    byId("lt-to-standings").hidden = !standings;
    if (!standings) return;
    for (const [id, period] of [["lt-standings-today", "today"], ["lt-standings-all", "all"]]) {
      byId(id).setAttribute("aria-pressed", String(state.period === period));
    }
    const keys = Object.keys(standings.columns);  // a standings row's keys, in the server's order
    byId("lt-standings-columns").replaceChildren(...keys.map((key) =>
      make("th", standings.columns[key], { scope: "col", class: key === "name" ? "" : "lt-cp-number" })));
    const rows = standings[state.period] || [];
    // no rows: a sentence says so instead of an empty table (none today, or none at all)
    byId("lt-standings-table").hidden = !rows.length;
    byId("lt-standings-none").hidden = Boolean(rows.length);
    byId("lt-standings-none").textContent = state.period === "today" ? words.no_standings_today : words.no_standings;
    byId("lt-standings-rows").replaceChildren(...rows.map((row) => {
      const line = make("tr");
      line.append(...keys.map((key) => key === "name" ? make("th", row.name, { scope: "row" })
        : make("td", row[key], { class: "lt-cp-number" })));
      return line;
    }));
    byId("lt-standings-counts").textContent = standings.counts || "";
  }

  function choosePeriod(period) {
    state.period = period;
    renderStandings(state.standings);
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

  // The round paired last, and the button that pairs the next ("Pair the class" before the first round); the
  // menus are filled once (the last round's rules and length, else the class's default rules and one hand: a page
  // reloaded goes on as the class was paired), then left as the teacher sets them, until a round is paired (here or
  // on the teacher's other page: the projector's and the desk's menus then agree on the round the class plays).
  function renderRound(round, choices, defaults) {
    if (!state.pairShown) {
      byId("lt-pair-rules").replaceChildren(...choices.rules.map(([value, name]) => make("option", name, { value })));
      byId("lt-pair-length").replaceChildren(...round.lengths.map(([hands, name]) =>
        make("option", name, { value: String(hands) })));
    }
    if (!state.pairShown || round.number !== state.round.number) {
      byId("lt-pair-rules").value = round.rules || defaults.rules || choices.rules[0][0];
      byId("lt-pair-length").value = String(round.hands || round.lengths[0][0]);
      state.pairShown = true;
    }
    const label = round.number ? words.next_round : words.pair;
    if (byId("lt-pair-button").textContent !== label) byId("lt-pair-button").textContent = label;
    // greyed with its reason beside it while the next round cannot be paired (the keyboard still reaches it, and a
    // press says why); the server refuses it all the same, should the class change between two refreshes
    if (round.refused) byId("lt-pair-button").setAttribute("aria-disabled", "true");
    else byId("lt-pair-button").removeAttribute("aria-disabled");
    if (byId("lt-pair-why").textContent !== round.refused) byId("lt-pair-why").textContent = round.refused;
    if (byId("lt-round").textContent !== round.said) byId("lt-round").textContent = round.said;
    state.round = round;
    byId("lt-end-round").hidden = !round.in_play;  // only while a table of the round paired last is in play
  }

  // "Unlock all lessons for the class" greyed with its reason beside it once the whole class is unlocked (a student
  // who comes later is too): pressed again it only said nothing was unlocked
  function renderUnlocked(done) {
    const button = byId("lt-unlock-class");
    if (done) button.setAttribute("aria-disabled", "true");
    else button.removeAttribute("aria-disabled");
    if (byId("lt-unlock-why").textContent !== done) byId("lt-unlock-why").textContent = done;
    state.unlockedClass = done;
  }

  // The watched table is drawn in its own row, under its names and buttons (below the whole list, it opened out of
  // sight on a class's long list); with none watched its box waits, hidden, after the list.
  const watchBox = byId("lt-watch");
  window.addEventListener("resize", () => levelHeads(watchBox));  // (where a head wraps follows the width)

  function renderTables(tables) {
    const list = byId("lt-tables");
    list.after(watchBox);
    if (!tables.length) {
      list.replaceChildren(make("li", words.no_tables));
      return;
    }
    redraw(list, tables.map((table) => {
      const item = make("li", `${table.code}: ${table.names.join(" \u2013 ")} ${table.note ? `\u2014 ${table.note} ` : ""}`);
      const watching = state.watching === table.code;
      const button = make("button", watching ? words.stop_watching : words.watch,
        { type: "button", class: watching ? "lt-button" : "lt-button lt-primary", "aria-pressed": String(watching),
          "data-focus": `watch-${table.code}` });
      button.addEventListener("click", () => {
        state.watching = watching ? null : table.code;
        state.bringIntoView = !watching;  // (once the board is drawn: `renderWatch`)
        refresh();
      });
      button.setAttribute("aria-label", watching ? table.labels.stop_watching : table.labels.watch);
      const end = make("button", words.end_table, { type: "button", class: "lt-button lt-cp-danger",
        "aria-label": table.labels.end, "data-focus": `end-${table.code}` });
      end.addEventListener("click", () => {
        if (window.confirm(table.end_confirm)) {
          act(async () => (await send("end", { table: table.code })).said, "lt-tables-said");
        }
      });
      item.append(button, end);
      if (watching) item.append(watchBox);
      return item;
    }));
  }

  // The class tables closed lately: each with how it closed and how it counts (the server's words).
  function renderClosed(closed) {
    byId("lt-closed-title").textContent = closed.title;
    byId("lt-closed").replaceChildren(...(closed.tables.length
      ? closed.tables.map((table) => make("li", `${table.code}: ${table.names.join(" \u2013 ")} \u2014 ${table.said}`))
      : [make("li", closed.none)]));
  }

  // The watched table as the board draws it (board.css's classes, cards.js's spaces and cards): both squares, the
  // stock and the discard pile; then how many cards each hand holds and the scores, in words.
  function pile(part, kind, card) {
    return h("div", { class: `lt-pile ${kind}`, role: "img", "aria-label": part.contents ? `${part.name}: ${part.contents}`
      : part.caption }, [card, h("span", { class: "lt-caption", "aria-hidden": "true", text: part.caption })]);
  }
  function tableView(view) {
    const square = (part) => h("section", { class: "lt-square", "data-side": part.side }, [
      h("div", { class: "lt-square-head" }, h("span", { class: "lt-value", text: part.title })),
      h("div", { class: "lt-grid-wrap" }, h("div", { class: "lt-grid", role: "group", "aria-label": part.label },
        part.cells.map((cell) => h("div", { class: cell.card || cell.face_down ? "lt-space" : "lt-space lt-empty",
                                            role: "img", "aria-label": cell.name }, spaceContents(cell))))),
    ]);
    const none = () => h("span", { class: "lt-card lt-none", "aria-hidden": "true" });
    const side = h("div", { class: "lt-side" }, [
      pile(view.stock, "lt-stock", view.stock.count ? cardBack(null) : none()),
      pile(view.discard, "lt-discard", view.discard.top ? cardFace(view.discard.top) : none()),
    ]);
    return h("div", { class: "lt-board lt-cp-board" },
      h("div", { class: "lt-table" }, [square(view.squares[0]), side, square(view.squares[1])]));
  }

  function renderWatch(view) {
    const box = watchBox;
    const shown = JSON.stringify(view);
    if (shown === state.watched) return;  // redrawn only on a change
    state.watched = shown;
    box.hidden = !view;
    if (!view) {
      box.replaceChildren();
      return;
    }
    const parts = [];
    if (view.gone || view.waiting) parts.push(make("p", view.gone || view.waiting));
    if (view.squares) parts.push(tableView(view));
    if (view.lines) {
      const list = make("ul", null, { class: "lt-cp-lines" });
      list.append(...view.lines.map((line) => make("li", line)));
      parts.push(list);
    }
    box.replaceChildren(...parts);
    levelHeads(box);  // (cards.js: a long name's head wrapped, and its square stood lower than the other)
    if (state.bringIntoView && view.squares) {
      // Watch pressed: its row, the board drawn under its buttons, scrolled into sight only as far as it must be
      // (a row lower in a long list of tables would draw its board below the screen's edge)
      state.bringIntoView = false;
      box.closest("li").scrollIntoView({ block: "nearest" });
    }
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
        state.columnKeys = data.column_keys;
        renderHeader();
      }
      // the answer to what the teacher did stays while the class it speaks of does: once a student comes or goes
      // it may no longer hold ("Nobody is here to pair" stayed on a projected page as four students arrived)
      const roster = data.students.map((student) => student.id).join(" ");
      if (state.saidOf === null) state.saidOf = roster;
      else if (state.saidOf !== undefined && state.saidOf !== roster) {
        state.saidOf = undefined;
        say("");
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
      renderRound(data.round, data.choices, data.defaults);
      renderUnlocked(data.unlocked_class || "");
      if (JSON.stringify(data.closed) !== JSON.stringify(state.closed)) {
        state.closed = data.closed;
        renderClosed(data.closed);
      }
      if (JSON.stringify(data.standings || null) !== JSON.stringify(state.standings)) {
        state.standings = data.standings || null;
        renderStandings(state.standings);
      }
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

  // Do what the teacher asked (`action` gives what it did, in words) and say so, beside the control pressed if
  // `near` names its .lt-cp-said; a refusal is said there too. With `ofWhoIsHere` (pairing a round: its answer may
  // say who is here, "Nobody is here to pair"), the words go once a student comes or goes; the others' (a student's
  // lessons unlocked, the defaults saved) stay true as students come and go, and stay for NEWS_MS.
  async function act(action, near, ofWhoIsHere = false) {
    try {
      const done = await action();
      if (done) say(done, near);
    } catch (error) {
      say(error.words || words.offline, near);
    }
    state.saidOf = ofWhoIsHere ? null : undefined;
    refresh();
  }

  followScheme();
  dark.addEventListener("change", followScheme);
  label();
  // The CSV is fetched by a link made for the click alone: a link kept on the page would show its address, token
  // and all, on a projector whenever the pointer rests on it
  byId("lt-export").addEventListener("click", () => {
    const link = make("a", null, { href: api("class.csv"), download: "class.csv" });
    document.body.append(link);
    link.click();
    link.remove();
  });
  byId("lt-standings-today").addEventListener("click", () => choosePeriod("today"));
  byId("lt-standings-all").addEventListener("click", () => choosePeriod("all"));
  byId("lt-unlock-class").addEventListener("click", () => {
    if (byId("lt-unlock-class").getAttribute("aria-disabled") === "true") {  // greyed: why, and nothing sent
      say(state.unlockedClass, "lt-unlock-said");
      return;
    }
    act(async () => (await send("unlock", { visitor: "all" })).said, "lt-unlock-said");
  });
  byId("lt-defaults").addEventListener("submit", (event) => {
    event.preventDefault();
    const rules = byId("lt-rules").value;
    act(async () => {
      await send("defaults", { rules: rules || null, level: byId("lt-level").value || null });
      if (rules) byId("lt-pair-rules").value = rules;  // the next round follows the class's new rules
      return words.saved;
    }, "lt-defaults-said");
  });
  byId("lt-pair").addEventListener("submit", (event) => {
    event.preventDefault();
    const button = byId("lt-pair-button");
    if (button.getAttribute("aria-disabled") === "true") {  // greyed: why, and nothing sent
      say(state.round.refused, "lt-pair-said");
      state.saidOf = null;  // (said of the class as it is now)
      return;
    }
    button.disabled = true;  // one round a press
    act(async () => {
      const reply = await send("pair", { rules: byId("lt-pair-rules").value,
        hands: Number(byId("lt-pair-length").value) });
      return reply.said;
    }, "lt-pair-said", true).finally(() => { button.disabled = false; });
  });
  byId("lt-end-round").addEventListener("click", () => {
    const round = state.round;
    if (round && round.in_play && window.confirm(round.end_confirm)) {
      act(async () => (await send("end_round", { round: round.number })).said, "lt-pair-said");
    }
  });
  byId("lt-forget").addEventListener("click", () => {
    if (window.confirm(words.forget_confirm)) {
      act(async () => { await send("forget", { confirm: true }); return words.forgotten; });
    }
  });
  refresh();
})();
