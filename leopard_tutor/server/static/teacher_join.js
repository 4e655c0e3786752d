// How students join, in the class page's header: the address they type, and a button that shows it large with its
// QR code (drawn by the server: api/join.svg) in a dialog to project. The address is the page's own, less its last
// part ("teacher"), when the page was opened by a name other than this machine's own (a classroom address, or a
// proxy's); else the server's classroom address, which it gives the page when it listens beyond this machine;
// else there is none, and the header says why. Every word comes from the server (the catalogue's "teacher" book).
(() => {
  "use strict";
  const words = JSON.parse(document.getElementById("lt-texts").textContent);
  const token = new URL(document.currentScript.src).searchParams.get("token") || "";
  const byId = (id) => document.getElementById(id);
  const line = byId("lt-join");

  // Whether `host` names this machine only (as the server's `launch.is_loopback` decides for an address)
  const ownName = (host) => host === "localhost" || host.endsWith(".localhost") || host === "[::1]"
    || /^127\.\d+\.\d+\.\d+$/.test(host);

  const page = new URL(".", location.href);
  const address = ownName(page.hostname) ? line.dataset.listening || "" : page.href;
  if (!address) {
    byId("lt-join-words").textContent = words.join_here_only;
    return;
  }
  byId("lt-join-words").textContent = words.join;
  const link = byId("lt-join-address");
  link.textContent = address;
  link.href = address;
  link.hidden = false;
  const show = byId("lt-join-show");
  show.textContent = words.join_show;
  show.hidden = false;
  const dialog = byId("lt-join-dialog");
  byId("lt-join-title").textContent = words.join_title;
  byId("lt-join-scan").textContent = words.join_scan;
  byId("lt-join-big").textContent = address;
  byId("lt-join-close").textContent = words.join_close;
  const code = byId("lt-join-code");
  code.alt = words.join_code.replace("{url}", address);
  show.addEventListener("click", () => {
    if (!code.getAttribute("src")) {
      code.src = `teacher/api/join.svg?address=${encodeURIComponent(address)}&token=${encodeURIComponent(token)}`;
    }
    dialog.showModal();
  });
})();
