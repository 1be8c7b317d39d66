// fakesol page: the page's own requests around a turn, as the late-2026 page makes them
// (../shared/REAL-PAGE.md rows 17, 18, 25, 30, 31): typing posts /backend-api/f/conversation/prepare
// (debounced; client_prepare_source composer_editor_state) naming the model and thinking_effort the
// page will use; Send posts the turn with the same fields, messages[0].create_time and
// client_prepare_state, after an immediate /prepare when the debounced one had not gone out yet;
// opening a conversation loads its history JSON (/backend-api/conversations/<id>) and, while its
// answer is still being written (async_status 3), polls the JSON and stream_status in pairs, as
// the page does after a reload. The effort comes from the pill, or from the backend's page_effort
// (fakesol --page-effort: the page's requests carry that effort whatever the pill shows: a browser
// left in Work mode, a stale pill). Written here from those rows; nothing is copied.
'use strict';

window.FakesolWire = (() => {
  // Row 25: the efforts on the wire (canonical pill label -> the request's fields).
  const WIRE = {
    Instant: { model: 'gpt-5-6' },
    Medium: { model: 'gpt-5-6-thinking', thinking_effort: 'standard' },
    High: { model: 'gpt-5-6-thinking', thinking_effort: 'extended' },
    'Extra High': { model: 'gpt-5-6-thinking', thinking_effort: 'max' },
    Pro: { model: 'gpt-6-pro' },
  };
  const POLL_MS = 1000;      // the page's JSON + stream_status pair, scaled down from its real cadence
  const POLL_FAILURES = 30;  // then the page gives up: "A network error occurred" (row 30)
  let config = { prepare: false, debounce_ms: 300, page_effort: null };
  let timer = null;
  let state = 'none';        // client_prepare_state: none | sent | success
  let pendingText = '';
  const ready = fetch('/api/wire').then((r) => r.json()).then((c) => {
    config = Object.assign(config, c);
    let ignore = config.ignore_send_clicks || 0;
    // fakesol fault: a page still hydrating takes the Send click and does nothing with it.
    if (ignore > 0) {
      document.addEventListener('click', (e) => {
        if (ignore > 0 && e.target.closest && e.target.closest('#composer-submit-button, button[type="submit"]')) {
          ignore--;
          e.stopImmediatePropagation();
          e.preventDefault();
        }
      }, true);
    }
  }, () => {});

  /** The model and effort the page will use: the backend's page effort when set, else the pill's. */
  function fields() {
    const label = config.page_effort || effortLabel; // page.js's confirmed effort
    const family = config.page_effort ? null : FakesolModels.fields(); // models.js: the chosen model row's slug
    if (family) return family;
    return Object.assign({}, WIRE[label] || { model: 'gpt-5-6-thinking', thinking_effort: String(label).toLowerCase() });
  }

  async function prepare(dispatch, text) {
    state = 'sent';
    const body = Object.assign({ action: 'next', conversation_id: conversationId || undefined,
      client_prepare_source: 'composer_editor_state', client_prepare_dispatch: dispatch, client_prepare_state: 'none',
      partial_query: { id: crypto.randomUUID(), author: { role: 'user' }, content: { content_type: 'text', parts: [text] } } },
    fields());
    try {
      const r = await fetch('/backend-api/f/conversation/prepare', { method: 'POST',
        headers: Object.assign({ 'content-type': 'application/json' }, turnTrace('r')), body: JSON.stringify(body) });
      state = r.ok ? 'success' : 'none';
    } catch (e) {
      state = 'none';
    }
  }

  /** page.js: the composer (or the effort) changed; a /prepare goes out once typing rests. */
  function composed(text) {
    clearTimeout(timer);
    pendingText = text || '';
    state = 'none';
    if (!config.prepare || !pendingText) return;
    timer = setTimeout(() => prepare('debounced', pendingText), config.debounce_ms);
  }

  /** stream.js, just before the turn's POST: the request's fields of rows 17 and 31. */
  async function beforeSend(request) {
    await ready;
    clearTimeout(timer);
    if (request.action === 'variant') {
      // A regeneration types nothing: no /prepare, no new message (row 35).
      delete request.model;
      delete request.thinking_effort;
      Object.assign(request, fields());
      return;
    }
    if (config.prepare && state !== 'success') await prepare('immediate', pendingText);
    if (!config.prepare) {
      // An older page: its /prepare sibling goes out at Send and names no effort (a path-substring trap for an observer).
      await fetch('/backend-api/f/conversation/prepare', { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: request.action, conversation_id: request.conversation_id }) }).catch(() => {});
    }
    delete request.model; // the wire fields replace whatever the caller put there (Instant and Pro name no effort)
    delete request.thinking_effort;
    Object.assign(request, fields());
    if (config.prepare) request.client_prepare_state = state;
    request.messages[0].create_time = Date.now() / 1000;
    state = 'none';
    pendingText = '';
  }

  /** Opening a conversation: its history JSON, then JSON + stream_status in pairs while its answer is written. */
  async function load() {
    const id = typeof pageConversationId === 'function' ? pageConversationId() : null; // history.js
    if (!id || id.startsWith('WEB:')) return;
    const route = '/backend-api/conversations/' + encodeURIComponent(id) + '?include_has_versions=true&num_turns=10';
    let failures = 0;
    for (;;) {
      let json = null;
      try {
        const r = await fetch(route, { headers: { 'oai-language': document.documentElement.lang || 'en' } });
        if (r.status === 404) return;
        json = r.ok ? await r.json() : null;
      } catch (e) {
        json = null;
      }
      if (!json) {
        if (++failures >= POLL_FAILURES) return;
      } else if (json.async_status !== 3) {
        return;
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
      try {
        await fetch('/backend-api/conversation/' + encodeURIComponent(id) + '/stream_status');
      } catch (e) {
        failures++;
      }
    }
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', load);
  else load();

  return { composed, beforeSend, fields };
})();
