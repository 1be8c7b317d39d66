// fakesol page: one turn over the page's own conversation stream (stream.js), rendered FROM ITS
// EVENTS as the real page renders it: the answer message (its id and model slug), its text and
// code blocks, the thinking label between the thinking marker and the recap, a Pro preamble (a
// commentary message), Stop until the terminal frames, the action bar after them, and the
// conversation id the stream names for the address bar and the history. The turn's plan
// (/api/plan/<user message id>) carries only what the page itself does around the events, as
// scenario fields: a flashing action bar, a false pause, a remount of the previous turn, no
// /c/<id> in the address bar, the images its file service serves, and the page faults that carry
// no answer (walls, banners, a full conversation, a hang). A recorded body (--stream-file) renders
// the same way; the page adopts its conversation and message ids. Same global scope as page.js.
'use strict';

let stopTurn = null; // aborts the turn's fetches, as the real page's Stop does

/** Plan faults the page plays by itself: no answer comes in the stream for them. */
const PAGE_FAULTS = new Set(['too_long', 'logged_out', 'cloudflare', 'crash', 'crash_before_send', 'hang', 'cap', 'capacity',
  'unusual_activity', 'conversation_full']);

async function streamTurn(text, isNew, sentFiles) {
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
  const userSection = userTurn(userId, text);
  const stop = new AbortController();
  stopTurn = stop;
  let plan = {};
  let playing = null;
  let view = null;
  let errorText = null;
  let streamConversation = null;
  const shown = () => view || (view = answerView(plan));

  const handlers = {
    onHttpError: (status, json) => {
      if (playing) return; // a scripted page fault (a cap) renders itself
      const detail = json && json.detail;
      const message = typeof detail === 'string' ? detail : (detail && detail.message) || ('HTTP ' + status);
      setSendMode('send');
      if (status === 429) showBanner(message); else showError({ error: message, conversation_id: conversationId });
    },
    onConversation: (id) => { streamConversation = id; },
    onUserMessage: (id) => adoptUserMessageId(userSection, id),
    onCommentary: (id, said, slug) => shown().preamble(id, said, slug),
    onThinking: () => shown().thinking(),
    onThought: () => { if (view) view.thought(); },
    onAnswer: (id, slug) => shown().identify(id, slug),
    onText: (t) => shown().text(t),
    onError: (message) => { errorText = message; },
  };
  const { outcome, state } = await FakesolStream.send(request, handlers, {
    stopSignal: stop.signal,
    hiddenHandoff: () => plan.stream_fault === 'handoff_unfollowed',
    silenceMs: () => plan.silence_ms,
    onResponse: async () => {
      const r = await fetch('/api/plan/' + encodeURIComponent(userId));
      plan = r.ok ? await r.json() : {};
      if (isNew && !plan.no_durable_url) showConversationUrl('WEB:' + crypto.randomUUID(), 'push'); // history.js
      if (plan.fault === 'cap_downgrade' && plan.banner) showBanner(plan.banner);
      if (PAGE_FAULTS.has(plan.fault)) playing = play(plan);
    },
  });
  stopTurn = null;
  if (playing) await playing;
  const answered = view ? view.finish(state, errorText) : null;
  if (answered) {
    turns.push(answered);
    if (streamConversation) conversationId = streamConversation;
    if (isNew && conversationId) {
      // The history lists the new chat; the durable id replaces the transient WEB: one only after
      // the answer is done, and for some chats never (onflip: 7 of 25). history.js knows the place.
      const id = conversationId;
      setTimeout(() => addHistory(id), 300);
      if (!plan.no_durable_url) setTimeout(() => showConversationUrl(id, 'replace'), 400);
    }
  }
  if (!playing && outcome !== 'http_error') setSendMode('send');
  if (errorText && !playing && outcome !== 'stopped') {
    showError({ error: errorText, conversation_id: streamConversation || conversationId });
  }
}

/** The stream echoed the user message under its own id (a recording's): the page shows that id. */
function adoptUserMessageId(section, id) {
  const m = section.querySelector('[data-message-author-role="user"]');
  if (!m || m.getAttribute('data-message-id') === id) return;
  m.setAttribute('data-message-id', id);
  section.setAttribute('data-turn-id', newer() ? 'request-WEB:' + id : id);
}

function stopStreamTurn() {
  if (stopTurn) stopTurn.abort();
}
