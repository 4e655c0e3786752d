// CopyButton front end (leopard_tutor/widgets/copy_button.py): a button (model "description") that copies the
// model's "value" to the clipboard during the click, then tells the kernel {type: "copied", ok}. The asynchronous
// clipboard exists only in a secure context (https, or this machine); elsewhere the text is copied from a
// hidden text area with the older copy command, which a click allows too.

function copyByCommand(text) {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  const back = document.activeElement;
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch (_error) {
    ok = false;
  }
  area.remove();
  if (back instanceof HTMLElement) back.focus();
  return ok;
}

export default {
  render({ model, el }) {
    const button = document.createElement("button");
    button.type = "button";
    button.classList.add("jupyter-button", "widget-button", "lt-copy");
    const draw = () => { button.textContent = model.get("description"); };
    draw();
    model.on("change:description", draw);
    button.addEventListener("click", () => {
      const text = model.get("value");
      const told = (ok) => model.send({ type: "copied", ok });
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(() => told(true), () => told(copyByCommand(text)));
      } else {
        told(copyByCommand(text));
      }
    });
    el.appendChild(button);
    return () => model.off("change:description", draw);
  },
};
