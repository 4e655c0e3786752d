// RulesSheetLink front end: a link that opens the rules summary (the "sheet" HTML document of the rules in
// play, named in the link's tooltip) in a new tab, from a blob URL made here in the page, so it needs no
// server route and works offline.

export default {
  render({ model, el }) {
    const link = document.createElement("a");
    link.className = "lt-rules-sheet-link";
    link.target = "_blank";
    link.rel = "noopener";
    let url = null;
    const update = () => {
      if (url) URL.revokeObjectURL(url);
      url = URL.createObjectURL(new Blob([model.get("sheet")], { type: "text/html;charset=utf-8" }));
      link.href = url;
      link.textContent = model.get("label");
      link.title = model.get("hover");
    };
    update();
    model.on("change:sheet", update);
    model.on("change:label", update);
    model.on("change:hover", update);
    el.append(link);
    return () => {
      model.off("change:sheet", update);
      model.off("change:label", update);
      model.off("change:hover", update);
    };
  },
};
