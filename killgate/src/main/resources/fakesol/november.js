// fakesol page: the November page's controls (../shared/REAL-PAGE.md rows 55-66, the page-control
// rows 55, 57, 60 and 66), each switched on by a layout field of the shape (2026-11) or a page
// mutation (mutations/controls.json); absent = off. Only peers' release notes speak of these rows
// (no capture after 10-09): what is drawn here is this project's reading of them, as hard as they
// say and no harder. Loaded before page.js (its hooks run while the page draws); same global scope
// as page.js (el, $, shape, busy, sections, paragraph).
// - formless (row 55): in a temporary chat the composer's container is NOT a form, and Send there
//   is a plain type=button (no form, nothing to submit): a "composer form" rule finds nothing;
// - twinEditor (row 57): a zero-size "LegacyExpandable" ProseMirror twin of the composer, with the
//   same attributes, BEFORE the real one in document order; what is typed into it is lost;
// - remount (row 60): turns already seen leave the DOM and come back as NEW nodes (an older one
//   away for a moment, the newest one swapped in place), on a timer drawn from the plan's seed;
// - uploadNameStamp (row 66): once an image is uploaded its preview shows its file name with a
//   timestamp added (upload.js asks uploadPreviewName).
'use strict';

/** Row 55: the composer's container, a form, or (formless) a div that is no form at all. */
function composerBox(attrs, ...kids) {
  const layout = window.FAKESOL.layout;
  if (!layout.formless) return el('form', Object.assign({ onsubmit: 'return false' }, attrs), ...kids);
  const own = Object.assign({}, attrs);
  delete own['data-chatgpt-composer']; // the October form's mark goes with the form
  return el('div', own, ...kids);
}

/** Row 55: what a Send button's type is: submit in a form, a plain button where there is no form. */
function sendButtonType() {
  return window.FAKESOL.layout.formless ? 'button' : 'submit';
}

/**
 * Row 57: the zero-size twin, first in the composer's container: the real editor's attributes,
 * one empty paragraph, no size. It takes trusted typing like an editor, and the text stays there:
 * the page's Send never sees it (Send stays disabled), as on the real page.
 */
function twinEditor(box, real) {
  if (!window.FAKESOL.layout.twinEditor) return;
  const twin = real.cloneNode(false);
  twin.appendChild(paragraph(''));
  twin.style.cssText = 'width:0;height:0;min-height:0;padding:0;margin:0;border:0;overflow:hidden';
  twin.addEventListener('beforeinput', (e) => {
    e.preventDefault();
    if (!e.isTrusted) return;
    if (e.inputType === 'insertText' || e.inputType === 'insertReplacementText') twin.lastChild.append(e.data || '');
  });
  box.prepend(el('div', { class: 'LegacyExpandable' }, twin));
}

/** Row 66: the name an image's preview shows once it is uploaded: its file name with a timestamp added. */
function uploadPreviewName(name, image, done) {
  if (!window.FAKESOL.layout.uploadNameStamp || !image || !done) return name;
  const d = new Date();
  const two = (n) => String(n).padStart(2, '0');
  const stamp = d.getFullYear() + two(d.getMonth() + 1) + two(d.getDate()) + '-' + two(d.getHours()) + two(d.getMinutes())
    + two(d.getSeconds());
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) + '_' + stamp + name.slice(dot) : name + '_' + stamp;
}

/**
 * Row 60: turns remount. A React list re-creates its rows: every listener the page put on a turn's
 * nodes is put again on the new nodes (recorded as they are added), so the new Copy copies as the
 * old one did; any element a reader held is detached. Nothing remounts while a turn streams.
 */
const FakesolRemount = (() => {
  const layout = (window.FAKESOL && window.FAKESOL.layout) || {};
  if (!layout.remount) return { on: false };
  const listeners = new WeakMap();
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, opts) {
    if (this instanceof Element) {
      let l = listeners.get(this);
      if (!l) listeners.set(this, (l = []));
      l.push([type, fn, opts]);
    }
    return add.call(this, type, fn, opts);
  };
  let state = (Number(window.FAKESOL.seed || 0) ^ 0x5bd1e995) >>> 0;
  const random = () => { // mulberry32, as mutate.js: the same seed remounts on the same beats
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const fresh = (node) => {
    const copy = node.cloneNode(true);
    const from = [node, ...node.querySelectorAll('*')];
    const to = [copy, ...copy.querySelectorAll('*')];
    from.forEach((n, i) => (listeners.get(n) || []).forEach(([t, f, o]) => to[i].addEventListener(t, f, o)));
    const at = sections.indexOf(node);
    if (at >= 0) sections[at] = copy;
    return copy;
  };
  let remounts = 0;
  const tick = () => {
    setTimeout(tick, 150 + Math.floor(random() * 450));
    if (busy) return;
    const mounted = sections.filter((s) => s.isConnected && s.parentNode);
    if (!mounted.length) return;
    if (mounted.length > 1 && random() < 0.6) {
      // An older turn leaves (a spacer keeps its height, as a virtual list does) and comes back new.
      const old = mounted[Math.floor(random() * (mounted.length - 1))];
      const spacer = el('div', { 'aria-hidden': 'true', style: 'height:' + old.offsetHeight + 'px' });
      old.replaceWith(spacer);
      setTimeout(() => { if (spacer.isConnected) { spacer.replaceWith(fresh(old)); remounts++; } }, 60 + Math.floor(random() * 240));
    } else {
      const newest = mounted[mounted.length - 1];
      newest.replaceWith(fresh(newest));
      remounts++;
    }
  };
  setTimeout(tick, 150 + Math.floor(random() * 450));
  return { on: true, count: () => remounts };
})();
