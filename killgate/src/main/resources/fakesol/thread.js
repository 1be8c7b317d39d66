// fakesol page: the thread, drawn in the shape of the page it imitates (shape() in page.js). Written
// for this project from ../shared/REAL-PAGE.md; nothing here is copied from a capture.
// - 'sections' (2026-03 to 2026-09, rows 6 and 12): one section[data-testid=conversation-turn-N]
//   [data-turn] per message, [data-message-author-role][data-message-id], the answer in
//   .markdown.prose, an h4.sr-only role label, copy-turn-action-button on both turns;
// - 'turnkey' (2026-09-turnkey and 2026-10, rows 13 and 28): one div[data-turn-key=<user message id>]
//   per exchange holding the prompt AND its answer as units with data-chatgpt-search-unit-key
//   "<key>:0:user" / "<key>:1:assistant" and data-chatgpt-search-message-ids; the prompt in
//   [data-user-message-bubble] .whitespace-pre-wrap after "You said:"; the assistant unit marked by
//   h4.sr-only[data-conversation-role=assistant] "ChatGPT said:"; none of the section shape's
//   attributes; the thread inside a column-reverse scroller [data-app-action-timeline-scroll]
//   (scrollTop 0 at the bottom) whose document order stays chronological, 3 to 6 exchanges mounted;
// - the answer body: .markdown (sections), [data-markdown-text-style=assistant-message] (turnkey,
//   row 13) or the DIL renderer (2026-10, row 14): div[data-dil-message-id] with hashed classes and
//   data-d-component blocks, code blocks as [data-markdown-copy=code-block] with a header
//   [data-markdown-copy=exclude] (language, Copy) and a <code>; thinking in
//   [data-streaming-response-status] and [data-testid^=cot-v5] beside the answer, never in it;
// - 2026-10 wraps each exchange in div[data-talvt-turn-state] (row 14): its text starts with the
//   prompt, and its state is no proof of anything (row 29: read complete, then in_progress; stuck
//   after the end; in_progress for minutes after a Stop). The action bar is div.turn-action-controls
//   (row 28) without test ids (this project's reading of row 16: no October control has one).
// Same global scope as page.js (el, $, T, shape, locale, windowed, copyBroken).
'use strict';

const sections = [];   // every mounted unit of the thread in order: a section (sections) or an exchange (turnkey)
let turnSeq = 0;
let threadNode = null; // where turns go: #thread (sections) or the scroller's timeline (turnkey)

/** Builds the thread's container for the shape; called once at load. */
function renderThreadShell() {
  const old = $('#thread');
  if (shape().thread !== 'turnkey') { threadNode = old; return; }
  // Row 13: column-reverse, so scrollTop 0 is the bottom and older turns are at negative offsets.
  threadNode = el('div', { class: 'flex flex-col text-sm pb-25' });
  const scroller = el('div', { 'data-app-action-timeline-scroll': '', class: 'flex h-full flex-col-reverse overflow-y-auto' }, threadNode);
  old.replaceWith(scroller);
}

function threadEl() {
  return threadNode || $('#thread');
}

/** Mounts a unit; long threads keep only the last few mounted (onflip, row 6; turnkey: 3 to 6, row 13). */
function mount(unit, before) {
  if (before) { before.parentNode.insertBefore(unit, before); } else {
    unit = FakesolMutate.wrap(unit); // mutate.js: extra wrappers at random depths
    threadEl().appendChild(unit);
    sections.push(unit);
  }
  const mounted = sections.filter((s) => s.isConnected);
  if (shape().thread === 'turnkey') {
    // A virtualized list: it lets up to 6 exchanges (or the scenario's window) pile up, then drops to 3.
    const most = windowed > 0 ? windowed : 6;
    const keep = windowed > 0 ? windowed : 3;
    if (mounted.length > most) for (const s of mounted.slice(0, mounted.length - keep)) s.remove();
  } else if (windowed > 0) {
    for (const s of mounted.slice(0, Math.max(0, mounted.length - windowed))) s.remove();
  }
}

/**
 * Names a turn-key unit by every unit-key attribute of the shape (row 34: two names for one fact):
 * "<key>:<slot>:<role>", the slot per role from the shape (row 33: user 0, assistant 2 or 3); a
 * conversation drawn from history keys "fallback-turn-<n>" when the shape says so (row 33).
 */
function keyUnit(unit, key, role, n) {
  const k = A().fallbackKeys && n !== undefined ? 'fallback-turn-' + n : key;
  for (const a of A().unitKeys) unit.setAttribute(a, k + ':' + A().slots[role] + ':' + role);
}

/** Selects units by any of the shape's unit-key attributes, of one role when given. */
const unitSelector = (role) => A().unitKeys.map((a) => '[' + a + (role ? '$=":' + role + '"' : '') + ']').join(', ');

let historyExchanges = -1; // page.js: >= 0 while a conversation is drawn from history (fallback keys)

/** Row 35: "Regenerate response", with no test id in any shape; it posts the turn again as a variant (turn.js). */
function regenerateButton() {
  return el('button', { class: 'text-token-text-secondary', 'aria-label': T().regenerate, 'data-state': 'closed' },
    el('span', { class: 'flex items-center justify-center' }));
}

function actionButton(testid, label) {
  // October controls carry no test ids (row 16); the older action bars do (row 6).
  return el('button', { class: 'text-token-text-secondary', 'aria-label': label,
    'data-testid': shape().testids ? testid : null, 'data-state': 'closed' }, el('span', { class: 'flex items-center justify-center' }));
}

function actionBar(label, buttons, shownNow) {
  const bar = el('div', { 'aria-label': label, role: 'group', 'data-fakesol-actions': '', class: shownNow ? 'shown' : null }, ...buttons);
  if (shape().wrapper) bar.classList.add('turn-action-controls'); // row 28
  return bar;
}

// ---- Exchanges -----------------------------------------------------------------------------

/**
 * The user's message of one exchange, mounted: a section of its own, or a turn-key exchange that
 * will hold the answer too. Returns its handle for {@link answerTurn}.
 */
function userTurn(id, text) {
  const copy = actionButton('copy-turn-action-button', T().copyMessage);
  copy.addEventListener('click', (e) => { if (e.isTrusted && !copyBroken) navigator.clipboard.writeText(text); });
  const bubble = el('div', { class: 'whitespace-pre-wrap', text });
  if (shape().thread !== 'turnkey') {
    const s = turnSection('user', id);
    const m = el('div', { 'data-message-author-role': 'user', 'data-message-id': id, dir: 'auto' },
      el('div', { class: 'user-message-bubble-color' }, bubble));
    s.append(el('div', { class: 'group/turn-messages' }, m, actionBar('Your message actions', [copy], true)));
    mount(s);
    return { key: id, node: s, user: s, exchange: null };
  }
  const unit = el('div', { [A().messageIds]: id, class: 'flex w-full flex-col items-end' },
  el('h4', { class: 'sr-only select-none', text: T().youSaid }), // row 28: "You said:" precedes the prompt
  el('div', { 'data-user-message-bubble': '', class: 'user-message-bubble-color' }, bubble),
  actionBar('Your message actions', [copy], true));
  const n = historyExchanges >= 0 ? historyExchanges++ : undefined;
  keyUnit(unit, id, 'user', n);
  const exchange = el('div', { 'data-turn-key': id, class: 'mx-auto w-full' }, unit);
  let outer = exchange;
  let wrapper = null;
  if (shape().wrapper) {
    // Row 14: the wrapper holds the WHOLE exchange; it says in_progress from the start.
    wrapper = el('div', { 'data-talvt-turn-state': 'in_progress' }, exchange);
    outer = wrapper;
  }
  mount(outer);
  const ex = { key: id, node: outer, user: unit, exchange, wrapper, n };
  lateUserUnit(ex); // rows.js (row 42)
  return ex;
}

/** Sets the 2026-10 wrapper's state, which the page itself gets wrong (row 29). */
function turnState(ex, state) {
  if (ex && ex.wrapper) ex.wrapper.setAttribute('data-talvt-turn-state', state);
}

function turnSection(role, id) {
  const s = el('section', { class: 'text-token-text-primary w-full', dir: 'auto',
    'data-turn-id': !id ? null : shape().requestIds ? 'request-WEB:' + id : id, 'data-testid': 'conversation-turn-' + (++turnSeq),
    'data-scroll-anchor': 'false', 'data-turn': role });
  if (shape().requestIds) s.setAttribute('data-turn-id-container', '');
  s.appendChild(el('h4', { class: 'sr-only select-none', text: role === 'user' ? T().youSaid : T().chatgptSaid }));
  return s;
}

/** One answer message's container and the node its prose and blocks go in, per renderer. */
function answerMessage(id, slug) {
  if (shape().answer === 'dil') {
    // Row 14: hashed class names, no .markdown; the message id on the renderer's root.
    const seed = id || crypto.randomUUID();
    const root = el('div', { 'data-dil-message-id': id, 'data-dil-source-message-id': id,
      class: 'DilRenderer-' + hash(seed, 5) + ' DilResponseRoot-' + hash(seed + 'r', 5) });
    return { node: root, md: root };
  }
  if (shape().answer === 'markdown-text-style') {
    const body = el('div', { 'data-markdown-text-style': 'assistant-message', class: 'w-full break-words' });
    return { node: el('div', { class: 'min-h-8 text-message', dir: 'auto' }, body), md: body };
  }
  const m = el('div', { 'data-message-author-role': 'assistant', 'data-message-id': id, dir: 'auto',
    'data-message-model-slug': slug || '', class: 'min-h-8 text-message' });
  const md = el('div', { class: 'markdown prose dark:prose-invert w-full break-words light' });
  m.append(el('div', { class: 'flex w-full flex-col gap-1 empty:hidden' }, md));
  return { node: m, md };
}

function hash(s, n) {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
  return h.toString(36).padStart(n, '0').slice(-n);
}

/** Names the answer message once the stream does (its id, its model slug where the shape shows one). */
function identifyMessage(turn, id, slug) {
  if (!id) return; // not named yet: the stream names it
  turn.id = id;
  if (shape().answer === 'dil') {
    turn.message.setAttribute('data-dil-message-id', id);
    turn.message.setAttribute('data-dil-source-message-id', id);
  } else if (shape().thread !== 'turnkey') {
    turn.message.setAttribute('data-message-id', id);
    turn.message.setAttribute('data-message-model-slug', slug || '');
    turn.node.setAttribute('data-turn-id', shape().requestIds ? 'request-WEB:' + id : id);
  }
  listMessage(turn, id);
  lateIdentify(turn, id); // rows.js (row 34)
}

/** A turn-key unit lists the ids of its messages in order (row 13: data-chatgpt-search-message-ids). */
function listMessage(turn, id) {
  if (!turn.unit) return;
  const sep = A().idsSeparator;
  const ids = (turn.unit.getAttribute(A().messageIds) || '').split(sep).filter(Boolean);
  if (!ids.includes(id)) ids.push(id);
  turn.unit.setAttribute(A().messageIds, ids.join(sep));
}

/**
 * The answer of exchange {@code ex}, mounted: its own section after the user's (sections) or the
 * exchange's assistant unit. {@code before}: an older section it replaces in place (a remount).
 */
function answerTurn(ex, id, slug, before) {
  const msg = answerMessage(id, slug);
  const status = el('div', { hidden: '' });
  if (shape().thread === 'turnkey') status.setAttribute('data-streaming-response-status', 'idle'); // row 14
  else status.className = 'loading-shimmer';
  const body = el('div', { class: 'flex max-w-full flex-col gap-4 grow' }, status, msg.node);
  // Row 35's bar (actionBar: exchange) rates with one button; older bars have Good and Bad.
  const rating = shape().actionBar === 'exchange' ? [actionButton('good-response-turn-action-button', T().good)]
    : [actionButton('good-response-turn-action-button', T().good), actionButton('bad-response-turn-action-button', T().bad)];
  const actions = actionBar('Response actions', [actionButton('copy-turn-action-button', T().copyResponse), ...rating,
    regenerateButton()], false);
  let node;
  let unit = null;
  if (shape().thread !== 'turnkey') {
    node = turnSection('assistant', id);
    node.append(el('div', { class: 'group/turn-messages agent-turn' }, body, actions));
    mount(node, before);
  } else {
    unit = el('div', { [A().messageIds]: '', class: 'group/turn-messages agent-turn' },
    el('h4', { class: 'sr-only select-none', 'data-conversation-role': 'assistant', text: T().chatgptSaid }), body, actions);
    keyUnit(unit, ex.key, 'assistant', ex.n);
    if (before) before.replaceWith(unit); else ex.exchange.appendChild(FakesolMutate.wrap(unit));
    node = unit;
  }
  const turn = { id, ex, node, unit, body, message: msg.node, md: msg.md, status, actions, markdown: '' };
  actions.lastChild.addEventListener('click', () => regenerateTurn(turn)); // turn.js (row 35)
  lateActionBar(turn, ex); // rows.js (row 35)
  identifyMessage(turn, id, slug);
  // The clipboard takes a write only from a user gesture: a synthetic click copies nothing.
  actions.firstChild.addEventListener('click', (e) => {
    if (e.isTrusted && !copyBroken) navigator.clipboard.writeText(turn.markdown);
  });
  return turn;
}

/** A preamble or other extra message of the answer, before the status line: its own message node. */
function extraMessage(turn, id, slug, text) {
  const msg = answerMessage(id, slug);
  listMessage(turn, id);
  turn.body.insertBefore(msg.node, turn.status);
  proseInto(msg.md, text);
  return msg;
}

/** The live-work label: a shimmer with aria-busy (sections), the streaming status line (turnkey, row 14). */
function setThinking(turn, label) {
  const turnkey = shape().thread === 'turnkey';
  turn.status.hidden = !label;
  turn.status.textContent = label || '';
  if (turnkey) {
    turn.status.setAttribute('data-streaming-response-status', label ? 'thinking' : 'idle');
  } else if (label) {
    turn.node.setAttribute('aria-busy', 'true');
  } else {
    turn.node.removeAttribute('aria-busy');
  }
}

/** Turnkey: the chain of thought's summary (cot-v5, row 14) that stays in the turn after the answer. */
function thoughtSummary(turn, seconds) {
  if (shape().thread !== 'turnkey' || turn.body.querySelector('[data-testid^="cot-v5"]')) return;
  const summary = el('div', { 'data-testid': 'cot-v5-summary' },
    el('button', { type: 'button', class: 'text-token-text-secondary', text: fmt(T().thoughtFor, seconds) }));
  turn.body.insertBefore(summary, turn.status);
}

/** A status line inside the answer unit that is not the answer (safety review, a recovering connection: row 19). */
function statusLine(turn, text, cls) {
  const s = el('div', { role: 'status', class: cls || 'text-token-text-secondary', text });
  turn.body.insertBefore(s, turn.message);
  return s;
}

// ---- The answer's body ---------------------------------------------------------------------

/** The prose of an answer as its renderer draws it; code blocks and images stay where they are. */
function proseInto(md, text) {
  if (shape().answer === 'dil') {
    md.querySelectorAll(':scope > [data-d-component="text"], :scope > [data-d-component="title"]').forEach((n) => n.remove());
    const frag = document.createDocumentFragment();
    for (const para of String(text).split(/\n{2,}/)) {
      if (!para.trim()) continue;
      const heading = para.match(/^#{1,6}\s+(.*)$/);
      frag.appendChild(heading
        ? el('div', { 'data-d-component': 'title' }, el('h3', { text: heading[1] }))
        : el('div', { 'data-d-component': 'text' }, el('p', { text: para })));
    }
    md.prepend(frag);
    return;
  }
  md.querySelectorAll(':scope > p').forEach((p) => p.remove());
  md.prepend(el('p', { text }));
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
  const copy = el('button', { 'aria-label': shape().code === 'spans' ? T().copy : T().copyCode, 'data-state': 'closed' },
    shape().code === 'dil' ? document.createTextNode(T().copy) : null);
  copy.addEventListener('click', (e) => { if (e.isTrusted) navigator.clipboard.writeText(block.code); });
  if (shape().code === 'dil') {
    // Row 14: the header is excluded from the page's own copy; the language is its text.
    const header = el('div', { 'data-markdown-copy': 'exclude', class: 'flex items-center justify-between text-xs' },
      el('span', { text: block.label || '' }), copy);
    return el('div', { 'data-markdown-copy': 'code-block', 'data-d-component': 'code', class: 'rounded-lg' },
      header, el('pre', { class: 'overflow-x-auto' }, el('code', { class: block.lang ? 'language-' + block.lang : null, text: block.code })));
  }
  const tools = el('div', { class: 'flex flex-row items-center gap-0.5' }, copy);
  if (shape().code === 'spans') tools.appendChild(el('button', { class: 'btn btn-ghost', 'aria-label': 'Run code', type: 'button' }, el('div', { text: T().run })));
  const header = el('div', { class: 'sticky z-2 select-none' },
    el('div', { class: 'flex w-full items-center justify-between' }, el('div', { class: 'text-sm font-medium', text: block.label || '' }), tools));
  const viewer = el('div', { id: 'code-block-viewer', dir: 'ltr', class: 'cm-editor' },
    el('div', { class: 'cm-scroller' }, shape().code === 'spans' ? cmSpans(block.code) : cmPre(block.code)));
  return el('pre', { class: 'overflow-visible! px-0!' },
    el('div', { class: 'relative w-full mt-4 mb-1' }, el('div', { class: 'contents' }, header, viewer)));
}

/** Images as the file service serves them, inside an image-... ancestor; drawn twice (backdrop + image). */
function imageBlock(image) {
  return el('div', { id: 'image-' + image.file_id, class: 'imagegen-image group/imagegen-image' },
    el('img', { alt: '', 'aria-hidden': 'true', src: image.url }),
    el('img', { alt: 'Generated image', src: image.url }));
}

/** The finished answer: prose, code blocks, images, the action bar; the Copy button's markdown. */
function renderDone(turn, data) {
  proseInto(turn.md, data.prose || '');
  for (const b of data.blocks || []) turn.md.appendChild(codeBlock(b));
  for (const i of data.images || []) turn.md.appendChild(imageBlock(i));
  turn.markdown = data.markdown || '';
  turn.actions.classList.add('shown');
  lateDone(turn); // rows.js (rows 36, 37, 42)
}

/** Draws the finished answer again in steps (a React remount of an older turn). */
async function restream(turn, data, ms) {
  const text = data.prose || '';
  const steps = Math.max(1, Math.min(40, Math.ceil(ms / 25)));
  for (let i = 1; i <= steps; i++) {
    proseInto(turn.md, text.slice(0, Math.ceil(text.length * i / steps)));
    await sleep(ms / steps);
  }
  renderDone(turn, data);
}

/** Where a previous answer is mounted now, or null (unmounted by windowing). */
function mountedAnswer(prev) {
  const sel = shape().answer === 'dil' ? '[data-dil-message-id="' + CSS.escape(prev.id) + '"]'
    : shape().thread === 'turnkey' ? '[' + A().messageIds + '*="' + CSS.escape(prev.id) + '"]'
      : '[data-message-id="' + CSS.escape(prev.id) + '"]';
  const m = document.querySelector(sel);
  if (!m) return null;
  return shape().thread === 'turnkey' ? m.closest(unitSelector()) : m.closest('section');
}

/** The exchange an answer unit belongs to (turnkey), for a remount; null for the section shape. */
function exchangeOf(unit) {
  const exchange = unit.closest('[data-turn-key]');
  if (!exchange) return null;
  const wrapper = exchange.parentElement && exchange.parentElement.hasAttribute('data-talvt-turn-state') ? exchange.parentElement : null;
  const user = exchange.querySelector(unitSelector('user'));
  const fallback = /^fallback-turn-(\d+):/.exec(user.getAttribute(A().unitKeys[0]) || '');
  return { key: exchange.getAttribute('data-turn-key'), node: wrapper || exchange, user, exchange, wrapper,
    n: fallback ? Number(fallback[1]) : undefined };
}

/** The stream echoed the user message under its own id (a recording's): the page shows that id. */
function adoptUserId(ex, id) {
  if (ex.key === id) return;
  if (!ex.exchange) {
    const m = ex.node.querySelector('[data-message-author-role="user"]');
    if (m) m.setAttribute('data-message-id', id);
    ex.node.setAttribute('data-turn-id', shape().requestIds ? 'request-WEB:' + id : id);
  } else {
    ex.exchange.setAttribute('data-turn-key', id);
    keyUnit(ex.user, id, 'user', ex.n);
    ex.user.setAttribute(A().messageIds, id);
    const answer = ex.exchange.querySelector(unitSelector('assistant'));
    if (answer) keyUnit(answer, id, 'assistant', ex.n);
  }
  ex.key = id;
}
