// PageAddress front end (leopard_tutor/widgets/page_address.py): takes the settings the model names ("forgotten")
// out of the page's address, now and whenever the list changes, so that a reload does not follow them again, and
// puts those of "kept" in it (a value "" takes its setting out), so that a reload does. It draws nothing. A page
// whose address cannot be changed keeps it.

export default {
  render({ model, el }) {
    el.hidden = true;
    const settle = () => {
      try {
        const address = new URL(window.location.href);
        for (const name of model.get("forgotten") || []) address.searchParams.delete(name);
        for (const [name, value] of Object.entries(model.get("kept") || {})) {
          if (value) address.searchParams.set(name, value);
          else address.searchParams.delete(name);
        }
        if (address.href !== window.location.href) window.history.replaceState(window.history.state, "", address.href);
      } catch (refused) {
        // (a sandboxed frame)
      }
    };
    settle();
    model.on("change:forgotten", settle);
    model.on("change:kept", settle);
    return () => {
      model.off("change:forgotten", settle);
      model.off("change:kept", settle);
    };
  },
};
