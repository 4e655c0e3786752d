// MenuKeys front end (leopard_tutor/widgets/menu_keys.py). A closed menu of the app (a <select>) moved through with
// the arrow keys, Home, End, Page Up or Down, or by typing an option's first letters, changes its shown choice at each
// key, as browsers do; the app is told only once the choice is made: at Enter, or when the focus leaves the menu.
// Escape puts back the choice the menu had. A choice made with the mouse, or in the menu's opened list, is told at
// once, as before. It draws nothing.

const STEPS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);

export default {
  render({ el }) {
    el.hidden = true;
    const held = new Map();  // a menu whose change is held back -> the value it had before
    let stepping = null;  // the menu a step key is pressing now (its change, if any, comes before the next task)
    let before = "";
    let telling = false;
    const inApp = (target) => target instanceof HTMLSelectElement && el.closest(".lt-app")?.contains(target);
    const tell = (select) => {
      held.delete(select);
      telling = true;
      try {
        select.dispatchEvent(new Event("change", { bubbles: true }));
      } finally {
        telling = false;
      }
    };
    const onKey = (event) => {
      const select = event.target;
      if (!inApp(select)) return;
      if (held.has(select) && event.key === "Enter") {
        event.preventDefault();
        tell(select);
      } else if (held.has(select) && event.key === "Escape") {
        select.value = held.get(select);
        held.delete(select);
      } else if ((STEPS.has(event.key) || event.key.length === 1) && !event.altKey && !event.ctrlKey && !event.metaKey) {
        stepping = select;
        before = select.value;
        setTimeout(() => { if (stepping === select) stepping = null; }, 0);
      }
    };
    const onChange = (event) => {
      const select = event.target;
      if (telling || select !== stepping) return;
      event.stopImmediatePropagation();  // the widget is not told yet
      if (!held.has(select)) held.set(select, before);
    };
    const onLeave = (event) => {
      if (held.has(event.target)) tell(event.target);
    };
    document.addEventListener("keydown", onKey, true);
    document.addEventListener("change", onChange, true);
    document.addEventListener("focusout", onLeave, true);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      document.removeEventListener("change", onChange, true);
      document.removeEventListener("focusout", onLeave, true);
    };
  },
};
