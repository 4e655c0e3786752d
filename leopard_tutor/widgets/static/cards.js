// How a card and what lies on a space are drawn: shared by the board (board.py puts this file before board.js
// in the widget's module, which is one text) and the class page's watch view (a plain script there, loaded
// before teacher.js). `card` is the board state's card (`table.presenter.card_data`), `cell` one of a
// square's cells (`table.presenter.square_part`); their look is board.css's.

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

// The two squares' heads within `container` as tall as the taller one, so that their grids stand level where one
// name wraps onto more lines than the other ("Maximiliana Rodríguez Pé's square"): measured as drawn, again whenever
// the width where a head wraps changes.
function levelHeads(container) {
  const heads = [...container.querySelectorAll(".lt-square-head")];
  for (const head of heads) head.style.minHeight = "";
  if (heads.length < 2) return;
  const tall = heads.map((head) => head.getBoundingClientRect().height);
  const tallest = Math.max(...tall);
  heads.forEach((head, index) => { if (tall[index] < tallest - 0.5) head.style.minHeight = `${tallest}px`; });
}

function cardFace(card) {
  return h("span", { class: `lt-card lt-${card.color}`, "aria-hidden": "true" }, [
    h("span", { class: "lt-corner" }, [
      h("span", { class: "lt-rank", text: card.rank }),
      h("span", { class: "lt-suit", text: card.symbol }),
    ]),
    h("span", { class: "lt-pip", text: card.symbol }),
  ]);
}

function cardBack(known) {
  return h("span", { class: "lt-card lt-back", "aria-hidden": "true" },
    known ? h("span", { class: `lt-known lt-${known.color}`, text: known.rank + known.symbol }) : null);
}

// What a space shows: the card on top (its face, or a card's back when it lies face down: what is known of it,
// if anything, on the back), the space's number and how many cards its pile holds.
function spaceContents(cell) {
  return [
    cell.card ? cardFace(cell.card) : cell.face_down ? cardBack(cell.known) : null,
    h("span", { class: "lt-label", "aria-hidden": "true", text: String(cell.space) }),
    cell.depth > 1 ? h("span", { class: "lt-depth", "aria-hidden": "true", text: `×${cell.depth}` }) : null,
  ];
}
