// PageLanguage front end (leopard_tutor/widgets/language.py): on render it sends back the language the learner
// chose, kept in localStorage under the model's "key", and the browser's own languages
// ({type: "restore", value, browser}); whenever Python changes "saved" (the learner chose in the picker) it keeps
// it (the app takes a teacher's ?lang= out of the page's address: PageAddress); the
// choice is kept in the cookie the model names too, which the class server reads for its own pages; it
// sets the app's lang, and the page's <html lang> and <title> where the page is the app's (not JupyterLab's), to
// the model's "lang" and "title", and marks each option of the app's language picker with the language it names
// (the model's "names").
// It draws nothing. A browser that refuses storage keeps nothing.

// read() and write() are kept.js's, put before this module (widgets/storage.py: kept_script).

const LIMIT = 40;  // characters of a kept language sent back at most

function keepInCookie(name, value) {
  try {
    const kept = value ? encodeURIComponent(value) : "";
    document.cookie = `${name}=${kept}; path=/; max-age=${value ? 31536000 : 0}; SameSite=Strict`;
  } catch (refused) {
    // a page that may not set cookies (a sandboxed frame) keeps the choice in its storage only
  }
}

function browserLanguages() {
  const said = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  return Array.from(said).filter((each) => typeof each === "string").slice(0, 8).map((each) => each.slice(0, 40));
}

export default {
  render({ model, el }) {
    el.hidden = true;
    const key = model.get("key");
    const kept = read(key);
    const lang = () => {
      const code = model.get("lang");
      if (!code) return;
      const app = el.closest(".lt-app");
      if (app) app.lang = code;
      const names = Object.entries(model.get("names") || {});
      const pickers = app ? Array.from(app.querySelectorAll(".lt-language")) : [];
      for (const option of pickers.flatMap((picker) => Array.from(picker.querySelectorAll("option")))) {
        const named = names.find(([, name]) => name === option.textContent);
        if (named) option.lang = named[0];
      }
      // A Voilà (or Voici: the site) page is the app's; in JupyterLab the page is Lab's, the app only a part of it.
      if (document.body && document.body.dataset.voila) {
        document.documentElement.lang = code;
        if (model.get("title")) document.title = model.get("title");
      }
    };
    const save = () => {
      write(key, model.get("saved"));
      keepInCookie(model.get("cookie"), model.get("saved"));
    };
    if (kept && kept.length <= LIMIT) keepInCookie(model.get("cookie"), kept);
    lang();
    requestAnimationFrame(lang);  // once the widget is in the page, for the app's own element
    model.send({ type: "restore", value: kept.length <= LIMIT ? kept : "", browser: browserLanguages() });
    model.on("change:saved", save);
    model.on("change:lang", lang);
    model.on("change:title", lang);
    return () => {
      model.off("change:saved", save);
      model.off("change:lang", lang);
      model.off("change:title", lang);
    };
  },
};
