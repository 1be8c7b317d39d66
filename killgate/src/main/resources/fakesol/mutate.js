// fakesol page: the DOM operations of the page mutations this page was rendered through
// (PageMutations.java; resources/fakesol/mutations/*.json name them and cite their rows). The other
// scripts draw every element through el() and mount every turn through mount(); both pass here.
// Every random choice comes from the plan's seed, so the same seed draws the same page.
// FAKESOL.ops: dropTestids (no data-testid anywhere: rows 16, 27), rehashClasses (class names hashed
// anew: row 14's DilRenderer-<h>, synthetic for the rest), wrapDepth (extra wrapper divs, 1 to N
// deep, around each turn and answer unit: synthetic).
'use strict';

const FakesolMutate = (() => {
  const ops = (window.FAKESOL && window.FAKESOL.ops) || {};
  let state = (Number((window.FAKESOL && window.FAKESOL.seed) || 0) ^ 0x9e3779b9) >>> 0;
  /** mulberry32: the seeded sequence every random choice takes from. */
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // Classes the page's own behaviour and state hang on (not the shape's: those are fair game).
  const KEEP = new Set(['shown', 'hidden', 'fakesol-flash', 'sr-only', 'banner', 'delete-dialog', 'slider-track', 'slider-thumb']);
  const salt = String((window.FAKESOL && window.FAKESOL.seed) || 0);
  const rehash = (token) => {
    if (KEEP.has(token)) return token;
    let h = 2166136261;
    for (const c of salt + ':' + token) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
    return 'x' + h.toString(36);
  };
  return {
    /** Applies the attribute operations to a new element (el() calls this once per element). */
    element(e) {
      if (ops.dropTestids) e.removeAttribute('data-testid');
      if (ops.rehashClasses && e.classList.length) e.className = Array.from(e.classList, rehash).join(' ');
      return e;
    },
    /** A turn or unit inside 0 to wrapDepth extra divs (mount() and the assistant unit call this). */
    wrap(node) {
      if (!ops.wrapDepth) return node;
      const depth = 1 + Math.floor(random() * ops.wrapDepth);
      let outer = node;
      for (let i = 0; i < depth; i++) outer = Object.assign(document.createElement('div'), { className: 'contents' }).appendChild(outer).parentNode;
      return outer;
    },
  };
})();
