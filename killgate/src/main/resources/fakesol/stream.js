// fakesol page: the turn request, as the real page makes it (../shared/CHATGPT-STREAM.md). One
// POST /backend-api/f/conversation per turn (its /prepare and body fields: wire.js), the body read as an
// event stream and decoded by the page's own code (delta encoding v1 or the older cumulative
// format), a /resume after a long silence, a WebSocket follow of a handoff, and the page's own
// abort of its fetch once the terminal frames arrived. The page renders the DOM from what this
// reports; nothing here knows the seat.
'use strict';

window.FakesolStream = (() => {
  const SILENCE_MS = 60000; // a silence this long makes the page resume (thinking turns pause for less)

  /** An SSE parser over text chunks: calls onEvent(name, data) per dispatched event. */
  function sseParser(onEvent) {
    let pending = '';
    let data = [];
    let name = null;
    const line = (l) => {
      if (l === '') {
        if (data.length) onEvent(name, data.join('\n'));
        data = []; name = null;
        return;
      }
      if (l.startsWith(':')) return;
      const i = l.indexOf(':');
      const field = i < 0 ? l : l.slice(0, i);
      let value = i < 0 ? '' : l.slice(i + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'event') name = value.trim();
    };
    return {
      push(text) {
        pending += text;
        const parts = pending.split(/\r\n|\n|\r(?!$)/);
        pending = parts.pop();
        parts.forEach(line);
      },
      end() { if (pending) line(pending); pending = ''; line(''); },
    };
  }

  /** Applies v1 patch frames and cumulative events to the messages of one turn. */
  function turnState(handlers) {
    const st = { messages: new Map(), current: null, lastP: null, lastO: null, conversationId: null,
      answerId: null, live: new Set(), terminal: false, finished: false, handoff: null };
    const setAt = (doc, path, op, v) => {
      const keys = path.split('/').slice(1).map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
      let o = doc;
      for (let i = 0; i < keys.length - 1; i++) {
        if (o[keys[i]] == null || typeof o[keys[i]] !== 'object') o[keys[i]] = {};
        o = o[keys[i]];
      }
      const k = keys[keys.length - 1];
      if (op === 'append') {
        if (typeof o[k] === 'string') o[k] += v;
        else if (Array.isArray(o[k])) o[k] = o[k].concat(v);
        else if (o[k] && typeof o[k] === 'object') Object.assign(o[k], v);
        else o[k] = v;
      } else if (op === 'remove') {
        delete o[k];
      } else if (op === 'truncate') {
        if (typeof o[k] === 'string' || Array.isArray(o[k])) o[k] = o[k].slice(0, v);
      } else {
        o[k] = v;
      }
    };
    const seen = (doc) => {
      if (doc.conversation_id && !String(doc.conversation_id).startsWith('WEB:') && !st.conversationId) {
        st.conversationId = doc.conversation_id;
        handlers.onConversation && handlers.onConversation(st.conversationId);
      }
      if (doc.error) handlers.onError && handlers.onError(String(doc.error.message || doc.error));
      const m = doc.message;
      if (!m || !m.id) return;
      const role = m.author && m.author.role;
      const type = m.content && m.content.content_type;
      // This turn's messages: any that streams, and any new one that arrives whole but is not a
      // finished final text (a recap, a preamble, an image answer); a finished final text that
      // arrives whole is an older answer a follow-up re-sends.
      const resent = m.status === 'finished_successfully' && type === 'text' && (!m.channel || m.channel === 'final');
      if (!st.messages.has(m.id) && !resent) st.live.add(m.id);
      st.messages.set(m.id, m);
      if (role !== 'assistant' || !st.live.has(m.id)) return;
      if (type === 'reasoning_recap' || type === 'thoughts') {
        if (m.status === 'finished_successfully') handlers.onThought && handlers.onThought(m);
        else handlers.onThinking && handlers.onThinking(m);
        return;
      }
      if (m.channel === 'commentary' && type === 'text') {
        const said = m.content.parts && m.content.parts[0];
        handlers.onCommentary && handlers.onCommentary(m.id, typeof said === 'string' ? said : '', (m.metadata && m.metadata.model_slug) || '');
        return;
      }
      if (m.channel && m.channel !== 'final') return;
      if (type !== 'text' && type !== 'multimodal_text') return;
      if (st.answerId !== m.id) {
        st.answerId = m.id;
        handlers.onAnswer && handlers.onAnswer(m.id, (m.metadata && m.metadata.model_slug) || '');
      }
      const part = m.content.parts && m.content.parts[0];
      if (typeof part === 'string') handlers.onText && handlers.onText(part);
      if (m.status === 'finished_successfully' && m.end_turn) st.finished = true;
    };
    const frame = (f) => {
      if (f.type) {
        if (f.conversation_id) seen({ conversation_id: f.conversation_id });
        if (f.type === 'message_stream_complete') st.terminal = true;
        else if (f.type === 'input_message' && f.input_message && f.input_message.id) handlers.onUserMessage && handlers.onUserMessage(f.input_message.id);
        else if (f.type === 'message_marker' && f.marker === 'cot_token') handlers.onThinking && handlers.onThinking(null);
        else if (f.type === 'message_marker' && f.marker === 'final_channel_token') handlers.onThought && handlers.onThought(null);
        else if (f.type === 'stream_handoff') st.handoff = f.options || [];
        return;
      }
      const bare = !('p' in f) && !('o' in f);
      if (bare && f.v && typeof f.v === 'object' && !Array.isArray(f.v) && f.v.message) return apply('', 'add', f.v);
      if (bare && Array.isArray(f.v)) return f.v.forEach((s) => apply(s.p || '', s.o || 'replace', s.v));
      const p = 'p' in f ? f.p : st.lastP;
      const o = 'o' in f ? f.o : ('p' in f ? 'replace' : st.lastO);
      if (o === 'patch') return f.v.forEach((s) => apply(p + (s.p || ''), s.o || 'replace', s.v));
      apply(p, o, f.v);
    };
    const apply = (p, o, v) => {
      st.lastP = p; st.lastO = o;
      if (p === '' && (o === 'add' || o === 'replace')) { st.current = JSON.parse(JSON.stringify(v)); return seen(st.current); }
      if (!st.current || p == null) return;
      setAt(st.current, p, o, v);
      seen(st.current);
    };
    return {
      st,
      event(name, data) {
        const d = data.trim();
        if (d === '[DONE]') { st.terminal = true; return; }
        let j;
        try { j = JSON.parse(d); } catch (e) { return; }
        if (name === 'delta_encoding' || typeof j !== 'object' || j === null) return;
        if ('p' in j || 'o' in j || 'v' in j || j.type) frame(j);
        else seen(j); // cumulative: the whole message
      },
      complete() { return st.finished && st.terminal; },
    };
  }

  /** Reads one body into the turn; resolves 'complete', 'ended' (no terminal) or 'silent'. */
  async function readBody(response, parser, turn, ctl, silenceMs) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let reading = null; // a read outlives a silence: its bytes must not be lost
    for (;;) {
      let timer;
      const silence = new Promise((r) => { timer = setTimeout(() => r('silent'), silenceMs()); });
      if (!reading) reading = reader.read();
      const next = await Promise.race([reading, silence]);
      clearTimeout(timer);
      if (next !== 'silent') reading = null;
      if (next === 'silent') { if (!turn.st.answerId || turn.st.handoff) continue; ctl.abort(); return 'silent'; }
      if (next.done) { parser.push(decoder.decode()); parser.end(); return turn.complete() ? 'complete' : 'ended'; }
      parser.push(decoder.decode(next.value, { stream: true }));
      if (turn.complete() || turn.st.handoff && turn.st.terminal) {
        ctl.abort(); // the real page aborts its own fetch after the terminal frames
        return turn.complete() ? 'complete' : 'ended';
      }
    }
  }

  function followSocket(topic, parser, turn) {
    return new Promise((resolve) => {
      const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/backend-api/ws');
      const ids = new Set();
      ws.onopen = () => ws.send(JSON.stringify({ type: 'subscribe', topic_id: topic }));
      ws.onmessage = (e) => {
        let f; try { f = JSON.parse(e.data); } catch (x) { return; }
        const inner = f.payload && f.payload.payload;
        if (!inner) return;
        if (inner.type === 'done') { parser.end(); ws.close(); resolve(turn.complete() ? 'complete' : 'ended'); return; }
        if (inner.stream_item_id && ids.has(inner.stream_item_id)) return; // a replay
        ids.add(inner.stream_item_id);
        parser.push(inner.encoded_item || '');
      };
      ws.onerror = () => resolve('ended');
    });
  }

  /** The handoff the seat cannot see: the page gets the answer through a channel the tap does not watch. */
  async function followHidden(topic, parser, turn) {
    const r = await fetch('/api/handoff/' + encodeURIComponent(topic));
    const j = await r.json();
    for (const e of j.events || []) parser.push(e);
    parser.end();
    return turn.complete() ? 'complete' : 'ended';
  }

  /**
   * Sends one turn. handlers: onHttpError(status, json), onConversation(id), onUserMessage(id),
   * onCommentary(id, text, slug), onThinking(), onThought(recap), onAnswer(id, slug),
   * onText(wholeTextSoFar), onError(text). Resolves with the outcome:
   * 'complete' | 'ended' | 'stopped' | 'http_error' and the turn's state.
   */
  async function send(request, handlers, opts) {
    const options = opts || {};
    const ctl = new AbortController();
    if (options.stopSignal) options.stopSignal.addEventListener('abort', () => ctl.abort());
    await FakesolWire.beforeSend(request); // wire.js: an immediate /prepare if none went out, the request's fields
    let r;
    try {
      r = await fetch('/backend-api/f/conversation', { method: 'POST', signal: ctl.signal,
        headers: Object.assign({ 'content-type': 'application/json', accept: 'text/event-stream' }, turnTrace('s', true)),
        body: JSON.stringify(request) });
    } catch (e) {
      return { outcome: 'stopped', state: null };
    }
    if (options.onResponse) await options.onResponse(r);
    if (!r.ok) {
      let j = null; try { j = await r.json(); } catch (e) { j = null; }
      handlers.onHttpError && handlers.onHttpError(r.status, j);
      return { outcome: 'http_error', state: null };
    }
    const turn = turnState(handlers);
    let parser = sseParser((n, d) => turn.event(n, d));
    let outcome;
    try {
      const silenceMs = () => (options.silenceMs && options.silenceMs()) || SILENCE_MS;
      outcome = await readBody(r, parser, turn, ctl, silenceMs);
      for (let tries = 0; outcome === 'silent' && tries < 12; tries++) {
        const resumeCtl = new AbortController();
        if (options.stopSignal) options.stopSignal.addEventListener('abort', () => resumeCtl.abort());
        const rr = await fetch('/backend-api/f/conversation/resume', { method: 'POST', signal: resumeCtl.signal,
          headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
          body: JSON.stringify({ conversation_id: turn.st.conversationId }) });
        if (!rr.ok) { outcome = 'ended'; break; }
        parser = sseParser((n, d) => turn.event(n, d));
        outcome = await readBody(rr, parser, turn, resumeCtl, silenceMs);
      }
      if (outcome !== 'complete' && turn.st.handoff && turn.st.handoff.length) {
        const topic = turn.st.handoff[0].topic_id;
        parser = sseParser((n, d) => turn.event(n, d));
        outcome = (typeof options.hiddenHandoff === 'function' ? options.hiddenHandoff() : options.hiddenHandoff)
          ? await followHidden(topic, parser, turn) : await followSocket(topic, parser, turn);
      }
    } catch (e) {
      outcome = options.stopSignal && options.stopSignal.aborted ? 'stopped' : 'ended';
    }
    return { outcome, state: turn.st };
  }

  /** Splits markdown into prose and fenced blocks, the way the real page renders it. */
  function render(markdown) {
    const lines = markdown.replace(/\r\n/g, '\n').split('\n');
    const blocks = [];
    const prose = [];
    for (let i = 0; i < lines.length; i++) {
      const open = lines[i].match(/^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/);
      if (!open) { prose.push(lines[i]); continue; }
      const fence = open[1];
      const body = [];
      i++;
      while (i < lines.length && !new RegExp('^ {0,3}' + fence[0] + '{' + fence.length + ',}\\s*$').test(lines[i])) body.push(lines[i++]);
      const lang = open[2] || '';
      blocks.push({ lang, label: lang.toUpperCase(), code: body.join('\n') });
    }
    return { prose: prose.join('\n').replace(/\n{3,}/g, '\n\n').trim(), blocks, markdown };
  }

  return { send, render, sseParser, turnState };
})();
