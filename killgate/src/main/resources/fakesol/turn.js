// fakesol page: one turn over the page's own conversation stream (stream.js), rendered into the
// DOM of page.js from the events it receives, as the real page renders what its stream says. The
// turn's plan (/api/plan/<user message id>) only carries what the stream does not: the DOM
// behaviours of the scenario (a thinking label, the false pause, a re-render of an older turn, a
// cap banner) and the generated images. Uses page.js's helpers (same global scope).
'use strict';

let stopTurn = null; // aborts the turn's fetches, as the real page's Stop does

async function streamTurn(text, isNew, sentFiles) {
  const userId = crypto.randomUUID();
  const request = {
    action: 'next',
    messages: [{ id: userId, author: { role: 'user' }, content: { content_type: 'text', parts: [text] },
      metadata: { attachments: sentFiles.map((name) => ({ name })) } }],
    parent_message_id: turns.length ? turns[turns.length - 1].id : 'client-created-root',
    model: 'gpt-5-thinking',
    thinking_effort: $('#thinking-effort-selection-label').textContent,
    supported_encodings: ['v1'],
  };
  if (conversationId) request.conversation_id = conversationId;
  userTurn(userId, text);
  const stop = new AbortController();
  stopTurn = stop;
  let plan = {};
  let turn = null;
  let streamConversation = null;
  let halfShown = false;
  let pausedAt = -1;
  let errorText = null;
  const finish = () => { if (turn) turn.actions.classList.add('shown'); setSendMode('send'); };

  const handlers = {
    onHttpError: (status, json) => {
      const detail = json && json.detail;
      const message = typeof detail === 'string' ? detail : (detail && detail.message) || ('HTTP ' + status);
      setSendMode('send');
      if (status === 429) showBanner(message); else showError({ error: message, conversation_id: conversationId });
    },
    onConversation: (id) => { streamConversation = id; },
    onAnswer: (id, slug) => {
      turn = assistantTurn(id, slug || plan.slug);
      if (plan.rerender_previous) rerenderPrevious(turn.node);
    },
    onThinking: () => { if (turn) { turn.status.textContent = 'Thinking'; turn.status.hidden = false; } },
    onText: (t) => {
      if (!turn) return;
      const target = (plan.markdown || '').length;
      if (pausedAt >= 0 && t.length > pausedAt) {
        // The stream moved on after its pause: end the scripted DOM behaviour.
        turn.status.hidden = true; turn.status.textContent = '';
        if (plan.thinking_ms) turn.actions.classList.remove('shown');
        if (plan.false_pause_ms) setSendMode('stop');
        pausedAt = -1;
      }
      turn.prose.textContent = FakesolStream.render(t).prose;
      if (!halfShown && target && t.length >= Math.floor(target / 2) && (plan.thinking_ms || plan.false_pause_ms)) {
        // The stream pauses here (the backend scripts it); the page shows what the scenario says.
        halfShown = true;
        pausedAt = t.length;
        if (plan.thinking_ms) { turn.status.textContent = 'Thinking'; turn.status.hidden = false; turn.actions.classList.add('shown'); }
        if (plan.false_pause_ms) setSendMode('send');
      }
    },
    onError: (message) => { errorText = message; },
  };
  const { outcome, state } = await FakesolStream.send(request, handlers, {
    stopSignal: stop.signal,
    hiddenHandoff: () => plan.stream_fault === 'handoff_unfollowed',
    silenceMs: () => plan.silence_ms,
    onStart: async () => {
      const r = await fetch('/api/plan/' + encodeURIComponent(userId));
      plan = r.ok ? await r.json() : {};
      if (plan.fault === 'cap_downgrade' && plan.banner) showBanner(plan.banner);
    },
  });
  stopTurn = null;
  if (outcome === 'http_error') return;
  if (outcome === 'stopped' || stop.signal.aborted) return finish();
  if (errorText) {
    setSendMode('send');
    showError({ error: errorText, conversation_id: streamConversation || conversationId });
    return;
  }
  const answerText = turn && state ? (state.messages.get(state.answerId).content.parts[0] || '') : '';
  const images = plan.images || [];
  if (!turn && images.length && state) {
    // An image turn: its message came finished, with no text; the page shows the images by itself.
    const assistant = [...state.messages.values()].filter((m) => m.author && m.author.role === 'assistant').pop();
    turn = assistantTurn(assistant ? assistant.id : crypto.randomUUID(), plan.slug);
  }
  if (turn) {
    turn.status.hidden = true;
    const rendered = FakesolStream.render(typeof answerText === 'string' ? answerText : '');
    renderDone(turn, { prose: rendered.prose, blocks: rendered.blocks, markdown: rendered.markdown, images });
    turns.push({ id: turn.id, data: { slug: plan.slug, prose: rendered.prose, blocks: rendered.blocks, markdown: rendered.markdown, images } });
  }
  // A cut stream ('ended') leaves the page looking finished: the hard case for a DOM rule.
  setSendMode('send');
  if (streamConversation) conversationId = streamConversation;
  if (isNew && conversationId) {
    // The durable id replaces the transient WEB: one only after the answer is done.
    const id = conversationId;
    setTimeout(() => history.replaceState(null, '', '/c/' + id), 400);
  }
}

function stopStreamTurn() {
  if (stopTurn) stopTurn.abort();
}
