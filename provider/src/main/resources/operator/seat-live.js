// solwebd's operator page: one seat's live view and control (docs/seat-control.md).
// A plain module with no imports; it loads nothing from outside and needs no CSP exception:
// frames are drawn on a canvas (no blob: or data: images), requests go to the page's own origin.
//
//   import { mountSeatLive } from '/ui/seat-live.js';
//   mountSeatLive(document.querySelector('.seat-live[data-seat="0"]'), 0, { fetch: (url, init) => fetch(url, init) });
//
// `api.fetch` is the page's fetch wrapper (same-origin: the session cookie goes along). The view
// follows the seat's screencast over a WebSocket (GET /ui/api/seats/N/live) and falls back to
// polling /ui/api/seats/N/screen.png while the socket is down. "Take control" takes the seat out of
// the pool (POST .../control; answered when no turn runs on it); while controlled, clicks, wheel
// and keys on the picture are relayed to the seat's page at its own coordinates (POST .../input),
// and "Give back" returns the seat (DELETE .../control). The element's data-state says
// watching | waiting | controlled, data-frames counts the frames drawn, data-source says where the
// last came from (live | png), data-inflight how many input requests are not answered yet.

const POLL_MS = 2000;
const RECONNECT_MS = 3000;
const STATE_MS = 5000;

export function mountSeatLive(element, seatIndex, api = {}) {
  const call = api.fetch || ((url, init) => fetch(url, init));
  const base = `/ui/api/seats/${encodeURIComponent(seatIndex)}`;
  const view = { width: 1280, height: 900 };
  let controlled = false;
  let socket = null;
  let pollTimer = null;
  let reconnectTimer = null;
  let stateTimer = null;
  let closed = false;
  let sending = Promise.resolve();
  let pendingMove = null;
  let frames = 0;

  element.replaceChildren();
  element.classList.add('seat-live-mounted');
  const bar = add(element, 'div', 'seat-live-bar');
  const status = add(bar, 'span', 'seat-live-status');
  status.setAttribute('role', 'status');
  const take = add(bar, 'button', 'seat-live-take');
  take.type = 'button';
  take.textContent = 'Take control';
  const give = add(bar, 'button', 'seat-live-give');
  give.type = 'button';
  give.textContent = 'Give back';
  const canvas = add(element, 'canvas', 'seat-live-picture');
  canvas.width = view.width;
  canvas.height = view.height;
  canvas.tabIndex = 0;
  canvas.setAttribute('aria-label', `seat ${seatIndex}'s page`);
  canvas.style.maxWidth = '100%';
  canvas.style.height = 'auto';
  const note = add(element, 'p', 'seat-live-note');
  const paint = canvas.getContext('2d');

  function add(parent, tag, cls) {
    const child = document.createElement(tag);
    child.className = cls;
    parent.appendChild(child);
    return child;
  }

  function show(state, text) {
    element.dataset.state = state;
    controlled = state === 'controlled';
    take.hidden = state !== 'watching';
    give.hidden = state === 'watching';
    canvas.classList.toggle('seat-live-controlled', controlled);
    status.textContent = text;
  }

  async function draw(blob) {
    const bitmap = await createImageBitmap(blob);
    if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
    }
    paint.drawImage(bitmap, 0, 0);
    bitmap.close();
    frames += 1;
    element.dataset.frames = String(frames);
  }

  // ---- the picture: screencast, else polled PNG ----

  function connect() {
    if (closed) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(`${scheme}//${location.host}${base}/live`);
    socket.binaryType = 'blob';
    socket.onopen = () => stopPolling();
    socket.onmessage = (event) => {
      if (typeof event.data === 'string') {
        const meta = JSON.parse(event.data);
        if (meta.type === 'viewport') {
          view.width = meta.width;
          view.height = meta.height;
        }
        return;
      }
      element.dataset.source = 'live';
      draw(event.data).catch(() => {});
    };
    socket.onclose = () => {
      socket = null;
      if (closed) return;
      startPolling();
      reconnectTimer = setTimeout(connect, RECONNECT_MS);
    };
  }

  function startPolling() {
    if (pollTimer || closed) return;
    const once = async () => {
      try {
        const response = await call(`${base}/screen.png`, { cache: 'no-store' });
        if (response.ok) {
          element.dataset.source = 'png';
          await draw(await response.blob());
        } else {
          note.textContent = await errorText(response);
        }
      } catch (e) {
        note.textContent = 'the daemon does not answer';
      }
    };
    once();
    pollTimer = setInterval(once, POLL_MS);
  }

  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = null;
  }

  // ---- control ----

  async function errorText(response) {
    try {
      const body = await response.json();
      return (body.error && body.error.message) || `HTTP ${response.status}`;
    } catch (e) {
      return `HTTP ${response.status}`;
    }
  }

  async function readState() {
    try {
      const response = await call(`${base}/control`, { cache: 'no-store' });
      if (!response.ok) return;
      const body = await response.json();
      if (body.state === 'controlled') {
        show('controlled', `You control seat ${seatIndex}: click and type on the page. Given back by itself after a few idle minutes.`);
      } else if (body.state === 'pending') {
        show('waiting', 'Waiting for the running turn to end…');
      } else {
        show('watching', `Watching seat ${seatIndex}.`);
      }
    } catch (e) {
      // the next round tells
    }
  }

  take.addEventListener('click', async () => {
    note.textContent = '';
    show('waiting', 'Waiting for the running turn to end…');
    try {
      const response = await call(`${base}/control`, { method: 'POST' });
      if (response.ok) {
        show('controlled', `You control seat ${seatIndex}: click and type on the page. Given back by itself after a few idle minutes.`);
        canvas.focus({ preventScroll: true });
      } else {
        note.textContent = await errorText(response);
        await readState();
      }
    } catch (e) {
      note.textContent = 'the daemon does not answer';
      await readState();
    }
  });

  give.addEventListener('click', async () => {
    try {
      const response = await call(`${base}/control`, { method: 'DELETE' });
      if (!response.ok && response.status !== 409) {
        note.textContent = await errorText(response);
      }
    } finally {
      await readState();
    }
  });

  // ---- input: relayed in order, one request at a time; moves coalesce ----

  function send(events) {
    sending = sending.then(() => post(events));
    return sending;
  }

  let inflight = 0;
  async function post(events) {
    inflight += 1;
    element.dataset.inflight = String(inflight);
    try {
      const response = await call(`${base}/input`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ events }),
      });
      if (!response.ok) {
        note.textContent = await errorText(response);
        if (response.status === 409) await readState();
      }
    } catch (e) {
      note.textContent = 'the daemon does not answer';
    } finally {
      inflight -= 1;
      element.dataset.inflight = String(inflight);
    }
  }

  function point(event) {
    const rect = canvas.getBoundingClientRect();
    const x = ((event.clientX - rect.left) * view.width) / rect.width;
    const y = ((event.clientY - rect.top) * view.height) / rect.height;
    return {
      x: Math.max(0, Math.min(view.width, Math.round(x))),
      y: Math.max(0, Math.min(view.height, Math.round(y))),
    };
  }

  const BUTTONS = ['left', 'middle', 'right'];

  canvas.addEventListener('mousedown', (event) => {
    if (!controlled) return;
    event.preventDefault();
    const at = point(event); // before focus: focusing must not move the picture under the pointer
    canvas.focus({ preventScroll: true });
    send([{ type: 'mouse', action: 'down', ...at, button: BUTTONS[event.button] || 'left', click_count: Math.min(3, Math.max(1, event.detail || 1)) }]);
  });
  canvas.addEventListener('mouseup', (event) => {
    if (!controlled) return;
    event.preventDefault();
    send([{ type: 'mouse', action: 'up', ...point(event), button: BUTTONS[event.button] || 'left', click_count: Math.min(3, Math.max(1, event.detail || 1)) }]);
  });
  canvas.addEventListener('mousemove', (event) => {
    if (!controlled) return;
    const first = pendingMove === null;
    pendingMove = point(event);
    if (first) {
      sending = sending.then(() => {
        const at = pendingMove;
        pendingMove = null;
        return at ? post([{ type: 'mouse', action: 'move', ...at }]) : undefined;
      });
    }
  });
  canvas.addEventListener('wheel', (event) => {
    if (!controlled) return;
    event.preventDefault();
    send([{ type: 'wheel', ...point(event), dx: event.deltaX, dy: event.deltaY }]);
  }, { passive: false });
  canvas.addEventListener('contextmenu', (event) => {
    if (controlled) event.preventDefault();
  });

  function typed(event) {
    return event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey;
  }
  canvas.addEventListener('keydown', (event) => {
    if (!controlled) return;
    event.preventDefault();
    send([typed(event) ? { type: 'text', text: event.key } : { type: 'key', action: 'down', key: event.key }]);
  });
  canvas.addEventListener('keyup', (event) => {
    if (!controlled || typed(event)) return;
    event.preventDefault();
    send([{ type: 'key', action: 'up', key: event.key }]);
  });
  canvas.addEventListener('paste', (event) => {
    if (!controlled) return;
    const text = event.clipboardData && event.clipboardData.getData('text');
    if (text) {
      event.preventDefault();
      send([{ type: 'text', text }]);
    }
  });

  show('watching', `Watching seat ${seatIndex}.`);
  connect();
  readState();
  stateTimer = setInterval(readState, STATE_MS);

  return {
    destroy() {
      closed = true;
      clearInterval(stateTimer);
      clearTimeout(reconnectTimer);
      stopPolling();
      if (socket) socket.close();
      element.replaceChildren();
    },
  };
}
