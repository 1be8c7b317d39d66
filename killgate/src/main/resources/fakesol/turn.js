// fakesol page: one turn over the page's own conversation stream (stream.js). The turn request
// goes to /backend-api/f/conversation as on the real page (its /prepare first, the body read by
// the page's own code, /resume after a silence, a socket follow of a handoff, its own abort after
// the terminal frames). The scenario's DOM behaviours (page.js play(): preambles, thinking,
// flashing bars, false pauses, banners) play from the turn's plan (/api/plan/<user message id>)
// alongside the stream, which the backend paces to the same plan; a recorded body
// (--stream-file) has no plan and renders from the stream's own events. Same global scope as page.js.
'use strict';

let stopTurn = null; // aborts the turn's fetches, as the real page's Stop does

async function streamTurn(text, isNew, sentFiles, beforePlay) {
  const userId = crypto.randomUUID();
  const request = {
    action: 'next',
    messages: [{ id: userId, author: { role: 'user' }, content: { content_type: 'text', parts: [text] },
      metadata: { attachments: sentFiles.map((name) => ({ name })) } }],
    parent_message_id: turns.length ? turns[turns.length - 1].id : 'client-created-root',
    model: 'gpt-5-thinking',
    thinking_effort: effortLabel,
    supported_encodings: ['v1'],
  };
  if (conversationId) request.conversation_id = conversationId;
  Object.assign(request, placeFields()); // history.js: a project's gizmo_id, a temporary chat's flag
  userTurn(userId, text);
  const stop = new AbortController();
  stopTurn = stop;
  let plan = {};
  let playing = null;
  let replayTurn = null;
  let errorText = null;
  let streamConversation = null;

  const handlers = {
    onHttpError: (status, json) => {
      if (playing) return; // a scripted page fault (a cap) renders itself
      const detail = json && json.detail;
      const message = typeof detail === 'string' ? detail : (detail && detail.message) || ('HTTP ' + status);
      setSendMode('send');
      if (status === 429) showBanner(message); else showError({ error: message, conversation_id: conversationId });
    },
    onConversation: (id) => { streamConversation = id; },
    onAnswer: (id, slug) => { if (plan.replay) replayTurn = assistantTurn(id, slug); },
    onText: (t) => { if (replayTurn) proseInto(replayTurn.md, FakesolStream.render(t).prose); },
    onError: (message) => { errorText = message; },
  };
  const { outcome, state } = await FakesolStream.send(request, handlers, {
    stopSignal: stop.signal,
    hiddenHandoff: () => plan.stream_fault === 'handoff_unfollowed',
    silenceMs: () => plan.silence_ms,
    onResponse: async (response) => {
      const r = await fetch('/api/plan/' + encodeURIComponent(userId));
      plan = r.ok ? await r.json() : {};
      beforePlay(plan);
      // A stream-only HTTP error (429/403 scripted on the stream) has no page behaviour to play.
      if (!plan.replay && (response.ok || plan.fault)) playing = play(plan, isNew);
    },
  });
  stopTurn = null;
  if (playing) {
    await playing;
  } else if (plan.replay && replayTurn && state) {
    const m = state.messages.get(state.answerId);
    const rendered = FakesolStream.render(m && typeof m.content.parts[0] === 'string' ? m.content.parts[0] : '');
    renderDone(replayTurn, rendered);
    turns.push({ id: replayTurn.id, data: Object.assign({ slug: '' }, rendered) });
    setSendMode('send');
    if (streamConversation) conversationId = streamConversation;
    if (isNew && conversationId) setTimeout(() => showConversationUrl(conversationId, 'replace'), 400);
  } else if (outcome !== 'http_error') {
    setSendMode('send');
  }
  if (errorText && !playing && outcome !== 'stopped') {
    setSendMode('send');
    showError({ error: errorText, conversation_id: streamConversation || conversationId });
  }
}

function stopStreamTurn() {
  if (stopTurn) stopTurn.abort();
}
