// LeopardBoard front end: draws the `state` dict it is given and sends intents with model.send.
// It decides nothing: legality, targets, values and every sentence come from Python.
//
// Layout: the table (squares, piles, hand, actions) on the left and a side column (the message about
// the last move, the goal, the log...) on the right; one column on narrow boards. The card size is
// fitted so that the whole table fits the window without scrolling (in the app page), and placed
// cards travel from the hand to their space unless the reader asked for reduced motion.
// `h`, `cardFace`, `cardBack` and `spaceContents` come from cards.js, which board.py puts before this file.

// The shape of a square, in units of the card size (--lt-cell): spaces are taller than wide, like
// cards, and the margins around the grid hold the lines' labels.
const SHAPE = { cellH: 1.2, gap: 0.06, left: 0.32, right: 0.5, bottom: 0.42 };
const MIN_CELL = 44;  // px: the smallest target a finger can hit
const MAX_CELL = 132;
const FLIGHT_MS = 180;  // a placed card's journey from the hand
const REPLY_DELAY_MS = 420;  // the computer's move is shown after the learner's, not with it

// A redraw builds the board anew and then keeps every node already drawn that is the same as its new one
// (the same tag, attributes and contents): the browser then restyles and lays out only what changed, and
// focus stays where it was. A kept node keeps its listeners, which is right because every listener here
// depends only on what its node's attributes say (its data-k, its title), never on other data.
function sameAttributes(a, b) {
  if (a.attributes.length !== b.attributes.length) return false;
  for (const { name, value } of a.attributes) if (b.getAttribute(name) !== value) return false;
  return true;
}
function morph(old, node) {
  if (old.isEqualNode(node)) return;
  if (old.nodeType === Node.TEXT_NODE && node.nodeType === Node.TEXT_NODE) {
    old.data = node.data;
  } else if (old.nodeType === Node.ELEMENT_NODE && old.nodeName === node.nodeName && sameAttributes(old, node)) {
    morphChildren(old, Array.from(node.childNodes));
  } else {
    old.replaceWith(node);
  }
}
function morphChildren(parent, children) {
  const nodes = children.filter((child) => child !== null && child !== undefined && child !== false && child !== "")
    .map((child) => (typeof child === "string" ? document.createTextNode(child) : child));
  const old = Array.from(parent.childNodes);
  if (old.length !== nodes.length) parent.replaceChildren(...nodes);
  else nodes.forEach((node, i) => morph(old[i], node));
}

// a phone held sideways (board.css): the header scrolls away once, and the table then has the window's whole height
const sideways = () => window.matchMedia && window.matchMedia("(orientation: landscape) and (max-height: 500px)").matches;
const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion:reduce)").matches;

// -- the scoring lines, drawn across the three cards they join --------------------------------
const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
}

const gridW = 3 + 2 * SHAPE.gap;
const gridH = 3 * SHAPE.cellH + 2 * SHAPE.gap;
const centre = (i) => [(i % 3) * (1 + SHAPE.gap) + 0.5, Math.floor(i / 3) * (SHAPE.cellH + SHAPE.gap) + SHAPE.cellH / 2];

// Where a line's label sits: right of a row, under a column, at a diagonal's right-hand end (the bottom corner or
// the top one, over the first row's label). None on the left: there, on a narrow board, the square beside this one
// has its own labels.
function labelAt(cells) {
  const rows = cells.map((i) => Math.floor(i / 3));
  const cols = cells.map((i) => i % 3);
  const below = gridH + SHAPE.bottom * 0.55;
  const right = gridW + SHAPE.right * 0.5;
  if (rows.every((r) => r === rows[0])) return [right, centre(cells[0])[1]];
  if (cols.every((c) => c === cols[0])) return [centre(cells[0])[0], below];
  const fromTopLeft = (rows[0] === 0 && cols[0] === 0) || (rows[2] === 0 && cols[2] === 0);
  return fromTopLeft ? [right, below] : [right, 0.15];
}

function linesOverlay(lines) {
  const box = svg("svg", { class: "lt-lines", viewBox: `0 0 ${gridW} ${gridH}`, "aria-hidden": "true" });
  for (const line of lines) {
    const [a, b] = [centre(line.cells[0]), centre(line.cells[2])];
    const kind = line.status === "broke" ? "broke" : line.kind;
    const cls = `lt-line lt-line-${kind}` + (line.status ? ` lt-line-${line.status}` : "");
    box.append(svg("line", { class: cls, x1: a[0], y1: a[1], x2: b[0], y2: b[1] }));
    const [x, y] = labelAt(line.cells);
    // the badge has classes of its own: the line's (its dashes, its see-through red) would make it a layer that
    // Chromium paints as a large red shape once the flash is over
    const tag = svg("g", { class: `lt-line-tag lt-line-tag-${kind}` + (line.status ? ` lt-tag-${line.status}` : "") });
    // a diagonal's badge leans as its line does (a slanted box): at the top corner it stands over the first row's,
    // at the bottom one beside the last column's, each "+3" else alike (a stroke at its end read as the line drawn
    // through the badge)
    const slope = Math.sign(a[1] - b[1]) * Math.sign(b[0] - a[0]);  // 1 rising to the right, -1 falling, 0 straight
    const badge = { x: x - 0.24, y: y - 0.15, width: 0.48, height: 0.3, rx: 0.14 };
    if (slope) badge.transform = `translate(${x} ${y}) skewX(${-22 * slope}) translate(${-x} ${-y})`;
    tag.append(svg("rect", badge));
    const label = svg("text", { x, y: y + 0.01, "text-anchor": "middle", "dominant-baseline": "middle" });
    label.textContent = line.label;
    tag.append(label);
    box.append(tag);
  }
  return box;
}

// A Voilà page whose board lost its kernel (the server restarted or stopped, the kernel died, the network went away)
// reloads itself once the server answers again: what the lost notice asks the learner to do, and what a class whose
// server the teacher restarted needs (each page back at its table, its stars and matches restored, without a press;
// one page not reloaded was counted gone after two minutes, its match finished by its classmate). It asks the
// server for one of Voilà's own files every few seconds, each page at moments of its own (a class's pages do not
// all come back at once), for BACK_FOR_MS at most, and reloads only in sight (a tab in the background when it is
// shown, once the server answers then too). Where the server answered all along (only the kernel went), only once in
// RELOADED_WITHIN_MS: a page whose new kernel is lost again keeps the notice and its button, never reloading round
// and round; a reload once the server was back from being away (a restart), or pressed, counts none, so a server
// restarted twice in a row brings its pages back twice. Not on the static site (its kernel is the page's own) nor in
// JupyterLab (whose kernel a person restarts on purpose): a Voilà page only, one asking for all its boards.
const BACK_EVERY_MS = 3000;
const BACK_FOR_MS = 30 * 60 * 1000;
const RELOADED_WITHIN_MS = 2 * 60 * 1000;
const RELOADED_KEY = "leopard_tutor.reloaded";
let asking = null;  // the page's one question whether its server is back (a promise, of false once it gave up)

// The address a Voilà page asks to hear whether its server is back, or "" where it does not reload by itself.
function backProbe() {
  if (document.body.dataset.voila !== "voila") return "";
  try {
    if (Date.now() - Number(window.sessionStorage.getItem(RELOADED_KEY) || 0) < RELOADED_WITHIN_MS) return "";
    const config = JSON.parse(document.getElementById("jupyter-config-data").textContent);
    return typeof config.fullStaticUrl === "string" ? `${config.fullStaticUrl}/voila.js` : "";
  } catch (failure) {
    return "";  // (no session storage: it could not tell a reload of its own from the next)
  }
}

// The reload the learner pressed: it counts as none of the page's own (RELOADED_WITHIN_MS).
function reloadPressed() {
  try {
    window.sessionStorage.removeItem(RELOADED_KEY);
  } catch (refused) {
    // (nothing was kept)
  }
  window.location.reload();
}

// Reload the page once the server at `probe` answers (a promise of false if it did not within BACK_FOR_MS).
function reloadWhenBack(probe) {
  asking = asking || new Promise((given) => {
    const until = Date.now() + BACK_FOR_MS;
    let away = false;  // whether the server did not answer once (stopped or restarting: not only the kernel gone)
    const reload = () => {
      try {
        if (away) window.sessionStorage.removeItem(RELOADED_KEY);
        else window.sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
      } catch (refused) {
        return given(false);  // (not marked, it could reload round and round)
      }
      window.location.reload();
    };
    const ask = async () => {
      if (Date.now() > until) return given(false);
      let back = false;
      try {
        back = (await fetch(`${probe}?back=${Date.now()}`, { cache: "no-store" })).ok;
      } catch (failure) {
        back = false;  // (the server down: asked again)
      }
      if (!back) {
        away = true;
        return void setTimeout(ask, BACK_EVERY_MS + Math.random() * BACK_EVERY_MS);
      }
      if (document.visibilityState === "visible") return reload();
      const shown = () => {  // (asked again then: the server may have gone again meanwhile)
        if (document.visibilityState !== "visible") return;
        document.removeEventListener("visibilitychange", shown);
        ask();
      };
      document.addEventListener("visibilitychange", shown);
    };
    setTimeout(ask, Math.random() * BACK_EVERY_MS);
  });
  return asking;
}

export default {
  render({ model, el }) {
    const root = h("div", { class: "lt-board" });
    for (const [name, value] of Object.entries(SHAPE)) root.style.setProperty(`--lt-shape-${name}`, String(value));
    const lost = h("div", { class: "lt-lost-notice", role: "alert", hidden: true });
    const error = h("div", { class: "lt-error", role: "alert" });
    const turn = h("div", { class: "lt-turn" });
    const squares = h("div", { class: "lt-squares" });
    const piles = h("div", { class: "lt-side" });
    const handRow = h("div", { class: "lt-hand-row" });
    const actions = h("div", { class: "lt-actions" });
    const table = h("div", { class: "lt-table" }, [squares, piles, handRow, actions]);
    const main = h("div", { class: "lt-main" }, [turn, table]);
    const live = h("div", { class: "lt-message", "aria-live": "polite", role: "status" });
    const liveCopy = h("div", { class: "lt-message-copy", "aria-hidden": "true" });  // (keepRoom)
    const why = h("div", { class: "lt-why", "aria-hidden": "true" });
    // A greyed button pressed says its reason to a screen reader too (the line beside the table, hidden from it,
    // repeats what it heard on reaching the button; a press heard nothing): unseen, in a status region of its own.
    const pressedWhy = h("div", { class: "lt-pressed-why", role: "status" });
    const answer = h("div", { class: "lt-answer-slot" });
    const goal = h("div", { class: "lt-goal-slot" });
    const panels = h("div", { class: "lt-panels" });
    const aside = h("div", { class: "lt-aside" }, h("div", { class: "lt-aside-inner" }, [live, liveCopy, why, answer, goal, panels]));
    root.append(h("div", { class: "lt-frame" }, [lost, error, main, aside]), pressedWhy);
    el.append(root);
    const boardId = Math.random().toString(36).slice(2, 8);  // ids unique in the page, the same at each redraw
    let lastSeq = null;
    let flightFrom = null;  // where the picked card was when it was sent to a space or the pile
    // While the computer chooses its reply (state.thinking), the learner's move is drawn at once and flies to its
    // place, then each of the computer's plays as it is made; each state flies only the moves after those flown, and
    // the reply's reads the card as picked before the learner's move.
    let flown = [];
    let flownAt = 0;
    let pickedThinking = false;
    let thinkingWhy = "";  // why a click on the table waits meanwhile (state.thinking's words), "" at other times
    // A computer still choosing its reply after THINKING_SAID_MS, when the turn line shows "thinking" (board.css), is
    // said to a screen reader too, in the unseen status region: the message, hidden meanwhile, would say nothing
    // until the reply (a quick reply says nothing more than itself).
    const THINKING_SAID_MS = 400;
    let thinkingTimer = null;
    let tapped = false;  // whether the intent last sent was a tap on the table (a card, a space, the discard pile)

    // One intent at a time: between a click and the kernel's answer (a redraw, or "done" when nothing
    // changed; the computer may be thinking) the board shows a busy cue and takes no further click, saying why, as a
    // greyed button's press does: the computer chooses its reply (a card, a space or the pile), else the last click or
    // menu choice is still being answered (a press was once lost without a word while a review was made). No
    // answer within LOST_AFTER_MS means the connection is gone (a busy kernel answers late, hence the long wait;
    // what the kernel connection says, see GONE_AFTER_MS, is heard sooner): the page says so in words and
    // offers one button that reloads.
    const LOST_AFTER_MS = 20000;
    const TAPS = new Set(["select", "space", "discard"]);  // the intents of a tap on the table
    let inFlight = false;
    let stillAnswering = false;  // whether a press while in flight was told it was not taken
    let lostTimer = null;
    // A click unanswered for SLOW_AFTER_MS says so (the board had looked live, and silent, until the connection was
    // found lost 20 s later), unless the computer is choosing its reply, or a press meanwhile was told it was not
    // taken: the board says those already.
    const SLOW_AFTER_MS = 6000;
    let slowTimer = null;
    let saidSlow = false;
    const sayNoAnswerYet = () => {
      if (!inFlight || thinkingWhy || stillAnswering || root.classList.contains("lt-lost")) return;
      sayWhyPressed((model.get("texts") || {}).no_answer_yet);
      saidSlow = true;
    };
    const send = (intent) => {
      if (root.classList.contains("lt-lost")) return;
      if (inFlight) {
        const answering = !(thinkingWhy && TAPS.has(intent.type));
        sayWhyPressed(answering ? (model.get("texts") || {}).still_answering : thinkingWhy);
        stillAnswering = answering;
        return;
      }
      busy(connectionLost, LOST_AFTER_MS);
      clearTimeout(slowTimer);
      slowTimer = setTimeout(sayNoAnswerYet, SLOW_AFTER_MS);
      const picked = root.querySelector(".lt-hand-card.lt-selected .lt-card");
      flightFrom = (intent.type === "space" || intent.type === "discard") && picked ? picked.getBoundingClientRect() : null;
      tapped = TAPS.has(intent.type);
      try {
        model.send(intent);
      } catch (failure) {
        connectionLost();
      }
    };
    function notBusy() {
      clearTimeout(slowTimer);
      if (stillAnswering || saidSlow) {  // (the words of a press not taken, or of an answer slow to come: they no
        clearTimeout(pressedTimer);       // longer hold once the answer is drawn)
        pressedWhy.textContent = "";
        const texts = model.get("texts") || {};
        if (why.textContent === texts.still_answering || why.textContent === texts.no_answer_yet) showWhy("");
        stillAnswering = saidSlow = false;
      }
      inFlight = menuAsked = false;
      clearTimeout(lostTimer);
      root.classList.remove("lt-busy");
      root.removeAttribute("aria-busy");
    }
    // The computer choosing with no click of this board's waiting for it (a new match it begins, from a button beside
    // the board): the board is busy as after a click, so the turn line says "thinking" and a click waits, saying why,
    // until the reply's state comes (`render` then calls notBusy).
    function busyThinking() {
      if (!inFlight && !root.classList.contains("lt-lost")) busy(connectionLost, LOST_AFTER_MS);
    }
    // The busy cue, an answer awaited: `then` runs if none has come within `ms`.
    function busy(then, ms) {
      inFlight = true;
      root.classList.add("lt-busy");
      root.setAttribute("aria-busy", "true");
      clearTimeout(lostTimer);
      lostTimer = setTimeout(then, ms);
    }
    function connectionLost() {
      if (root.classList.contains("lt-lost")) return;  // (said once: the reload button keeps the focus it was given)
      const texts = model.get("texts") || {};
      clearTimeout(aliveTimer);
      clearTimeout(goneTimer);
      clearTimeout(slowTimer);
      root.classList.add("lt-lost");
      root.classList.remove("lt-busy");
      root.removeAttribute("aria-busy");
      const reload = h("button", { type: "button", class: "lt-reload", text: texts.reload || "↻",
                                   onclick: () => reloadPressed() });
      const probe = model.get("alive_every") > 0 ? backProbe() : "";
      const again = probe ? h("p", { text: texts.reloads_itself || "" }) : null;
      // a click or choice sent and not answered may still reach the kernel once the connection is back (it waits in
      // the connection's queue): the notice does not say it was lost
      const unanswered = inFlight ? h("p", { text: texts.lost_unanswered || "" }) : null;
      // "in this browser" only where it keeps site data (keeps(): kept.js, put before this module)
      lost.replaceChildren(h("p", { text: (keeps() ? texts.lost : texts.lost_unkept) || "" }),
                           ...(unanswered ? [unanswered] : []), ...(again ? [again] : []), reload);
      lost.hidden = false;
      reload.focus();
      if (probe) reloadWhenBack(probe).then(() => again.remove());  // (no longer true once it gave up)
    }
    // A menu of the board's own section that deals afresh (the rules, the opponent, a practice's questions, an
    // example: marked lt-redeals; a change MenuKeys holds back never gets here) is told to the kernel: until the
    // kernel has dealt, the board shows the busy cue and takes no click, as after a click of its own, where it went on
    // showing the old deal as if it were live. The board asks the kernel whether it is there right after the menu's
    // own message: the kernel answers in turn, so its answer comes once the menu's change is made and drawn (and at
    // once where the menu told it nothing: a choice made again). An answer that never comes lets it go after a while.
    const MENU_WAIT_MS = 10000;
    let menuAsked = false;
    const onMenu = (event) => {
      const menu = event.target;
      if (!(menu instanceof HTMLSelectElement) || !menu.closest(".lt-redeals")) return;
      if (!root.closest(".lt-section")?.contains(menu)) return;  // (asked now: the board is drawn before it is placed)
      if (inFlight || root.classList.contains("lt-lost")) return;
      busy(notBusy, MENU_WAIT_MS);
      menuAsked = true;
      try {
        model.send({ type: "alive?" });
      } catch (failure) {
        connectionLost();
      }
    };
    document.addEventListener("change", onMenu);
    // Between clicks a board in sight asks its kernel now and then whether it is there (model "alive_every"
    // milliseconds; 0: never): a kernel gone without its connection saying so shows as a lost connection without
    // waiting for a click (within alive_every and LOST_AFTER_MS).
    let aliveTimer = null;
    const askAlive = () => {
      if (inFlight || aliveTimer || root.classList.contains("lt-lost") || document.hidden || !root.offsetParent) return;
      aliveTimer = setTimeout(connectionLost, LOST_AFTER_MS);
      try {
        model.send({ type: "alive?" });
      } catch (failure) {
        connectionLost();
      }
    };
    const asking = model.get("alive_every") > 0 ? setInterval(askAlive, model.get("alive_every")) : null;
    // Where the page reaches its kernel through a Jupyter kernel connection (the widget manager's `kernel`: Voilà's
    // page, JupyterLab's; not the static site, whose kernel is the page's own: alive_every 0), the board hears that
    // connection at once. The server tells it its kernel restarted (the kernel died: the board's state went with
    // it) or is dead (the server restarted and has no such kernel). Its websocket closing (the server stopped, the
    // network down) shows as "connecting" while it tries again: the first try is at once, so a network's blip is
    // back within GONE_AFTER_MS and the board goes on; not back by then, or given up ("disconnected"), the
    // connection is lost. A busy kernel changes neither (it only answers late). A connection ended by its page
    // (Voilà's, as the page unloads) is disposed first and says nothing here.
    const GONE_AFTER_MS = 5000;  // (a Wi-Fi's blip, an access point changed: back well within it)
    const kernel = model.get("alive_every") > 0 ? model.widget_manager?.kernel : null;
    const heard = Boolean(kernel?.connectionStatusChanged?.connect && kernel?.statusChanged?.connect);
    let goneTimer = null;
    const onConnection = (connection, status) => {
      if (connection.isDisposed) return;
      if (status === "connected") {
        clearTimeout(goneTimer);
        goneTimer = null;
      } else if (status === "disconnected") {
        connectionLost();
      } else if (!goneTimer) {
        goneTimer = setTimeout(connectionLost, GONE_AFTER_MS);
      }
    };
    const onStatus = (connection, status) => {
      if (!connection.isDisposed && ["restarting", "autorestarting", "dead"].includes(status)) connectionLost();
    };
    if (heard) {
      kernel.connectionStatusChanged.connect(onConnection);
      kernel.statusChanged.connect(onStatus);
    }
    const onMessage = (message) => {
      if (message && message.type === "done" && !sayAgain) notBusy();  // (else once the words are back)
      if (message && message.type === "alive") {
        clearTimeout(aliveTimer);
        aliveTimer = null;
        if (menuAsked && !sayAgain) notBusy();  // (the menu's change, if it told the kernel one, is drawn by now)
      }
      if (message && message.type === "focus_table") {
        // another table to play: the keyboard goes to it (after a wait, only from this board's section or nowhere):
        // to its hand, or where the hand is hidden (the device to be passed), to the step that shows it
        const at = document.activeElement;
        const section = root.closest(".lt-section") || root;
        if (message.waited && at && at !== document.body && !section.contains(at)) return;
        showTable(root.querySelector('.lt-hand-card[tabindex="0"], .lt-hand-card') || primaryStep() ||
          root.querySelector('.lt-space[tabindex="0"], .lt-space'));
      }
    };
    // The line beside the table explains the place pointed at (or the state's note), unless a greyed button's note
    // under the buttons shows the same reason already ("This stage is finished…" said twice on a finished stage, the
    // pointer still on the space just played); a note that takes no room while the computer chooses does not count.
    // A greyed button pressed says its reason there all the same (`pressed`): the press is answered where it looks.
    let notedNow = new Set();
    const showWhy = (text, pressed = false) => {
      why.textContent = text && (pressed || !notedNow.has(text)) ? text : "";
    };
    let pressedTimer = null;
    const sayWhyPressed = (text) => {  // (emptied first: the same reason pressed again is said again)
      showWhy(text, true);
      pressedWhy.textContent = "";
      clearTimeout(pressedTimer);
      pressedTimer = setTimeout(() => { pressedWhy.textContent = text || ""; }, SAY_AGAIN_MS);
    };
    // Whether a control is greyed (aria-disabled), and a greyed button's reason: the words of the note that describes
    // it (aria-describedby). Both are read from the button as drawn, as a kept node's listeners must (see `morph`).
    const greyed = (control) => control.getAttribute("aria-disabled") === "true";
    function reasonOf(button) {
      const id = button.getAttribute("aria-describedby");
      const note = id ? root.querySelector(`[id="${id}"]`) : null;
      return note ? note.textContent : "";
    }
    const SAY_AGAIN_MS = 150;
    let sayAgain = null;  // the timer giving back the words of a message said again (`render`)

    // Each square and the hand is one stop of the Tab key (a "roving" tab stop): the arrow keys move inside it.
    // The stop is the button focused there now; else the place a hint named, if it is in the group; else the group's
    // first lit button (the first space a chosen card may go to, the chosen card); else the one last focused there;
    // else the first.
    const stops = new Map();  // group (data-group) -> data-k of the button last focused in it
    function stopOf(group, items) {
      const focused = root.contains(document.activeElement) ? document.activeElement.getAttribute("data-k") : null;
      if (items.some((item) => item.k === focused)) return focused;
      const lit = items.find((item) => item.named) || items.find((item) => item.lit);
      if (lit) return lit.k;
      const kept = stops.get(group);
      return items.some((item) => item.k === kept) ? kept : (items[0] && items[0].k);
    }
    function rove(button) {
      const group = button.closest("[data-group]");
      if (!group) return;
      stops.set(group.dataset.group, button.dataset.k);
      for (const other of group.querySelectorAll("button")) other.tabIndex = other === button ? 0 : -1;
    }

    // Why the cards, spaces and the discard pile take no click now (state "inert": a review, a hand over...), or "":
    // they are marked aria-disabled with that reason, and a click on one is still answered with it.
    let inert = "";

    function spaceButton(square, cell, stop) {
      const why = inert || cell.why;
      // shown under the message on hover and focus, and as a tooltip (said: the message says it already)
      const shown = cell.said && !inert ? "" : why;
      const classes = ["lt-space"];
      if (cell.target) classes.push("lt-target");
      if (cell.dim) classes.push("lt-dim");
      if (cell.last) classes.push("lt-last");
      if (cell.hinted) classes.push("lt-hinted");  // (the place a hint named, among the card's places)
      if (cell.better) classes.push("lt-better");  // (in a review, where the best move found puts its card)
      if (!cell.card && !cell.face_down) classes.push("lt-empty");
      return h("button", {
        type: "button", class: classes.join(" "), "data-k": `s${square.key}-${cell.space}`,
        tabindex: `s${square.key}-${cell.space}` === stop ? "0" : "-1",
        "aria-label": cell.name, "aria-description": why || null, title: shown || null,
        "aria-disabled": inert ? "true" : null,
        onclick: () => send({ type: "space", square: square.key, space: cell.space }),
        onmouseenter: () => showWhy(shown),
        onfocus: (event) => { showWhy(shown); rove(event.currentTarget); },
      }, spaceContents(cell));
    }

    function squareView(square) {
      const group = `s${square.key}`;
      const stop = stopOf(group, square.cells.map((cell) => ({
        k: `${group}-${cell.space}`, lit: cell.target, named: cell.hinted })));
      const grid = h("div", { class: "lt-grid", role: "group", "aria-label": square.label, "data-group": group },
        square.cells.map((cell) => spaceButton(square, cell, stop)));
      // the lines in words, for a screen reader (board.css hides them from the eye), named by whose square it is
      const list = square.lines.length ? h("ul", { class: "lt-line-list", "aria-label": square.lines_label },
        square.lines.map((line) => h("li", { class: `lt-line-item lt-line-${line.status || line.kind}`,
                                              text: line.text }))) : null;  // (never empty)
      return h("section", { class: "lt-square", "data-key": String(square.key), "data-side": square.side || "only" }, [
        h("div", { class: "lt-square-head" }, [
          h("span", { class: "lt-value lt-value-full", text: square.value_text }),
          // on a narrow board: the label (cut short if it must be) and the value, on one line (for the eye only: a
          // screen reader hears the whole sentence, hidden there from the eye)
          h("span", { class: "lt-value-short", "aria-hidden": "true" }, [h("span", { class: "lt-value-label", text: square.label }),
            h("span", { class: "lt-value-number", text: square.value === null || square.value === undefined
              ? "?" : String(square.value) })]),  // (a practice question hides the value)
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
        parts.push(h("div", { class: "lt-pile lt-stock" }, [
          state.stock.count ? cardBack(null) : h("span", { class: "lt-card lt-none", "aria-hidden": "true" }),
          h("span", { class: "lt-caption", text: state.stock.caption })]));
      }
      if (state.discard) {
        const d = { ...state.discard, why: inert || state.discard.why };
        d.shown = d.said && !inert ? "" : d.why;
        const classes = ["lt-pile", "lt-discard"];
        if (d.target) classes.push("lt-target");
        if (d.hinted) classes.push("lt-hinted");  // (the place a hint named for the card: the pile)
        if (d.dim) classes.push("lt-dim");
        parts.push(h("button", {
          type: "button", class: classes.join(" "), "data-k": "discard", "aria-label": d.name,
          "aria-description": `${d.contents}. ${d.why || ""}`.trim(), title: d.shown || null,
          "aria-disabled": inert ? "true" : null,
          onclick: () => send({ type: "discard" }),
          onmouseenter: () => showWhy(d.shown), onfocus: () => showWhy(d.shown),
        }, [
          d.top ? cardFace(d.top) : h("span", { class: "lt-card lt-none", "aria-hidden": "true" }),
          h("span", { class: "lt-caption", "aria-hidden": "true", text: d.caption }),
        ]));
      }
      return parts;
    }

    function handView(hand) {
      const stop = stopOf("hand", hand.cards.map((item) => ({ k: `h${item.index}`, lit: item.selected })));
      const cards = hand.cards.map((item) => h("button", {
        type: "button", class: `lt-hand-card${item.selected ? " lt-selected" : ""}` +
          (item.playable ? "" : " lt-stuck"),
        "data-k": `h${item.index}`, tabindex: `h${item.index}` === stop ? "0" : "-1", "aria-label": item.name,
        "aria-pressed": item.selected ? "true" : "false",
        "aria-disabled": inert ? "true" : null, "aria-description": inert || item.why || null,
        title: inert || item.why || null,
        onclick: () => send({ type: "select", index: item.index }),
        onfocus: (event) => rove(event.currentTarget),
      }, cardFace(item.card)));
      return h("div", { class: "lt-hand", role: "group", "aria-label": hand.label }, [
        h("div", { class: "lt-hand-title", text: hand.title }),
        h("div", { class: "lt-fan", "data-group": "hand" },  // (no card: the room of one, unseen)
          cards.length ? cards : [h("span", { class: "lt-hand-room", "aria-hidden": "true" })]),
      ]);
    }

    // A greyed button's reason is a note after the row's last button, once for each reason (buttons greyed for one
    // reason, as Practice's Yes and No, share it), in the order of the buttons: a note never stands between two
    // buttons, so the buttons keep their places as notes come and go (Hint and Undo moved 340 px when Go out's note
    // left the row's middle; an example's Next at its first step) and no note reads as the reason of the button after
    // it. A greyed button is marked aria-disabled, not disabled: the keyboard reaches it and a screen reader reads its
    // reason, its description; pressed, it sends nothing and its reason shows where a space's does.
    const actionRow = (items) => {
      const all = items || [];
      const notes = new Map();  // a reason -> the id of its note
      for (const item of all) {
        if (item.note && !notes.has(item.note)) notes.set(item.note, `lt-note-${boardId}-${item.id}`);
      }
      // greyed only while the computer chooses its reply (item.wait): greyed after a moment, its note taking no room
      // (board.css), yet read as its description and shown when it is pressed
      const waits = new Set(all.filter((item) => item.wait).map((item) => item.note));
      const buttons = all.map((item) => h("button", {
        type: "button", class: `lt-button${item.primary ? " lt-primary" : ""}${item.wait ? " lt-wait" : ""}`,
        "data-k": `a${item.id}`,
        "aria-disabled": item.enabled ? null : "true", "aria-describedby": item.note ? notes.get(item.note) : null,
        onclick: (event) => (greyed(event.currentTarget) ? sayWhyPressed(reasonOf(event.currentTarget))
          : send({ type: "action", id: item.id })),
      }, item.label));
      return [...buttons, ...[...notes].map(([note, id]) => h("span", {
        class: `lt-note${waits.has(note) ? " lt-wait" : ""}`, id, text: note }))];
    };

    // The answer box and its button; greyed (an answer given) as a greyed button is: reached by the keyboard, the
    // box read-only, each described by the reason (spec.why), which a press shows instead of sending anything.
    function answerView(spec) {
      const greyedBy = spec.enabled ? {} : { "aria-disabled": "true", "aria-description": spec.why || null,
                                             title: spec.why || null };
      const input = h("input", { type: "number", class: "lt-answer-input", min: spec.min, max: spec.max, step: 1,
                                 inputmode: "numeric", "aria-label": spec.label, readonly: !spec.enabled,
                                 "data-k": "answer-value", ...greyedBy });
      const submit = (event) => {
        event.preventDefault();
        if (!spec.enabled) {
          sayWhyPressed(spec.why);
          return;
        }
        const value = input.value.trim() === "" ? null : Number(input.value);
        send({ type: "answer", value: Number.isInteger(value) ? value : null });
      };
      // (novalidate: a number out of the box's range is sent, and the kernel's words say what to type, in the app's
      // language, where the browser held the form back with a bubble of its own, or none at all)
      return h("form", { class: "lt-answer", onsubmit: submit, novalidate: true }, [
        h("label", { class: "lt-answer-label" }, [h("span", { text: spec.label }), input]),
        h("button", { type: "submit", class: "lt-button lt-primary", "data-k": "answer", ...greyedBy }, spec.button),
      ]);
    }

    // The side column's panels: the goal, a text, a list, a table, groups of label-value pairs, or buttons.
    function panelView(panel) {
      const title = panel.title ? h(panel.heading || "h3", { class: "lt-panel-title", text: panel.title }) : null;
      const cls = `lt-side-panel lt-panel-${panel.kind}${panel.class ? " " + panel.class : ""}`;
      if (panel.kind === "goal") {
        return h("section", { class: cls }, [
          // read out when it changes (a stage opened), not only where a screen reader's reading comes to it
          h("p", { class: "lt-goal", "aria-live": "polite" }, [h("strong", { text: panel.title }), " ", panel.text]),
          panel.items && panel.items.length ?
            h("ul", { class: "lt-goals" }, panel.items.map((item) => h("li", { text: item }))) : null,
          panel.note ? h("p", { class: "lt-goal-note", text: panel.note }) : null,
        ]);
      }
      if (panel.kind === "text") {
        const body = [
          ...(panel.paragraphs || []).map((text) => h("p", { text })),
          panel.figures && panel.figures.length ? h("div", { class: "lt-figures" }, panel.figures.map((figure) =>
            h("figure", { class: "lt-figure" }, [
              h("table", {}, figure.grid.map((row) => h("tr", {}, row.map((n) => h("td", { text: String(n) }))))),
              h("figcaption", { text: figure.caption }),
            ]))) : null,
        ];
        return h("section", { class: cls }, [title, ...body]);
      }
      if (panel.kind === "list") {
        const items = panel.items || [];
        const list = items.length ?
          h(panel.ordered ? "ol" : "ul", { class: panel.list_class || null, reversed: panel.reversed || null },
            items.map((item) => Number.isInteger(item.step)
              // a move of a review's list: pressed, the board shows its judgement
              ? h("li", { class: item.class || null, "aria-current": item.current ? "step" : null }, [
                h("button", { type: "button", class: "lt-review-goto", "data-k": `r${item.step}`,
                              onclick: () => send({ type: "action", id: "review_goto", step: item.step }) },
                  item.text)])
              : h("li", { class: item.class || null, text: item.text ?? item,
                          "aria-current": item.current ? "step" : null }))) :
          h("p", { class: "lt-muted", text: panel.empty || "" });
        return h("section", { class: cls }, [title, list]);
      }
      if (panel.kind === "table") {
        const row = (cells, tag) => h("tr", {}, cells.map((cell) => h(tag, { text: String(cell) })));
        // the totals row is headed by its first cell, as a row; its figures are data, not column headers
        const foot = (cells) => h("tr", {}, cells.map((cell, index) => index ?
          h("td", { text: String(cell) }) : h("th", { scope: "row", text: String(cell) })));
        return h("section", { class: cls }, [title, h("table", { class: panel.table_class || null }, [
          panel.head ? h("thead", {}, row(panel.head, "th")) : null,
          h("tbody", {}, (panel.rows || []).map((cells) => row(cells, "td"))),
          panel.foot ? h("tfoot", {}, foot(panel.foot)) : null,
        ])]);
      }
      if (panel.kind === "actions") {
        return h("section", { class: cls }, [title, h("div", { class: "lt-side-actions" }, actionRow(panel.items))]);
      }
      if (panel.kind === "pairs") {
        return h("section", { class: cls }, [title, h("div", { class: "lt-breakdown" }, panel.groups.map((group) =>
          h("div", {}, [
            h("h4", { text: group.title }),
            h("dl", {}, group.rows.flatMap(([label, value, strong]) => strong ?
              [h("dt", {}, h("strong", { text: label })), h("dd", {}, h("strong", { text: String(value) }))] :
              [h("dt", { text: label }), h("dd", { text: String(value) })])),
          ])))]);
      }
      return null;
    }

    // The buttons (and the answer box) of the board's own controls, in the order they stand.
    const ACTION_BUTTONS = ".lt-actions button, .lt-side-actions button, .lt-answer input, .lt-answer button";
    const PLACES = /^(s\d-\d|discard)$/;  // the data-k of a space or of the discard pile: where a picked card goes

    // Arrow keys move between the spaces as they stand on the screen: to the nearest space in the arrow's direction,
    // within a square or across to the one beside it (or below it, where the squares stand one above the other).
    // Along the hand, they step through the cards; Home and End go to its first and last card.
    const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const centre = (element) => {
      const box = element.getBoundingClientRect();
      return [box.left + box.width / 2, box.top + box.height / 2, box.width, box.height];
    };
    function nearestSpace(from, [dx, dy]) {
      const [x, y, width, height] = centre(from);
      let best = null;
      let bestScore = Infinity;
      for (const space of root.querySelectorAll(".lt-grid button")) {
        if (space === from || !space.offsetParent) continue;
        const [sx, sy] = centre(space);
        const along = (sx - x) * dx + (sy - y) * dy;  // how far in the arrow's direction
        const across = Math.abs((sx - x) * dy + (sy - y) * dx);  // how far off its line
        if (along < (dx ? width : height) / 2) continue;
        if (across > (dx ? height : width) / 2) continue;  // only spaces in the same row (or column)
        if (along < bestScore) { best = space; bestScore = along; }
      }
      return best;
    }
    root.addEventListener("keydown", (event) => {
      const key = event.key;
      const target = event.target;
      const picked = root.querySelector(".lt-hand-card.lt-selected");
      if (key === "Escape" && picked && !inert && target.closest(".lt-table")) {  // the card picked goes back
        event.preventDefault();
        picked.focus();
        send({ type: "select", index: Number(picked.dataset.k.slice(1)) });
        return;
      }
      const group = target.closest(".lt-grid, .lt-fan");
      if (!group) return;
      let next = null;
      if (group.classList.contains("lt-grid")) {  // Home and End: the square's first and last space as drawn
        const spaces = Array.from(group.querySelectorAll("button"));
        if (key === "Home" || key === "End") next = spaces[key === "Home" ? 0 : spaces.length - 1];
        else if (key in ARROWS) next = nearestSpace(target, ARROWS[key]);
        else return;
      } else {
        const items = Array.from(group.querySelectorAll("button"));
        const at = items.indexOf(target);
        if (at < 0) return;
        if (key === "Home" || key === "End") next = items[key === "Home" ? 0 : items.length - 1];
        else if (key in ARROWS) next = items[at + (key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1)] || null;
        else return;
      }
      event.preventDefault();
      if (next) next.focus();
    });

    // -- fitting the table to the window ---------------------------------------------------------
    // In the app page the whole table should fit the window below the board's top without scrolling,
    // and in any page the board's width. The table's width and height grow in step with the card size,
    // so two trial layouts tell how large the cards may be; the side column takes the width left over.
    // On a wide board the hand may also stand beside the squares (three cards a row) rather than under
    // them, whichever lets the cards be larger: a short, wide window (a projector) prefers it.
    const setCell = (px) => root.style.setProperty("--lt-cell", `${px}px`);
    const frameOf = () => root.querySelector(".lt-frame");
    // where the board starts in the page, however far the page (or Voila's box around it) is scrolled
    const pageTop = () => {
      let top = root.getBoundingClientRect().top + window.scrollY;
      for (let node = root.parentElement; node; node = node.parentElement) top += node.scrollTop;
      return top;
    };
    // The room the table has and the table's size at the card size drawn now.
    function measure() {
      const frame = frameOf();
      const wide = getComputedStyle(frame).display === "grid";
      const style = getComputedStyle(root);
      const asideMin = wide ? parseFloat(style.getPropertyValue("--lt-aside-min")) || 0 : 0;
      const roomW = root.clientWidth - (wide ? asideMin + (parseFloat(getComputedStyle(frame).columnGap) || 0) : 0);
      // what a turn needs: the table and, in one column, the message and goal (a log below may scroll)
      const essentials = wide ? [turn, table] : [turn, table, live, goal, answer];
      const top = () => root.getBoundingClientRect().top;
      const height = () => Math.max(...essentials.map((part) => part.getBoundingClientRect().bottom)) - top();
      // on a wide board the table is as wide as what it holds; in one column it fills the width and
      // the squares side by side are what must fit
      const padding = () => parseFloat(getComputedStyle(table).paddingLeft) * 2;
      const width = () => {
        if (wide) return table.getBoundingClientRect().width;
        const boxes = Array.from(squares.children).map((square) => square.getBoundingClientRect());
        const hand = handRow.getBoundingClientRect();  // beside them on a phone held sideways (board.css)
        if (!handRow.hidden && boxes.length && hand.top < boxes[0].bottom) boxes.push(hand);
        return Math.max(...boxes.map((b) => b.right)) - Math.min(...boxes.map((b) => b.left)) + padding();
      };
      const inApp = Boolean(root.closest(".lt-app"));
      const roomH = window.innerHeight - (sideways() ? 0 : pageTop()) - 6;
      const tooBig = () => width() > roomW + 0.5 || (inApp && height() > roomH + 0.5);
      return { wide, roomW, roomH, inApp, width, height, tooBig };
    }
    function largestCell() {
      const { wide, roomW, roomH, inApp, width, height, tooBig } = measure();
      const low = 60;
      const high = 100;
      setCell(low);
      const [h0, w0] = [height(), width()];
      setCell(high);
      const [h1, w1] = [height(), width()];
      let cell = w1 > w0 ? low + (roomW - w0) * (high - low) / (w1 - w0) : MAX_CELL;
      if (inApp) {
        if (h1 > h0) cell = Math.min(cell, low + (roomH - h0) * (high - low) / (h1 - h0));
      } else {
        cell = Math.min(cell, 88);  // in a notebook the page scrolls anyway: a comfortable size
      }
      cell = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor(cell)));
      setCell(cell);
      // a row of buttons or cards that wraps as the table narrows is more than the straight line foresaw
      for (let tries = 0; tries < 20 && cell > MIN_CELL && tooBig(); tries += 1) {
        cell = Math.max(MIN_CELL, cell - 3);
        setCell(cell);
      }
      return { cell, wide };
    }
    // A fit forces several layouts, so a redraw fits again only when something the fit depends on has
    // changed: the room (the board's width, the window's height, where the board starts, the kind of table),
    // or what the table holds and the length of the texts that share the height with it (in tens of
    // characters). When only what it holds has changed (a move, a hand's end, a stage done) and the table
    // still fits, the cards keep their size: the squares never jump.
    let fittedRoom = "";
    let fitted = "";
    const tens = (part) => Math.round(part.textContent.length / 10);
    const roomKey = () => [root.clientWidth, window.innerHeight, Math.round(pageTop()),
                           root.classList.contains("lt-one-square"), handRow.hidden].join(" ");
    // The live region kept as tall as the tallest of `words` (an example's captions, one a step), measured in an
    // unseen copy of it as wide as it is: stepping through them then moves nothing under it, and a phone's cards,
    // fitted to keep it on the screen, keep their size (they shrank step by step, and Next rose under a finger).
    let roomFor = [];  // the words of the state drawn last (state.message_room)
    function keepRoom() {
      if (!roomFor.length && !live.style.minHeight) return;
      const wide = live.getBoundingClientRect().width;
      let tallest = 0;
      liveCopy.style.width = `${wide}px`;
      for (const said of wide > 40 ? roomFor : []) {
        liveCopy.textContent = said;
        tallest = Math.max(tallest, liveCopy.getBoundingClientRect().height);
      }
      liveCopy.textContent = "";
      const style = getComputedStyle(live);  // (its min-height is its content's: less its padding and border)
      const edges = ["paddingTop", "paddingBottom", "borderTopWidth", "borderBottomWidth"]
        .reduce((sum, side) => sum + parseFloat(style[side]), 0);
      live.style.minHeight = tallest ? `${tallest - edges}px` : "";
    }
    function fitKey() {
      const wide = getComputedStyle(frameOf()).display === "grid";
      return [root.classList.contains("lt-has-aside"), handRow.querySelectorAll(".lt-hand-card").length,
              actions.childElementCount, tens(actions), tens(turn),
              ...(wide ? [] : [tens(live), tens(goal), tens(answer)])].join(" ");
    }
    // The two squares' spaces level, whatever their titles take: a title that wraps (a classmate's long name) makes the
    // other as tall (its words at the top), so neither square's spaces stand lower than the other's.
    function fit() {
      if (!root.isConnected || !root.clientWidth) return;
      levelHeads(squares);
      keepRoom();
      watchSection();
      const [room, key] = [roomKey(), fitKey()];
      if (room === fittedRoom && key === fitted) return;
      const sameRoom = room === fittedRoom;
      [fittedRoom, fitted] = [room, key];
      if (sameRoom && !measure().tooBig()) return;
      root.classList.remove("lt-hand-beside");
      const under = largestCell();
      let best = { ...under, beside: false };
      if (under.wide && !root.classList.contains("lt-one-square") && !handRow.hidden) {
        root.classList.add("lt-hand-beside");
        const beside = largestCell();
        if (beside.cell > under.cell + 2) best = { ...beside, beside: true };
      }
      root.classList.toggle("lt-hand-beside", best.beside);
      setCell(best.cell);
      root.setAttribute("data-cell", String(best.cell));
      levelHeads(squares);  // (the cells' size sets the squares' width, which sets where a title wraps)
    }
    let fitQueued = false;
    const queueFit = () => {
      if (fitQueued) return;
      fitQueued = true;
      requestAnimationFrame(() => { fitQueued = false; fit(); });
    };
    let lastWidth = 0;
    const resized = new ResizeObserver(() => {
      if (root.clientWidth !== lastWidth) { lastWidth = root.clientWidth; queueFit(); }
    });
    resized.observe(root);
    window.addEventListener("resize", queueFit);
    // what stands above the board in its section (a panel that grows or shrinks) moves the board's top, and so does
    // what stands above the section in the app (a first visit's name offered in a row of its own on a phone, then
    // kept: the cards kept the size fitted under one header row and the message ended off the screen); the board
    // is put in its section after it is drawn, so the section and the app are watched from the first fit
    let sectionWatched = false;
    const watched = new ResizeObserver(queueFit);
    function watchSection() {
      const section = root.closest(".lt-section");
      if (sectionWatched || !section) return;
      sectionWatched = true;
      watched.observe(section);
      const app = root.closest(".lt-app");  // (its height changes with the board's too: a fit then finds nothing new)
      if (app) watched.observe(app);
    }

    // -- motion: placed cards travel to their space, the computer's after the learner's ---------
    const flights = [];
    function clearFlights() {
      for (const flight of flights.splice(0)) flight.remove();
      for (const hidden of root.querySelectorAll(".lt-arriving")) hidden.classList.remove("lt-arriving");
    }
    const moveKey = (move) => JSON.stringify([move.by, move.target, move.card]);
    // goingOn: the moves after those flown while the computer chose its reply (their flights land as they were; the
    // reply still leaves a beat after the learner's card set off, at `flownAt`)
    function fly(moves, goingOn = false) {
      if (!goingOn) clearFlights();
      if (!moves || !moves.length || reducedMotion()) return;
      const source = (move) => {
        if (move.by === "you" && flightFrom) return flightFrom;
        const from = move.by === "you" ? root.querySelector(".lt-fan") : root.querySelector(".lt-opponent-hand, .lt-stock");
        return from ? from.getBoundingClientRect() : null;
      };
      const lastAt = new Map();
      moves.forEach((move, i) => lastAt.set(move.target, i));
      let delay = goingOn ? Math.max(0, flownAt + REPLY_DELAY_MS - performance.now()) : 0;
      moves.forEach((move, i) => {
        if (i > 0 && move.by !== moves[i - 1].by) delay += REPLY_DELAY_MS;
        else if (i > 0) delay += FLIGHT_MS;
        const place = root.querySelector(`[data-k="${move.target}"]`);
        const from = source(move);
        const landing = place && place.querySelector(".lt-card");
        if (!place || !from || !landing) return;
        const to = landing.getBoundingClientRect();
        const card = move.card ? cardFace(move.card) : cardBack(null);
        card.classList.add("lt-flight");
        card.dataset.by = move.by;
        Object.assign(card.style, { left: `${to.left}px`, top: `${to.top}px`, width: `${to.width}px`,
                                    height: `${to.height}px`, "--lt-cell": getComputedStyle(root).getPropertyValue("--lt-cell") });
        document.body.append(card);
        flights.push(card);
        if (lastAt.get(move.target) === i) landing.classList.add("lt-arriving");
        const dx = from.left + from.width / 2 - (to.left + to.width / 2);
        const dy = from.top + from.height / 2 - (to.top + to.height / 2);
        const scale = Math.max(0.4, Math.min(1.6, from.width / Math.max(1, to.width)));
        card.style.visibility = "hidden";
        const motion = card.animate(
          [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})`, visibility: "visible" },
           { transform: "none", visibility: "visible" }],
          { duration: FLIGHT_MS, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "forwards" });
        motion.onfinish = () => {
          if (lastAt.get(move.target) !== i) return;  // a later card lands here: keep showing this one till then
          landing.classList.remove("lt-arriving");
          for (const other of flights) if (other.dataset.target === move.target) other.remove();
        };
        card.dataset.target = move.target;
      });
    }

    function render() {
      const state = model.get("state") || {};
      const texts = model.get("texts") || {};
      const focused = root.contains(document.activeElement) ? document.activeElement.getAttribute("data-k") : null;
      const focusedGreyed = focused !== null && greyed(document.activeElement);  // the keyboard went to a greyed one
      const buttonsBefore = Array.from(root.querySelectorAll(ACTION_BUTTONS), (button) => button.dataset.k);
      const stepBefore = offeredStep();
      const pickedBefore = Boolean(root.querySelector(".lt-hand-card.lt-selected")) || pickedThinking;
      pickedThinking = Boolean(state.thinking) && pickedBefore;
      if (state.thinking && !thinkingWhy) {
        thinkingTimer = setTimeout(() => { if (thinkingWhy) pressedWhy.textContent = thinkingWhy; }, THINKING_SAID_MS);
      } else if (!state.thinking) {
        clearTimeout(thinkingTimer);
      }
      thinkingWhy = state.thinking || "";
      if (state.thinking) busyThinking();
      root.classList.toggle("lt-thinking", Boolean(state.thinking));
      error.textContent = state.error || "";
      error.hidden = !state.error;
      turn.textContent = state.turn || "";
      turn.setAttribute("data-thinking", texts.thinking || "");  // read by the busy cue (board.css, .lt-turn::after)
      inert = state.inert || "";
      const shown = state.squares || [];
      root.classList.toggle("lt-one-square", shown.length === 1);
      root.classList.toggle("lt-has-aside", Boolean(state.aside && state.aside.length) || Boolean(state.answer));
      morphChildren(squares, shown.map(squareView));
      morphChildren(piles, sideView(state));
      piles.hidden = !piles.childElementCount;
      morphChildren(handRow, [state.hand ? handView(state.hand) : null]);
      root.style.setProperty("--lt-hand-count", String(Math.max(1, state.hand ? state.hand.cards.length : 1)));
      handRow.hidden = !state.hand;
      morphChildren(actions, actionRow(state.actions));
      const allPanels = state.aside || [];
      morphChildren(goal, allPanels.filter((p) => p.kind === "goal").map(panelView));
      morphChildren(panels, allPanels.filter((p) => p.kind !== "goal").map(panelView));
      const oldInput = answer.querySelector("input");
      const askedBefore = Boolean(oldInput && !oldInput.readOnly);  // (an answer box waiting for an answer)
      const typed = oldInput && state.answer && state.answer.enabled ? oldInput.value : "";
      answer.replaceChildren(state.answer ? answerView(state.answer) : "");
      if (typed) answer.querySelector("input").value = typed;
      const fresh = state.seq !== lastSeq;
      if (fresh) {
        lastSeq = state.seq;
        // the reason a greyed button's press said spoke of the table as it was ("The computer is choosing its reply"
        // stayed for a screen reader to find once the reply was drawn, or was said just after it)
        clearTimeout(pressedTimer);
        pressedWhy.textContent = "";
        live.className = `lt-message lt-tone-${state.tone || "info"}`;
        const message = state.message || "";
        clearTimeout(sayAgain);
        sayAgain = null;
        if (message && live.textContent === message) {
          // the same words said again (a hint asked once more): a screen reader hears a live region only when it
          // changes, so it is emptied first and given them back a moment later; the board's data-seq (which message
          // is shown) and the end of its busy state follow then, so that nothing reads the empty moment as the answer
          live.textContent = "";
          sayAgain = setTimeout(() => {
            sayAgain = null;
            live.textContent = message;
            root.setAttribute("data-seq", String(state.seq ?? ""));
            notBusy();
          }, SAY_AGAIN_MS);
        } else {
          live.textContent = message;
        }
      }
      if (!sayAgain && !state.thinking) {
        root.setAttribute("data-seq", String(state.seq ?? ""));
        notBusy();  // a redraw is the kernel's answer too (the "done" message covers intents that change nothing)
      }
      roomFor = state.message_room || [];
      fit();
      const moves = state.moves || [];
      if (state.thinking || fresh) {  // (each state drawn while the computer chooses flies the moves new since)
        const already = flown.length && moves.slice(0, flown.length).every((move, i) => moveKey(move) === flown[i]);
        if (state.thinking && !already) flownAt = performance.now();
        fly(already ? moves.slice(flown.length) : moves, Boolean(already));
        flown = state.thinking ? moves.map(moveKey) : [];
      }
      flightFrom = null;
      if (focused) {
        const again = root.querySelector(`[data-k="${focused}"]`);
        const fallback = nearbyButton(buttonsBefore, focused) || root.querySelector(".lt-hand-card") ||
          root.querySelector(".lt-space");
        // A button greyed while it had the focus hands it to the step the board offers now (an answer given: Next
        // question); with none to offer (an example's last step), it keeps it, greyed, and pressed says why: handed
        // to the nearest button, Back, the keyboard pressing Enter on turned round and went back. One greyed when the
        // keyboard went to it keeps it too.
        const greyedNow = again && greyed(again) && again.matches(ACTION_BUTTONS) && !focusedGreyed;
        const handedTo = greyedNow ? primaryStep() : null;
        if (handedTo) handedTo.focus();
        else if (again) again.focus();
        else if (buttonsBefore.includes(focused)) showTable(nextStep() || fallback);
        else if (fallback) fallback.focus();
        if (fresh && buttonsBefore.includes(focused)) showMessage();
        // A card played from the keyboard on a space or the discard pile (a card was picked and none is now, and
        // nothing was refused): the keyboard goes on to what comes next, the step offered (Next hand, Next stage)
        // or the hand, not left on the space just played, three Tabs away from the next card to pick.
        if (fresh && pickedBefore && PLACES.test(focused) && state.tone !== "warn" &&
            !root.querySelector(".lt-hand-card.lt-selected")) {
          const next = nextStep();
          if (next) next.focus({ preventScroll: true });
        }
        // A button that brought a question answered in the answer box (Practice's Next question, to "What is this
        // square worth?") hands the keyboard to that box: it stands beside the table, after the buttons in the Tab
        // order, and the keyboard was left on Next question.
        if (fresh && buttonsBefore.includes(focused) && !askedBefore && state.answer && state.answer.enabled) {
          answer.querySelector("input").focus({ preventScroll: true });
        }
      }
      const step = offeredStep();
      if (fresh && tapped && (state.tone === "warn" || (step && step !== stepBefore))) showAnswer();
      if (fresh) tapped = false;
      // The explanation beside the table is the one of the space or pile under the pointer (or focused) as drawn
      // now: one kept from before the redraw may no longer hold ("This hand is over" on a position tried again).
      const pointed = root.querySelector(".lt-space:hover, .lt-discard:hover") ||
        (root.contains(document.activeElement) && document.activeElement.matches(".lt-space, .lt-discard")
          ? document.activeElement : null);
      // (else the state's own, if any; neither where a greyed button's reason under the buttons says it already)
      notedNow = new Set((state.actions || []).filter((item) => !item.enabled && item.note && !item.wait)
        .map((item) => item.note));
      showWhy(pointed ? pointed.getAttribute("title") : state.note || "");
    }

    // A button pressed that is gone once the board is drawn again (Review this hand, Back to the match, Next hand)
    // put another table on the board: its top is brought into view where it lies above the screen (on a phone the
    // buttons stand below the table, and the page stayed scrolled down to them, the squares out of sight), and the
    // focus goes to `next` without scrolling, unless `next` is below the screen then.
    function showTable(next) {
      if (root.getBoundingClientRect().top < 0) root.scrollIntoView({ block: "start" });
      if (!next) return;
      next.focus({ preventScroll: true });
      if (next.getBoundingClientRect().bottom > window.innerHeight) next.scrollIntoView({ block: "nearest" });
    }

    // A button of the board pressed (a review's step, a hint) and a new message said: on a phone the message stands
    // below the buttons, perhaps below the screen; the page is scrolled to show it, but never so far that the table's
    // top goes above the screen (then only as far as the table's top).
    function showMessage() {
      const below = live.getBoundingClientRect().bottom - window.innerHeight;
      const room = root.getBoundingClientRect().top;
      if (below <= 0 || room <= 0) return;
      if (below <= room) live.scrollIntoView({ block: "end" });
      else root.scrollIntoView({ block: "start" });
    }

    // A button pressed that is gone put another table on the board (a review opened, a position tried again, back
    // to the match): the keyboard goes to what moves it on, the step offered as primary (a review's next move, Next
    // hand), else the hand's card to play, never to a side button that happened to stand next to the one pressed.
    function nextStep() {
      return primaryStep() || (inert ? null : root.querySelector('.lt-hand-card[tabindex="0"], .lt-hand-card'));
    }

    // The button of the step the board offers to move things on (Next stage, Next hand, a review's next move), or null.
    function primaryStep() {
      return root.querySelector('.lt-actions .lt-primary:not([aria-disabled="true"])');
    }

    // A card or a space tapped and refused (or a lesson's move taken back), or a move that ended a stage or a hand:
    // on a phone the message stands under the table, often below the screen, with the step it now offers (Next stage,
    // Next hand) just above it. After a refusal the table looks as it did, so nothing would seem to have happened;
    // the page is scrolled just far enough to show the words, which say why and what to do next.
    function showAnswer() {
      if (live.getBoundingClientRect().bottom > window.innerHeight) live.scrollIntoView({ block: "nearest" });
    }

    // Which step the board offers to move things on (its button's data-k), or null.
    function offeredStep() {
      const primary = primaryStep();
      return primary ? primary.dataset.k : null;
    }

    // A button that was focused and is now gone, with no step to move on to, hands the focus to the nearest button
    // still offered among those that stood around it (the next first), so a keyboard stays with the buttons instead
    // of landing on a card.
    function nearbyButton(before, focused) {
      const at = before.indexOf(focused);
      if (at < 0) return null;
      const offered = (k) => {
        const button = root.querySelector(`[data-k="${k}"]`);
        return button && !greyed(button) && button.matches(ACTION_BUTTONS) ? button : null;
      };
      for (let step = 1; step < before.length; step++) {
        for (const index of [at + step, at - step]) {
          const button = index >= 0 && index < before.length ? offered(before[index]) : null;
          if (button) return button;
        }
      }
      const now = Array.from(root.querySelectorAll(ACTION_BUTTONS)).filter((button) => !greyed(button));
      return now.find((button) => button.classList.contains("lt-primary")) || now[0] || null;
    }

    model.on("change:state", render);
    model.on("change:texts", render);
    model.on("msg:custom", onMessage);
    render();
    requestAnimationFrame(fit);
    return () => {
      clearTimeout(lostTimer);
      clearTimeout(sayAgain);
      clearTimeout(pressedTimer);
      clearTimeout(aliveTimer);
      clearTimeout(goneTimer);
      clearInterval(asking);
      if (heard) {
        kernel.connectionStatusChanged.disconnect(onConnection);
        kernel.statusChanged.disconnect(onStatus);
      }
      clearFlights();
      resized.disconnect();
      watched.disconnect();
      window.removeEventListener("resize", queueFit);
      model.off("change:state", render);
      model.off("change:texts", render);
      model.off("msg:custom", onMessage);
      document.removeEventListener("change", onMenu);
    };
  },
};
