// PageAddress front end (leopard_tutor/widgets/page_address.py): takes the settings the model names ("forgotten")
// out of the page's address, now and whenever the list changes, so that a reload does not follow them again, and
// puts those of "kept" in it (a value "" takes its setting out), so that a reload does. It draws nothing. A page
// whose address cannot be changed keeps it.

export default {
  render({ model, el }) {
    el.hidden = true;
    const forget = () => {
      try {
        const address = new URL(window.location.href);
        const names = (model.get("forgotten") || []).filter((name) => address.searchParams.has(name));
        if (!names.length) return;
        for (const name of names) address.searchParams.delete(name);
        window.history.replaceState(window.history.state, "", address.href);
      } catch (refused) {
        // (a sandboxed frame)
      }
    };
    const keep = () => {
      try {
        const address = new URL(window.location.href);
        for (const [name, value] of Object.entries(model.get("kept") || {})) {
          if (value) address.searchParams.set(name, value);
          else address.searchParams.delete(name);
        }
        if (address.href !== window.location.href) window.history.replaceState(window.history.state, "", address.href);
      } catch (refused) {
        // (a sandboxed frame)
      }
    };
    forget();
    keep();
    model.on("change:forgotten", forget);
    model.on("change:kept", keep);
    return () => {
      model.off("change:forgotten", forget);
      model.off("change:kept", keep);
    };
  },
};
