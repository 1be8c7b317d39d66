package dev.solweb.provider.seat.playwright.page;

/**
 * The JavaScript the seat runs in the ChatGPT page, one observation each, kept apart from the
 * Java that calls them (ChatGptPage). Every selector they use comes in as an argument from
 * {@link ChatGptPage}, so a drift is fixed in one place.
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
  private static final String COMMON = """
        const visible = (el) => !!el && !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
        const firstText = (el) => {
          const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          let n;
          while ((n = w.nextNode())) { const t = n.textContent.replace(/\\s+/g, ' ').trim(); if (t) return t; }
          return '';
        };
        const fullText = (el) => (el.innerText || el.textContent || '').replace(/\\s+/g, ' ').trim();
      """;

  /** The page's state in one round trip; see ChatGptPage.State. */
  static final String SNAPSHOT = """
      ([baseline, sel]) => {
      """ + COMMON + """
        const think = new RegExp(sel.thinking, 'i');
        const thinkingIn = (root) => {
          if (!root) return false;
          if (root.matches('[aria-busy="true"]') || Array.from(root.querySelectorAll(sel.busy)).some(visible)) return true;
          for (const el of root.querySelectorAll('span, div, button, p, h2, h3, h4')) {
            if (el.children.length === 0 && el.closest('pre') === null && visible(el)
                && think.test((el.textContent || '').trim())) return true;
          }
          return false;
        };
        const composer = document.querySelector(sel.composer);
        const stopEl = document.querySelector(sel.stop)
          || Array.from(document.querySelectorAll('form button[aria-label^="Stop"]')).find(b => !/dictat|voice|read aloud|listen/i.test(b.getAttribute('aria-label') || ''));
        const send = document.querySelector(sel.send);
        const base = new Set(baseline);
        const all = Array.from(document.querySelectorAll(sel.assistant));
        const fresh = all.filter(m => !base.has(m.getAttribute('data-message-id')));
        const out = {
          url: location.href, title: document.title, settled: !!window.__solwebSettled,
          composer: visible(composer), stop: visible(stopEl),
          sendEnabled: visible(send) && !send.disabled && send.getAttribute('aria-disabled') !== 'true',
          login: visible(document.querySelector(sel.login)),
          // "Verify you are human" only counts on a short page without a composer: reading a long
          // conversation's whole text every poll would cost more than the poll.
          challenge: /just a moment|attention required/i.test(document.title)
            || !!document.querySelector('#challenge-form, iframe[src*="challenges.cloudflare.com"]')
            || (!composer && !!document.body && document.body.textContent.length < 5000
                && /verify you are human/i.test(document.body.textContent)),
          turns: document.querySelectorAll(sel.turn).length,
          assistantIds: all.map(m => m.getAttribute('data-message-id')),
          targetId: null, targetText: null, targetSlug: null, actionBar: false, thinking: false, banners: [],
        };
        if (fresh.length) {
          const last = fresh[fresh.length - 1];
          const turn = last.closest(sel.turn) || last.parentElement;
          const msgs = Array.from(turn.querySelectorAll(sel.assistant));
          out.targetId = last.getAttribute('data-message-id');
          out.targetSlug = last.getAttribute('data-message-model-slug');
          out.targetText = msgs.map(m => { const md = m.querySelector('.markdown'); return md ? md.innerText : ''; }).join('\\n');
          out.actionBar = visible(turn.querySelector(sel.copyTurn));
          out.thinking = thinkingIn(turn);
        }
        out.thinking = out.thinking || Array.from(document.querySelectorAll('form button, #thread-bottom-container button'))
          .some(b => visible(b) && think.test(fullText(b)));
        const seen = new Set();
        for (const el of document.querySelectorAll(sel.banner)) {
          if (!visible(el)) continue;
          const t = (el.innerText || '').trim();
          if (t && t.length < 2000 && !seen.has(t)) { seen.add(t); out.banners.push(t); }
        }
        return out;
      }
      """;

  /** ProseMirror holds one <p> per line; its text is what Send submits. */
  static final String COMPOSER_TEXT = """
      (sel) => {
        const el = document.querySelector(sel);
        if (!el) return null;
        const ps = el.querySelectorAll(':scope > p');
        if (ps.length) return Array.from(ps, p => p.textContent).join('\\n');
        return el.innerText;
      }
      """;

  /**
   * The code blocks and the prose of one message's turn, from the DOM. Only OUTERMOST pres are
   * blocks: mid-2026 pages nest pre.cm-content inside the block's pre. A CodeMirror body is read
   * as the editor lays it out: .cm-line divs (older fakesol), or text with a br per line break
   * (March 2026), or pre.cm-content > code (July 2026).
   */
  static final String DOM_BLOCKS = """
      ([id, turnSel]) => {
        const msg = document.querySelector('[data-message-id="' + CSS.escape(id) + '"]');
        if (!msg) return null;
        const turn = msg.closest(turnSel) || msg;
        const lines = (el) => {
          const cmLines = el.querySelectorAll('.cm-line');
          if (cmLines.length) return Array.from(cmLines, l => l.textContent).join('\\n');
          let out = '';
          const walk = (node) => {
            for (const c of node.childNodes) {
              if (c.nodeType === Node.TEXT_NODE) out += c.textContent;
              else if (c.nodeName === 'BR') out += '\\n';
              else walk(c);
            }
          };
          walk(el);
          return out.replace(/\\n$/, '');
        };
        const blocks = [];
        for (const pre of turn.querySelectorAll('.markdown pre')) {
          if (pre.parentElement && pre.parentElement.closest('pre')) continue; // the inner pre of a block
          const cm = pre.querySelector('.cm-content');
          const body = cm ? (cm.querySelector(':scope > code') || cm) : (pre.querySelector('code') || pre);
          blocks.push(lines(body));
        }
        const prose = Array.from(turn.querySelectorAll('.markdown')).map(md => {
          const clone = md.cloneNode(true);
          clone.querySelectorAll('pre').forEach(p => p.remove());
          return clone.innerText;
        }).join('\\n').trim();
        return { blocks, prose };
      }
      """;

  /** What the open menus hold: radio rows, submenu openers, a slider. Reads only. */
  static final String MENU = """
      (sel) => {
      """ + COMMON + """
        const radios = Array.from(document.querySelectorAll(sel.radio), (r, index) => ({
          index, first: firstText(r), full: fullText(r),
          checked: r.getAttribute('aria-checked') === 'true' || r.getAttribute('data-state') === 'checked' }));
        const openers = Array.from(document.querySelectorAll(sel.opener), (o, index) => ({
          index, text: firstText(o), effort: o.hasAttribute('data-model-picker-thinking-effort-action'),
          expanded: o.getAttribute('aria-expanded') === 'true' || o.getAttribute('data-state') === 'open' }));
        const s = document.querySelector(sel.slider);
        const slider = s ? { text: s.getAttribute('aria-valuetext') || firstText(s),
          now: Number(s.getAttribute('aria-valuenow')), min: Number(s.getAttribute('aria-valuemin')),
          max: Number(s.getAttribute('aria-valuemax')) } : null;
        return { open: document.querySelectorAll(sel.menu).length, radios, openers, slider };
      }
      """;

  /** The effort pill's label (first text and all of it), or null without a pill. */
  static final String PILL = """
      (sel) => {
      """ + COMMON + """
        const pill = Array.from(document.querySelectorAll(sel)).find(visible);
        return pill ? { first: firstText(pill), full: fullText(pill) } : null;
      }
      """;

  /** Conversation links the page lists (its history sidebar): a new chat shows up here first. */
  static final String CONVERSATION_LINKS = """
      (sel) => Array.from(document.querySelectorAll(sel), a => a.href)
      """;

  /** The images of one message's turn, from the page's file service, deduplicated by file id. */
  static final String IMAGES = """
      ([id, turnSel, imgSel]) => {
        const m = document.querySelector('[data-message-author-role="assistant"][data-message-id="' + CSS.escape(id) + '"]');
        if (!m) return [];
        const turn = m.closest(turnSel) || m;
        const out = [];
        const seen = new Set();
        for (const img of turn.querySelectorAll(imgSel)) {
          const url = img.currentSrc || img.src;
          if (!url) continue;
          let fileId = null;
          try { fileId = new URL(url, location.href).searchParams.get('id'); } catch (e) { fileId = null; }
          const key = fileId || url;
          if (seen.has(key)) continue;
          seen.add(key);
          out.push({ url, fileId });
        }
        return out;
      }
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
          return { known: true, email: (j && j.user && (j.user.email || j.user.name)) || null };
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
