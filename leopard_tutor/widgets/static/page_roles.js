// PageRoles front end (leopard_tutor/widgets/page_roles.py). On a page that is the app's alone (Voilà's or the
// static site's: body[data-voila], with no main landmark of the page's own) the app's header (.lt-head) is the
// banner and its sections (the Tab widget: the row of tabs and the panels) the main landmark. The row of tabs gets
// its name ("sections_label"); each tab controls its panel (aria-controls) and each panel is a tabpanel named by
// its tab (aria-labelledby). Lumino draws the tabs (role=tab, aria-selected, the arrow keys); when the focus leaves
// their row, the selected tab is again the one in the Tab order. Set again whenever a tab or a panel is drawn anew
// or the name changes. There too, each note above the sections (.lt-link-note, .lt-storage-note) is a region named
// "link_note_label" or "storage_note_label" while it says something, and no landmark while it is empty. The
// header's About box (details.lt-help) closes at Escape (the keyboard back on its button), when the focus moves out
// of it and at a click elsewhere: it lies over the page, and must not hide what the keyboard is on. A press (a
// finger's tap, a click) on a greyed control that says why (.lt-says-why: a button by its title, a menu of Play's row
// by the menus' sentence of the note under that row, .lt-menus-why) shows the reason beside it (.lt-why-bubble), until
// the next press, Escape, a scroll, a resize, the keyboard moving to another control or a mouse moving off it: a
// finger has no hover to show a title. Such a control stays in the Tab order while greyed ("focusable when
// disabled", as WAI-ARIA's practices ask of a toolbar's controls): the `disabled` its widget sets is kept as
// aria-disabled, its reason is its description (a button's title; a menu's, the menus' sentence, aria-describedby)
// and a press on it, or Enter or Space there, changes nothing (a menu's keys and list are held too); from the keyboard
// it shows the reason as a press does. A row that asks a question
// (.lt-asks: its sentence .lt-question-words, then its answers' buttons) has each button described by the sentence
// (aria-describedby), from the moment the row is drawn: the keyboard put on an answer hears the question too, and
// Escape there presses its answer that loses nothing (.lt-keeps: Keep playing). Enter in a box of a row that
// submits (.lt-submits: a table's code) presses its button (.lt-submit: Join). Each
// menu of the app (a <select>) is described by how a choice is made in it (MenuKeys: Enter, or leaving it; Escape
// puts it back), which a screen reader's user stepping through it would not otherwise know. On a page of its own, a
// link first in the Tab order ("skip_label", seen while the keyboard is on it) takes the keyboard to the open
// section's board. Else it draws nothing.

let apps = 0;

export default {
  render({ model, el }) {
    el.hidden = true;
    const prefix = `lt-app${++apps}-${Math.random().toString(36).slice(2, 6)}`;
    const mark = (node, name, value) => {
      if (node.getAttribute(name) !== value) node.setAttribute(name, value);
    };
    let app = null;
    const parts = () => {
      app = app || el.closest(".lt-app");
      const tabs = app && app.querySelector(":scope > .jupyter-widget-tab");
      return {
        head: app && app.querySelector(":scope > .lt-head"),
        tabs,
        list: tabs && tabs.querySelector(":scope > .lm-TabBar [role=tablist]"),
        panels: tabs && tabs.querySelector(":scope > .widget-tab-contents"),
      };
    };
    const watched = new MutationObserver(() => place());
    let questions = 0;
    const describe = () => {  // each row asking a question: its buttons described by its sentence; each menu by how
      if (!app) return;       // a choice is made in it (MenuKeys)
      const how = model.get("menus_how");
      for (const menu of app.querySelectorAll("select")) if (how) mark(menu, "aria-description", how);
      for (const row of app.querySelectorAll(".lt-asks")) {
        const words = row.querySelector(".lt-question-words");
        if (!words) continue;
        if (!words.id) words.id = `${prefix}-question-${++questions}`;
        for (const button of row.querySelectorAll("button")) mark(button, "aria-describedby", words.id);
      }
    };
    const drawn = new MutationObserver(() => {
      describe();
      reachable();
    });
    const notes = [[".lt-link-note", "link_note_label"], [".lt-storage-note", "storage_note_label"]];
    const name = (note, label) => {  // a named region while the note says something, else no landmark
      watched.observe(note, { childList: true, subtree: true, characterData: true });
      if (note.textContent.trim()) {
        mark(note, "role", "region");
        mark(note, "aria-label", model.get(label));
      } else {
        note.removeAttribute("role");
        note.removeAttribute("aria-label");
      }
    };
    // On a page of its own, a link first in the Tab order, seen once the keyboard is on it, takes the keyboard past
    // the header and the section's menus to the open section's board: its hand's card in the Tab order, where a turn
    // begins (as a new table's hand takes the keyboard: board.js), else its space, else its first button or answer box
    // that takes a press (the header, Play's row and the tabs were a dozen Tabs before the first card; a question
    // answered by buttons greys its card, where the link used to land).
    const skip = document.createElement("a");
    skip.className = "lt-skip";
    skip.href = "#";
    skip.addEventListener("click", (event) => {
      event.preventDefault();
      const open = app && app.querySelector(":scope > .jupyter-widget-tab > .widget-tab-contents > :not(.lm-mod-hidden)");
      const board = open && open.querySelector(".lt-board");
      // (a question answered by its own buttons or box greys the table: the keyboard goes to the answers)
      const usable = (selector) => [...board.querySelectorAll(selector)]
        .find((node) => node.getAttribute("aria-disabled") !== "true" && !node.readOnly && node.getClientRects().length);
      const target = board && (usable('.lt-hand-card[tabindex="0"]') || usable('.lt-space[tabindex="0"]') ||
        usable(`${CONTROLS},input`) || board.querySelector(CONTROLS));
      if (!target) return;
      target.scrollIntoView({ block: "nearest" });
      target.focus({ preventScroll: true });
    });
    const place = () => {
      const { head, tabs, list, panels } = parts();
      if (!app) return;
      watched.observe(app, { childList: true });
      if (!tabs) return;
      const mains = [...document.querySelectorAll("main, [role=main]")].filter((node) => node !== tabs);
      if (document.body.hasAttribute("data-voila") && !mains.length) {
        if (skip.textContent !== model.get("skip_label")) skip.textContent = model.get("skip_label");
        if (app.firstElementChild !== skip) app.prepend(skip);
        mark(tabs, "role", "main");
        if (head) mark(head, "role", "banner");
        for (const [selector, label] of notes) {
          const note = app.querySelector(`:scope > ${selector}`);
          if (note) name(note, label);
        }
      }
      watched.observe(tabs, { childList: true });
      if (!list || !panels) return;
      watched.observe(list, { childList: true });
      watched.observe(panels, { childList: true });
      mark(list, "aria-label", model.get("sections_label"));
      const shown = [...panels.children];
      [...list.querySelectorAll(":scope > [role=tab]")].forEach((tab, index) => {
        const panel = shown[index];
        if (!panel) return;
        if (!tab.id) tab.id = `${prefix}-tab-${index}`;
        if (!panel.id) panel.id = `${prefix}-panel-${index}`;
        mark(tab, "aria-controls", panel.id);
        mark(panel, "role", "tabpanel");
        mark(panel, "aria-labelledby", tab.id);
      });
    };
    const left = (event) => {  // the focus left the row of tabs: Tab comes back to the selected one
      const { list } = parts();
      if (!list || !list.contains(event.target) || list.contains(event.relatedTarget)) return;
      for (const tab of list.querySelectorAll(":scope > [role=tab]")) {
        mark(tab, "tabindex", tab.getAttribute("aria-selected") === "true" ? "0" : "-1");
      }
    };
    const about = (event) => {  // the About box open, and the keyboard or the pointer elsewhere: it closes
      const box = app && app.querySelector(":scope > .lt-head .lt-help[open]");
      if (!box) return;
      if (event.type === "keydown") {
        if (event.key !== "Escape" || !(box.contains(event.target) || event.target === document.body)) return;
        box.open = false;
        box.querySelector("summary").focus();
      } else if (event.type === "focusout") {
        if (box.contains(event.target) && event.relatedTarget && !box.contains(event.relatedTarget)) box.open = false;
      } else if (!box.contains(event.target)) {
        box.open = false;
      }
    };
    const CONTROLS = "button,select";
    // Greyed yet reachable: the `disabled` a widget's view sets on a control that says why (a button, a menu) is taken
    // over, so that the control is never disabled in the page but aria-disabled; `disabled` reads back as the view set
    // it (this file's checks below, the widgets' own).
    const greyedBy = new WeakMap();  // control -> whether its widget greys it now
    const NATIVE = (control) => Object.getOwnPropertyDescriptor(
      control instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLButtonElement.prototype, "disabled");
    const grey = (control, greyed) => {
      greyedBy.set(control, greyed);
      NATIVE(control).set.call(control, false);
      if (greyed) mark(control, "aria-disabled", "true");
      else control.removeAttribute("aria-disabled");
      if (control.matches("select")) describeMenu(control);  // (a button's title is its reason: its description)
    };
    const describeMenu = (menu) => {  // a greyed menu described by the menus' own sentence of the note under the row
      const words = greyedBy.get(menu) ? menuWhy(menu) : null;
      if (words && !words.id) words.id = `${prefix}-menus-why`;
      if (words) mark(menu, "aria-describedby", words.id);
      else menu.removeAttribute("aria-describedby");
    };
    const reachable = () => {  // each control that says why, taken over once (a widget drawn anew is a new control)
      if (!app) return;
      for (const host of app.querySelectorAll(".lt-says-why")) {
        const control = host.matches(CONTROLS) ? host : host.querySelector(CONTROLS);
        if (!control) continue;
        if (greyedBy.has(control)) {  // taken over already: a menu's description again (the note may be drawn anew)
          if (control.matches("select")) describeMenu(control);
          continue;
        }
        const greyed = NATIVE(control).get.call(control);
        Object.defineProperty(control, "disabled", {
          configurable: true, get: () => greyedBy.get(control), set: (value) => grey(control, Boolean(value)),
        });
        grey(control, greyed);
      }
    };
    const greyedAt = (event) => {  // the greyed control (taken over) an event is on, or null
      const control = event.target instanceof Element ? event.target.closest(CONTROLS) : null;
      return control && greyedBy.get(control) ? control : null;
    };
    const shown = new WeakMap();  // a greyed menu -> the choice it showed when the pointer or the keyboard came to it
    const held = (event) => {  // a press on a greyed control, or a key that would choose in a greyed menu: nothing
      const control = greyedAt(event);
      if (!control) return;
      const menu = control.matches("select");
      if (event.type === "pointerdown" || event.type === "focusin") {
        if (menu) shown.set(control, control.selectedIndex);
        return;
      }
      if (event.type === "keydown" && (!menu || ["Tab", "Escape"].includes(event.key))) return;
      if (event.type === "mousedown" && !menu) return;
      if (event.type === "change" && shown.has(control)) control.selectedIndex = shown.get(control);
      event.preventDefault();
      event.stopImmediatePropagation();
      const keyed = event.type === "keydown" && [" ", "Enter"].includes(event.key);  // (a button's come as a click)
      if (keyed || (event.type === "click" && event.detail === 0)) why(event);  // Enter or Space: as a press shows
    };
    let bubble = null;
    let bubbleFor = null;  // the control whose reason the bubble shows
    const unwhy = () => {
      if (bubble) bubble.remove();
      if (bubbleFor) bubbleFor.removeEventListener("pointerleave", mouseLeft);
      bubble = bubbleFor = null;
    };
    function mouseLeft(event) {  // a mouse moved off the control: the bubble would lie over what it moves to
      if (event.pointerType === "mouse") unwhy();
    }
    const movedOn = (event) => {  // the keyboard on another control: the bubble would seem to give that one's reason
      if (bubble && event.target !== bubbleFor) unwhy();
    };
    const menuWhy = (control) => {  // the menus' sentence of the note under Play's row (the rest says the row's buttons')
      const play = control.closest(".lt-play");
      return play && play.querySelector(":scope > .lt-controls > .lt-picks-note .lt-menus-why");
    };
    const reason = (control) => {
      if (control.matches("select")) {
        const words = menuWhy(control);
        return words ? words.textContent.trim() : "";
      }
      return (control.getAttribute("title") || "").trim();
    };
    const why = (event) => {  // a press: the reason a greyed control is greyed, shown beside it
      unwhy();
      const host = app && event.target instanceof Element && event.target.closest(".lt-says-why");
      if (!host || !app.contains(host)) return;
      const control = host.matches(CONTROLS) ? host : host.querySelector(CONTROLS);
      const words = control && control.disabled ? reason(control) : "";
      if (!words) return;
      bubbleFor = control;
      control.addEventListener("pointerleave", mouseLeft);
      bubble = document.createElement("div");
      bubble.className = "lt-why-bubble";
      bubble.setAttribute("role", "status");
      document.body.append(bubble);
      bubble.textContent = words;
      const at = control.getBoundingClientRect();
      const room = bubble.getBoundingClientRect();
      const below = at.bottom + 6 + room.height <= window.innerHeight;
      bubble.style.top = `${below ? at.bottom + 6 : Math.max(4, at.top - 6 - room.height)}px`;
      bubble.style.left = `${Math.max(8, Math.min(at.left, window.innerWidth - room.width - 8))}px`;
    };
    const declined = (event) => {  // Escape in a row that asks a question answers it with the answer that loses nothing
      if (event.key !== "Escape" || !(event.target instanceof Element)) return;
      const row = app && event.target.closest(".lt-asks");
      const keeps = row && app.contains(row) ? row.querySelector(".lt-keeps") : null;
      if (keeps && !keeps.disabled) keeps.click();
    };
    const submitted = (event) => {  // Enter in a box of a row that submits (.lt-submits) presses its .lt-submit
      if (event.key !== "Enter" || !(event.target instanceof HTMLInputElement)) return;
      const row = app && event.target.closest(".lt-submits");  // (at keyup: the box has told its value, at Enter)
      const button = row && app.contains(row) ? row.querySelector("button.lt-submit") : null;
      if (button && !button.disabled) button.click();
    };
    const unwhyAt = (event) => {
      if (event.type !== "keydown" || event.key === "Escape") unwhy();
    };
    const closers = ["keydown", "scroll", "resize"];
    const events = ["keydown", "focusout", "pointerdown"];
    const presses = ["click", "keydown", "mousedown", "pointerdown", "focusin", "change"];
    const start = (tries) => {
      place();
      if (app) {
        describe();
        reachable();
        drawn.observe(app, { childList: true, subtree: true });
      } else if (tries > 0) {
        requestAnimationFrame(() => start(tries - 1));
      }
    };
    requestAnimationFrame(() => start(600));  // once the widget is in the page
    document.addEventListener("focusout", left, true);
    for (const kind of events) document.addEventListener(kind, about, true);
    document.addEventListener("pointerdown", why, true);
    for (const kind of presses) document.addEventListener(kind, held, true);
    document.addEventListener("focusin", movedOn, true);
    document.addEventListener("keydown", declined, true);
    document.addEventListener("keyup", submitted, true);
    for (const kind of closers) window.addEventListener(kind, unwhyAt, true);
    const labels = ["sections_label", "skip_label", ...notes.map(([, label]) => label)];
    for (const label of labels) model.on(`change:${label}`, place);
    model.on("change:menus_how", describe);
    return () => {
      model.off("change:menus_how", describe);
      watched.disconnect();
      drawn.disconnect();
      document.removeEventListener("focusout", left, true);
      for (const kind of events) document.removeEventListener(kind, about, true);
      document.removeEventListener("pointerdown", why, true);
      for (const kind of presses) document.removeEventListener(kind, held, true);
      document.removeEventListener("focusin", movedOn, true);
      document.removeEventListener("keydown", declined, true);
      document.removeEventListener("keyup", submitted, true);
      for (const kind of closers) window.removeEventListener(kind, unwhyAt, true);
      unwhy();
      for (const label of labels) model.off(`change:${label}`, place);
      skip.remove();
    };
  },
};
