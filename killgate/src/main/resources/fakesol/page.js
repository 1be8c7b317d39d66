// fakesol page: behaves like the real ChatGPT page where the seat looks, in the shape of one of the
// 2026 pages (../shared/REAL-PAGE.md; ../shared/realdom/README.md). Written for this project;
// nothing here is copied from a capture. The backend (FakeSol.java) decides replies, faults, the
// page shape and the UI language (window.FAKESOL, resolved by PageRender.java).
//
// The page is split by job, one global scope: thread.js (the turns as each shape draws them),
// picker.js (the effort control, the Chat/Work switch), turn.js (one turn over the page's own
// stream, drawn from its events), history.js (sidebar, projects, temporary chats, deletes),
// stream.js (the conversation stream). This file: the shape table, the composer and its Send and
// Stop, the page faults that carry no answer, banners and walls, and the load. mutate.js applies
// the page mutations' DOM operations to whatever the others draw; november.js the November page's
// controls (rows 55, 57, 60, 66: a formless composer, a twin editor, remounting turns, stamped
// upload names).
//
// What it makes as hard as the real page:
// - the composer takes only TRUSTED input (real keys, CDP insertText, a real Ctrl+V paste); a
//   synthetic ClipboardEvent or InputEvent is dropped, as onflip saw on the live composer (row 2);
// - October's composer has no id, and just after navigation an unhydrated bare textarea stands
//   where it will be (row 27); text typed there is lost when the editor hydrates;
// - October's Send exists only while the composer has text and Stop is known by its label alone,
//   no test ids (row 16); the empty slot holds the voice button (row 27); September pages show
//   none of the Stop selectors peers knew (onflip, row 3);
// - a Canvas answer puts a CodeMirror .cm-content[contenteditable][role=textbox] on the page
//   before the composer (row 15); typing there edits the user's code (the backend counts it);
// - the page faults that carry no answer: walls, banners, a full conversation whose "Start new
//   chat" opens / with the last prompt typed and NOT sent (rows 8, 20, 29), a structured question
//   waiting for the user (row 29), a hang.
'use strict';

const $ = (s, r = document) => r.querySelector(s);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v; else if (v !== null && v !== undefined) e.setAttribute(k, v);
  }
  for (const k of kids) if (k) e.append(k);
  return FakesolMutate.element(e); // mutate.js: the page mutations' attribute operations
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

/**
 * The page this is, as fakesol's render step resolved it (PageRender.java): window.FAKESOL holds the
 * shape (resources/fakesol/shapes/<dom>.json) through any page mutations (mutations/*.json).
 * shape(): the layout (REAL-PAGE.md rows named per field in the shape files): thread: sections
 * (rows 6, 12) | turnkey (row 13); answer: markdown | markdown-text-style (13) | dil (14); code:
 * spans (4, March) | pre (4, July on) | dil (14); picker: menu | advanced | slider (row 1 a-d) |
 * power (26); pill: class | tone (1 d); controls: testids (11) | stopless (3) | labels (16, 27);
 * testids: action bars and menus carry test ids; requestIds: data-turn-id "request-WEB:..." (6);
 * wrapper: the data-talvt-turn-state wrapper (14); composer: id (12) | bare (15, 27); modeSwitch:
 * the Chat/Work buttons (27); alert: a too-long conversation ends in a role=alert with its CTA
 * (20); title: document.title is the conversation's name (28).
 * A(): the attribute names and unit-key slots; T(): the labels in the page's language (labels/
 * en.json, ru.json: where each text comes from, and which are this project's reading).
 */
const FAKESOL = window.FAKESOL;
const dom = FAKESOL.dom;
const locale = FAKESOL.locale;
let windowed = 0;
const shape = () => FAKESOL.layout;
const A = () => FAKESOL.attrs;
const T = () => FAKESOL.labels;
/** A label template with {0}, {1}... filled in. */
const fmt = (template, ...args) => template.replace(/\{(\d)\}/g, (m, i) => String(args[Number(i)]));

const EFFORTS = ['Instant', 'Medium', 'High', 'Extra High', 'Pro'];  // canonical (backend) labels
/** The effort ladder's labels as this shape shows them (October says "Very High": row 26). */
const ladder = () => (shape().picker === 'power' ? T().octoberEfforts : T().efforts);

/** The label the page shows for a canonical effort label; unknown labels show as they are. */
const shown = (canonical) => { const i = EFFORTS.indexOf(canonical); return i < 0 ? canonical : ladder()[i]; };

// ---- State -----------------------------------------------------------------------------------

let conversationId = null; // the durable conversation this page shows
let draftId = null;        // the conversation a first message will open (decided at precheck)
let busy = false;
let stopped = false;
let precheckSeq = 0;
let copyBroken = false;    // FakeSol.breakCopyButtons(): the turn copy button copies nothing
let insertTextIgnored = false; // FakeSol.ignoreInsertText(): only a real paste gets text in
let effortLabel = 'Medium'; // canonical label the backend confirmed
const turns = [];          // rendered assistant turns: {id, data}
let attachments = [];
let lastPrompt = '';       // what "Start new chat" puts back in the composer (row 29)

let composerNode = null;   // the editor: #prompt-textarea, or October's id-less ProseMirror
let composerBoxNode = null; // its container: the composer form, or (row 55, november.js) a div
const sendButtons = new WeakSet(); // every Send this page drew (upload.js holds a Send while a file is on the way)
let slotNode = null;       // October: the slot that holds voice, Send or Stop
let sendMode = 'send';     // 'send' | 'stop'
let sendAllowed = false;   // the precheck passed for the composer's text

const editor = () => composerNode;
const submitButton = () => $('#composer-submit-button');
const HYDRATE_MS = 400;    // October: how long the bare textarea stands before the editor hydrates

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

/** October's empty draft: p[data-empty-paragraph][data-placeholder] (row 27). */
function markEmpty() {
  if (shape().composer !== 'bare') return;
  const ps = editor().querySelectorAll(':scope > p');
  const empty = ps.length === 1 && !ps[0].textContent;
  for (const p of ps) { p.removeAttribute('data-empty-paragraph'); p.removeAttribute('data-placeholder'); }
  if (empty) { ps[0].setAttribute('data-empty-paragraph', ''); ps[0].setAttribute('data-placeholder', placeholder()); }
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
  markEmpty();
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
  markEmpty();
}

function clearEditor() {
  editor().replaceChildren(paragraph(''));
  markEmpty();
}

function wholeSelection() {
  const sel = getSelection();
  return sel && !sel.isCollapsed && editor().contains(sel.anchorNode);
}

const placeholder = () => (inWork() ? T().workPlaceholder : T().askPlaceholder);

/** picker.js: the Chat/Work switch moved; the composer's label and placeholder follow (row 27). */
function composerModeChanged() {
  if (shape().composer !== 'bare' || !editor()) return;
  editor().setAttribute('aria-label', placeholder());
  markEmpty();
}

/**
 * The Send slot. Older shapes: one #composer-submit-button whose test id swaps between Send and
 * Stop (September: Stop has no known selector). October: the slot holds the voice button while
 * the composer is empty, Send only while it has text, Stop by its label while a turn runs, each a
 * new element (row 27).
 */
function setSendMode(mode) {
  sendMode = mode;
  sendAllowed = false; // enabled again once composer text passes the precheck
  if (shape().controls === 'labels') { renderSlot(); return; }
  const b = submitButton();
  if (mode === 'stop') {
    if (shape().controls === 'stopless') {
      b.removeAttribute('data-testid'); b.removeAttribute('aria-label');
    } else {
      if (shape().testids) b.setAttribute('data-testid', 'stop-button');
      b.setAttribute('aria-label', T().classicStop);
    }
    b.textContent = '\u25A0';
    b.disabled = false;
  } else {
    if (shape().testids) b.setAttribute('data-testid', 'send-button'); // a page without test ids (row 16) gets none back
    b.setAttribute('aria-label', T().classicSend);
    b.textContent = '\u2191';
    b.disabled = true;
  }
}

function setSendAllowed(ok) {
  sendAllowed = ok;
  if (shape().controls === 'labels') renderSlot(); else submitButton().disabled = !ok;
}

/** The Stop control goes away while the turn still runs (a flashing bar's page): gone, or disabled where it has no name. */
function hideStop() {
  if (shape().controls === 'stopless') submitButton().disabled = true; else setSendMode('send');
}

function renderSlot() {
  let b;
  if (sendMode === 'stop') {
    b = el('button', { type: 'button', 'aria-label': T().stop, class: 'composer-btn', text: '\u25A0' });
    b.addEventListener('click', (e) => { if (e.isTrusted && busy) doStop(); });
  } else if (editor() && composerText()) {
    b = el('button', { type: sendButtonType(), 'aria-label': T().send, class: 'composer-submit-btn', text: '\u2191' });
    b.disabled = !sendAllowed;
    sendButtons.add(b);
    b.addEventListener('click', (e) => { if (e.isTrusted) submit(); });
  } else {
    b = el('button', { type: 'button', 'aria-label': T().voice, class: 'composer-btn', text: '\u25CE' });
  }
  slotNode.replaceChildren(b);
}

/**
 * Every composer edit comes through here, once per edit: the page checks the text with the
 * backend (the faults decided before Send) and enables Send. (The page's own /prepare request on
 * typing belongs beside this call.)
 */
async function composerChanged() {
  if (busy) return;
  const text = composerText();
  FakesolWire.composed(text); // wire.js: the debounced /prepare
  const mine = ++precheckSeq;
  setSendAllowed(false);
  if (!text) return;
  const r = await api('/api/precheck', { conversation_id: conversationId || draftId, text });
  if (mine !== precheckSeq || busy) return;
  const out = r.json || {};
  if (!conversationId && out.conversation_id) draftId = out.conversation_id;
  if (out.banner) showBanner(out.banner);
  switch (out.outcome) {
    case 'ok': setSendAllowed(true); break;
    case 'too_long': showTooLong(); break;
    case 'login': renderLoginWall(); break;
    case 'cloudflare': location.replace('/cdn-cgi/challenge'); break;
    case 'crash': break; // the backend ends this browser
    default: break;
  }
}

/** Trusted input only, as the live editor takes it. */
function wireEditor(ed) {
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
    if (lateEnter(e)) return; // rows.js: Enter may insert a newline (row 36)
    if (e.key === 'Enter' && !e.shiftKey && e.isTrusted) { e.preventDefault(); submit(); }
  });
}

function wireUpload(upload) {
  upload.addEventListener('change', () => {
    for (const f of upload.files) attachments.push(f.name);
    upload.value = '';
    renderAttachments();
  });
}

/** The composer up to September (rows 11, 12): #prompt-textarea, a hidden textarea, test ids. */
function classicComposer() {
  const ed = el('div', { contenteditable: 'true', translate: 'no', class: 'ProseMirror', id: 'prompt-textarea', role: 'textbox',
    'aria-multiline': 'true' }, paragraph(''));
  const send = el('button', { id: 'composer-submit-button', 'aria-label': T().classicSend, 'data-testid': 'send-button',
    class: 'composer-submit-btn composer-submit-button-color', text: '\u2191' });
  send.disabled = true;
  sendButtons.add(send);
  send.addEventListener('click', (e) => { if (e.isTrusted) submit(); });
  const trailing = el('div', { class: 'flex items-center gap-2 [grid-area:trailing]', id: 'composer-trailing' }, send);
  const upload = el('input', { multiple: '', tabindex: '-1', id: 'upload-files', type: 'file' });
  const form = composerBox({ class: 'group/composer w-full', 'data-type': 'unified-composer' },
    el('div', { class: 'hidden' }, upload),
    el('div', { class: 'bg-token-bg-primary', 'data-composer-surface': 'true' },
      el('div', { id: 'attachment-tray' }),
      el('div', { class: '[grid-area:primary]' }, el('textarea', { name: 'prompt-textarea', style: 'display:none' }), ed),
      el('div', { class: '[grid-area:leading]' }, el('button', { type: 'button', class: 'composer-btn', 'data-testid': 'composer-plus-btn',
        'aria-label': T().classicAddFiles, id: 'composer-plus-btn', 'aria-haspopup': 'menu', 'aria-expanded': 'false',
        'data-state': 'closed', text: '+' })),
      trailing));
  return { form, editor: ed, trailing, upload };
}

/** October's composer (rows 15, 16, 26, 27): no id, no test ids, localized labels only. */
function octoberComposer() {
  const ed = el('div', { contenteditable: 'true', translate: 'no', class: 'ProseMirror', role: 'textbox', 'aria-multiline': 'true',
    'data-composer-markdown': '', 'aria-label': placeholder() }, paragraph(''));
  slotNode = el('div', { class: 'flex items-center' });
  const trailing = el('div', { class: 'flex items-center gap-2' },
    el('button', { type: 'button', class: 'composer-btn', 'aria-label': T().dictate, text: '\u{1F399}' }), slotNode);
  const upload = el('input', { multiple: '', tabindex: '-1', id: 'upload-files', type: 'file' });
  const form = composerBox({ class: 'group/composer w-full', 'data-chatgpt-composer': '' },
    el('div', { class: 'hidden' }, upload),
    el('div', { id: 'attachment-tray' }),
    el('div', { class: 'flex items-end gap-2' },
      el('button', { type: 'button', class: 'composer-btn', 'aria-label': T().addFiles, 'aria-haspopup': 'menu', text: '+' }),
      el('div', { class: 'flex-1' }, ed), trailing));
  lateComposerForm(form); // rows.js
  return { form, editor: ed, trailing, upload };
}

/**
 * Draws the composer for the shape and wires it. October first shows a bare, unhydrated textarea
 * where the editor will be (row 27); the editor replaces it HYDRATE_MS later. Resolves hydrated.
 */
async function renderComposer(fresh) {
  const bottom = $('#thread-bottom-container');
  if (shape().composer === 'bare') {
    const bare = composerBox({ class: 'group/composer w-full', 'data-chatgpt-composer': '' },
      el('textarea', { placeholder: placeholder(), class: 'w-full' }));
    bottom.replaceChildren(bare);
    await sleep(HYDRATE_MS);
  }
  const c = shape().composer === 'bare' ? octoberComposer() : classicComposer();
  composerNode = c.editor;
  composerBoxNode = c.form;
  twinEditor(c.form, c.editor); // november.js (row 57)
  wireEditor(c.editor);
  wireUpload(c.upload);
  const above = el('div', { 'data-above-composer-conversation-id': conversationId || '' }); // row 28
  bottom.replaceChildren(above, c.form);
  renderPill(c.trailing);
  if (fresh) renderModeSwitch(bottom);
  markEmpty();
  if (shape().controls === 'labels') renderSlot();
  prefillFromNewChat();
}

/** The open conversation's id above the composer (row 28: data-above-composer-conversation-id). */
function markConversation(id) {
  const above = $('[data-above-composer-conversation-id]');
  if (above && shape().wrapper) above.setAttribute('data-above-composer-conversation-id', id || '');
}

function renderAttachments() {
  const tray = $('#attachment-tray');
  tray.replaceChildren();
  for (const name of attachments) {
    tray.appendChild(el('div', { class: 'attachment-chip', 'data-testid': 'attachment-chip', text: name }));
  }
}

// ---- Sending ---------------------------------------------------------------------------------

async function submit() {
  if (busy) {
    if (sendMode === 'stop') doStop();
    return;
  }
  const text = composerText();
  if (!text || !sendAllowed) return;
  busy = true; stopped = false;
  lastPrompt = text;
  const isNew = !conversationId;
  setSendMode('stop'); // Stop shows before any answer node exists (row 29)
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

async function waitOrStop(ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (stopped) return false;
    await sleep(Math.min(25, end - Date.now()));
  }
  return !stopped;
}

/** A page fault with no answer in the stream: the page shows it by itself, in exchange {@code ex}. */
async function play(plan, ex) {
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
      conversationFull(plan, ex);
      return;
    case 'structured_question':
      await waitOrStop(plan.delay_ms || 100);
      structuredQuestion(plan, ex);
      return;
    default:
  }
}

// ---- Banners, errors, walls ------------------------------------------------------------------

function showBanner(text) {
  if (Array.from(document.querySelectorAll('#banners .banner')).some((b) => b.textContent === text)) return;
  const b = el('div', { class: 'banner', role: 'alert', 'data-testid': 'usage-limit-banner', text });
  $('#banners').appendChild(b);
}

function showTooLong() {
  threadEl().appendChild(el('div', { class: 'text-token-text-error border-token-surface-error',
    text: 'The message you submitted was too long, please reload the conversation and submit something shorter.' }));
}

/**
 * The conversation is full: the error inside the assistant message with a "Start new chat" button
 * (row 8), or on October pages a role=alert with its CTA (row 20). The CTA opens / with the last
 * prompt typed and NOT sent (row 29).
 */
function conversationFull(plan, ex) {
  const turn = answerTurn(ex, plan.message_id || crypto.randomUUID(), plan.slug);
  const cta = el('button', { class: 'btn btn-primary', type: 'button', text: T().newChat });
  cta.addEventListener('click', (e) => {
    if (!e.isTrusted) return;
    sessionStorage.setItem('fakesol-prefill', lastPrompt);
    location.assign('/');
  });
  const notice = shape().alert
    ? el('div', { role: 'alert', class: 'rounded-lg border p-3' }, el('div', { text: T().full }), cta)
    : el('div', {}, el('div', { class: 'text-token-text-error' }, el('div', { text: T().full })), cta);
  turn.body.appendChild(notice);
  turnState(ex, 'complete');
  setSendMode('send');
}

/**
 * A STRUCTURED QUESTION (row 29): the turn ends showing "Waiting for your answer" with a form
 * and Submit/Skip. The model waits for the user; it has not answered. The turn looks finished
 * (no Stop, the action bar) and its question reads like an answer.
 */
function structuredQuestion(plan, ex) {
  const turn = answerTurn(ex, plan.message_id || crypto.randomUUID(), plan.slug);
  proseInto(turn.md, plan.question || '');
  const form = el('form', { class: 'flex flex-col gap-2', onsubmit: 'return false' },
    el('label', {}, el('input', { type: 'radio', name: 'fakesol-choice', value: 'a' }), document.createTextNode(' A')),
    el('label', {}, el('input', { type: 'radio', name: 'fakesol-choice', value: 'b' }), document.createTextNode(' B')),
    el('div', { class: 'flex gap-2' }, el('button', { type: 'submit', class: 'btn btn-primary', text: T().submit }),
      el('button', { type: 'button', class: 'btn btn-secondary', text: T().skip })));
  turn.body.appendChild(el('div', { 'data-fakesol-question': '' }, el('div', { role: 'status', text: T().waiting }), form));
  turn.actions.classList.add('shown');
  turnState(ex, 'complete');
  setSendMode('send');
}

function showError(plan) {
  const msg = el('div', { class: 'text-token-text-error border-token-surface-error', text: plan.error });
  const retry = el('button', { 'data-testid': 'regenerate-thread-error-button', text: 'Retry' });
  retry.addEventListener('click', () => api('/api/retry', { conversation_id: plan.conversation_id }));
  threadEl().appendChild(el('div', {}, msg, retry));
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

/**
 * A Canvas answer (row 15): a CodeMirror editor on the page, before the composer in document
 * order, whose .cm-content is contenteditable with role=textbox like the composer. It takes
 * every trusted edit (it is the user's code); the backend counts them.
 */
function openCanvas(code) {
  let canvas = $('[data-fakesol-canvas]');
  if (!canvas) {
    canvas = el('section', { 'data-fakesol-canvas': '', class: 'canvas' });
    $('#main').before(canvas);
  }
  const content = el('div', { class: 'cm-content', contenteditable: 'true', role: 'textbox', 'aria-multiline': 'true',
    'aria-placeholder': T().editCode, spellcheck: 'false' });
  for (const line of String(code || '').split('\n')) content.appendChild(el('div', { class: 'cm-line', text: line }));
  content.addEventListener('input', (e) => { if (e.isTrusted) api('/api/canvas', { edit: e.inputType || 'input' }); });
  canvas.replaceChildren(el('div', { class: 'cm-editor' }, el('div', { class: 'cm-scroller' }, content)));
}

/** "Start new chat" left the last prompt for this page: it is typed, not sent (row 29). */
function prefillFromNewChat() {
  const text = sessionStorage.getItem('fakesol-prefill');
  if (text === null) return;
  sessionStorage.removeItem('fakesol-prefill');
  clearEditor();
  insertLines(text);
  composerChanged();
}

// ---- Load ------------------------------------------------------------------------------------

async function load() {
  const id = pageConversationId(); // history.js: /c/<id>, also inside a project
  const durable = id && !id.startsWith('WEB:');
  const st = (await api('/api/state' + (durable ? '?conversation=' + encodeURIComponent(id) : ''))).json;
  windowed = st.windowed_turns || 0;
  document.documentElement.lang = locale;
  if (st.wall === 'cloudflare') { location.replace('/cdn-cgi/challenge'); return; }
  if (st.wall === 'login') { renderLoginWall(); return; }
  copyBroken = !!st.copy_broken;
  insertTextIgnored = !!st.insert_text_ignored;
  effortLabel = st.effort_label;
  workMode = st.mode === 'work';
  cappedEfforts = st.capped_efforts || {};
  dropFirstKey = !!st.slider_drops_first_key;
  await FakesolModels.load(); // models.js: the chosen model row (rows 61, 62)
  renderThreadShell();
  hiddenSurface(); // rows.js (row 39)
  wirePicker();
  await loadHistory(); // history.js: the sidebar, a project home, a temporary chat
  if (st.banner) showBanner(st.banner);
  const hydrated = renderComposer(!durable); // the app "hydrates" after its state fetch
  if (durable) await loadConversation(id);
  await hydrated;
  rateLimitModal(); // rows.js (row 41)
  document.documentElement.setAttribute('data-fakesol-loaded', ''); // the load is over (tests wait for it)
}

async function loadConversation(id) {
  const r = await api('/api/conversation/' + encodeURIComponent(id));
  if (r.status !== 200) { showNotFound(id, r.json); return; }
  conversationId = id;
  conversationShown(r.json);
  markConversation(id);
  composerModeChanged(); // an open conversation keeps its Chat composer and picker
  updatePill();
  let ex = null;
  historyExchanges = 0;
  for (const t of r.json.turns) {
    if (t.role === 'user') { ex = userTurn(t.id, t.text); continue; }
    const turn = answerTurn(ex, t.id, t.slug);
    const rendered = Object.assign(FakesolStream.render(t.markdown || ''), { images: t.images || [] });
    renderDone(turn, rendered);
    turnState(ex, 'complete');
    turns.push({ id: t.id, data: Object.assign({ slug: t.slug }, rendered) });
  }
  historyExchanges = -1;
}

load();
