package dev.solweb.provider.seat.playwright.page;

/**
 * The JavaScript the seat runs in the ChatGPT page, one observation each, kept apart from the
 * Java that calls them (ChatGptPage). Every selector they use comes in as an argument from
 * {@link ChatGptPage} and {@link Controls}, so a drift is fixed in one place. Reading an answer
 * back is in {@link AnswerScripts}, the effort menus in {@link MenuScripts}.
 */
public final class PageScripts {

  private PageScripts() {}

  /**
   * Installed in every document: while armed, the page's own clipboard writes (its Copy buttons)
   * land in a variable instead of the OS clipboard, so the copy button yields the raw markdown.
   */
  public static final String INIT = """
      (() => {
        const cb = navigator.clipboard;
        if (!cb || cb.__solweb) return;
        const writeText = cb.writeText ? cb.writeText.bind(cb) : null;
        const write = cb.write ? cb.write.bind(cb) : null;
        cb.writeText = function (t) {
          if (window.__solwebArmed) { window.__solwebCopied = String(t); return Promise.resolve(); }
          return writeText(t);
        };
        cb.write = async function (items) {
          if (window.__solwebArmed) {
            for (const it of items) {
              if (it.types.includes('text/plain')) {
                window.__solwebCopied = await (await it.getType('text/plain')).text();
                return;
              }
            }
            return;
          }
          return write(items);
        };
        cb.__solweb = true;
      })();
      """;

  /** Helpers every observation shares (prepended to the scripts below). */
  static final String COMMON = """
        const visible = (el) => !!el && !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
        const firstText = (el) => {
          const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          let n;
          while ((n = w.nextNode())) { const t = n.textContent.replace(/\\s+/g, ' ').trim(); if (t) return t; }
          return '';
        };
        const fullText = (el) => (el.innerText || el.textContent || '').replace(/\\s+/g, ' ').trim();
      """;

  /**
   * Finding controls by {@link Controls}' strategies, and answer messages by its reply
   * strategies (prepended after {@link #COMMON}). {@code find} returns the first strategy with an
   * element (visible, unless asked otherwise) of one of its names, and that element's index among
   * ALL of its selector's matches, for Playwright's {@code locator(css).nth(index)}.
   */
  static final String FIND = """
        const norm = (s) => (s || '').replace(/\\s+/g, ' ').trim().toLowerCase();
        const nameOf = (el) => el.getAttribute('aria-label') || el.innerText || el.textContent || '';
        const find = (strategies, root, anyVisibility) => {
          for (const s of strategies) {
            const names = s.names.map(norm);
            const all = Array.from(document.querySelectorAll(s.css));
            for (let i = 0; i < all.length; i++) {
              const el = all[i];
              if (root && !root.contains(el)) continue;
              if (!anyVisibility && !visible(el)) continue;
              if (names.length && !names.includes(norm(nameOf(el)))) continue;
              return { via: s.via, css: s.css, index: i, el };
            }
          }
          return null;
        };
        const plain = (f) => (f ? { via: f.via, css: f.css, index: f.index } : null);
        const idOf = (r, m) => {
          const holder = r.idOn ? m.closest(r.idOn) : m;
          const v = holder && holder.getAttribute(r.idAttr);
          if (!v) return null;
          const ids = v.split(',').map((x) => x.trim()).filter(Boolean);
          if (!ids.length) return null;
          if (!r.idOn) return ids[ids.length - 1];
          // A unit lists its messages' ids in order: the k-th body is the k-th id.
          const k = Array.from(holder.querySelectorAll(r.message)).indexOf(m);
          return ids[Math.min(Math.max(k, 0), ids.length - 1)];
        };
        const bodyOf = (r, m) => (r.body === ':scope' ? m : m.querySelector(r.body));
        const replies = (sel) => {
          for (const r of sel.reply) {
            const msgs = Array.from(document.querySelectorAll(r.message), (el) => ({ el, id: idOf(r, el) })).filter((x) => x.id);
            if (msgs.length) return { r, msgs };
          }
          return { r: null, msgs: [] };
        };
        const lookup = (sel, id) => {
          for (const r of sel.reply) {
            for (const el of document.querySelectorAll(r.message)) if (idOf(r, el) === id) return { r, el };
          }
          return null;
        };
        const turnOf = (r, el) => el.closest(r.turn) || el.parentElement;
      """;

  /** Finds one control by its strategies: {@code {via, css, index}} or null. */
  static final String FIND_CONTROL = """
      ([strategies, anyVisibility]) => {
      """ + COMMON + FIND + """
        return plain(find(strategies, null, anyVisibility));
      }
      """;

  /**
   * The page's state in one round trip; see ChatGptPage.State. The answer is the newest message
   * of the first reply strategy with any, not in {@code baseline}; its text is its turn's answer
   * bodies only (never the prompt, the role label or a status line beside the answer); thinking
   * is looked for in its turn, or in the newest assistant turn while no answer message exists yet.
   */
  static final String SNAPSHOT = """
      ([baseline, sel, c]) => {
      """ + COMMON + FIND + """
        const think = new RegExp(sel.thinking, 'i');
        const thinkingIn = (root) => {
          if (!root) return false;
          if (root.matches('[aria-busy="true"]') || Array.from(root.querySelectorAll(sel.busy)).some(visible)) return true;
          if (Array.from(root.querySelectorAll('[data-streaming-response-status]')).some((s) => visible(s) && fullText(s))) return true;
          for (const el of root.querySelectorAll('span, div, button, p, h2, h3, h4')) {
            if (el.children.length === 0 && el.closest('pre') === null && visible(el)
                && think.test((el.textContent || '').trim())) return true;
          }
          return false;
        };
        const composer = find(c.composer);
        const stop = find(c.stop.filter((s) => s.via !== c.weakStop));
        const send = find(c.send);
        const base = new Set(baseline);
        const { r, msgs } = replies(c);
        const fresh = msgs.filter((m) => !base.has(m.id));
        const out = {
          url: location.href, title: document.title, settled: !!window.__solwebSettled,
          composer: !!composer, stop: !!stop,
          sendEnabled: !!send && !send.el.disabled && send.el.getAttribute('aria-disabled') !== 'true',
          login: visible(document.querySelector(sel.login)),
          // "Verify you are human" only counts on a short page without a composer: reading a long
          // conversation's whole text every poll would cost more than the poll.
          challenge: /just a moment|attention required/i.test(document.title)
            || !!document.querySelector('#challenge-form, iframe[src*="challenges.cloudflare.com"]')
            || (!composer && !!document.body && document.body.textContent.length < 5000
                && /verify you are human/i.test(document.body.textContent)),
          turns: document.querySelectorAll(c.turns).length,
          assistantIds: msgs.map((m) => m.id),
          targetId: null, targetText: null, targetSlug: null, actionBar: false, thinking: false, banners: [],
          via: { composer: composer && composer.via, send: send && send.via, stop: stop && stop.via, reply: null },
        };
        let target = null;
        if (fresh.length) {
          const last = fresh[fresh.length - 1];
          const turn = turnOf(r, last.el);
          target = turn;
          out.targetId = last.id;
          out.targetSlug = last.el.getAttribute('data-message-model-slug');
          out.targetText = Array.from(turn.querySelectorAll(r.message), (m) => { const b = bodyOf(r, m); return b ? b.innerText : ''; })
            .join('\\n');
          out.actionBar = !!find(c.copy, turn);
          out.thinking = thinkingIn(turn);
          out.via.reply = r.via;
        } else {
          const units = document.querySelectorAll('[data-chatgpt-search-unit-key$=":1:assistant"], section[data-turn="assistant"]');
          out.thinking = units.length > 0 && thinkingIn(units[units.length - 1]);
        }
        out.thinking = out.thinking || Array.from(document.querySelectorAll('form button, #thread-bottom-container button'))
          .some((b) => visible(b) && think.test(fullText(b)));
        // A banner inside the thread counts only in the answer's own turn: an older turn's error or
        // question ("Waiting for your answer", REAL-PAGE row 29) is history, not this turn's fault.
        const units = '[data-turn-key], [data-talvt-turn-state], ' + c.turns;
        const seen = new Set();
        for (const el of document.querySelectorAll(sel.banner)) {
          if (!visible(el)) continue;
          if (el.closest(units) && !(target && target.contains(el))) continue;
          const t = (el.innerText || '').trim();
          if (t && t.length < 2000 && !seen.has(t)) { seen.add(t); out.banners.push(t); }
        }
        return out;
      }
      """;

  /** ProseMirror holds one <p> per line; its text is what Send submits. Null without a composer. */
  static final String COMPOSER_TEXT = """
      (strategies) => {
      """ + COMMON + FIND + """
        const f = find(strategies);
        if (!f) return null;
        const ps = f.el.querySelectorAll(':scope > p');
        if (ps.length) return Array.from(ps, (p) => p.textContent).join('\\n');
        return f.el.innerText;
      }
      """;

  /** The effort pill's label (first text and all of it) and how it was found, or null without a pill. */
  static final String PILL = """
      (strategies) => {
      """ + COMMON + FIND + """
        const f = find(strategies);
        return f ? { first: firstText(f.el), full: fullText(f.el), via: f.via } : null;
      }
      """;

  /**
   * For the doctor: each of the composer, Send and Stop found in any visibility (found versus
   * shown), which strategy found it, and whether the composer is editable and empty.
   */
  static final String CONTROLS_FOUND = """
      ([composer, send, stop]) => {
      """ + COMMON + FIND + """
        const c = find(composer, null, true);
        const s = find(send, null, true);
        const t = find(stop.filter((x) => x.via !== 'structure'), null, true);
        const el = c && c.el;
        const editable = !!el && el.getAttribute('contenteditable') !== 'false'
          && !el.hasAttribute('disabled') && el.getAttribute('aria-disabled') !== 'true'
          && (el.isContentEditable || el.tagName === 'TEXTAREA');
        return {
          composerFound: !!el, composerEditable: editable, composerVia: c && c.via,
          composerEmpty: !el || (el.textContent || el.value || '').trim() === '',
          sendFound: !!s, sendVia: s && s.via, stopFound: !!t, stopVia: t && t.via,
        };
      }
      """;

  /**
   * For the doctor's dom_variant: code blocks as spans and br (March) or pre.cm-content > code
   * (July on, REAL-PAGE row 4); a pill with only data-tone (row 1 (d)); the turn-key thread (row
   * 13); the DIL renderer and the talvt wrapper (row 14); an id-less composer marked
   * data-composer-markdown (rows 15, 27); and the Chat/Work switch's state (row 27).
   */
  static final String SHAPE_MARKS = """
      (pill) => {
      """ + COMMON + FIND + """
        const p = find(pill, null, true);
        const el = p && p.el;
        const modeButton = (names) => Array.from(document.querySelectorAll('button[aria-pressed]'))
          .find((b) => names.includes(norm(nameOf(b))));
        const work = modeButton(['work', 'работа']);
        return {
          spans: !!document.querySelector('div.cm-content:not([contenteditable="true"])') && !document.querySelector('.cm-line'),
          preCode: !!document.querySelector('pre.cm-content > code'),
          toneOnlyPill: !!el && el.hasAttribute('data-tone') && !el.classList.contains('__composer-pill')
            && !el.hasAttribute('aria-label') && !el.hasAttribute('data-testid'),
          turnKey: !!document.querySelector('[data-turn-key]'),
          dil: !!document.querySelector('[data-dil-message-id]'),
          wrapper: !!document.querySelector('[data-talvt-turn-state]'),
          bareComposer: !!document.querySelector('[data-composer-markdown][contenteditable="true"]:not(#prompt-textarea)'),
          mode: work ? (work.getAttribute('aria-pressed') === 'true' ? 'work' : 'chat') : null,
        };
      }
      """;

  /** Conversation links the page lists (its history sidebar): a new chat shows up here first. */
  static final String CONVERSATION_LINKS = """
      (sel) => Array.from(document.querySelectorAll(sel), a => a.href)
      """;

  /** Whether the page's clipboard interception caught a copy, and what. */
  static final String ARM_COPY = "() => { window.__solwebCopied = null; window.__solwebArmed = true; }";
  static final String DISARM_COPY = "() => { window.__solwebArmed = false; }";
  static final String COPIED = "() => window.__solwebCopied";

  static final String SESSION = """
      async () => {
        try {
          const r = await fetch('/api/auth/session', { credentials: 'include' });
          if (!r.ok) return { known: false };
          const j = await r.json();
          return { known: true, email: (j && j.user && (j.user.email || j.user.name)) || null,
                   plan: (j && j.account && typeof j.account.planType === 'string') ? j.account.planType : null };
        } catch (e) { return { known: false }; }
      }
      """;

  /**
   * The centre of a Send button that a click there would reach: enabled, laid out inside the
   * viewport, and the topmost element at that point (the button itself or a child: no overlay).
   * Null when any of that fails, and the caller clicks the slower, checking way.
   */
  static final String SEND_HIT_POINT = """
      (button) => {
        if (button.disabled || button.getAttribute('aria-disabled') === 'true') return null;
        const r = button.getBoundingClientRect();
        if (r.width < 1 || r.height < 1) return null;
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return null;
        const hit = document.elementFromPoint(x, y);
        return hit && (hit === button || button.contains(hit)) ? { x, y } : null;
      }
      """;
}
