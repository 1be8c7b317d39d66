// fakesol page: the owner's history around the thread. Written for this project, not copied from
// any capture; the shapes are the ones peers name (../shared/CHATGPT-DOM.md rows "URLs",
// "Temporary chat", "Delete / archive"):
// - the sidebar nav[aria-label="Chat history"]#history: a[data-sidebar-item="true"] links to
//   /c/<id> with a button[data-testid="history-item-N-options"] "Open conversation options for
//   <title>" beside each, and the owner's Projects by name (/g/g-p-<32 hex>-<name>/project), their
//   chats under them (/g/g-p-<32 hex>-<name>/c/<id>); the bare /g/g-p-<32 hex>/... routes open the
//   same project (REAL-PAGE row 23);
// - the header's button[data-testid="conversation-options-button"], a menu whose Delete is
//   [data-testid="delete-chat-menu-item"], a confirmation dialog with
//   button[data-testid="delete-conversation-confirm-button"]; after a delete of the open chat the
//   page goes home, and the chat's URL shows the site's not-found message;
// - temporary chats (/?temporary-chat=true): a "Temporary Chat" heading and a "Turn off temporary
//   chat" control, never listed, never reopened by URL; the address bar stays /?temporary-chat=true
//   after the reply (the stream is the only place their id is: REAL-PAGE row 24);
// - faults from the backend (/api/history): a confirmation that never appears; a delete that
//   silently fails is the backend's (it answers 200 and deletes nothing).
// - on October pages the document's title is the conversation's name (row 28).
// Only trusted clicks act, as on the composer. Same global scope as page.js (el, $, api, T, locale, shape).
'use strict';

// The sidebar's labels are in labels/<locale>.json under history (ru: this project's reading, no
// capture shows these controls in Russian).
const H = () => T().history;

let sidebar = { projects: [], conversations: [], delete_fault: 'none', temporary_available: true };

/** Where this page is: a project's home or chat, a temporary chat, or the ordinary history. */
function pagePlace() {
  const m = location.pathname.match(/^(?:\/g\/(g-p-[^/]+))?(?:\/c\/([^/]+)|\/(project))?\/?$/);
  const project = m && m[1] ? m[1] : null;
  return {
    project,
    id: m && m[2] ? decodeURIComponent(m[2]) : null,
    projectHome: !!(m && m[3]),
    temporary: !project && new URLSearchParams(location.search).get('temporary-chat') === 'true'
      && sidebar.temporary_available,
  };
}

/** The conversation id in the address bar, or null (home, a project home, a temporary chat). */
function pageConversationId() {
  return pagePlace().id;
}

/** A project's id, g-p-<32 hex>, in a bare or slugged project path segment (REAL-PAGE row 23: the slug is optional). */
function projectId(segment) {
  const m = String(segment || '').match(/^(g-p-[0-9a-f]{32})(?:-.*)?$/);
  return m ? m[1] : segment;
}

/**
 * What the turn request says about the place (CHATGPT-STREAM.md: temporary chats set
 * history_and_training_disabled; REAL-PAGE row 17: a project chat carries conversation_mode
 * {kind: gizmo_interaction, gizmo_id}).
 */
function placeFields() {
  const place = pagePlace();
  if (place.temporary) return { history_and_training_disabled: true };
  if (place.project) {
    const gizmo = projectId(place.project);
    return { conversation_mode: { kind: 'gizmo_interaction', gizmo_id: gizmo } };
  }
  return {};
}

/** Shows a conversation's URL in the address bar; a temporary chat's never shows (the stream is the only place). */
function showConversationUrl(id, how) {
  const place = pagePlace();
  if (place.temporary) return;
  const path = (place.project ? '/g/' + place.project : '') + '/c/' + id;
  if (how === 'push') history.pushState(null, '', path); else history.replaceState(null, '', path);
}

async function fetchSidebar() {
  const r = await api('/api/history');
  if (r.json) sidebar = r.json;
}

/** Called by page.js's load: the sidebar, and what a project home or a temporary chat shows. */
async function loadHistory() {
  await fetchSidebar();
  renderSidebar();
  const place = pagePlace();
  if (place.projectHome) {
    const project = sidebar.projects.find((p) => projectId(p.slug) === projectId(place.project));
    // An unknown project: the app goes home, with no message (fakesol's choice: the hard case,
    // the composer there is not the project's).
    if (!project) { history.replaceState(null, '', '/'); return; }
    $('#main').prepend(el('div', { id: 'project-home' }, el('h1', { text: project.name }),
      el('p', { text: H().newInProject + project.name })));
  }
  if (place.temporary) {
    $('#main').prepend(el('div', { id: 'temporary-chat', class: 'temporary-chat' },
      el('button', { type: 'button', 'aria-label': H().temporaryOff, text: H().temporaryOff }),
      el('h1', { text: H().temporaryTitle }), el('p', { text: H().temporaryBody })));
  }
}

/** A new chat was answered: the sidebar lists it (never a temporary one) and the header gets its menu. */
async function addHistory(id) {
  if (pagePlace().temporary) return;
  await fetchSidebar();
  renderSidebar();
  showHeader(id);
  showTitle(id);
}

/** Row 28: the document's title is the conversation's name (October pages). */
function showTitle(id) {
  if (shape().title) document.title = titleOf(id);
}

/** A conversation loaded by URL: the app moves a chat's URL to where it is now (moved out of a project). */
function conversationShown(json) {
  const place = pagePlace();
  const now = json.project || null;
  // The bare and the slugged route are the same project (row 23): only a move changes the URL.
  if (projectId(now) !== projectId(place.project)) history.replaceState(null, '', (now ? '/g/' + now : '') + '/c/' + json.id);
  showHeader(json.id);
  showTitle(json.id);
}

/** A conversation that does not load: the message of the site's 404 (deleted or missing: conversation_not_found, row 20). */
function showNotFound(id, json) {
  const detail = json && json.detail;
  toast(detail && typeof detail === 'object' && detail.message ? detail.message : 'Unable to load conversation ' + id);
}

function titleOf(id) {
  const c = sidebar.conversations.find((x) => x.id === id);
  return c ? c.title : 'New chat';
}

function historyItem(c, n) {
  const late = lateSidebarItem(c); // rows.js (row 38): rows without links
  if (late) return late;
  const link = el('a', { href: (c.project ? '/g/' + c.project : '') + '/c/' + c.id, 'data-sidebar-item': 'true',
    'data-testid': 'history-item-' + n }, el('div', { class: 'truncate', title: c.title, text: c.title }));
  const options = el('button', { type: 'button', 'data-testid': 'history-item-' + n + '-options',
    'aria-label': H().optionsFor + c.title, 'aria-haspopup': 'menu', 'data-state': 'closed', text: '\u2026' });
  options.addEventListener('click', (e) => { if (e.isTrusted) openConversationMenu(options, c.id); });
  return el('li', { class: 'relative' }, link, options);
}

function renderSidebar() {
  const nav = $('#history');
  let n = 0;
  const projects = el('div', { id: 'sidebar-projects' }, el('h2', { text: H().projects }));
  for (const p of sidebar.projects) {
    const chats = el('ul', { class: 'list-none' });
    for (const c of sidebar.conversations.filter((x) => x.project === p.slug)) chats.appendChild(historyItem(c, n++));
    projects.appendChild(el('div', { class: 'sidebar-project' },
      el('a', { href: '/g/' + p.slug + '/project', 'data-sidebar-item': 'true' }, el('div', { class: 'truncate', text: p.name })), chats));
  }
  const chats = el('ul', { class: 'list-none', id: 'sidebar-chats' });
  for (const c of sidebar.conversations.filter((x) => !x.project)) chats.appendChild(historyItem(c, n++));
  nav.replaceChildren(projects, el('h2', { text: H().chats }), chats);
}

function showHeader(id) {
  let header = $('#page-header');
  if (!header) {
    header = el('header', { id: 'page-header' });
    $('#main').prepend(header);
  }
  const options = el('button', { type: 'button', 'data-testid': 'conversation-options-button', 'aria-label': H().options,
    'aria-haspopup': 'menu', 'data-state': 'closed', text: '\u2026' });
  options.addEventListener('click', (e) => { if (e.isTrusted) openConversationMenu(options, id); });
  header.replaceChildren(el('div', { 'data-testid': 'conversation-header-actions' }, options));
}

// ---- The conversation menu and its confirmation ----------------------------------------------

function closeConversationMenu() {
  for (const w of document.querySelectorAll('[data-fakesol-conversation-menu]')) w.remove();
  for (const b of document.querySelectorAll('[data-testid$="-options"][data-state="open"], [data-testid="conversation-options-button"][data-state="open"]')) {
    b.setAttribute('data-state', 'closed');
  }
}

function openConversationMenu(button, id) {
  closeConversationMenu();
  button.setAttribute('data-state', 'open');
  const item = (text, testid, onClick) => {
    const i = el('div', { role: 'menuitem', tabindex: '-1', 'data-testid': testid, text });
    if (onClick) i.addEventListener('click', (e) => { if (e.isTrusted) onClick(); });
    return i;
  };
  const del = item(H().del, 'delete-chat-menu-item', () => {
    closeConversationMenu();
    if (sidebar.delete_fault !== 'no_confirmation') confirmDelete(id);
  });
  del.setAttribute('data-color', 'danger');
  const menu = el('div', { role: 'menu', 'data-radix-menu-content': '', 'data-state': 'open', 'aria-orientation': 'vertical' },
    item(H().share, null), item(H().rename, null), item(H().archive, null), del);
  const r = button.getBoundingClientRect();
  const wrapper = el('div', { 'data-radix-popper-content-wrapper': '', 'data-fakesol-conversation-menu': '',
    style: 'left:' + Math.round(r.left) + 'px;top:' + Math.round(r.bottom) + 'px' }, menu);
  document.body.appendChild(wrapper);
}

function confirmDelete(id) {
  const confirm = el('button', { type: 'button', class: 'btn relative btn-danger', 'data-testid': 'delete-conversation-confirm-button',
    text: H().del });
  const cancel = el('button', { type: 'button', class: 'btn relative btn-secondary', text: H().cancel });
  const dialog = el('div', { role: 'dialog', 'aria-modal': 'true', 'data-fakesol-conversation-menu': '', class: 'delete-dialog' },
    el('h2', { text: H().deleteTitle }), el('p', {}, document.createTextNode(H().deleteBody), el('strong', { text: titleOf(id) })),
    el('div', { class: 'flex gap-2' }, cancel, confirm));
  cancel.addEventListener('click', (e) => { if (e.isTrusted) closeConversationMenu(); });
  confirm.addEventListener('click', async (e) => {
    if (!e.isTrusted) return;
    confirm.disabled = true;
    await api('/api/delete', { conversation_id: id });
    closeConversationMenu();
    if (id === conversationId) { location.assign('/'); return; } // the open chat is gone: the app goes home
    await fetchSidebar();
    renderSidebar();
  });
  document.body.appendChild(dialog);
}

document.addEventListener('keydown', (e) => { if (e.key === 'Escape') closeConversationMenu(); });
document.addEventListener('pointerdown', (e) => {
  if (!e.target.closest('[data-fakesol-conversation-menu], [data-testid$="-options"], [data-testid="conversation-options-button"]')) {
    closeConversationMenu();
  }
});
