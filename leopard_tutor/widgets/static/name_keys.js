// NameKeys front end (leopard_tutor/widgets/name_keys.py), inside the student's name bar (.lt-student). Escape in
// the bar's "Your name" box (.lt-student-box) puts back the text the box had when the keyboard came into it (so that
// leaving it keeps nothing) and tells the kernel ({type: "escape"}), which shows the name as it was; Enter on the
// text it had tells the kernel ({type: "enter"}), which keeps it (the box itself tells only a change). The box is
// described by what the two keys do (model "how"), from the moment the keyboard comes into it. The bar's line
// saying what became of the name (.lt-student-said) is a polite live region (role "status") from the moment it is
// drawn. It draws nothing.

export default {
  render({ model, el }) {
    el.hidden = true;
    let bar = null;
    let before = null;  // the name box's text when the keyboard came into it
    const box = (target) => {
      bar = bar || el.closest(".lt-student");
      return bar && target instanceof HTMLInputElement && target.closest(".lt-student-box") && bar.contains(target);
    };
    const mark = () => {
      bar = bar || el.closest(".lt-student");
      const said = bar && bar.querySelector(":scope > .lt-student-said");
      if (said && said.getAttribute("role") !== "status") said.setAttribute("role", "status");
      return said;
    };
    const onFocus = (event) => {
      if (!box(event.target)) return;
      before = event.target.value;
      const how = model.get("how");
      if (how && event.target.getAttribute("aria-description") !== how) event.target.setAttribute("aria-description", how);
    };
    const onKey = (event) => {
      if (!box(event.target)) return;
      if (event.key === "Escape") {
        event.preventDefault();
        if (before !== null) event.target.value = before;
        model.send({ type: "escape" });
      } else if (event.key === "Enter" && event.target.value === before) {
        model.send({ type: "enter" });  // the name as it was: the box tells no change, so the bar is told here
      }
    };
    let frame = 0;
    const start = (tries) => {  // the bar draws its parts with this one: mark its line once it is in the page
      if (!mark() && tries > 0) frame = requestAnimationFrame(() => start(tries - 1));
    };
    frame = requestAnimationFrame(() => start(600));
    document.addEventListener("focusin", onFocus, true);
    document.addEventListener("keydown", onKey, true);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener("focusin", onFocus, true);
      document.removeEventListener("keydown", onKey, true);
    };
  },
};
