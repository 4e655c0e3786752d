// Measurements the layout tests take inside the page (installed as an init script: window.ltProbes).
{  // (a block: the names below stay out of the page's own scripts' global scope)
// Colours as the probes read them: a CSS colour parsed to [r, g, b, alpha], one laid over another, a colour's WCAG
// relative luminance and the contrast ratio of two colours.
const parse = (c) => {
  const m = c.match(/[\d.]+/g);
  return m ? [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1] : [0, 0, 0, 0];
};
const over = (top, below) => [0, 1, 2].map((i) => top[i] * top[3] + below[i] * (1 - top[3])).concat(1);
const lum = (c) => {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
};
const ratio = (a, b) => {
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};

window.ltProbes = {
  // The bounding boxes of the shown elements matching each selector, inside one section of the app.
  boxes(section, selectors) {
    const root = document.querySelector("." + section);
    return selectors.map((selector) => {
      const found = Array.from(root.querySelectorAll(selector)).filter((el) => el.getClientRects().length);
      return [selector, found.map((el) => {
        const b = el.getBoundingClientRect();
        return [b.left, b.top, b.right, b.bottom];
      })];
    });
  },

  // Resolves once a section's board has kept the same card size and box for three frames.
  settled(section) {
    return new Promise((done) => {
      const board = document.querySelector("." + section + " .lt-board");
      let last = "";
      let calm = 0;
      const look = () => {
        const box = board.getBoundingClientRect();
        const now = `${board.getAttribute("data-cell")} ${box.width} ${box.height}`;
        calm = now === last && board.getAttribute("data-cell") ? calm + 1 : 0;
        last = now;
        if (calm >= 3) done(now);
        else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
  },

  // WCAG 2.1 contrast of every piece of visible text in the app's window (or under another root, the whole of it
  // where `whole`: the class page's body): its colour against the colour behind it (semi-transparent layers
  // blended, opacity applied); 4.5:1 for text, 3:1 for large text (24 px, or 18.67 px bold). Disabled controls and
  // greyed ones (aria-disabled: the board's buttons, and the page's that say why, kept in the Tab order) are exempt,
  // as WCAG exempts inactive components.
  contrast(root = ".lt-app", whole = false) {
    const behind = (el) => {
      const layers = [];
      for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
        const bg = parse(getComputedStyle(node).backgroundColor);
        if (bg[3] > 0) layers.push(bg);
        if (bg[3] >= 1) break;
      }
      let colour = [255, 255, 255, 1];
      for (const layer of layers.reverse()) colour = over(layer, colour);
      return colour;
    };
    const opacity = (el) => {
      let o = 1;
      for (let n = el; n && n.nodeType === 1; n = n.parentElement) o *= +getComputedStyle(n).opacity;
      return o;
    };
    const failures = [];
    const seen = new Set();
    const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!node.textContent.trim() || seen.has(el) || !el.getClientRects().length) continue;
      seen.add(el);
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || el.closest('[disabled], :is(.lt-button, .jupyter-button, select)[aria-disabled="true"]')) continue;
      const box = el.getBoundingClientRect();
      if (box.width < 2 || box.height < 2 || (!whole && (box.bottom < 0 || box.top > innerHeight))) continue;
      let fg;
      let bg;
      if (el instanceof SVGElement) {
        fg = parse(style.fill);
        bg = parse(getComputedStyle(el.parentElement.querySelector("rect")).fill);
      } else {
        bg = behind(el);
        fg = over(parse(style.color), bg);
      }
      const o = opacity(el);
      if (o < 1) fg = over([...fg.slice(0, 3), o], bg);
      const size = parseFloat(style.fontSize);
      const need = size >= 24 || (size >= 18.66 && +style.fontWeight >= 700) ? 3 : 4.5;
      const got = ratio(fg, bg);
      if (got < need) {
        const what = `${el.tagName.toLowerCase()}.${String(el.className.baseVal ?? el.className).split(" ")[0]}`;
        failures.push(`${got.toFixed(2)} < ${need} for "${node.textContent.trim().slice(0, 40)}" (${what}: ` +
          `rgb(${fg.slice(0, 3).map(Math.round)}) on rgb(${bg.slice(0, 3).map(Math.round)}))`);
      }
    }
    return failures;
  },

  // How the board's greyed buttons (or those of `greyedOf`) look beside the page's own buttons offered now: each
  // greyed button's words, the luminance of its background as seen (its opacity applied over what is behind it) and
  // the contrast of its words on it; and the lowest luminance of an offered page button's background (ipywidgets'
  // buttons, outside the board).
  greyedLook(greyedOf = '.lt-app .lt-board .lt-button[aria-disabled="true"]') {
    const behind = (el) => {  // the colour behind `el` (its own background left out)
      const layers = [];
      for (let node = el.parentElement; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        const bg = parse(style.backgroundColor);
        const image = style.backgroundImage.match(/rgba?\([^)]*\)/);  // (the felt: its gradient's first colour)
        const colour = bg[3] > 0 ? bg : image ? parse(image[0]) : bg;
        if (colour[3] > 0) layers.push(colour);
        if (colour[3] >= 1) break;
      }
      let colour = [255, 255, 255, 1];
      for (const layer of layers.reverse()) colour = over(layer, colour);
      return colour;
    };
    const seen = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden";
    const greyed = Array.from(document.querySelectorAll(greyedOf))
      .filter(seen).map((el) => {
        const style = getComputedStyle(el);
        const under = behind(el);
        const own = over(parse(style.backgroundColor), under);
        const words = over(parse(style.color), own);
        const o = +style.opacity;
        const [bg, fg] = [over([...own.slice(0, 3), o], under), over([...words.slice(0, 3), o], under)];
        return { words: el.textContent.trim(), luminance: lum(bg), contrast: ratio(fg, bg) };
      });
    const offered = Array.from(document.querySelectorAll(".lt-app .jupyter-button"))
      .filter((el) => seen(el) && !el.matches('[disabled], [aria-disabled="true"]'))
      .map((el) => lum(over(parse(getComputedStyle(el).backgroundColor), behind(el))));
    return { greyed, offered: Math.min(...offered) };
  },

  // The app's controls smaller than 44 x 44 px, by name.
  smallTargets() {
    const controls = ".lt-app button, .lt-app select, .lt-app input, .lt-app summary, .lt-app [role=tab]";
    return Array.from(document.querySelectorAll(controls))
      .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
      .map((el) => [el.getAttribute("aria-label") || el.textContent.trim().slice(0, 30) || el.tagName,
                    el.getBoundingClientRect()])
      .filter(([, b]) => b.width < 43.5 || b.height < 43.5)
      .map(([name, b]) => `${name}: ${Math.round(b.width)}x${Math.round(b.height)}`);
  },

  // The buttons now drawn whose words are cut (wider than the box that shows them), and the piles' words (which
  // ran over the next pile's card), each with both widths.
  cutTargets() {
    return Array.from(document.querySelectorAll(".lt-app button, .lt-app .lt-pile .lt-caption"))
      .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.textContent.trim().slice(0, 30)}: ${el.scrollWidth} > ${el.clientWidth}`);
  },

  // The headings on the page now (those drawn: a hidden tab's are not) that go down more than one level from the
  // heading before them (an h1 followed by an h3, say), each with the level it follows.
  headingJumps() {
    let level = 0;
    const jumps = [];
    for (const heading of document.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
      if (!heading.getClientRects().length) continue;
      const now = Number(heading.tagName[1]);
      if (now > level + 1) jumps.push(`h${now} "${heading.textContent.trim().slice(0, 30)}" after h${level}`);
      level = now;
    }
    return jumps;
  },

  // Records the cards the board sends travelling: who moved, and each flight's duration and delay.
  watchFlights() {
    window.ltFlights = [];
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (frames, options) {
      if (this.classList.contains("lt-flight")) {
        window.ltFlights.push({ by: this.dataset.by, at: performance.now(), ...options });  // (starts at + delay)
      }
      return animate.call(this, frames, options);
    };
  },

  // Records, frame by frame from the page's start, each place (x, y, width, height) the first element matching
  // `selector` is drawn at while it is shown (not hidden, nor under visibility: hidden): window.ltPlaces.
  watchPlace(selector) {
    window.ltPlaces = [];
    const look = () => {
      const found = document.querySelector(selector);
      if (found && found.checkVisibility({ visibilityProperty: true })) {
        const box = found.getBoundingClientRect();
        const place = [box.x, box.y, box.width, box.height];
        const last = window.ltPlaces[window.ltPlaces.length - 1];
        if (box.width && (!last || place.some((value, i) => value !== last[i]))) window.ltPlaces.push(place);
      }
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  },
};
}
