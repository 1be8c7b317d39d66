// fakesol page: the effort control and the Chat/Work switch, in the shape of the page it imitates
// (shape() in page.js). Written for this project from ../shared/REAL-PAGE.md; nothing is copied.
// - 'menu' (a, July 2026, row 1): effort radios first, a badge inside the Instant row's text, the
//   model in its own submenu;
// - 'advanced' (b, August, row 1): models first, efforts under Advanced -> Effort behind openers;
// - 'slider' (c/d, September, row 1): a role=slider moved by arrow keys whose click snaps to the
//   pointer, model radios beside it; the pill reads "Thinking effort" while open, and on 2026-09
//   it has only data-tone;
// - 'power' (October, row 26): a "Select ChatGPT model" button opens model radios (GPT-6 checked,
//   GPT-5.6 Sol, GPT-5.5 "available until Oct 14") and a "Power" menuitem holding an aria-hidden
//   slider (aria-valuemin 0, aria-valuemax 4, aria-valuenow) with its status text "High, 3 of 5.";
//   ArrowLeft/ArrowRight on the MENUITEM move it; once (slider_drops_first_key) a key press does
//   not move it at all, so a driver must read aria-valuenow back after every step. The 4-of-5 label
//   is "Very High" there (rows 21, 26).
// - Work mode (rows 21, 27): a fresh tab's Chat/Work buttons with aria-pressed; a browser left in
//   Work shows another picker (Work models, no Power) and another placeholder.
// - A capped tier (row 21): its row is aria-disabled with a tooltip "Limit reached. Try again after
//   Aug 16, 2026." shown on hover or focus; on a slider (no source shows one capped: this
//   project's reading) the step onto it does not move and the tooltip shows beside the slider.
// The choice lives in the backend (/api/effort), so it survives a reload and a new tab inherits
// it (row 26). Only trusted clicks act. Same global scope as page.js.
'use strict';

let menuOpen = false;
let menuSeq = 0;
let pillNode = null;
let workMode = false;          // the browser's Chat/Work switch (backend state: a fresh tab shows what was left)
let cappedEfforts = {};        // canonical label -> when its limit lifts (ISO-8601)
let dropFirstKey = false;      // row 26: once, a key press did not move the Power slider
const MODELS = ['GPT-5.6 Sol', 'GPT-5.5', 'GPT-5.4', 'o3'];
const OCTOBER_MODELS = [['GPT-6', null], ['GPT-5.6 Sol', null], ['GPT-5.5', 'availableUntil']];
const WORK_MODELS = ['GPT-6 Astra']; // row 25: Work is another model family (gpt-6-astra-wm); the name is this project's

/** Work mode shows its own picker where a new chat starts (a fresh tab); an open conversation keeps its Chat picker. */
const inWork = () => workMode && shape().modeSwitch && !conversationId;

function renderPill(into) {
  const pill = el('button', { type: 'button', id: 'radix-_r_p' + (++menuSeq) + '_', 'aria-haspopup': 'menu',
    'aria-expanded': 'false', 'data-state': 'closed' });
  if (shape().picker === 'power' || shape().picker === 'families') { // families: the October pill (row 61)
    pill.id = '';
    pill.setAttribute('aria-label', T().selectModel); // row 26/27: no test id, a localized label
  } else if (shape().pill === 'tone') {
    pill.setAttribute('data-tone', 'neutral'); // (d): no class, no testid, no aria-label
  } else {
    pill.className = '__composer-pill';
  }
  pill.addEventListener('click', (e) => { if (e.isTrusted) { if (menuOpen) closeMenus(); else openMenu(); } });
  into.prepend(pill);
  pillNode = pill;
  updatePill();
}

function updatePill() {
  const pill = pillNode;
  if (!pill || !pill.isConnected) return;
  let text = FakesolModels.active() ? FakesolModels.pillText() : shown(effortLabel); // models.js: "6 6 High" (row 61)
  if (menuOpen && shape().pill === 'tone') text = T().thinkingEffort;
  if (inWork()) text = WORK_MODELS[0];
  pill.replaceChildren(el('span', { class: 'truncate', text }));
  pill.setAttribute('aria-expanded', String(menuOpen));
  if (shape().pillEffortAttr) {
    // Row 40: the Chat pill names the effort in attributes of its own (the value words other than
    // "high" are this project's reading).
    pill.setAttribute('data-composer-navigation-target', 'reasoning');
    pill.setAttribute('data-selected-reasoning-effort', ['instant', 'medium', 'high', 'xhigh', 'pro'][Math.max(0, EFFORTS.indexOf(effortLabel))]);
  }
  pill.setAttribute('data-state', menuOpen ? 'open' : 'closed');
}

function menuShell(depth) {
  const wrap = el('div', { 'data-radix-popper-content-wrapper': '', dir: 'ltr',
    style: 'left:' + (700 + depth * 230) + 'px; top:' + (120 + depth * 40) + 'px;' });
  const menu = el('div', { role: 'menu', 'aria-orientation': 'vertical', 'data-state': 'open', 'data-radix-menu-content': '',
    dir: 'ltr', id: 'radix-_r_' + (++menuSeq) + '_', tabindex: '-1', 'data-depth': String(depth) });
  wrap.appendChild(menu);
  document.body.appendChild(wrap);
  return menu;
}

function radioRow(label, checked, onPick, badge) {
  const text = el('span', { class: 'flex min-w-0 flex-1 items-center justify-start gap-2' },
    el('span', { class: 'truncate', text: label }), badge ? el('span', { class: 'text-token-text-tertiary shrink-0', text: badge }) : null);
  const row = el('div', { role: 'menuitemradio', 'aria-checked': String(checked), tabindex: '0', class: 'group __menu-item',
    'data-state': checked ? 'checked' : 'unchecked', 'data-orientation': 'vertical', 'data-radix-collection-item': '' }, text,
  el('div', { class: 'trailing', 'data-trailing-style': 'radio-check' }));
  row.addEventListener('click', (e) => { if (e.isTrusted && row.getAttribute('aria-disabled') !== 'true') onPick(); });
  // Radix: Enter or Space on the focused row chooses it (row 65: the way to a row a popover covers).
  row.addEventListener('keydown', (e) => {
    if (e.isTrusted && (e.key === 'Enter' || e.key === ' ') && row.getAttribute('aria-disabled') !== 'true') { e.preventDefault(); onPick(); }
  });
  return row;
}

function opener(label, depth, build, effortAction) {
  const row = el('div', { role: 'menuitem', 'aria-haspopup': 'menu', 'aria-expanded': 'false', 'data-state': 'closed',
    tabindex: '0', 'data-has-submenu': '', class: 'group __menu-item',
    'data-model-picker-thinking-effort-action': effortAction ? 'true' : null }, el('span', { class: 'truncate', text: label }));
  const open = () => {
    if (row.getAttribute('aria-expanded') === 'true') return;
    closeMenusFrom(depth + 1);
    row.setAttribute('aria-expanded', 'true'); row.setAttribute('data-state', 'open');
    build(menuShell(depth + 1));
  };
  row.addEventListener('click', (e) => { if (e.isTrusted) open(); });
  row.addEventListener('keydown', (e) => { if (e.key === 'ArrowRight' || e.key === 'Enter') open(); });
  return row;
}

// ---- Capped tiers ------------------------------------------------------------------------------

/** The tooltip text of a capped tier, or null when it is not capped (row 21). */
function limitText(canonical) {
  const at = cappedEfforts[canonical];
  if (!at) return null;
  const d = new Date(at);
  const day = locale === 'ru'
    ? d.toLocaleDateString('ru-RU', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
    : d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  return fmt(T().limitReached, day);
}

/** A Radix-like tooltip beside {@code anchor}: visible text plus its role=tooltip copy. */
function showTooltip(anchor, text) {
  hideTooltips();
  const r = anchor.getBoundingClientRect();
  const tip = el('div', { 'data-radix-popper-content-wrapper': '', 'data-fakesol-tooltip': '',
    style: 'left:' + Math.round(r.right + 8) + 'px; top:' + Math.round(r.top) + 'px;' },
  el('div', { 'data-side': 'right', 'data-state': 'delayed-open', class: 'tooltip' }, document.createTextNode(text),
    el('span', { role: 'tooltip', class: 'sr-only', text })));
  document.body.appendChild(tip);
}

function hideTooltips() {
  document.querySelectorAll('[data-fakesol-tooltip]').forEach((t) => t.remove());
}

/** A menu row of a capped tier: disabled, its tooltip on hover or focus. */
function capRow(row, canonical) {
  const text = limitText(canonical);
  if (!text) return row;
  row.setAttribute('aria-disabled', 'true');
  row.setAttribute('data-disabled', '');
  row.addEventListener('pointerenter', () => showTooltip(row, text));
  row.addEventListener('focus', () => showTooltip(row, text));
  row.addEventListener('pointerleave', hideTooltips);
  row.addEventListener('blur', hideTooltips);
  return row;
}

// ---- The menus ----------------------------------------------------------------------------------

function effortRadios(into) {
  const group = el('div', { role: 'group' });
  EFFORTS.forEach((canonical, i) => {
    group.appendChild(capRow(radioRow(ladder()[i], canonical === effortLabel, () => pickEffort(canonical), i === 0 ? '5.5' : null), canonical));
  });
  into.appendChild(group);
}

function modelRadios(into) {
  const group = el('div', { role: 'group' });
  MODELS.forEach((m, i) => group.appendChild(radioRow(m, i === 0, () => closeMenus())));
  into.appendChild(group);
}

function openMenu() {
  menuOpen = true;
  const menu = menuShell(0);
  const content = el('div', { class: 'flex flex-col', 'data-testid': shape().testids ? 'composer-intelligence-picker-content' : null,
    role: 'group' });
  menu.appendChild(content);
  switch (shape().picker) {
    case 'menu':
      // (a): efforts first, a badge inside the Instant row's text; the model in its own submenu.
      content.appendChild(el('div', { class: '__menu-label mb-0', text: T().intelligence }));
      effortRadios(content);
      content.appendChild(el('div', { role: 'separator' }));
      content.appendChild(opener(MODELS[0], 0, modelRadios, false));
      break;
    case 'advanced':
      // (b): models at the top; efforts under Advanced -> Effort, behind menuitem openers.
      modelRadios(content);
      content.appendChild(el('div', { role: 'separator' }));
      content.appendChild(opener(T().advanced, 0, (sub) => {
        sub.appendChild(el('div', { role: 'menuitem', tabindex: '0', class: 'group __menu-item', text: T().temporary }));
        sub.appendChild(opener(T().effort, 1, effortRadios, true));
      }, false));
      break;
    case 'power':
      octoberMenu(content);
      break;
    case 'families':
      // Rows 59, 61, 62, 64: three model families, the chosen row's efforts under them (models.js).
      FakesolModels.menu(content);
      break;
    case 'flat':
      // Row 40 (Enterprise, 09): ONE flat menu, models and tiers as sibling menuitemradios told apart by label.
      modelRadios(content);
      effortRadios(content);
      break;
    case 'slider3': {
      // Row 40 (cx #637, 09-22): the slider runs 0..3, Pro a separate disabled menuitemradio.
      modelRadios(content);
      content.appendChild(el('div', { role: 'separator' }));
      const item = el('div', { role: 'menuitem', tabindex: '0', class: 'group __menu-item flex-col items-start' },
        el('span', { class: 'truncate', text: T().thinkingEffort }));
      item.appendChild(slider(item, EFFORTS.length - 1));
      content.appendChild(item);
      const pro = radioRow(ladder()[EFFORTS.length - 1], effortLabel === 'Pro', () => pickEffort('Pro'));
      pro.setAttribute('aria-disabled', 'true');
      content.appendChild(pro);
      break;
    }
    default: {
      // (c)/(d): a slider; the radios beside it are MODELS.
      const view = el('div', { 'data-testid': 'composer-model-picker-slider-simple-view' });
      view.appendChild(el('div', { class: '__menu-label', text: T().thinkingEffort }));
      view.appendChild(slider(null));
      content.appendChild(view);
      content.appendChild(el('div', { role: 'separator' }));
      modelRadios(content);
    }
  }
  if (shape().coverMenu) coverMenu(menu);
  updatePill();
}

/**
 * Row 65 (cw 6.2.1): a popover over the open menu's rows, so a pointer click on a row lands on the
 * popover; the keyboard still reaches every row. Its text is this project's.
 */
function coverMenu(menu) {
  const r = menu.getBoundingClientRect();
  const pop = el('div', { 'data-radix-popper-content-wrapper': '', 'data-fakesol-popover': '',
    style: 'left:' + Math.round(r.left) + 'px; top:' + Math.round(r.top) + 'px; width:' + Math.round(r.width) + 'px; height:'
      + Math.round(r.height) + 'px; z-index: 60; background: rgba(255,255,255,0.01);' },
  el('div', { role: 'dialog', 'aria-label': T().newModel || 'New', class: 'text-xs', text: T().newModelTip || 'Meet the new model' }));
  document.body.appendChild(pop);
}

/** Row 26: model radios, then the Power menuitem with its aria-hidden slider; Work: Work models only. */
function octoberMenu(content) {
  const models = el('div', { role: 'group' });
  if (inWork()) {
    WORK_MODELS.forEach((m, i) => models.appendChild(radioRow(m, i === 0, () => closeMenus())));
    content.appendChild(models);
    return;
  }
  OCTOBER_MODELS.forEach(([m, note], i) => models.appendChild(radioRow(m, i === 0, () => closeMenus(), note ? T()[note] : null)));
  content.appendChild(models);
  content.appendChild(el('div', { role: 'separator' }));
  const item = el('div', { role: 'menuitem', tabindex: '0', class: 'group __menu-item flex-col items-start' },
    el('span', { class: 'truncate', text: T().power }));
  item.appendChild(slider(item));
  content.appendChild(item);
}

/**
 * The effort slider. {@code keysOn}: the element whose arrow keys move it (the slider itself, or
 * October's Power menuitem, where the slider is aria-hidden and not focusable).
 */
function slider(keysOn, levels = EFFORTS.length) {
  const index = Math.min(levels - 1, Math.max(0, EFFORTS.indexOf(effortLabel)));
  const track = el('div', { class: 'slider-track' });
  const thumb = el('div', { class: 'slider-thumb' });
  const power = !!keysOn;
  const s = el('div', { role: 'slider', tabindex: power ? null : '0', 'aria-orientation': 'horizontal', 'aria-valuemin': '0',
    'aria-valuemax': String(levels - 1), 'aria-hidden': power ? 'true' : null });
  const status = power ? el('span', { role: 'status', class: 'text-xs text-token-text-secondary' }) : null;
  const set = (i) => {
    i = Math.max(0, Math.min(levels - 1, i));
    s.setAttribute('aria-valuenow', String(i));
    // Row 26 names no aria-valuetext on October's slider: its label is only in the status text.
    if (!power) s.setAttribute('aria-valuetext', ladder()[i]);
    if (status) status.textContent = fmt(T().powerStatus, ladder()[i], i + 1, levels);
    thumb.style.left = (i * 46) + 'px';
    return i;
  };
  set(index);
  const move = (next, now) => {
    const capped = limitText(EFFORTS[Math.max(0, Math.min(levels - 1, next))]);
    if (capped) { showTooltip(s, capped); return; } // the capped tier holds; its tooltip says until when
    const i = set(next);
    if (i !== now) commitEffort(EFFORTS[i]);
  };
  (keysOn || s).addEventListener('keydown', (e) => {
    const now = Number(s.getAttribute('aria-valuenow'));
    const keys = power ? { ArrowRight: now + 1, ArrowLeft: now - 1 }
      : { ArrowRight: now + 1, ArrowUp: now + 1, ArrowLeft: now - 1, ArrowDown: now - 1, Home: 0, End: levels - 1 };
    const next = keys[e.key];
    if (next === undefined) return;
    e.preventDefault();
    if (dropFirstKey) { dropFirstKey = false; return; } // row 26: this press does not move it at all
    move(next, now);
  });
  // A click moves the value to where the pointer is, wherever that is (rzn).
  track.addEventListener('pointerdown', (e) => {
    const r = track.getBoundingClientRect();
    move(Math.round((e.clientX - r.left) / r.width * (levels - 1)), Number(s.getAttribute('aria-valuenow')));
  });
  track.append(thumb);
  s.append(track);
  if (!status) return s;
  const box = el('div', { class: 'flex flex-col' }, s, status);
  return box;
}

async function commitEffort(canonical) {
  const r = await api('/api/effort', { conversation_id: conversationId, wanted: canonical });
  effortLabel = r.json.label;
  updatePill();
  FakesolWire.composed(composerText()); // wire.js: the page prepares again for the new choice
}

async function pickEffort(canonical) {
  await commitEffort(canonical);
  closeMenus();
}

function closeMenusFrom(depth) {
  for (const m of document.querySelectorAll('[data-radix-menu-content]')) {
    if (m.hasAttribute('data-depth') && Number(m.getAttribute('data-depth')) >= depth) m.parentElement.remove();
  }
  for (const o of document.querySelectorAll('[role="menuitem"][aria-expanded="true"]')) {
    const m = o.closest('[data-radix-menu-content]');
    if (m && Number(m.getAttribute('data-depth')) >= depth - 1) { o.setAttribute('aria-expanded', 'false'); o.setAttribute('data-state', 'closed'); }
  }
}

function closeMenus() {
  closeMenusFrom(0);
  document.querySelectorAll('[data-fakesol-popover]').forEach((p) => p.remove());
  hideTooltips();
  menuOpen = false;
  updatePill();
}

// ---- The Chat/Work switch (row 27: a fresh tab's buttons with aria-pressed) --------------------

function renderModeSwitch(into) {
  if (!shape().modeSwitch || conversationId) return;
  const chat = el('button', { type: 'button', class: 'btn', text: T().chat });
  const work = el('button', { type: 'button', class: 'btn', text: T().work });
  const paint = () => {
    chat.setAttribute('aria-pressed', String(!workMode));
    work.setAttribute('aria-pressed', String(workMode));
  };
  const choose = async (toWork, e) => {
    if (!e.isTrusted || toWork === workMode) return;
    await api('/api/mode', { mode: toWork ? 'work' : 'chat' });
    workMode = toWork;
    paint();
    composerModeChanged(); // page.js: the placeholder and the picker follow the mode
    updatePill();
  };
  chat.addEventListener('click', (e) => choose(false, e));
  work.addEventListener('click', (e) => choose(true, e));
  paint();
  into.prepend(el('div', { class: 'flex justify-center gap-2', 'data-fakesol-mode-switch': '' }, chat, work));
}

function wirePicker() {
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && menuOpen) { e.preventDefault(); closeMenus(); }
  });
  document.addEventListener('pointerdown', (e) => {
    if (menuOpen && !e.target.closest('[data-radix-popper-content-wrapper]') && !(pillNode && pillNode.contains(e.target))) closeMenus();
  });
}
