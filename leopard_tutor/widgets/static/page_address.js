// PageAddress front end (leopard_tutor/widgets/page_address.py): takes the settings the model names ("forgotten")
// out of the page's address, now and whenever the list changes, so that a reload does not follow them again. It
// draws nothing. A page whose address cannot be changed keeps it.

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
    forget();
    model.on("change:forgotten", forget);
    return () => model.off("change:forgotten", forget);
  },
};
