// PageAddress front end (leopard_tutor/widgets/page_address.py): takes the settings the model names ("forgotten")
// out of the page's address, now and whenever the list changes, so that a reload does not follow them again, and
// puts those of "kept" in it (a value "" takes its setting out), so that a reload does. A change of "kept" that came
// with a greater "entry" is a new entry of the browser's history (Back brings the one before it again); any other
// change is made in place. When Back or Forward brings an entry again, the page tells the kernel that entry's
// settings of "entries" ({type: "returned", settings: {name: value or ""}}) and makes the others as the model keeps
// them, in place. It draws nothing. A page whose address cannot be changed keeps it.

const MAX_SETTING = 100;  // characters of a setting told to the kernel (page_address.py refuses more)

export default {
  render({ model, el }) {
    el.hidden = true;
    const entries = () => model.get("entries") || [];
    // The address as the model would have it, the settings of `entries` left as they are if `leaveEntries`.
    const wanted = (leaveEntries) => {
      const address = new URL(window.location.href);
      for (const name of model.get("forgotten") || []) address.searchParams.delete(name);
      for (const [name, value] of Object.entries(model.get("kept") || {})) {
        if (leaveEntries && entries().includes(name)) continue;
        if (value) address.searchParams.set(name, value);
        else address.searchParams.delete(name);
      }
      return address;
    };
    let entry = model.get("entry");  // the count of entries made when the address was last changed
    const settle = () => {
      try {
        const address = wanted(false);
        const newEntry = model.get("entry") !== entry;
        entry = model.get("entry");
        if (address.href === window.location.href) return;
        if (newEntry) window.history.pushState(null, "", address.href);
        else window.history.replaceState(window.history.state, "", address.href);
      } catch (refused) {
        // (a sandboxed frame)
      }
    };
    const returned = () => {
      try {
        const address = wanted(true);
        if (address.href !== window.location.href) {
          window.history.replaceState(window.history.state, "", address.href);
        }
        const settings = {};
        for (const name of entries()) settings[name] = (address.searchParams.get(name) || "").slice(0, MAX_SETTING);
        if (entries().length) model.send({ type: "returned", settings });
      } catch (refused) {
        // (a sandboxed frame, or the kernel gone: the next page is drawn from its own address)
      }
    };
    settle();
    model.on("change:forgotten", settle);
    model.on("change:kept", settle);
    window.addEventListener("popstate", returned);
    return () => {
      model.off("change:forgotten", settle);
      model.off("change:kept", settle);
      window.removeEventListener("popstate", returned);
    };
  },
};
