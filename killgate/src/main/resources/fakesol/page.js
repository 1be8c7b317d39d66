// fakesol page: behaves like the real ChatGPT page where the seat looks, in the shape of one of the
// 2026 captures (../shared/REAL-PAGE.md; ../shared/realdom/README.md). Written for this project;
// nothing here is copied from a capture. The backend (FakeSol.java) decides replies, faults, the
// page shape (state.dom: 2026-03 | 2026-07 | 2026-08 | 2026-09) and the UI language (en | ru).
//
// What it makes as hard as the real page:
// - the composer takes only TRUSTED input (real keys, CDP insertText, a real Ctrl+V paste); a
//   synthetic ClipboardEvent or InputEvent is dropped, as onflip saw on the live composer;
// - the effort control in four shapes (REAL-PAGE row 1): (a) radios with badges, model submenu;
//   (b) Advanced -> Effort behind menuitem openers; (c)/(d) a slider moved by arrow keys whose
//   click snaps to the pointer, model radios beside it, a pill with only data-tone;
// - code blocks as div.cm-content of spans and <br> (March) or pre.cm-content > code inside the
//   block's pre (July on), with a header label and Copy/Run (row 4);
// - September pages show none of the Stop selectors peers knew (onflip, row 3);
// - the action bar takes the pointer only on hover, and Copy works only for a trusted click (the
//   clipboard wants a user gesture);
// - faults: a flashing action bar while thinking, a settled Pro preamble, no /c/<id> in the
//   address bar, windowed long threads, the real cap/capacity/length texts, estuary images.
'use strict';

const $ = (s, r = document) => r.querySelector(s);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v; else if (v !== null && v !== undefined) e.setAttribute(k, v);
  }
  for (const k of kids) if (k) e.append(k);
  return e;
};

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  };
  const r = await fetch(path, init);
  let json = null;
  try { json = await r.json(); } catch (e) { json = null; }
  return { status: r.status, json };
}

// ---- Shape and language -----------------------------------------------------------------------

let dom = '2026-09';
let locale = 'en';
let windowed = 0;
const EFFORTS = ['Instant', 'Medium', 'High', 'Extra High', 'Pro'];  // canonical (backend) labels
// ru: "Средний", "Высокий" and untranslated "Instant" as in the July 2026 ru capture; the rest is
// this project's reading (no capture shows them).
const TEXT = {
  en: { efforts: EFFORTS, intelligence: 'Intelligence', advanced: 'Advanced', effort: 'Effort',
    thinkingEffort: 'Thinking effort', thinking: 'Thinking', proThinking: 'Pro thinking', answerNow: 'Answer now',
    copy: 'Copy', copyCode: 'Copy code', run: 'Run', copyResponse: 'Copy response', copyMessage: 'Copy message',
    newChat: 'Start new chat', youSaid: 'You said:', chatgptSaid: 'ChatGPT said:', temporary: 'Temporary chat',
    full: "You've reached the maximum length for this conversation, but you can keep talking by starting a new chat." },
  ru: { efforts: ['Instant', 'Средний', 'Высокий', 'Очень высокий', 'Pro'], intelligence: 'Интеллект',
    advanced: 'Дополнительно', effort: 'Усилие', thinkingEffort: 'Уровень размышлений', thinking: 'Думаю',
    proThinking: 'Pro думает', answerNow: 'Ответить сейчас', copy: 'Копировать', copyCode: 'Копировать код',
    run: 'Запустить', copyResponse: 'Копировать ответ', copyMessage: 'Копировать сообщение', newChat: 'Начать новый чат',
    youSaid: 'Вы сказали:', chatgptSaid: 'ChatGPT сказал:', temporary: 'Временный чат',
    full: 'Вы достигли максимальной длины этого разговора, но можете продолжить, начав новый чат.' },
};
const T = () => TEXT[locale] || TEXT.en;
const MODELS = ['GPT-5.6 Sol', 'GPT-5.5', 'GPT-5.4', 'o3'];
const newer = () => dom !== '2026-03';          // data-turn-id="request-WEB:..." and friends
const stopless = () => dom === '2026-09';       // none of the known Stop selectors

/** The label the page shows for a canonical effort label; unknown labels show as they are. */
const shown = (canonical) => { const i = EFFORTS.indexOf(canonical); return i < 0 ? canonical : T().efforts[i]; };

// ---- State -----------------------------------------------------------------------------------

let conversationId = null; // the durable conversation this page shows
let draftId = null;        // the conversation a first message will open (decided at precheck)
let busy = false;
let stopped = false;
let turnSeq = 0;
let precheckSeq = 0;
let copyBroken = false;    // FakeSol.breakCopyButtons(): the turn copy button copies nothing
let insertTextIgnored = false; // FakeSol.ignoreInsertText(): only a real paste gets text in
let effortLabel = 'Medium'; // canonical label the backend confirmed
let menuOpen = false;
const turns = [];          // rendered assistant turns: {id, data}
const sections = [];       // every turn section, mounted or not (windowed threads unmount old ones)
let attachments = [];

const editor = () => $('#prompt-textarea');
const submitButton = () => $('#composer-submit-button');

// ---- Composer (ProseMirror-like: one <p> per line; trusted input only) ---------------------------

function composerText() {
  const ps = editor().querySelectorAll(':scope > p');
  return Array.from(ps, (p) => p.textContent).join('\n');
}

function paragraph(line) {
  const p = document.createElement('p');
  if (line) p.textContent = line; else p.appendChild(document.createElement('br'));
  return p;
}

function insertLines(text) {
  const ed = editor();
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const ps = ed.querySelectorAll(':scope > p');
  let last = ps[ps.length - 1];
  if (!last) { last = paragraph(''); ed.appendChild(last); }
  const prefix = last.textContent;
  last.textContent = prefix + lines[0];
  if (!last.textContent) last.appendChild(document.createElement('br'));
  const frag = document.createDocumentFragment();
  for (let i = 1; i < lines.length; i++) frag.appendChild(paragraph(lines[i]));
  ed.appendChild(frag);
}

function deleteBackward() {
  const ps = editor().querySelectorAll(':scope > p');
  const last = ps[ps.length - 1];
  if (!last) return;
  if (last.textContent) {
    last.textContent = last.textContent.slice(0, -1);
    if (!last.textContent) last.appendChild(document.createElement('br'));
  } else if (ps.length > 1) {
    last.remove();
  }
}

function clearEditor() {
  editor().replaceChildren(paragraph(''));
}

function wholeSelection() {
  const sel = getSelection();
  return sel && !sel.isCollapsed && editor().contains(sel.anchorNode);
}

function setSendMode(mode) {
  const b = submitButton();
  if (mode === 'stop') {
    if (stopless()) {
      b.removeAttribute('data-testid'); b.removeAttribute('aria-label');
    } else {
      b.setAttribute('data-testid', 'stop-button'); b.setAttribute('aria-label', 'Stop streaming');
    }
    b.textContent = '\u25A0';
    b.disabled = false;
  } else {
    b.setAttribute('data-testid', 'send-button');
    b.setAttribute('aria-label', 'Send prompt');
    b.textContent = '\u2191';
    b.disabled = true; // enabled again once composer text passes the precheck
  }
}

async function composerChanged() {
  if (busy) return;
  const text = composerText();
  FakesolWire.composed(text); // wire.js: the debounced /prepare
  const mine = ++precheckSeq;
  submitButton().disabled = true;
  if (!text) return;
  const r = await api('/api/precheck', { conversation_id: conversationId || draftId, text });
  if (mine !== precheckSeq || busy) return;
  const out = r.json || {};
  if (!conversationId && out.conversation_id) draftId = out.conversation_id;
  if (out.banner) showBanner(out.banner);
  switch (out.outcome) {
    case 'ok': submitButton().disabled = false; break;
    case 'too_long': showTooLong(); break;
    case 'login': renderLoginWall(); break;
    case 'cloudflare': location.replace('/cdn-cgi/challenge'); break;
    case 'crash': break; // the backend ends this browser
    default: break;
  }
}

function wireComposer() {
  const ed = editor();
  // The live editor acts on beforeinput; a synthetic event (isTrusted false) changes nothing.
  ed.addEventListener('beforeinput', (e) => {
    e.preventDefault();
    if (!e.isTrusted || busy) return;
    switch (e.inputType) {
      case 'insertText': case 'insertReplacementText':
        if (insertTextIgnored) return;
        insertLines(e.data != null ? e.data : (e.dataTransfer ? e.dataTransfer.getData('text/plain') : ''));
        break;
      case 'insertParagraph': case 'insertLineBreak': insertLines('\n'); break;
      case 'deleteContentBackward': case 'deleteContentForward': case 'deleteByCut':
        if (wholeSelection()) clearEditor(); else deleteBackward();
        break;
      default: return;
    }
    composerChanged();
  });
  ed.addEventListener('paste', (e) => {
    e.preventDefault();
    if (!e.isTrusted || busy) return; // a dispatched ClipboardEvent is not what the live composer takes
    const text = e.clipboardData ? e.clipboardData.getData('text/plain') : '';
    if (wholeSelection()) clearEditor();
    if (text) insertLines(text);
    composerChanged();
  });
  ed.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && e.isTrusted) { e.preventDefault(); submit(); }
  });
  submitButton().addEventListener('click', (e) => { if (e.isTrusted) submit(); });
  const upload = $('#upload-files');
  upload.addEventListener('change', () => {
    for (const f of upload.files) attachments.push(f.name);
    upload.value = '';
    renderAttachments();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && menuOpen) { e.preventDefault(); closeMenus(); }
  });
  document.addEventListener('pointerdown', (e) => {
    if (menuOpen && !e.target.closest('[data-radix-popper-content-wrapper], #fakesol-pill')) closeMenus();
  });
}

function renderAttachments() {
  const tray = $('#attachment-tray');
  tray.replaceChildren();
  for (const name of attachments) {
    tray.appendChild(el('div', { class: 'attachment-chip', 'data-testid': 'attachment-chip', text: name }));
  }
}

// ---- The effort pill and its menus ---------------------------------------------------------------

function renderPill() {
  const pill = el('button', { type: 'button', id: 'fakesol-pill', 'aria-haspopup': 'menu', 'aria-expanded': 'false',
    'data-state': 'closed' });
  if (dom === '2026-09') {
    pill.setAttribute('data-tone', 'neutral'); // (d): no class, no testid, no aria-label
  } else {
    pill.className = '__composer-pill';
  }
  pill.addEventListener('click', (e) => { if (e.isTrusted) { if (menuOpen) closeMenus(); else openMenu(); } });
  $('#composer-trailing').prepend(pill);
  updatePill();
}

function updatePill() {
  const pill = $('#fakesol-pill');
  if (!pill) return;
  pill.replaceChildren(el('span', { class: 'truncate', text: menuOpen && dom === '2026-09' ? T().thinkingEffort : shown(effortLabel) }));
  pill.setAttribute('aria-expanded', String(menuOpen));
  pill.setAttribute('data-state', menuOpen ? 'open' : 'closed');
}

let menuSeq = 0;
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
  row.addEventListener('click', (e) => { if (e.isTrusted) onPick(); });
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

function effortRadios(into) {
  const group = el('div', { role: 'group' });
  EFFORTS.forEach((canonical, i) => {
    group.appendChild(radioRow(T().efforts[i], canonical === effortLabel, () => pickEffort(canonical), i === 0 ? '5.5' : null));
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
  const content = el('div', { class: 'flex flex-col', 'data-testid': 'composer-intelligence-picker-content', role: 'group' });
  menu.appendChild(content);
  switch (dom) {
    case '2026-03': case '2026-07':
      // (a): efforts first, a badge inside the Instant row's text; the model in its own submenu.
      content.appendChild(el('div', { class: '__menu-label mb-0', text: T().intelligence }));
      effortRadios(content);
      content.appendChild(el('div', { role: 'separator' }));
      content.appendChild(opener(MODELS[0], 0, modelRadios, false));
      break;
    case '2026-08':
      // (b): models at the top; efforts under Advanced -> Effort, behind menuitem openers.
      modelRadios(content);
      content.appendChild(el('div', { role: 'separator' }));
      content.appendChild(opener(T().advanced, 0, (sub) => {
        sub.appendChild(el('div', { role: 'menuitem', tabindex: '0', class: 'group __menu-item', text: T().temporary }));
        sub.appendChild(opener(T().effort, 1, effortRadios, true));
      }, false));
      break;
    default: {
      // (c)/(d): a slider; the radios beside it are MODELS.
      const view = el('div', { 'data-testid': 'composer-model-picker-slider-simple-view' });
      view.appendChild(el('div', { class: '__menu-label', text: T().thinkingEffort }));
      view.appendChild(slider());
      content.appendChild(view);
      content.appendChild(el('div', { role: 'separator' }));
      modelRadios(content);
    }
  }
  updatePill();
}

function slider() {
  const index = Math.max(0, EFFORTS.indexOf(effortLabel));
  const track = el('div', { class: 'slider-track' });
  const thumb = el('div', { class: 'slider-thumb' });
  const s = el('div', { role: 'slider', tabindex: '0', 'aria-orientation': 'horizontal', 'aria-valuemin': '0',
    'aria-valuemax': String(EFFORTS.length - 1) });
  const set = (i) => {
    i = Math.max(0, Math.min(EFFORTS.length - 1, i));
    s.setAttribute('aria-valuenow', String(i));
    s.setAttribute('aria-valuetext', T().efforts[i]);
    thumb.style.left = (i * 46) + 'px';
    return i;
  };
  set(index);
  s.addEventListener('keydown', (e) => {
    const now = Number(s.getAttribute('aria-valuenow'));
    const next = { ArrowRight: now + 1, ArrowUp: now + 1, ArrowLeft: now - 1, ArrowDown: now - 1, Home: 0,
      End: EFFORTS.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const i = set(next);
    if (i !== now) commitEffort(EFFORTS[i]);
  });
  // A click moves the value to where the pointer is, wherever that is (rzn).
  track.addEventListener('pointerdown', (e) => {
    const r = track.getBoundingClientRect();
    const i = set(Math.round((e.clientX - r.left) / r.width * (EFFORTS.length - 1)));
    commitEffort(EFFORTS[i]);
  });
  track.append(thumb);
  s.append(track);
  return s;
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
    if (Number(m.getAttribute('data-depth')) >= depth) m.parentElement.remove();
  }
  for (const o of document.querySelectorAll('[role="menuitem"][aria-expanded="true"]')) {
    const m = o.closest('[data-radix-menu-content]');
    if (Number(m.getAttribute('data-depth')) >= depth - 1) { o.setAttribute('aria-expanded', 'false'); o.setAttribute('data-state', 'closed'); }
  }
}

function closeMenus() {
  closeMenusFrom(0);
  menuOpen = false;
  updatePill();
}

// ---- Turns ---------------------------------------------------------------------------------

function mount(section, before) {
  if (before) $('#thread').insertBefore(section, before); else $('#thread').appendChild(section);
  if (!before) sections.push(section);
  if (windowed > 0) {
    // Long threads keep only the last few turns mounted (onflip).
    const mounted = sections.filter((s) => s.isConnected);
    for (const s of mounted.slice(0, Math.max(0, mounted.length - windowed))) s.remove();
  }
}

function turnSection(role, id) {
  const s = el('section', { class: 'text-token-text-primary w-full', dir: 'auto',
    'data-turn-id': newer() ? 'request-WEB:' + id : id, 'data-testid': 'conversation-turn-' + (++turnSeq),
    'data-scroll-anchor': 'false', 'data-turn': role });
  if (newer()) s.setAttribute('data-turn-id-container', '');
  s.appendChild(el('h4', { class: 'sr-only select-none', text: role === 'user' ? T().youSaid : T().chatgptSaid }));
  return s;
}

function actionButton(testid, label) {
  return el('button', { class: 'text-token-text-secondary', 'aria-label': label, 'data-testid': testid, 'data-state': 'closed' },
    el('span', { class: 'flex items-center justify-center' }));
}

function userTurn(id, text) {
  const s = turnSection('user', id);
  const m = el('div', { 'data-message-author-role': 'user', 'data-message-id': id, dir: 'auto' },
    el('div', { class: 'user-message-bubble-color' }, el('div', { class: 'whitespace-pre-wrap', text })));
  const actions = el('div', { 'aria-label': 'Your message actions', role: 'group', 'data-fakesol-actions': '', class: 'shown' },
    actionButton('copy-turn-action-button', T().copyMessage));
  actions.firstChild.addEventListener('click', (e) => { if (e.isTrusted && !copyBroken) navigator.clipboard.writeText(text); });
  s.append(el('div', { class: 'group/turn-messages' }, m, actions));
  mount(s);
  return s;
}

function assistantMessage(id, slug) {
  const m = el('div', { 'data-message-author-role': 'assistant', 'data-message-id': id, dir: 'auto',
    'data-message-model-slug': slug || '', class: 'min-h-8 text-message' });
  const md = el('div', { class: 'markdown prose dark:prose-invert w-full break-words light' });
  m.append(el('div', { class: 'flex w-full flex-col gap-1 empty:hidden' }, md));
  return { node: m, md };
}

function assistantTurn(id, slug, before) {
  const s = turnSection('assistant', id);
  const body = el('div', { class: 'flex max-w-full flex-col gap-4 grow' });
  const msg = assistantMessage(id, slug);
  const status = el('div', { class: 'loading-shimmer', hidden: '' });
  body.append(status, msg.node);
  const actions = el('div', { 'aria-label': 'Response actions', role: 'group', 'data-fakesol-actions': '' },
    actionButton('copy-turn-action-button', T().copyResponse),
    actionButton('good-response-turn-action-button', 'Good response'),
    actionButton('bad-response-turn-action-button', 'Bad response'));
  s.append(el('div', { class: 'group/turn-messages agent-turn' }, body, actions));
  mount(s, before);
  const turn = { id, node: s, body, message: msg.node, md: msg.md, status, actions, markdown: '' };
  // The clipboard takes a write only from a user gesture: a synthetic click copies nothing.
  actions.firstChild.addEventListener('click', (e) => {
    if (e.isTrusted && !copyBroken) navigator.clipboard.writeText(turn.markdown);
  });
  return turn;
}

function setThinking(turn, label) {
  if (label) {
    turn.status.textContent = label; turn.status.hidden = false; turn.node.setAttribute('aria-busy', 'true');
  } else {
    turn.status.hidden = true; turn.status.textContent = ''; turn.node.removeAttribute('aria-busy');
  }
}

function proseInto(md, text) {
  md.querySelectorAll(':scope > p').forEach((p) => p.remove());
  const p = el('p', { text });
  md.prepend(p);
}

/** March 2026 (aice): div.cm-content of token spans, a <br> between lines, no .cm-line. */
function cmSpans(code) {
  const content = el('div', { class: 'cm-content q9tKkq_readonly' });
  code.split('\n').forEach((line, i) => {
    if (i > 0) content.appendChild(document.createElement('br'));
    for (const token of line.match(/\s+|[^\s]+/g) || []) content.appendChild(el('span', { class: /^\s/.test(token) ? '' : '\u037C' + 'e', text: token }));
  });
  return content;
}

/** July 2026 on (bridge): pre.cm-content > code, INSIDE the block's outer pre. */
function cmPre(code) {
  return el('pre', { class: 'cm-content readonly' }, el('code', { text: code }));
}

function codeBlock(block) {
  const copy = el('button', { 'aria-label': dom === '2026-03' ? T().copy : T().copyCode, 'data-state': 'closed' });
  copy.addEventListener('click', (e) => { if (e.isTrusted) navigator.clipboard.writeText(block.code); });
  const tools = el('div', { class: 'flex flex-row items-center gap-0.5' }, copy);
  if (dom === '2026-03') tools.appendChild(el('button', { class: 'btn btn-ghost', 'aria-label': 'Run code', type: 'button' }, el('div', { text: T().run })));
  const header = el('div', { class: 'sticky z-2 select-none' },
    el('div', { class: 'flex w-full items-center justify-between' }, el('div', { class: 'text-sm font-medium', text: block.label || '' }), tools));
  const viewer = el('div', { id: 'code-block-viewer', dir: 'ltr', class: 'cm-editor' },
    el('div', { class: 'cm-scroller' }, dom === '2026-03' ? cmSpans(block.code) : cmPre(block.code)));
  return el('pre', { class: 'overflow-visible! px-0!' },
    el('div', { class: 'relative w-full mt-4 mb-1' }, el('div', { class: 'contents' }, header, viewer)));
}

/** Images as the file service serves them, inside an image-... ancestor; drawn twice (backdrop + image). */
function imageBlock(image) {
  return el('div', { id: 'image-' + image.file_id, class: 'imagegen-image group/imagegen-image' },
    el('img', { alt: '', 'aria-hidden': 'true', src: image.url }),
    el('img', { alt: 'Generated image', src: image.url }));
}

function renderDone(turn, data) {
  proseInto(turn.md, data.prose || '');
  for (const b of data.blocks || []) turn.md.appendChild(codeBlock(b));
  for (const i of data.images || []) turn.md.appendChild(imageBlock(i));
  turn.markdown = data.markdown || '';
  turn.actions.classList.add('shown');
}

async function waitOrStop(ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (stopped) return false;
    await sleep(Math.min(25, end - Date.now()));
  }
  return !stopped;
}

async function stream(md, from, to, text, ms) {
  const steps = Math.max(1, Math.min(40, Math.ceil(ms / 25)));
  for (let i = 1; i <= steps; i++) {
    if (stopped) return false;
    proseInto(md, text.slice(0, from + Math.ceil((to - from) * i / steps)));
    if (ms > 0) await sleep(ms / steps);
  }
  return !stopped;
}

// ---- Sending ---------------------------------------------------------------------------------

async function submit() {
  if (busy) {
    if (submitButton().getAttribute('data-testid') !== 'send-button') doStop();
    return;
  }
  const text = composerText();
  if (!text || submitButton().disabled) return;
  busy = true; stopped = false;
  const isNew = !conversationId;
  setSendMode('stop');
  clearEditor();
  const sentFiles = attachments; attachments = []; renderAttachments();
  draftId = null;
  try {
    // turn.js: the turn goes to the page's own /backend-api/f/conversation, as on the real page,
    // and the answer is rendered from the events it receives (answerView).
    await streamTurn(text, isNew, sentFiles);
  } finally {
    busy = false;
  }
}

function doStop() {
  stopped = true;
  stopStreamTurn();
  api('/api/stop', {});
  setSendMode('send');
}

/** A page fault with no answer in the stream: the page shows it by itself. */
async function play(plan) {
  switch (plan.fault) {
    case 'too_long': setSendMode('send'); showTooLong(); return;
    case 'logged_out': renderLoginWall(); return;
    case 'cloudflare': location.replace('/cdn-cgi/challenge'); return;
    case 'crash': case 'crash_before_send': return; // Stop stays up; the backend ends the browser
    case 'hang': await waitOrStop(1e9); return;
    case 'cap': case 'capacity': case 'unusual_activity':
      await waitOrStop(plan.delay_ms || 100);
      setSendMode('send'); showBanner(plan.banner);
      return;
    case 'conversation_full':
      await waitOrStop(plan.delay_ms || 100);
      conversationFull(plan);
      return;
    default:
  }
}

/**
 * One assistant turn drawn from its stream's events (turn.js calls these as they arrive), with the
 * page's own behaviours around them from the plan: the action bar that flashes while the model
 * thinks (flash_action_bar), Stop that disappears while the text stalls (false_pause_ms), the
 * previous turn remounted as this one starts (rerender_previous), the images of its file service.
 */
function answerView(plan) {
  const turn = assistantTurn(crypto.randomUUID(), '');
  turn.message.remove(); // the answer message appears when the stream names it
  let identified = false;
  let preambled = false;
  let thinking = null;  // the Answer now button while the model thinks
  let markdown = '';
  let slug = '';
  let stall = null;
  let stalled = false;
  let done = false;
  if (plan.rerender_previous) rerenderPrevious(turn.node);

  const stallWatch = () => {
    if (!plan.false_pause_ms) return;
    clearTimeout(stall);
    if (stalled) { stalled = false; setSendMode('stop'); }
    // The false stable pause (seed 003): the text stalls, Stop goes, no action bar yet.
    stall = setTimeout(() => { if (!done && !thinking && !stopped) { stalled = true; setSendMode('send'); } }, 150);
  };

  const flash = async () => {
    while (thinking && !done) {
      // The finished-action bar flashes on for 200 ms in every 500 while the model still thinks.
      if (plan.flash_action_bar) turn.actions.classList.toggle('shown', (Date.now() % 500) < 200);
      else turn.actions.classList.add('shown');
      await sleep(25);
    }
  };

  return {
    identify(id, modelSlug) {
      slug = modelSlug || slug;
      turn.id = id;
      turn.message.setAttribute('data-message-id', id);
      turn.message.setAttribute('data-message-model-slug', slug);
      turn.node.setAttribute('data-turn-id', newer() ? 'request-WEB:' + id : id);
      if (!identified) turn.body.appendChild(turn.message);
      identified = true;
    },
    /** A Pro preamble: its own message, settled, no Stop, no thinking signal and no action bar (oracle's trap). */
    preamble(id, text, modelSlug) {
      if (preambled) return;
      preambled = true;
      const msg = assistantMessage(id, modelSlug);
      turn.body.insertBefore(msg.node, turn.status);
      proseInto(msg.md, text);
      setSendMode('send');
      submitButton().disabled = true;
    },
    /** Thinking: a status label with a shimmer, aria-busy, an Answer now button; the bar may flash. */
    thinking() {
      if (thinking || done) return;
      clearTimeout(stall);
      if (preambled || stalled) setSendMode('stop');
      stalled = false;
      setThinking(turn, preambled ? T().proThinking : T().thinking);
      thinking = el('button', { type: 'button', class: 'btn', text: T().answerNow });
      turn.body.appendChild(thinking);
      if (plan.flash_action_bar && !stopless()) setSendMode('send'); // Stop gone mid-thinking, too
      if (plan.flash_action_bar) submitButton().disabled = true;
      flash();
    },
    thought() {
      if (!thinking) return;
      thinking.remove();
      thinking = null;
      setThinking(turn, null);
      turn.actions.classList.remove('shown');
      if (plan.flash_action_bar) setSendMode('stop');
      if (markdown) stallWatch();
    },
    text(t) {
      markdown = t;
      if (!identified || done) return;
      proseInto(turn.md, FakesolStream.render(t).prose);
      stallWatch();
    },
    /** The stream is over (complete, cut, stopped): the answer as it stands. Returns the turn for the thread, or null. */
    finish(state, errorText) {
      done = true;
      clearTimeout(stall);
      if (thinking) { thinking.remove(); thinking = null; setThinking(turn, null); }
      if (!identified) {
        if (errorText) turn.node.remove(); else turn.actions.classList.add('shown');
        return null;
      }
      const m = state && state.answerId ? state.messages.get(state.answerId) : null;
      const part = m && m.content && m.content.parts ? m.content.parts[0] : null;
      const rendered = FakesolStream.render(typeof part === 'string' ? part : markdown);
      rendered.images = plan.images || [];
      renderDone(turn, rendered);
      return { id: turn.id, data: Object.assign({ slug }, rendered) };
    },
  };
}

/** React remounts an older turn while a new one streams: same message id, text re-streams. */
async function rerenderPrevious(current) {
  const prev = turns[turns.length - 1];
  if (!prev) return;
  const oldMsg = document.querySelector('[data-message-id="' + CSS.escape(prev.id) + '"]');
  if (!oldMsg) return; // unmounted by windowing
  const old = oldMsg.closest('section');
  const fresh = assistantTurn(prev.id, prev.data.slug, old);
  const at = sections.indexOf(old);
  if (at >= 0) sections[at] = fresh.node;
  old.remove();
  fresh.markdown = prev.data.markdown;
  await stream(fresh.md, 0, (prev.data.prose || '').length, prev.data.prose || '', 200);
  renderDone(fresh, prev.data);
}

// ---- Banners, errors, walls ------------------------------------------------------------------

function showBanner(text) {
  if (Array.from(document.querySelectorAll('#banners .banner')).some((b) => b.textContent === text)) return;
  const b = el('div', { class: 'banner', role: 'alert', 'data-testid': 'usage-limit-banner', text });
  $('#banners').appendChild(b);
}

function showTooLong() {
  $('#thread').appendChild(el('div', { class: 'text-token-text-error border-token-surface-error',
    text: 'The message you submitted was too long, please reload the conversation and submit something shorter.' }));
}

/** REAL-PAGE row 8: the error inside the assistant message, with a "Start new chat" button. */
function conversationFull(plan) {
  const turn = assistantTurn(plan.message_id || crypto.randomUUID(), plan.slug);
  turn.md.parentElement.appendChild(el('div', { class: 'text-token-text-error' }, el('div', { text: T().full })));
  turn.md.parentElement.appendChild(el('button', { class: 'btn btn-primary', type: 'button', text: T().newChat }));
  setSendMode('send');
}

function showError(plan) {
  const msg = el('div', { class: 'text-token-text-error border-token-surface-error', text: plan.error });
  const retry = el('button', { 'data-testid': 'regenerate-thread-error-button', text: 'Retry' });
  retry.addEventListener('click', () => api('/api/retry', { conversation_id: plan.conversation_id }));
  $('#thread').appendChild(el('div', {}, msg, retry));
}

function toast(text) {
  $('#toasts').appendChild(el('div', { class: 'toast-root', 'data-testid': 'toast', text }));
}

function renderLoginWall() {
  $('#main').replaceChildren(el('div', { class: 'login-wall' },
    el('h1', { text: 'Get smarter responses, upload files and images, and more.' }),
    el('button', { 'data-testid': 'login-button', text: 'Log in' }),
    el('button', { 'data-testid': 'signup-button', text: 'Sign up for free' })));
}

// ---- Load ------------------------------------------------------------------------------------

async function load() {
  const id = pageConversationId(); // history.js: /c/<id>, also inside a project
  const durable = id && !id.startsWith('WEB:');
  const st = (await api('/api/state' + (durable ? '?conversation=' + encodeURIComponent(id) : ''))).json;
  dom = st.dom || dom;
  locale = st.locale || locale;
  windowed = st.windowed_turns || 0;
  document.documentElement.lang = locale;
  if (st.wall === 'cloudflare') { location.replace('/cdn-cgi/challenge'); return; }
  if (st.wall === 'login') { renderLoginWall(); return; }
  copyBroken = !!st.copy_broken;
  insertTextIgnored = !!st.insert_text_ignored;
  effortLabel = st.effort_label;
  await loadHistory(); // history.js: the sidebar, a project home, a temporary chat
  wireComposer();
  renderPill();
  if (st.banner) showBanner(st.banner);
  $('form[data-type="unified-composer"]').hidden = false; // the app "hydrates" after its state fetch
  if (!durable) return;
  const r = await api('/api/conversation/' + encodeURIComponent(id));
  if (r.status !== 200) { showNotFound(id, r.json); return; }
  conversationId = id;
  conversationShown(r.json);
  for (const t of r.json.turns) {
    if (t.role === 'user') { userTurn(t.id, t.text); continue; }
    const turn = assistantTurn(t.id, t.slug);
    const rendered = Object.assign(FakesolStream.render(t.markdown || ''), { images: t.images || [] });
    renderDone(turn, rendered);
    turns.push({ id: t.id, data: Object.assign({ slug: t.slug }, rendered) });
  }
}

load();
