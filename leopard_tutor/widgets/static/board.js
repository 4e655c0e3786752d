// LeopardBoard front end: draws the `state` dict it is given and sends intents with model.send.
// It decides nothing: legality, targets, values and every sentence come from Python.

function h(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of [].concat(children)) {
    if (child !== null && child !== undefined && child !== false) el.append(child);
  }
  return el;
}

function cardFace(card) {
  return h("span", { class: `lt-card lt-${card.color}`, "aria-hidden": "true" }, [
    h("span", { class: "lt-rank", text: card.rank }),
    h("span", { class: "lt-suit", text: card.symbol }),
    h("span", { class: "lt-pip", text: card.symbol }),
  ]);
}

function cardBack(known) {
  return h("span", { class: "lt-card lt-back", "aria-hidden": "true" },
    known ? h("span", { class: "lt-known", text: known.rank + known.symbol }) : null);
}

// Where a line's label sits, in grid units (the grid spans 0..3 in both directions).
function labelAt(cells) {
  const rows = cells.map((i) => Math.floor(i / 3));
  const cols = cells.map((i) => i % 3);
  if (rows.every((r) => r === rows[0])) return [3.25, rows[0] + 0.55];
  if (cols.every((c) => c === cols[0])) return [cols[0] + 0.5, 3.32];
  const startsTopLeft = (rows[0] === 0 && cols[0] === 0) || (rows[2] === 0 && cols[2] === 0);
  return startsTopLeft ? [3.25, 3.32] : [-0.25, 3.32];
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
}

function linesOverlay(lines) {
  const box = svg("svg", { class: "lt-lines", viewBox: "-0.5 -0.1 4 3.6", "aria-hidden": "true" });
  for (const line of lines) {
    const pts = line.cells.map((i) => [(i % 3) + 0.5, Math.floor(i / 3) + 0.5]);
    const cls = `lt-line lt-line-${line.status === "broke" ? "broke" : line.kind}` +
      (line.status ? ` lt-line-${line.status}` : "");
    box.append(svg("line", { class: cls, x1: pts[0][0], y1: pts[0][1], x2: pts[2][0], y2: pts[2][1] }));
    const [x, y] = labelAt(line.cells);
    const text = svg("text", { class: cls + " lt-line-label", x, y, "text-anchor": "middle" });
    text.textContent = line.label;
    box.append(text);
  }
  return box;
}

export default {
  render({ model, el }) {
    const root = h("div", { class: "lt-board" });
    const error = h("div", { class: "lt-error", role: "alert" });
    const turn = h("div", { class: "lt-turn" });
    const table = h("div", { class: "lt-table" });
    const handRow = h("div", { class: "lt-hand-row" });
    const actions = h("div", { class: "lt-actions" });
    const live = h("div", { class: "lt-message", "aria-live": "polite", role: "status" });
    const why = h("div", { class: "lt-why", "aria-hidden": "true" });
    const lost = h("div", { class: "lt-lost-notice", role: "alert", hidden: true });
    root.append(lost, error, turn, table, handRow, actions, live, why);
    el.append(root);
    let lastSeq = null;

    // One intent at a time: between a click and the kernel's answer (a redraw, or "done" when nothing
    // changed; the computer may be thinking) the board shows a busy cue and ignores further clicks. No answer at all means the connection
    // is gone: the page says so in words and offers one button that reloads.
    const LOST_AFTER_MS = 20000;
    let inFlight = false;
    let lostTimer = null;
    const send = (intent) => {
      if (inFlight || root.classList.contains("lt-lost")) return;
      inFlight = true;
      root.classList.add("lt-busy");
      root.setAttribute("aria-busy", "true");
      clearTimeout(lostTimer);
      lostTimer = setTimeout(connectionLost, LOST_AFTER_MS);
      try {
        model.send(intent);
      } catch (failure) {
        connectionLost();
      }
    };
    function notBusy() {
      inFlight = false;
      clearTimeout(lostTimer);
      root.classList.remove("lt-busy");
      root.removeAttribute("aria-busy");
    }
    function connectionLost() {
      const texts = model.get("texts") || {};
      root.classList.add("lt-lost");
      root.classList.remove("lt-busy");
      root.removeAttribute("aria-busy");
      const reload = h("button", { type: "button", class: "lt-reload", text: texts.reload || "↻",
                                   onclick: () => window.location.reload() });
      lost.replaceChildren(h("p", { text: texts.lost || "" }), reload);
      lost.hidden = false;
      reload.focus();
    }
    const onMessage = (message) => { if (message && message.type === "done") notBusy(); };
    const showWhy = (text) => { why.textContent = text || ""; };

    function spaceButton(square, cell) {
      const classes = ["lt-space"];
      if (cell.target) classes.push("lt-target");
      if (cell.dim) classes.push("lt-dim");
      if (cell.last) classes.push("lt-last");
      if (!cell.card && !cell.face_down) classes.push("lt-empty");
      const button = h("button", {
        type: "button", class: classes.join(" "), "data-k": `s${square.key}-${cell.space}`,
        "aria-label": cell.name, "aria-description": cell.why || null, title: cell.why || null,
        onclick: () => send({ type: "space", square: square.key, space: cell.space }),
        onmouseenter: () => showWhy(cell.why), onfocus: () => showWhy(cell.why),
      }, [
        cell.card ? cardFace(cell.card) : cell.face_down ? cardBack(cell.known) : null,
        h("span", { class: "lt-label", "aria-hidden": "true", text: String(cell.space) }),
        cell.depth > 1 ? h("span", { class: "lt-depth", "aria-hidden": "true", text: `×${cell.depth}` }) : null,
      ]);
      return button;
    }

    function squareView(square) {
      const grid = h("div", { class: "lt-grid", role: "group", "aria-label": square.label },
        square.cells.map((cell) => spaceButton(square, cell)));
      const list = h("ul", { class: "lt-line-list" }, square.lines.map((line) =>
        h("li", { class: `lt-line-item lt-line-${line.status || line.kind}`, text: line.text })));
      return h("section", { class: "lt-square", "data-key": String(square.key) }, [
        h("div", { class: "lt-square-head" }, [
          h("span", { class: "lt-value", text: square.value_text }),
        ]),
        h("div", { class: "lt-grid-wrap" }, [grid, linesOverlay(square.lines)]),
        list,
      ]);
    }

    function sideView(state) {
      const parts = [];
      if (state.opponent_hand) {
        const n = state.opponent_hand.count;
        const backs = h("div", { class: "lt-backs", "aria-hidden": "true" },
          Array.from({ length: Math.min(n, 12) }, () => h("span", { class: "lt-mini-back" })));
        parts.push(h("div", { class: "lt-pile lt-opponent-hand" }, [
          backs, h("span", { class: "lt-caption", text: state.opponent_hand.caption })]));
      }
      if (state.stock) {
        const n = state.stock.count;
        parts.push(h("div", { class: "lt-pile lt-stock" }, [
          n ? cardBack(null) : h("span", { class: "lt-card lt-none", "aria-hidden": "true" }),
          h("span", { class: "lt-caption", text: state.stock.caption })]));
      }
      if (state.discard) {
        const d = state.discard;
        const classes = ["lt-pile", "lt-discard"];
        if (d.target) classes.push("lt-target");
        if (d.dim) classes.push("lt-dim");
        parts.push(h("button", {
          type: "button", class: classes.join(" "), "data-k": "discard", "aria-label": d.name,
          "aria-description": `${d.contents}. ${d.why || ""}`.trim(), title: d.why || null,
          onclick: () => send({ type: "discard" }),
          onmouseenter: () => showWhy(d.why), onfocus: () => showWhy(d.why),
        }, [
          d.top ? cardFace(d.top) : h("span", { class: "lt-card lt-none", "aria-hidden": "true" }),
          h("span", { class: "lt-caption", "aria-hidden": "true", text: d.caption }),
        ]));
      }
      return h("div", { class: "lt-side" }, parts);
    }

    function handView(hand) {
      const cards = hand.cards.map((item) => h("button", {
        type: "button", class: `lt-hand-card${item.selected ? " lt-selected" : ""}` +
          (item.playable ? "" : " lt-stuck"),
        "data-k": `h${item.index}`, "aria-label": item.name, "aria-pressed": item.selected ? "true" : "false",
        onclick: () => send({ type: "select", index: item.index }),
      }, cardFace(item.card)));
      return h("div", { class: "lt-hand", role: "group", "aria-label": hand.label }, [
        h("div", { class: "lt-hand-title", text: hand.title }),
        h("div", { class: "lt-fan" }, cards),
      ]);
    }

    function actionView(item) {
      const noteId = `lt-note-${item.id}-${Math.random().toString(36).slice(2, 8)}`;
      return h("span", { class: "lt-action" }, [
        h("button", {
          type: "button", class: `lt-button${item.primary ? " lt-primary" : ""}`, "data-k": `a${item.id}`,
          disabled: !item.enabled, "aria-describedby": item.note ? noteId : null,
          onclick: () => send({ type: "action", id: item.id }),
        }, item.label),
        item.note ? h("span", { class: "lt-note", id: noteId, text: item.note }) : null,
      ]);
    }

    // Arrow keys move between the spaces of a square (3 by 3) and along the hand.
    root.addEventListener("keydown", (event) => {
      const key = event.key;
      if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(key)) return;
      const target = event.target;
      const group = target.closest(".lt-grid, .lt-fan");
      if (!group) return;
      const items = Array.from(group.querySelectorAll("button"));
      const at = items.indexOf(target);
      if (at < 0) return;
      let next = at;
      if (group.classList.contains("lt-grid")) {
        const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -3, ArrowDown: 3 }[key];
        next = at + step;
        if (next < 0 || next >= items.length) {
          const squares = Array.from(root.querySelectorAll(".lt-grid"));
          const other = squares[squares.indexOf(group) + (step > 0 ? 1 : -1)];
          if (!other) return;
          const others = Array.from(other.querySelectorAll("button"));
          next = null;
          others[(at % 3) + (step > 0 ? 0 : 6)].focus();
        }
      } else {
        next = at + (key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1);
        if (next < 0 || next >= items.length) return;
      }
      event.preventDefault();
      if (next !== null) items[next].focus();
    });

    function render() {
      notBusy();  // a redraw is the kernel's answer too (the "done" message covers intents that change nothing)
      const state = model.get("state") || {};
      const focused = root.contains(document.activeElement) ? document.activeElement.getAttribute("data-k") : null;
      error.textContent = state.error || "";
      error.hidden = !state.error;
      turn.textContent = state.turn || "";
      table.replaceChildren(
        h("div", { class: "lt-squares" }, (state.squares || []).map(squareView)),
        sideView(state),
      );
      handRow.replaceChildren(state.hand ? handView(state.hand) : "");
      actions.replaceChildren(...(state.actions || []).map(actionView));
      if (state.seq !== lastSeq) {
        lastSeq = state.seq;
        live.className = `lt-message lt-tone-${state.tone || "info"}`;
        live.textContent = state.message || "";
      }
      root.setAttribute("data-seq", String(state.seq ?? ""));
      if (focused) {
        const again = root.querySelector(`[data-k="${focused}"]`);
        const fallback = root.querySelector(".lt-hand-card") || root.querySelector(".lt-space");
        if (again && !again.disabled) again.focus();
        else if (fallback) fallback.focus();
      }
    }

    model.on("change:state", render);
    model.on("msg:custom", onMessage);
    render();
    return () => {
      clearTimeout(lostTimer);
      model.off("change:state", render);
      model.off("msg:custom", onMessage);
    };
  },
};
