// fakesol page: what late-September and early-October pages showed that rows 13-31 missed
// (../shared/REAL-PAGE.md rows 32-43), each switched on by a layout field of the shape or a page
// mutation (absent = off). Written for this project from the rows; nothing is copied from a capture.
// The other scripts call these hooks where they draw; each hook does nothing unless its field is on.
// Same global scope as page.js (el, $, api, T, A, shape, fmt, keyUnit, unitSelector).
'use strict';

/** Row 36: the main form's own attributes (placement, thread-find). */
function lateComposerForm(form) {
  if (!shape().composerAttrs) return;
  form.setAttribute('data-composer-placement', conversationId ? 'thread' : 'home');
  form.setAttribute('data-thread-find-composer', 'true');
}

/**
 * Row 36 (churn 09-21): a keydown anywhere moves focus to the composer. A printable key with no
 * modifier, pressed while nothing that takes text or a menu or dialog has focus, focuses the editor
 * at its end before the key lands, so the key types there. Late shapes only (the thread is turnkey).
 */
document.addEventListener('keydown', (e) => {
  if (shape().thread !== 'turnkey' || e.key.length !== 1 || e.key === ' ' || e.ctrlKey || e.metaKey || e.altKey) return;
  const active = document.activeElement;
  if (active && active !== document.body && (active.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)
      || active.closest('[role=menu], [role=dialog], [role=menuitem], [role=menuitemradio]'))) return;
  const ed = editor();
  if (!ed) return;
  ed.focus();
  const range = document.createRange();
  range.selectNodeContents(ed);
  range.collapse(false);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}, true);

/**
 * Row 36: a plain Enter inserts a newline, Ctrl+Enter sends. Returns true when it handled the key
 * (page.js's own Enter-sends is skipped then).
 */
function lateEnter(e) {
  if (shape().enter !== 'newline' || e.key !== 'Enter' || !e.isTrusted) return false;
  e.preventDefault();
  if (e.ctrlKey || e.metaKey) { submit(); return true; }
  if (busy) return true;
  insertLines('\n');
  composerChanged();
  return true;
}

/** Row 42: an image attached to a prompt sits in the exchange BEFORE the user unit, as a preview button. */
function lateUserUnit(ex) {
  if (!shape().imagePreview || !ex.exchange) return;
  const preview = el('div', { role: 'button', 'aria-haspopup': 'dialog', 'aria-expanded': 'false', tabindex: '0',
    'aria-label': T().imagePreview, class: 'overflow-hidden rounded-lg' },
  el('img', { alt: '', src: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=', width: '64', height: '64' }));
  ex.exchange.insertBefore(preview, ex.user);
}

/**
 * Row 35: the answer's action bar sits OUTSIDE the assistant unit, inside the exchange, with no
 * test ids; it shows only after completion (thread.js) and flashes once while the answer streams.
 */
function lateActionBar(turn, ex) {
  if (shape().actionBar !== 'exchange' || !ex || !ex.exchange) return;
  turn.actions.append(el('button', { class: 'text-token-text-secondary', 'aria-label': T().more, 'aria-haspopup': 'menu', 'data-state': 'closed' }));
  ex.exchange.appendChild(turn.actions);
  setTimeout(() => {
    if (turn.actions.classList.contains('shown')) return;
    turn.actions.classList.add('shown', 'fakesol-flash');
    setTimeout(() => { if (turn.actions.classList.contains('fakesol-flash')) turn.actions.classList.remove('shown', 'fakesol-flash'); }, 300);
  }, 0);
}

/** Row 34: the answer body's wrapper names its message, once the stream named it (absent right after Send). */
function lateIdentify(turn, id) {
  if (shape().selectionId && id) turn.message.setAttribute('data-chatgpt-selection-message-id', id);
}

/** The finished answer: edit forms, code editors, citation pills (rows 36, 37, 42). */
function lateDone(turn) {
  turn.actions.classList.remove('fakesol-flash');
  if (shape().codeEditors) codeEditors(turn.md);
  if (shape().citations) citationPill(turn.md);
  if (shape().editForm && turn.ex && turn.ex.user) editForm(turn.ex.user);
}

/**
 * Row 37: in a visible window a finished code block becomes an editor [role=textbox][aria-label=
 * "Edit code"][data-language] inside the block; it takes trusted typing (the user's code: counted
 * by the backend as a Canvas edit is).
 */
function codeEditors(md) {
  for (const block of md.querySelectorAll('[data-markdown-copy="code-block"]')) {
    const pre = block.querySelector('pre');
    if (!pre) continue;
    const code = pre.textContent;
    const lang = (block.querySelector('[data-markdown-copy="exclude"] span') || {}).textContent || '';
    const editor = el('div', { class: 'cm-content', contenteditable: 'true', role: 'textbox', 'aria-multiline': 'true',
      'aria-label': T().editCode, 'data-language': lang.toLowerCase(), spellcheck: 'false', translate: 'no' });
    for (const line of code.split('\n')) editor.appendChild(el('div', { class: 'cm-line', text: line }));
    editor.addEventListener('input', (e) => { if (e.isTrusted) api('/api/canvas', { edit: e.inputType || 'input' }); });
    pre.replaceWith(el('div', { class: 'cm-editor' }, el('div', { class: 'cm-scroller' }, editor)));
  }
}

/** Row 42: a citation pill inside the prose (its text is no part of the answer's markdown). */
function citationPill(md) {
  const paragraphs = md.querySelectorAll('p');
  const last = paragraphs[paragraphs.length - 1];
  if (!last) return;
  last.appendChild(el('span', { class: 'ms-1 inline-flex' },
    el('a', { 'data-testid': 'chatgpt-citation', href: 'https://example.invalid/source', target: '_blank', rel: 'noopener',
      class: 'rounded-full px-2 text-xs', text: 'example.invalid' })));
}

/** Row 36: editing a prompt adds an attribute-less form inside the user unit, with its own editor, Cancel and a label-less submit. */
function editForm(userUnit) {
  if (userUnit.querySelector('form')) return;
  const editor = el('div', { contenteditable: 'true', class: 'ProseMirror', role: 'textbox', 'aria-multiline': 'true',
    'data-composer-markdown': '', 'aria-label': T().editMessage }, el('p', { text: (userUnit.querySelector('.whitespace-pre-wrap') || {}).textContent || '' }));
  const form = el('form', { onsubmit: 'return false' }, editor,
    el('div', { class: 'flex justify-end gap-2' }, el('button', { type: 'button', class: 'btn btn-secondary', text: T().cancel }),
      el('button', { type: 'submit', class: 'btn btn-primary' }, el('span', { text: '\u2191' }))));
  form.addEventListener('submit', (e) => e.preventDefault());
  userUnit.appendChild(form);
}

/** Row 38: a sidebar row with no link: div[role=button] in a listitem keyed by the conversation, the title in span[data-thread-title]. */
function lateSidebarItem(c) {
  if (shape().sidebar !== 'rows') return null;
  const row = el('div', { role: 'button', tabindex: '0', class: 'flex items-center' },
    el('span', { 'data-thread-title': '', class: 'truncate', text: c.title }));
  row.addEventListener('click', (e) => { if (e.isTrusted) location.assign((c.project ? '/g/' + c.project : '') + '/c/' + c.id); });
  return el('div', { role: 'listitem', 'data-pinned-content-tab-drop-key': 'chatgpt:conversation:' + c.id }, row);
}

/**
 * Row 39: conversations opened earlier stay in the DOM hidden (display:none) with every role
 * marker; here one such surface follows the visible thread in document order, so a
 * document-wide "newest match" is another conversation's.
 */
function hiddenSurface() {
  if (!shape().hiddenSurfaces) return;
  const surface = el('div', { style: 'display:none', 'data-fakesol-hidden-surface': '' });
  threadEl().parentElement.after(surface);
  const saved = threadNode;
  const mounted = sections.length;
  threadNode = surface;
  try {
    const id = crypto.randomUUID();
    const ex = userTurn(id, 'An earlier question from another conversation');
    const turn = answerTurn(ex, crypto.randomUUID(), 'gpt-5-thinking');
    renderDone(turn, { prose: 'A stale answer from another conversation.', blocks: [], markdown: 'A stale answer from another conversation.' });
    turnState(ex, 'complete');
  } finally {
    threadNode = saved;
    sections.splice(mounted);
  }
}

/**
 * Row 41 (and 52): the rate-limit modal over the composer, once per browser (the {@code modal}
 * shape), or whenever the page's conversation JSON is answered 429 (fakesol's burst rule,
 * {@code burst}): a role=dialog "Too many requests" with one button "Got it"; until it is
 * dismissed it takes every click over the composer and picker.
 */
function rateLimitModal(burst) {
  if ($('[data-fakesol-modal-overlay]')) return;
  if (!burst) {
    if (shape().modal !== 'once' || localStorage.getItem('fakesol-rate-limit-shown')) return;
    localStorage.setItem('fakesol-rate-limit-shown', '1');
  }
  const ok = el('button', { type: 'button', class: 'btn btn-primary', text: T().gotIt });
  const dialog = el('div', { role: 'dialog', 'aria-modal': 'true', id: 'modal-conversation-history-rate-limit',
    'data-testid': 'modal-conversation-history-rate-limit', class: 'delete-dialog' },
  el('h2', { text: T().rateLimitTitle }), el('p', { text: T().rateLimitBody }), ok);
  const overlay = el('div', { 'data-fakesol-modal-overlay': '',
    style: 'position:fixed;inset:0;z-index:55;background:rgba(0,0,0,0.2)' }, dialog);
  ok.addEventListener('click', (e) => { if (e.isTrusted) overlay.remove(); });
  document.body.appendChild(overlay);
}

// Row 52: whatever asked the conversation JSON (the page's own poll, or a seat's request from the
// page), a 429 "Too many requests" there brings up the modal.
(() => {
  const pageFetch = window.fetch;
  window.fetch = async (...args) => {
    const response = await pageFetch(...args);
    const url = String(args[0] && args[0].url ? args[0].url : args[0]);
    if (response.status === 429 && /\/backend-api\/conversations?\//.test(url)) rateLimitModal(true);
    return response;
  };
})();

let traceId = null;
/**
 * Row 43 (unconfirmed wire leads): one x-oai-turn-trace-id shared by a turn's /prepare and its
 * /f/conversation, and X-Oai-Is-Client-Observation v1.r.p.<id> on prepare, v1.s.p.<id> on send.
 * {@code phase} r or s; {@code last}: the turn is sent, the next one traces anew.
 */
function turnTrace(phase, last) {
  if (!shape().traceHeaders) return {};
  if (!traceId) traceId = crypto.randomUUID();
  const headers = { 'x-oai-turn-trace-id': traceId, 'x-oai-is-client-observation': 'v1.' + phase + '.p.' + traceId };
  if (last) traceId = null;
  return headers;
}
