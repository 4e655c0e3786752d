// StageTabs front end (leopard_tutor/widgets/stage_tabs.py). In its Learn section (.lt-learn) the row of stage
// buttons (.lt-stages) is a tablist named "label", each button a tab named names[i], the one at "selected" the
// selected tab, each controlling the board under the row, which is their tabpanel, named by the selected tab. An
// open tab's tooltip (the stage's title, for the eye) is part of its name, so it is not its description as well; a
// locked tab is greyed (aria-disabled, page_roles.js) and its tooltip, why it is locked, is its description.
// One tab is in the Tab order (a roving tabindex): the one in focus while the focus is in the row, else the
// selected one. ArrowLeft and ArrowRight (round the row), Home and End move the focus along the stages, the locked
// ones too (their names say "locked"); Enter and Space are the buttons' own (a click: the kernel opens the stage; on
// a locked one, page_roles.js shows why instead). Set again whenever the buttons are
// drawn anew (a button's redraw takes its tabindex off) or the names or the selected stage change. It draws
// nothing.

let rows = 0;
const MOVES = new Set(["ArrowLeft", "ArrowRight", "Home", "End"]);

export default {
  render({ model, el }) {
    el.hidden = true;
    const prefix = `lt-stages${++rows}-${Math.random().toString(36).slice(2, 6)}`;
    const mark = (node, name, value) => {
      if (node.getAttribute(name) !== value) node.setAttribute(name, value);
    };
    let section = null;
    const parts = () => {
      section = section || el.closest(".lt-learn");
      const row = section && section.querySelector(":scope > .lt-stages");
      const board = section && section.querySelector(":scope > * > .lt-board");
      return { row, panel: board && board.parentElement, buttons: row ? [...row.querySelectorAll(":scope > .lt-stage")] : [] };
    };
    const watched = new MutationObserver(() => place());
    // leaving: the focus is on its way out of the row (focusout), so the selected tab takes the Tab order now, before
    // a Shift+Tab that may already be queued (input outruns a timer) comes back to the row.
    const place = (leaving = false) => {
      const { row, panel, buttons } = parts();
      if (!row) return;
      watched.observe(section, { childList: true, subtree: true });  // the board, its panel, may come after the row
      watched.observe(row, { childList: true, subtree: true, attributes: true, attributeFilter: ["tabindex", "disabled", "aria-disabled"] });
      const names = model.get("names") || [];
      const selected = model.get("selected");
      mark(row, "role", "tablist");
      mark(row, "aria-label", model.get("label"));
      if (panel) {
        if (!panel.id) panel.id = `${prefix}-board`;
        mark(panel, "role", "tabpanel");
      }
      const focused = !leaving && buttons.includes(document.activeElement) ? document.activeElement : null;
      const holder = focused || buttons[selected];
      buttons.forEach((button, index) => {
        if (!button.id) button.id = `${prefix}-stage-${index}`;
        mark(button, "role", "tab");
        if (names[index]) mark(button, "aria-label", names[index]);
        if (button.getAttribute("aria-disabled") === "true") button.removeAttribute("aria-description");  // why locked
        else mark(button, "aria-description", "");  // its tooltip (the stage's title) is in its name: not read twice
        mark(button, "aria-selected", String(index === selected));
        if (panel) mark(button, "aria-controls", panel.id);
        mark(button, "tabindex", button === holder ? "0" : "-1");
      });
      if (panel && buttons[selected]) mark(panel, "aria-labelledby", buttons[selected].id);
      bringIntoRow(row, buttons[selected], selected);
    };
    // A row wider than the screen (a phone) scrolls sideways: the stage selected is brought into its view once each
    // time the selection changes, by the row's own scroll (never the page's: the learner may be down at the board),
    // and a swipe of the learner's is then left as it is.
    let broughtIn = null;
    const bringIntoRow = (row, button, selected) => {
      if (!button || selected === broughtIn || !row.clientWidth) return;
      broughtIn = selected;
      const shown = row.getBoundingClientRect(), at = button.getBoundingClientRect();
      if (at.left < shown.left || at.right > shown.right) {
        row.scrollLeft += at.left + at.width / 2 - (shown.left + shown.width / 2);
      }
    };
    const mine = (target) => {
      const { row } = parts();
      return row && target instanceof HTMLElement && target.parentElement === row && target.matches(".lt-stage");
    };
    const onKey = (event) => {
      if (!MOVES.has(event.key) || !mine(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
      const all = parts().buttons;
      const at = all.indexOf(event.target);
      const next = { ArrowLeft: all[(at - 1 + all.length) % all.length], ArrowRight: all[(at + 1) % all.length],
                     Home: all[0], End: all[all.length - 1] }[event.key];
      if (!next) return;
      event.preventDefault();
      next.focus();
      place();
    };
    const onLeave = (event) => {
      if (mine(event.target) && !mine(event.relatedTarget)) place(true);
    };
    const redraw = () => place();
    const start = (tries) => {
      place();
      if (!section && tries > 0) requestAnimationFrame(() => start(tries - 1));
    };
    requestAnimationFrame(() => start(600));  // once the widget is in the page
    document.addEventListener("keydown", onKey);
    document.addEventListener("focusout", onLeave, true);
    model.on("change:names", redraw);
    model.on("change:selected", redraw);
    return () => {
      watched.disconnect();
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("focusout", onLeave, true);
      model.off("change:names", redraw);
      model.off("change:selected", redraw);
    };
  },
};
