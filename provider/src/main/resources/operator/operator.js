// The operator page: polls /ui/api/ and renders what solwebd shows of itself. Every text goes in
// through textContent (never innerHTML), so nothing the daemon reports can become markup. The
// session cookie is HttpOnly: this script never sees it, nor the bearer token.

const STATE_EVERY_MS = 1000;
const SLOW_EVERY_MS = 5000;

const $ = (id) => document.getElementById(id);

/** The small client the page and the seat-live module share: same-origin fetches with the session cookie. */
const api = {
  /** The seat-live module's raw fetch: same origin, so the session cookie goes along. */
  fetch: (url, init) => fetch(url, { credentials: 'same-origin', cache: 'no-store', ...init }),
  async get(path) {
    return answer(await fetch(path, { credentials: 'same-origin', cache: 'no-store' }));
  },
  async post(path, body) {
    return answer(await fetch(path, {
      method: 'POST', credentials: 'same-origin', cache: 'no-store',
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}),
    }));
  },
  /** The last /ui/api/state body, or null. */
  state: null,
};

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function answer(response) {
  const text = await response.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = null; }
  if (response.status === 401) {
    signedOut();
  }
  if (!response.ok) {
    const message = body?.error?.message ?? `HTTP ${response.status}`;
    throw new ApiError(response.status, message);
  }
  return body;
}

let stopped = false;
function signedOut() {
  stopped = true;
  $('signed-out').hidden = false;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function row(cells) {
  const tr = document.createElement('tr');
  for (const cell of cells) {
    const td = document.createElement('td');
    if (cell instanceof Node) td.append(cell); else td.textContent = cell ?? '—';
    tr.append(td);
  }
  return tr;
}

function badge(state) {
  const b = el('span', 'badge', state.replace('_', ' '));
  b.dataset.state = state;
  return b;
}

const seconds = (s) => `${Math.floor(s ?? 0)} s`;
const chars = (n) => (n ?? 0).toLocaleString('en-US');
const shortId = (id) => (id && id.length > 14 ? `${id.slice(0, 12)}…` : id ?? '—');
const time = (iso) => (iso ? new Date(iso).toLocaleTimeString('en-GB') : '—');

// --- seats: one card per seat, made once, so the seat-live slot inside it survives every poll ---

const cards = new Map();
let mountSeatLive = null;

function card(index) {
  if (cards.has(index)) return cards.get(index);
  const root = el('article', 'seat');
  root.dataset.seatCard = String(index);
  const title = el('h3');
  title.append(el('span', null, `Seat ${index}`));
  const state = el('span', 'badge');
  title.append(state);
  const detail = el('p', 'detail');
  const facts = el('p', 'facts');
  const turn = el('div', 'turn');
  turn.hidden = true;
  const stage = el('span', 'stage');
  const numbers = el('span', 'numbers');
  const bar = el('div', 'progress');
  const fill = el('span');
  bar.append(fill);
  turn.append(stage, ' ', numbers, bar);
  const live = el('div', 'seat-live');
  live.dataset.seat = String(index);
  root.append(title, detail, facts, turn, live);
  $('seats').append(root);
  const parts = { root, state, detail, facts, turn, stage, numbers, fill, live, mounted: false };
  cards.set(index, parts);
  mountLive(parts, index);
  return parts;
}

function mountLive(parts, index) {
  if (!mountSeatLive || parts.mounted) return;
  parts.mounted = true;
  try {
    mountSeatLive(parts.live, index, api);
  } catch (e) {
    console.warn('seat-live could not mount on seat', index, e);
  }
}

function renderSeat(seat) {
  const parts = card(seat.index);
  const busy = seat.doing !== 'idle' && seat.state === 'ready';
  parts.state.textContent = busy ? (seat.doing === 'turn' ? 'in a turn' : 'seat work') : seat.state.replace('_', ' ');
  parts.state.dataset.state = busy ? 'busy' : seat.state;
  parts.detail.textContent = seat.detail ?? '';
  parts.facts.replaceChildren('effort ', el('strong', null, seat.effort ?? '—'), ' · ',
    el('strong', null, seat.doing.replace('_', ' ')));
  const t = seat.turn;
  parts.turn.hidden = !t;
  if (t) {
    parts.stage.textContent = t.state;
    const bits = [];
    if (t.thinking_s > 0 || t.state === 'thinking') bits.push(`thinking ${seconds(t.thinking_s)}`);
    if (t.state === 'writing' || t.state === 'complete') bits.push(`writing ${chars(t.chars_received)} chars`);
    bits.push(`elapsed ${seconds(t.elapsed_s)}`);
    parts.numbers.textContent = `· ${bits.join(' · ')}`;
    const stages = ['queued', 'typing', 'sent', 'thinking', 'reviewing', 'writing', 'complete'];
    const at = Math.max(0, stages.indexOf(t.state));
    parts.fill.style.width = `${Math.round((100 * (at + 1)) / stages.length)}%`;
    parts.turn.dataset.state = t.state;
  }
}

// --- the state poll ---

function renderState(s) {
  api.state = s;
  const h = s.health;
  const state = $('daemon-state');
  state.textContent = h.state.replace('_', ' ');
  state.dataset.state = h.state;
  $('account').textContent = h.account ?? 'unknown';
  // turn_p50_s is 0 until a turn has finished: a median of nothing is not shown as 0.0 s.
  const turns = (s.last_turns ?? []).length > 0 ? `turn p50 ${Number(h.turn_p50_s).toFixed(1)} s` : 'no turns yet';
  $('daemon-meta').textContent = `pid ${h.pid} · ${h.version} · seats ${h.seats}/${h.seats_configured} · ${turns}`;
  const cause = $('cause');
  // A paused account has its own banner below (what the page said, and Resume): one is enough.
  cause.hidden = h.state === 'ready' || h.state === 'starting' || (h.state === 'paused' && !!h.account_pause?.holds);
  cause.textContent = cause.hidden ? '' : h.cause;
  renderPause(h.account_pause);
  for (const seat of s.seats) renderSeat(seat);
  renderLimits(h.limits);

  const queued = (h.turns ?? []).filter((t) => t.state === 'queued');
  $('queue-count').textContent = String(h.queue);
  $('queue').tBodies[0].replaceChildren(...queued.map((t, i) =>
    row([String(i + 1), shortId(t.session), t.client ?? '—', t.effort, seconds(t.elapsed_s)])));
  $('queue-empty').hidden = queued.length > 0;

  const last = s.last_turns ?? [];
  $('last-turns').tBodies[0].replaceChildren(...last.map((t) => {
    const outcome = document.createElement('span');
    const state = badge(t.outcome);
    if (t.detail) state.title = t.detail;
    outcome.append(state);
    // A turn typed whole into a fresh conversation says why (README: /healthz replays).
    if (t.replayed) outcome.append(' ', el('span', 'replayed', `replayed: ${t.replayed.replace('_', ' ')}`));
    return row([time(t.finished_at), String(t.seat), shortId(t.session), t.effort, outcome,
      `${t.queued_s.toFixed(1)} s`, `${t.seat_s.toFixed(1)} s`, `${t.thinking_s.toFixed(1)} s`, chars(t.chars)]);
  }));
  $('last-empty').hidden = last.length > 0;
  $('updated').textContent = `updated ${new Date().toLocaleTimeString('en-GB')}`;
}

/**
 * The Limits panel: the page's own counters as read (never solweb's guess), solweb's Sends per
 * effort and model beside the owner's budget, and the plan's published allowance, marked so.
 */
function renderLimits(l) {
  if (!l) return;
  $('limits-plan').textContent = l.plan ? `plan ${l.plan}` : 'plan unknown';
  $('limits-read').textContent = l.read_at ? `read ${time(l.read_at)}` : '';
  const left = [...(l.limits_progress ?? []).map((c) => [c.feature_name, c.remaining, c.reset_after]),
    ...(l.model_limits ?? []).map((c) => [c.model_slug, c.remaining, c.reset_after])];
  $('limits-left').tBodies[0].replaceChildren(...left.map(([name, remaining, reset]) =>
    row([name, remaining === null || remaining === undefined ? 'not said' : String(remaining), resets(reset)])));
  $('limits-left-empty').hidden = left.length > 0;
  const blocked = l.blocked_features ?? [];
  $('limits-blocked').textContent = blocked.length ? `blocked now: ${blocked.join(', ')}` : '';

  const sends = [];
  const efforts = new Set([...Object.keys(l.sends?.['3h'] ?? {}), ...Object.keys(l.sends?.['7d'] ?? {})]);
  for (const effort of [...efforts].sort()) {
    const models = { ...(l.sends['7d']?.[effort] ?? {}), ...(l.sends['3h']?.[effort] ?? {}) };
    for (const model of Object.keys(models).sort()) {
      sends.push(row([effort, model, String(l.sends['3h']?.[effort]?.[model] ?? 0),
        String(l.sends['7d']?.[effort]?.[model] ?? 0)]));
    }
  }
  $('limits-sends').tBodies[0].replaceChildren(...sends);
  $('limits-sends-empty').hidden = sends.length > 0;
  $('limits-budget').tBodies[0].replaceChildren(...(l.budget ?? []).map((b) =>
    row([b.rule, String(b.used), String(b.limit)])));
  $('limits-gap').textContent = `Sends and uploads at least ${(l.send_gap_ms / 1000).toFixed(1)} s apart`
    + ' (SOLWEBD_SEND_GAP_MS)';

  const published = l.published?.allowances ?? [];
  $('limits-published').tBodies[0].replaceChildren(...published.map((p) =>
    row([p.what, p.messages === null || p.messages === undefined ? '—' : String(p.messages), p.window ?? '—',
      p.note ?? ''])));
  $('limits-published-empty').hidden = published.length > 0;
  $('limits-source').textContent = l.published?.source ?? '';
}

/** A reset time as the page wrote it, shown in this browser's time. */
function resets(iso) {
  if (!iso) return '—';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

async function pollState() {
  if (stopped) return;
  try {
    renderState(await api.get('/ui/api/state'));
  } catch (e) {
    if (!stopped) $('updated').textContent = `not answering: ${e.message}`;
  }
  if (!stopped) setTimeout(pollState, STATE_EVERY_MS);
}

// --- conversations ---

async function loadConversations() {
  const list = (await api.get('/ui/api/conversations')).data ?? [];
  const shown = list.filter((c) => c.status !== 'deleted');
  $('conv-count').textContent = String(shown.length);
  $('conversations').tBodies[0].replaceChildren(...shown.map((c) => {
    const del = el('button', 'danger', 'Delete');
    del.type = 'button';
    del.dataset.delete = c.id;
    del.addEventListener('click', () => confirmDelete(c.id));
    const id = c.url ? el('span', 'mono', shortId(c.id)) : el('span', 'mono', shortId(c.id));
    id.title = c.url ?? c.id;
    const tr = row([id, shortId(c.session), c.effort, String(c.turns), time(c.last_used_at), c.status,
      `${Math.round(100 * c.occupancy)} %`, del]);
    tr.dataset.conversation = c.id;
    return tr;
  }));
  $('conv-empty').hidden = shown.length > 0;
}

function confirmDelete(id) {
  const dialog = $('confirm-delete');
  $('confirm-id').textContent = id;
  dialog.returnValue = '';
  dialog.onclose = async () => {
    if (dialog.returnValue !== 'delete') return;
    const result = $('conv-result');
    result.textContent = `deleting ${shortId(id)} …`;
    try {
      const report = await api.post('/ui/api/conversations/delete', { ids: [id] });
      const r = report.results?.[0];
      result.textContent = r ? `${shortId(id)}: ${r.result}${r.detail ? ` (${r.detail})` : ''}` : 'nothing to delete';
    } catch (e) {
      result.textContent = `delete refused: ${e.message}`;
    }
    await loadConversations().catch(() => {});
  };
  dialog.showModal();
}

/**
 * The account's pause (REAL-PAGE rows 52, 53): what the page said and until when; a stop with no
 * end waits for a person, who looks at the account in the seat's live view and resumes it here.
 */
function renderPause(p) {
  const banner = $('account-pause');
  banner.hidden = !p || !p.holds;
  if (banner.hidden) return;
  const what = p.cause === 'unusual_activity' ? 'ChatGPT reported unusual activity' : 'ChatGPT showed "Too many requests"';
  $('account-pause-text').textContent = p.until
    ? `${what} at ${time(p.since)}: every seat is paused until ${time(p.until)} ("${p.page_text}"). `
    : `${what} at ${time(p.since)}: the account is stopped until you resume it ("${p.page_text}"). `
      + 'Look at the account in the seat\'s live view first. ';
}

async function resumeAccount() {
  const button = $('account-resume');
  button.disabled = true;
  try {
    await api.post('/ui/api/account/resume', {});
    renderState(await api.get('/ui/api/state'));
  } finally {
    button.disabled = false;
  }
}

// --- doctor ---

async function runDoctor() {
  const button = $('doctor-run');
  const summary = $('doctor-summary');
  button.disabled = true;
  summary.textContent = 'running doctor on a seat between turns …';
  $('doctor-checks').replaceChildren();
  try {
    const report = await api.post('/ui/api/doctor', {});
    const checks = report.checks ?? [];
    const failed = checks.filter((c) => !c.ok).length;
    summary.textContent = `${failed === 0 ? `all ${checks.length} checks passed` : `${failed} of ${checks.length} checks failed`}`
      + ` · state ${report.state} · dom_variant ${report.dom_variant} · ${report.turns} turn(s)`;
    summary.dataset.ok = String(failed === 0);
    $('doctor-checks').replaceChildren(...checks.map((c) => {
      const li = el('li', c.ok ? 'ok' : 'failed');
      li.append(el('span', 'name', c.name), el('span', 'why', `: ${c.detail}`));
      return li;
    }));
  } catch (e) {
    summary.textContent = `doctor could not run: ${e.message}`;
  } finally {
    button.disabled = false;
  }
}

// --- log ---

async function loadLog() {
  const log = await api.get('/ui/api/log?lines=80');
  const pre = $('log');
  const atEnd = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
  pre.textContent = log.lines.length ? log.lines.join('\n') : (log.file ? `${log.file} is empty` : 'this daemon keeps no log file');
  if (atEnd) pre.scrollTop = pre.scrollHeight;
}

async function pollSlow() {
  if (stopped) return;
  await Promise.allSettled([loadConversations(), loadLog()]);
  if (!stopped) setTimeout(pollSlow, SLOW_EVERY_MS);
}

// --- start ---

async function start() {
  $('doctor-run').addEventListener('click', runDoctor);
  $('account-resume').addEventListener('click', resumeAccount);
  let first = null;
  try {
    first = await api.get('/ui/api/state');
  } catch (e) {
    $('updated').textContent = `not answering: ${e.message}`;
  }
  if (first?.seat_live) {
    try {
      ({ mountSeatLive } = await import('/ui/seat-live.js'));
    } catch (e) {
      console.warn('seat-live.js did not load; the page works without it', e);
    }
  }
  if (first) renderState(first);
  for (const [index, parts] of cards) mountLive(parts, index);
  setTimeout(pollState, STATE_EVERY_MS);
  pollSlow();
}

start();
