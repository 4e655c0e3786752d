// HeaderFit front end (leopard_tutor/widgets/header_fit.py). The app's header stands over the right end of
// the row of tabs (app.css); where it would cover a tab (a narrow window, or words longer in another
// language) the app first gets the class lt-head-tight (the title is left to the page's own), and if the
// header still covers a tab, lt-head-above instead (the header stands above the tabs, title and all).
// Measured again whenever the app's width or the header's contents change. It draws nothing.

const MARGIN = 8;  // px kept free between the last tab and the header

export default {
  render({ el }) {
    el.hidden = true;
    let app = null;
    const place = () => {
      app = app || el.closest(".lt-app");
      const head = app && app.querySelector(":scope > .lt-head");
      const tabs = app ? app.querySelectorAll(":scope > .jupyter-widget-tab > .lm-TabBar .lm-TabBar-tab") : [];
      if (!head || !tabs.length) return;
      const covers = () => {
        const lastTab = tabs[tabs.length - 1].getBoundingClientRect();
        const box = head.getBoundingClientRect();
        return box.left < lastTab.right + MARGIN && box.top < lastTab.bottom && box.bottom > lastTab.top;
      };
      app.classList.remove("lt-head-above", "lt-head-tight");
      if (getComputedStyle(head).position !== "absolute" || !covers()) return;  // above already (a phone), or fits
      app.classList.add("lt-head-tight");
      if (!covers()) return;
      app.classList.remove("lt-head-tight");
      app.classList.add("lt-head-above");
    };
    const resized = new ResizeObserver(() => place());
    const start = () => {
      place();
      if (!app) return;
      resized.observe(app);
      const head = app.querySelector(":scope > .lt-head");
      if (!head) return;
      resized.observe(head);
      // a part of it that changes its width (a name offered, then kept) leaves a header above the tabs as wide as before
      for (const part of head.children) resized.observe(part);
    };
    requestAnimationFrame(start);  // once the widget is in the page
    return () => resized.disconnect();
  },
};
