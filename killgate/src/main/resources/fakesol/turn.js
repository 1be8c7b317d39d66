// fakesol page: one turn over the page's own conversation stream (stream.js), rendered FROM ITS
// EVENTS as the real page renders it: the answer message (its id and model slug), its text and
// code blocks, the thinking label between the thinking marker and the recap, a Pro preamble (a
// commentary message), Stop until the terminal frames, the action bar after them, and the
// conversation id the stream names for the address bar and the history. The turn's plan
// (/api/plan/<user message id>) carries only what the page itself does around the events, as
// scenario fields: a flashing action bar, a false pause, a remount of the previous turn, no
// /c/<id> in the address bar, the images its file service serves, the status lines that are not
// the end (a safety review, a connection that recovers: row 19), the 2026-10 wrapper stuck at
// in_progress (row 14), a Canvas answer (row 15), and the page faults that carry no answer (walls,
// banners, a full conversation, a structured question, a hang). A recorded body (--stream-file)
// renders the same way; the page adopts its conversation and message ids. Same global scope as page.js.
'use strict';

let stopTurn = null; // aborts the turn's fetches, as the real page's Stop does

/** Plan faults the page plays by itself: no answer comes in the stream for them. */
const PAGE_FAULTS = new Set(['too_long', 'logged_out', 'cloudflare', 'crash', 'crash_before_send', 'hang', 'cap', 'capacity',
  'unusual_activity', 'conversation_full', 'structured_question']);

/**
 * The body of the turn's request to /backend-api/f/conversation, made once per Send. A Work-mode
 * page asks for its own model family (row 25: gpt-6-astra-wm, conversation_origin tpp).
 */
function turnRequest(userId, text, sentFiles) {
  const work = inWork();
  const request = {
    action: 'next',
    messages: [{ id: userId, author: { role: 'user' }, content: { content_type: 'text', parts: [text] },
      metadata: { attachments: sentFiles.map((name) => ({ name })) } }],
    parent_message_id: turns.length ? turns[turns.length - 1].id : 'client-created-root',
    model: work ? 'gpt-6-astra-wm' : 'gpt-5-thinking',
    thinking_effort: work ? 'Work' : effortLabel,
    supported_encodings: ['v1'],
  };
  if (work) request.conversation_origin = 'tpp';
  if (conversationId) request.conversation_id = conversationId;
  Object.assign(request, placeFields()); // history.js: a project's gizmo_id, a temporary chat's flag
  if (window.FakesolUploads) FakesolUploads.intoRequest(request); // upload.js: the files that are done (row 48)
  return request;
}

async function streamTurn(text, isNew, sentFiles) {
  const userId = crypto.randomUUID();
  const request = turnRequest(userId, text, sentFiles);
  const ex = userTurn(userId, text); // right after Send the exchange holds only the user unit (row 29)
  await answerTurnOf(request, ex, userId, isNew);
}

/**
 * Row 35's "Regenerate response" on the last answer, once no turn runs: the turn request again as
 * the page posts a regeneration (action "variant", parent_message_id the prompt's id, the same
 * conversation, no new user message); the old answer leaves the exchange and the new one streams
 * into it.
 */
async function regenerateTurn(turn) {
  if (busy || stopTurn) return; // shown only after the answer ended (completed or stopped)
  const ex = turn.ex;
  if (!ex || !ex.key) return;
  busy = true; stopped = false;
  setSendMode('stop');
  const request = { action: 'variant', parent_message_id: ex.key, model: 'gpt-5-thinking', thinking_effort: effortLabel,
    supported_encodings: ['v1'] };
  if (conversationId) request.conversation_id = conversationId;
  Object.assign(request, placeFields());
  const at = turns.findIndex((t) => t.id === turn.id);
  if (at >= 0) turns.splice(at, 1);
  turn.node.remove();
  turn.actions.remove();
  try {
    await answerTurnOf(request, ex, ex.key, false);
  } finally {
    busy = false;
  }
}

/** The answer to one turn request (a Send's or a regeneration's), streamed into exchange {@code ex}. */
async function answerTurnOf(request, ex, userId, isNew) {
  const stop = new AbortController();
  stopTurn = stop;
  let plan = {};
  let playing = null;
  let view = null;
  let errorText = null;
  let streamConversation = null;
  const shown = () => view || (view = answerView(plan, ex));

  const handlers = {
    onHttpError: (status, json) => {
      if (playing) return; // a scripted page fault (a cap) renders itself
      const detail = json && json.detail;
      const message = typeof detail === 'string' ? detail : (detail && detail.message) || ('HTTP ' + status);
      setSendMode('send');
      if (status === 429) showBanner(message); else showError({ error: message, conversation_id: conversationId });
    },
    onConversation: (id) => { streamConversation = id; },
    onUserMessage: (id) => adoptUserId(ex, id),
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
      if (PAGE_FAULTS.has(plan.fault)) playing = play(plan, ex);
    },
  });
  stopTurn = null;
  if (playing) await playing;
  if (view) await view.settled(); // a status line still standing (a safety review) ends first
  const answered = view ? view.finish(state, errorText) : null;
  if (answered) {
    turns.push(answered);
    if (streamConversation) conversationId = streamConversation;
    markConversation(conversationId);
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

function stopStreamTurn() {
  if (stopTurn) stopTurn.abort();
}

/**
 * One assistant turn drawn from its stream's events (streamTurn calls these as they arrive), with
 * the page's own behaviours around them from the plan: the action bar that flashes while the
 * model thinks (flash_action_bar), Stop that disappears while the text stalls (false_pause_ms),
 * the previous turn remounted as this one starts (rerender_previous), status lines that hold the
 * text still while the model works on (safety_review_ms, connection_interrupted_ms), the 2026-10
 * wrapper's state (wrong on purpose: row 29), a Canvas (canvas), the images of its file service.
 */
function answerView(plan, ex) {
  const turn = answerTurn(ex, null, ''); // unnamed: the stream names the answer message
  turn.message.remove(); // the answer message appears when the stream names it
  let identified = false;
  let preambled = false;
  let thinking = null;  // the Answer now button while the model thinks
  let markdown = '';
  let slug = '';
  let stall = null;
  let stalled = false;
  let done = false;
  let texted = false;
  let held = null;      // a status line holds the text still: resolves when it is gone
  if (plan.rerender_previous) rerenderPrevious();

  const stallWatch = () => {
    if (!plan.false_pause_ms) return;
    clearTimeout(stall);
    if (stalled) { stalled = false; setSendMode('stop'); }
    // The false stable pause (seed 003): the text stalls, Stop goes, no action bar yet.
    stall = setTimeout(() => { if (!done && !thinking && !stopped) { stalled = true; setSendMode('send'); } }, 150);
  };

  const flash = async () => {
    while (thinking && !done) {
      // The finished-action bar flashes on for 200 ms in every 500 while the model still thinks.
      if (plan.flash_action_bar) turn.actions.classList.toggle('shown', (Date.now() % 500) < 200);
      else turn.actions.classList.add('shown');
      await sleep(25);
    }
  };

  const draw = () => { if (identified && !held) proseInto(turn.md, FakesolStream.render(markdown).prose); };

  /** Row 19: status lines that are not the end, one after the other, the text held still meanwhile. */
  const holdLines = async () => {
    for (const [ms, text, cls] of [[plan.safety_review_ms, T().safety, null],
      [plan.connection_interrupted_ms, T().interrupted, 'text-chatgpt-recovery']]) {
      if (!ms || stopped) continue;
      const line = statusLine(turn, text, cls);
      await waitOrStop(ms);
      line.remove();
    }
  };

  /** Row 29: one poll read complete, then in_progress again, while the answer was still coming. */
  const flipState = () => {
    turnState(ex, 'complete');
    setTimeout(() => { if (!done) turnState(ex, 'in_progress'); }, 150);
  };

  return {
    identify(id, modelSlug) {
      slug = modelSlug || slug;
      identifyMessage(turn, id, slug);
      if (!identified) turn.body.appendChild(turn.message);
      identified = true;
    },
    /** A Pro preamble: its own message, settled, no Stop, no thinking signal and no action bar (oracle's trap). */
    preamble(id, text, modelSlug) {
      if (preambled) return;
      preambled = true;
      extraMessage(turn, id, modelSlug, text);
      setSendMode('send');
    },
    /** Thinking: a status label with a shimmer, aria-busy, an Answer now button; the bar may flash. */
    thinking() {
      if (thinking || done) return;
      clearTimeout(stall);
      if (preambled || stalled) setSendMode('stop');
      stalled = false;
      setThinking(turn, preambled ? T().proThinking : T().thinking);
      thinking = el('button', { type: 'button', class: 'btn', text: T().answerNow });
      turn.body.appendChild(thinking);
      if (plan.flash_action_bar) hideStop(); // Stop gone mid-thinking, too
      flash();
    },
    thought() {
      if (!thinking) return;
      thinking.remove();
      thinking = null;
      setThinking(turn, null);
      thoughtSummary(turn, Math.max(1, Math.round((plan.thinking_ms || 1000) / 1000)));
      turn.actions.classList.remove('shown');
      if (plan.flash_action_bar) setSendMode('stop');
      if (markdown) stallWatch();
    },
    text(t) {
      markdown = t;
      if (!identified || done) return;
      if (!texted) {
        texted = true;
        flipState();
        if (plan.safety_review_ms || plan.connection_interrupted_ms) {
          draw();
          held = holdLines().then(() => { held = null; draw(); });
          return;
        }
      }
      draw();
      stallWatch();
    },
    /** Resolves once no status line holds the text (the page lags the stream while it shows one). */
    settled() {
      return held || Promise.resolve();
    },
    /** The stream is over (complete, cut, stopped): the answer as it stands. Returns the turn for the thread, or null. */
    finish(state, errorText) {
      done = true;
      clearTimeout(stall);
      if (thinking) { thinking.remove(); thinking = null; setThinking(turn, null); }
      // Row 14/29: the wrapper may stay in_progress after the end, and does after a Stop.
      setTimeout(() => turnState(ex, plan.turn_state_stuck || stopped ? 'in_progress' : 'complete'), 200);
      if (!identified) {
        if (errorText) turn.node.remove(); else turn.actions.classList.add('shown');
        return null;
      }
      const m = state && state.answerId ? state.messages.get(state.answerId) : null;
      const part = m && m.content && m.content.parts ? m.content.parts[0] : null;
      const rendered = FakesolStream.render(typeof part === 'string' ? part : markdown);
      rendered.images = plan.images || [];
      renderDone(turn, rendered);
      if (plan.canvas) openCanvas(rendered.blocks.length ? rendered.blocks[0].code : rendered.prose);
      return { id: turn.id, data: Object.assign({ slug }, rendered) };
    },
  };
}

/** React remounts an older answer while a new one streams: same message id, text re-streams. */
async function rerenderPrevious() {
  const prev = turns[turns.length - 1];
  if (!prev) return;
  const old = mountedAnswer(prev);
  if (!old) return; // unmounted by windowing
  const fresh = answerTurn(exchangeOf(old), prev.id, prev.data.slug, old);
  if (shape().thread !== 'turnkey') {
    const at = sections.indexOf(old);
    if (at >= 0) sections[at] = fresh.node;
    old.remove();
  }
  fresh.markdown = prev.data.markdown;
  await restream(fresh, prev.data, 200);
}
