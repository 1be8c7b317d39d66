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
   * element a person could use (unless asked for any visibility: the doctor) of one of its names,
   * after its {@code after} anchor and, for a strategy {@code near} an editor, after that editor in
   * its nearest container holding one; and that element's index among ALL of its selector's matches,
   * for Playwright's {@code locator(css).nth(index)} at once. Usable means shown, of non-zero size and
   * reached by the pointer at its centre (REAL-PAGE row 57); one that only the keyboard reaches
   * (covered) is returned, marked {@code covered}, only when no strategy finds a reachable one.
   * Messages are read from the VISIBLE conversation only: a
   * hidden surface of a conversation opened earlier (REAL-PAGE row 39) is never a message.
   */
  static final String FIND = """
        const norm = (s) => (s || '').replace(/\\s+/g, ' ').trim().toLowerCase();
        const nameOf = (el) => el.getAttribute('aria-label') || el.innerText || el.textContent || '';
        const shown = (el) => {
          if (!el) return false;
          if (!el.checkVisibility) return visible(el);
          return el.checkVisibility() || Array.from(el.children).some((k) => k.checkVisibility());
        };
        const anchorOf = (s, root, anyVisibility) => {
          const all = Array.from((root || document).querySelectorAll(s.after)).filter((a) => anyVisibility || visible(a));
          return all.length ? all[all.length - 1] : null;
        };
        // What a person could use (REAL-PAGE row 57): 0 not at all (hidden, or of zero size: a twin
        // editor), 1 covered (the pointer at its centre lands on something else: the keyboard reaches
        // it), 2 reached by the pointer at its centre, or off screen (reached once scrolled to).
        const reach = (el) => {
          if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return 0;
          const r = el.getBoundingClientRect();
          if (r.width < 1 || r.height < 1) return 0;
          const x = r.left + r.width / 2, y = r.top + r.height / 2;
          if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return 2;
          const hit = document.elementFromPoint(x, y);
          return hit && (hit === el || el.contains(hit)) ? 2 : 1;
        };
        const FOLLOWS = Node.DOCUMENT_POSITION_FOLLOWING;
        /** Of {@code hits} after {@code editor}, those in its nearest container that holds any (row 55: a form or not). */
        const nearest = (editor, hits) => {
          for (let box = editor.parentElement; box && box !== document.documentElement; box = box.parentElement) {
            const inBox = hits.filter((h) => box.contains(h.el));
            if (inBox.length) return inBox;
          }
          return [];
        };
        // The first strategy with an element a person can reach wins; one only the keyboard reaches
        // (covered) is taken when no strategy finds a reachable one.
        const find = (strategies, root, anyVisibility) => {
          let covered = null;
          for (const s of strategies) {
            const names = s.names.map(norm);
            const anchor = s.after ? anchorOf(s, root, anyVisibility) : null;
            if (s.after && !anchor) continue;
            const editor = s.near ? find(s.near, null, anyVisibility) : null;
            if (s.near && (!editor || (s.typed && !(editor.el.textContent || '').trim()))) continue;
            const all = Array.from(document.querySelectorAll(s.css));
            let hits = [];
            for (let i = 0; i < all.length; i++) {
              const el = all[i];
              if (root && !root.contains(el)) continue;
              if (!anyVisibility && !visible(el)) continue;
              if (names.length && !names.includes(norm(nameOf(el)))) continue;
              if (anchor && !(anchor.compareDocumentPosition(el) & FOLLOWS)) continue;
              if (editor && (editor.el.contains(el) || !(editor.el.compareDocumentPosition(el) & FOLLOWS))) continue;
              const r = anyVisibility ? 2 : reach(el);
              if (!r) continue;
              hits.push({ via: s.via, css: s.css, index: i, el, covered: r === 1 });
              if (!s.last && !editor && r === 2) break;
            }
            if (editor) hits = nearest(editor.el, hits);
            const ok = hits.filter((h) => !h.covered);
            if (ok.length) return s.last ? ok[ok.length - 1] : ok[0];
            if (!covered && hits.length) covered = s.last ? hits[hits.length - 1] : hits[0];
          }
          return covered;
        };
        const plain = (f) => (f ? { via: f.via, css: f.css, index: f.index, covered: !!f.covered } : null);
        const idsIn = (v) => {
          const t = (v || '').trim();
          if (!t) return [];
          if (t[0] === '[') {
            try { const a = JSON.parse(t); if (Array.isArray(a)) return a.map(String).filter(Boolean); } catch (e) { /* a plain list */ }
          }
          return t.split(/[\\s,]+/).filter(Boolean);
        };
        const idOf = (r, m) => {
          for (const k of r.ids) {
            const holder = k.on ? m.closest(k.on) : m;
            const ids = holder ? idsIn(holder.getAttribute(k.attr)) : [];
            if (!ids.length) continue;
            if (holder === m) return ids[ids.length - 1];
            // A unit lists its messages' ids in order, a thinking record's first: the k-th of its
            // bodies, counted from the end, is the k-th id from the end.
            const bodies = Array.from(holder.querySelectorAll(r.message));
            const at = ids.length - bodies.length + bodies.indexOf(m);
            return ids[Math.min(Math.max(at, 0), ids.length - 1)];
          }
          return null;
        };
        const bodyOf = (r, m) => (r.body === ':scope' ? m : m.querySelector(r.body));
        const textOf = (r, m) => {
          const b = bodyOf(r, m);
          if (!b) return '';
          if (!r.drop) return b.innerText;
          const clone = b.cloneNode(true);
          clone.querySelectorAll(r.drop).forEach((x) => x.remove());
          return clone.textContent;
        };
        // A unit read whole (the last, role-only strategy) is a message once it holds answer text:
        // right after Send it holds only a thinking status (REAL-PAGE row 29).
        const messages = (r) => Array.from(document.querySelectorAll(r.message))
          .filter((el) => shown(el) && (!r.drop || textOf(r, el).trim() !== ''))
          .map((el) => ({ el, id: idOf(r, el) })).filter((x) => x.id);
        const replies = (sel) => {
          for (const r of sel.reply) {
            const msgs = messages(r);
            if (msgs.length) return { r, msgs };
          }
          return { r: null, msgs: [] };
        };
        const lookup = (sel, id) => {
          for (const r of sel.reply) {
            for (const m of messages(r)) if (m.id === id) return { r, el: m.el };
          }
          return null;
        };
        const turnOf = (r, el) => {
          for (const t of r.turn) { const hit = el.closest(t); if (hit) return hit; }
          return el.parentElement;
        };
        const turnCss = (r, turn) => r.turn.find((t) => turn.matches(t)) || null;
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
        // A status line is live work only with a live marker: its state names work in progress, it
        // holds a shimmer or aria-busy, or it reads a live-work label. A finished summary ("Thought
        // for 8 s", in any language) under the same attribute is not.
        const liveState = /think|reason|stream|progress|generat|running|pending|active|busy|live/i;
        const liveStatus = (s) => visible(s) && !!fullText(s) && (liveState.test(s.getAttribute(sel.statusAttr) || '')
          || !!s.querySelector(sel.busy) || think.test(fullText(s)));
        const thinkingIn = (root) => {
          if (!root) return false;
          if (root.matches('[aria-busy="true"]') || Array.from(root.querySelectorAll(sel.busy)).some(visible)) return true;
          if (Array.from(root.querySelectorAll('[' + sel.statusAttr + ']')).some(liveStatus)) return true;
          for (const el of root.querySelectorAll('span, div, button, p, h2, h3, h4')) {
            if (el.children.length === 0 && el.closest('pre') === null && el.closest(c.userUnit) === null
                && el.closest('[data-user-message-bubble]') === null && visible(el)
                && think.test((el.textContent || '').trim())) return true;
          }
          return false;
        };
        const composer = find(c.composer);
        const stop = find(c.stop.filter((s) => !c.weakStop.includes(s.via)));
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
          turns: Array.from(document.querySelectorAll(c.turns)).filter(shown).length
            || Array.from(document.querySelectorAll(c.exchanges)).filter(shown).length,
          modals: Array.from(document.querySelectorAll(sel.modal)).filter(visible).map((m) => fullText(m) || m.id || 'modal'),
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
          out.targetText = Array.from(turn.querySelectorAll(r.message)).filter(shown).map((m) => textOf(r, m)).join('\\n');
          out.actionBar = !!find(c.copy, turn);
          out.thinking = thinkingIn(turn);
          out.via.reply = r.via;
        } else {
          const units = Array.from(document.querySelectorAll(c.assistantUnit + ', section[data-turn="assistant"]')).filter(shown);
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

  /** The effort pill's label (first text and all of it), its data-selected-reasoning-effort and how it was found, or null without a pill. */
  static final String PILL = """
      (strategies) => {
      """ + COMMON + FIND + """
        const f = find(strategies);
        if (!f) return null;
        const holder = f.el.closest('[data-selected-reasoning-effort]') || f.el.querySelector('[data-selected-reasoning-effort]');
        return { first: firstText(f.el), full: fullText(f.el), via: f.via,
          attr: holder ? holder.getAttribute('data-selected-reasoning-effort') : null };
      }
      """;

  /**
   * For the doctor: each of the composer, Send and Stop found in any visibility (found versus
   * shown), which strategy found it, and whether the composer is editable and empty.
   */
  static final String CONTROLS_FOUND = """
      ([composer, send, stop, weak]) => {
      """ + COMMON + FIND + """
        const c = find(composer, null, true);
        const s = find(send, null, true);
        const t = find(stop.filter((x) => !weak.includes(x.via)), null, true);
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

  /** Conversation links and link-less rows the page lists (its history sidebar, row 38): a new chat shows up here first. */
  static final String CONVERSATION_LINKS = """
      ([links, rows, key]) => ({
        hrefs: Array.from(document.querySelectorAll(links), (a) => a.href),
        keys: Array.from(document.querySelectorAll(rows), (r) => r.getAttribute(key) || ''),
      })
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
   * Finds a control by its strategies and aims at it in the same step ({@link PersonInput}): its
   * centre when the pointer reaches it there (scrolled into view first when it is off screen), else
   * it is focused for the keyboard ({@code focused}); with {@code enabled}, and its {@code css} and
   * {@code index} for a checking click at once. Null when nothing is found.
   */
  static final String AIM = """
      ([strategies]) => {
      """ + COMMON + FIND + """
        const f = find(strategies);
        if (!f) return null;
        const el = f.el;
        const out = { via: f.via, css: f.css, index: f.index,
          enabled: !el.disabled && el.getAttribute('aria-disabled') !== 'true' };
        let r = el.getBoundingClientRect();
        if (r.left + r.width / 2 < 0 || r.top + r.height / 2 < 0 || r.left + r.width / 2 >= innerWidth
            || r.top + r.height / 2 >= innerHeight) {
          el.scrollIntoView({ block: 'center', inline: 'center' });
          r = el.getBoundingClientRect();
        }
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        const hit = document.elementFromPoint(x, y);
        if (hit && (hit === el || el.contains(hit))) return Object.assign(out, { x, y });
        el.focus({ preventScroll: true });
        return Object.assign(out, { focused: document.activeElement === el || el.contains(document.activeElement) });
      }
      """;
}
