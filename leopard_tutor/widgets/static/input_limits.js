// InputLimits front end (leopard_tutor/widgets/input_limits.py). Every text box of the app (an <input> of text or a
// <textarea>), now and whenever one is drawn, takes at most `most` characters: the browser cuts a longer paste, and
// the box's reader then says it is too long, where a value of megabytes would have closed the page's connection.
// It draws nothing.

const BOXES = "input:not([type]), input[type=text], input[type=search], textarea";

export default {
  render({ model, el }) {
    el.hidden = true;
    let app = null;
    const limit = () => {
      app = app || el.closest(".lt-app");
      if (!app) return;
      const most = model.get("most");
      for (const box of app.querySelectorAll(BOXES)) {
        if (box.maxLength !== most) box.maxLength = most;
      }
    };
    const drawn = new MutationObserver(() => limit());
    let frame = 0;
    const start = (tries) => {  // the app holds this widget: look for it once this one is in the page
      limit();
      if (app) drawn.observe(app, { childList: true, subtree: true });
      else if (tries > 0) frame = requestAnimationFrame(() => start(tries - 1));
    };
    frame = requestAnimationFrame(() => start(600));
    model.on("change:most", limit);
    return () => {
      cancelAnimationFrame(frame);
      drawn.disconnect();
      model.off("change:most", limit);
    };
  },
};
