// fakesol page: behaves like the real ChatGPT page where the seat looks (../shared/CHATGPT-DOM.md).
// The backend (FakeSol.java) decides replies and faults from the scenario; each turn goes to the
// page's own /backend-api/f/conversation (turn.js, stream.js) and this script renders what the
// stream says with the live DOM shapes and timings: Stop/Send sharing #composer-submit-button, turns
// as section[data-testid^="conversation-turn-"], CodeMirror-style code blocks (no fences in
// innerText), a copy-turn-action-button that copies raw markdown, /c/WEB:<uuid> before /c/<uuid>.
'use strict';

const $ = (s, r = document) => r.querySelector(s);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  };
  const r = await fetch(path, init);
  let json = null;
  try { json = await r.json(); } catch (e) { json = null; }
  return { status: r.status, json };
}

let conversationId = null; // the durable conversation this page shows
let draftId = null;        // the conversation a first message will open (decided at precheck)
let busy = false;
let stopped = false;
let turnSeq = 0;
let precheckSeq = 0;
let copyBroken = false;    // FakeSol.breakCopyButtons(): the turn copy button copies nothing
const turns = [];          // rendered assistant turns: {id, node, data}
let attachments = [];      // file names picked through the composer's file input, sent with the next message

const editor = () => $('#prompt-textarea');
const submitButton = () => $('#composer-submit-button');

// ---- Composer (ProseMirror-like: one <p> per line) ------------------------------------------

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
  const el = editor();
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const ps = el.querySelectorAll(':scope > p');
  let last = ps[ps.length - 1];
  if (!last) { last = paragraph(''); el.appendChild(last); }
  const lastEmpty = last.textContent === '';
  if (lastEmpty) last.textContent = lines[0]; else last.textContent += lines[0];
  if (!last.textContent) { last.textContent = ''; last.appendChild(document.createElement('br')); }
  const frag = document.createDocumentFragment();
  for (let i = 1; i < lines.length; i++) frag.appendChild(paragraph(lines[i]));
  el.appendChild(frag);
}

function clearEditor() {
  editor().replaceChildren(paragraph(''));
}

function setSendMode(mode) {
  const b = submitButton();
  if (mode === 'stop') {
    b.setAttribute('data-testid', 'stop-button');
    b.setAttribute('aria-label', 'Stop streaming');
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
  const mine = ++precheckSeq;
  submitButton().disabled = true;
  if (!text) return;
  const r = await api('/api/precheck', { conversation_id: conversationId || draftId, text });
  if (mine !== precheckSeq || busy) return;
  const out = r.json || {};
  if (!conversationId && out.conversation_id) draftId = out.conversation_id;
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
  const el = editor();
  el.addEventListener('paste', (e) => {
    e.preventDefault();
    const text = e.clipboardData ? e.clipboardData.getData('text/plain') : '';
    if (text) insertLines(text);
    composerChanged();
  });
  el.addEventListener('input', () => {
    if (!el.querySelector(':scope > p')) {
      const t = el.innerText; el.replaceChildren(); insertLines(t);
    }
    composerChanged();
  });
  el.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); submit(); }
  });
  submitButton().addEventListener('click', () => submit());
  // Uploads: the real composer has input#upload-files[type=file][multiple]; picked files show as
  // chips above the prompt and go with the next Send (only their names matter here).
  const upload = $('#upload-files');
  upload.addEventListener('change', () => {
    for (const f of upload.files) attachments.push(f.name);
    upload.value = '';
    renderAttachments();
  });

  const pill = $('.__composer-pill');
  const menu = $('[data-radix-menu-content]');
  pill.addEventListener('click', () => {
    const open = menu.getAttribute('data-state') !== 'open';
    menu.setAttribute('data-state', open ? 'open' : 'closed');
    pill.setAttribute('aria-expanded', String(open));
  });
  for (const item of menu.querySelectorAll('[role="menuitemradio"]')) {
    item.addEventListener('click', async () => {
      const r = await api('/api/effort', { conversation_id: conversationId, wanted: item.textContent.trim() });
      setEffortLabel(r.json.label);
      menu.setAttribute('data-state', 'closed');
      pill.setAttribute('aria-expanded', 'false');
    });
  }
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') menu.setAttribute('data-state', 'closed');
  });
}

function renderAttachments() {
  const tray = $('#attachment-tray');
  tray.replaceChildren();
  for (const name of attachments) {
    const chip = document.createElement('div');
    chip.className = 'attachment-chip'; chip.setAttribute('data-testid', 'attachment-chip'); chip.textContent = name;
    tray.appendChild(chip);
  }
}

function setEffortLabel(label) {
  $('#thinking-effort-selection-label').textContent = label;
  for (const item of document.querySelectorAll('[role="menuitemradio"]')) {
    item.setAttribute('aria-checked', String(item.textContent.trim() === label));
  }
}

// ---- Turns ---------------------------------------------------------------------------------

function userTurn(id, text) {
  const s = document.createElement('section');
  s.setAttribute('data-testid', 'conversation-turn-' + (++turnSeq));
  s.setAttribute('data-turn', 'user');
  s.setAttribute('data-turn-id', id);
  const h = document.createElement('h4'); h.className = 'sr-only'; h.textContent = 'You said:';
  const m = document.createElement('div');
  m.setAttribute('data-message-author-role', 'user');
  m.setAttribute('data-message-id', id);
  const t = document.createElement('div'); t.className = 'whitespace-pre-wrap'; t.textContent = text;
  m.appendChild(t); s.append(h, m);
  $('#thread').appendChild(s);
  return s;
}

function assistantTurn(id, slug, before) {
  const s = document.createElement('section');
  s.setAttribute('data-testid', 'conversation-turn-' + (++turnSeq));
  s.setAttribute('data-turn', 'assistant');
  s.setAttribute('data-turn-id', id);
  const h = document.createElement('h4'); h.className = 'sr-only'; h.textContent = 'ChatGPT said:';
  const m = document.createElement('div');
  m.setAttribute('data-message-author-role', 'assistant');
  m.setAttribute('data-message-id', id);
  m.setAttribute('data-message-model-slug', slug || '');
  const status = document.createElement('div'); status.className = 'status-label'; status.hidden = true;
  const md = document.createElement('div'); md.className = 'markdown prose';
  const prose = document.createElement('div'); prose.className = 'prose-text';
  md.appendChild(prose);
  m.append(status, md);
  const actions = document.createElement('div'); actions.className = 'turn-actions';
  const copy = document.createElement('button');
  copy.setAttribute('data-testid', 'copy-turn-action-button'); copy.setAttribute('aria-label', 'Copy'); copy.textContent = 'Copy';
  const good = document.createElement('button');
  good.setAttribute('data-testid', 'good-response-turn-action-button'); good.setAttribute('aria-label', 'Good response'); good.textContent = '+';
  const bad = document.createElement('button');
  bad.setAttribute('data-testid', 'bad-response-turn-action-button'); bad.setAttribute('aria-label', 'Bad response'); bad.textContent = '-';
  actions.append(copy, good, bad);
  s.append(h, m, actions);
  if (before) $('#thread').insertBefore(s, before); else $('#thread').appendChild(s);
  const turn = { id, node: s, prose, md, status, actions, markdown: '' };
  copy.addEventListener('click', () => { if (!copyBroken) navigator.clipboard.writeText(turn.markdown); });
  return turn;
}

function codeBlock(block) {
  const pre = document.createElement('pre');
  const wrap = document.createElement('div'); wrap.className = 'contain-inline-size';
  const header = document.createElement('div'); header.className = 'code-header';
  const lang = document.createElement('span'); lang.className = 'code-lang'; lang.textContent = block.label || '';
  const copy = document.createElement('button'); copy.setAttribute('aria-label', 'Copy'); copy.textContent = 'Copy';
  copy.addEventListener('click', () => navigator.clipboard.writeText(block.code));
  header.append(lang, copy);
  const viewer = document.createElement('div'); viewer.id = 'code-block-viewer'; viewer.className = 'cm-editor';
  const scroller = document.createElement('div'); scroller.className = 'cm-scroller';
  const content = document.createElement('div'); content.className = 'cm-content'; content.setAttribute('contenteditable', 'false');
  for (const line of block.code.split('\n')) {
    const l = document.createElement('div'); l.className = 'cm-line';
    if (line) l.textContent = line; else l.appendChild(document.createElement('br'));
    content.appendChild(l);
  }
  scroller.appendChild(content); viewer.appendChild(scroller); wrap.append(header, viewer); pre.appendChild(wrap);
  return pre;
}

/** A generated image as the real page shows it: an <img alt="Generated image"> served by the site. */
function imageBlock(image) {
  const wrap = document.createElement('div'); wrap.className = 'generated-image';
  const img = document.createElement('img');
  img.setAttribute('alt', 'Generated image'); img.setAttribute('src', image.url);
  img.setAttribute('data-fakesol-name', image.name);
  wrap.appendChild(img);
  return wrap;
}

function renderDone(turn, data) {
  turn.prose.textContent = data.prose || '';
  for (const b of data.blocks || []) turn.md.appendChild(codeBlock(b));
  for (const i of data.images || []) turn.md.appendChild(imageBlock(i));
  turn.markdown = data.markdown || '';
  turn.actions.classList.add('shown');
}

async function stream(turn, from, to, text, ms) {
  const steps = Math.max(1, Math.min(40, Math.ceil(ms / 25)));
  for (let i = 1; i <= steps; i++) {
    if (stopped) return false;
    turn.prose.textContent = text.slice(0, from + Math.ceil((to - from) * i / steps));
    if (ms > 0) await sleep(ms / steps);
  }
  return !stopped;
}

// ---- Sending ---------------------------------------------------------------------------------

async function submit() {
  if (busy) {
    if (submitButton().getAttribute('data-testid') === 'stop-button') doStop();
    return;
  }
  const text = composerText();
  if (!text || submitButton().disabled) return;
  busy = true; stopped = false;
  const isNew = !conversationId;
  setSendMode('stop');
  clearEditor();
  if (isNew) history.pushState(null, '', '/c/WEB:' + crypto.randomUUID());
  const sentFiles = attachments; attachments = []; renderAttachments();
  draftId = null;
  try {
    await streamTurn(text, isNew, sentFiles); // turn.js: the page's own /backend-api/f/conversation
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

/** React remounts an older turn while a new one streams: same message id, text re-streams. */
async function rerenderPrevious(current) {
  const prev = turns[turns.length - 1];
  if (!prev) return;
  const old = document.querySelector('[data-message-id="' + CSS.escape(prev.id) + '"]').closest('section');
  const fresh = assistantTurn(prev.id, prev.data.slug, old);
  old.remove();
  fresh.markdown = prev.data.markdown;
  await stream(fresh, 0, (prev.data.prose || '').length, prev.data.prose || '', 200);
  renderDone(fresh, prev.data);
}

// ---- Banners, errors, walls ------------------------------------------------------------------

function showBanner(text) {
  const b = document.createElement('div');
  b.className = 'banner'; b.setAttribute('role', 'alert'); b.setAttribute('data-testid', 'usage-limit-banner');
  b.textContent = text;
  $('#banners').appendChild(b);
}

function showTooLong() {
  const b = document.createElement('div');
  b.className = 'text-token-text-error border-token-surface-error';
  b.textContent = 'The message you submitted was too long, please reload the conversation and submit something shorter.';
  $('#thread').appendChild(b);
}

function showError(plan) {
  const box = document.createElement('div');
  const msg = document.createElement('div');
  msg.className = 'text-token-text-error border-token-surface-error';
  msg.textContent = plan.error;
  const retry = document.createElement('button');
  retry.setAttribute('data-testid', 'regenerate-thread-error-button');
  retry.textContent = 'Retry';
  retry.addEventListener('click', () => api('/api/retry', { conversation_id: plan.conversation_id }));
  box.append(msg, retry);
  $('#thread').appendChild(box);
}

function toast(text) {
  const t = document.createElement('div');
  t.className = 'toast-root'; t.setAttribute('data-testid', 'toast'); t.textContent = text;
  $('#toasts').appendChild(t);
}

function renderLoginWall() {
  $('#main').replaceChildren();
  const wall = document.createElement('div'); wall.className = 'login-wall';
  const h = document.createElement('h1'); h.textContent = 'Get smarter responses, upload files and images, and more.';
  const login = document.createElement('button'); login.setAttribute('data-testid', 'login-button'); login.textContent = 'Log in';
  const signup = document.createElement('button'); signup.setAttribute('data-testid', 'signup-button'); signup.textContent = 'Sign up for free';
  wall.append(h, login, signup);
  $('#main').appendChild(wall);
}

// ---- Load ------------------------------------------------------------------------------------

async function load() {
  const m = location.pathname.match(/^\/c\/([^/]+)$/);
  const id = m ? decodeURIComponent(m[1]) : null;
  const durable = id && !id.startsWith('WEB:');
  const st = (await api('/api/state' + (durable ? '?conversation=' + encodeURIComponent(id) : ''))).json;
  if (st.wall === 'cloudflare') { location.replace('/cdn-cgi/challenge'); return; }
  if (st.wall === 'login') { renderLoginWall(); return; }
  copyBroken = !!st.copy_broken;
  wireComposer();
  setEffortLabel(st.effort_label);
  if (st.banner) showBanner(st.banner);
  $('form[data-type="unified-composer"]').hidden = false; // the app "hydrates" after its state fetch
  if (!durable) return;
  const r = await api('/api/conversation/' + encodeURIComponent(id));
  if (r.status !== 200) { toast('Unable to load conversation ' + id); return; }
  conversationId = id;
  for (const t of r.json.turns) {
    if (t.role === 'user') { userTurn(t.id, t.text); continue; }
    const turn = assistantTurn(t.id, t.slug);
    renderDone(turn, t);
    turns.push({ id: t.id, data: t });
  }
}

load();
