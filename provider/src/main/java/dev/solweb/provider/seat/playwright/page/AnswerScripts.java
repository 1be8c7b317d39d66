package dev.solweb.provider.seat.playwright.page;

/**
 * The JavaScript that reads an answer back from the DOM, by {@link Controls#REPLY}'s strategies:
 * its code blocks and prose (and the markdown they make), where its Copy is, its images. Only the
 * answer's own bodies are read: never its turn's prompt, role label, status lines or thinking.
 */
final class AnswerScripts {

  private AnswerScripts() {}

  private static final String HELPERS = PageScripts.COMMON + PageScripts.FIND;

  /**
   * The code blocks, their languages, the prose and the markdown of one message's turn. Section
   * and turn-key bodies (REAL-PAGE rows 4, 13): only OUTERMOST pres are blocks (mid-2026 pages nest
   * pre.cm-content inside the block's pre); a CodeMirror body is read as the editor lays it out
   * (.cm-line divs, text with a br per line break, or pre.cm-content > code); the language is the
   * header's label. DIL bodies (row 14): a [data-markdown-copy=code-block]'s code is its
   * {@code <code>}'s text exactly, its language the text of its [data-markdown-copy=exclude]
   * header without the buttons; titles and texts are the prose.
   */
  static final String DOM_BLOCKS = """
      ([id, c]) => {
      """ + HELPERS + """
        const hit = lookup(c, id);
        if (!hit) return null;
        const turn = turnOf(hit.r, hit.el);
        const readable = (m) => {
          const b = bodyOf(hit.r, m);
          if (!b || !hit.r.drop) return b;
          const clone = b.cloneNode(true);
          clone.querySelectorAll(hit.r.drop).forEach((x) => x.remove());
          return clone;
        };
        const bodies = Array.from(turn.querySelectorAll(hit.r.message)).filter(shown).map(readable).filter(Boolean);
        const lines = (el) => {
          const cmLines = el.querySelectorAll('.cm-line');
          if (cmLines.length) return Array.from(cmLines, (l) => l.textContent).join('\\n');
          let out = '';
          const walk = (node) => {
            for (const k of node.childNodes) {
              if (k.nodeType === Node.TEXT_NODE) out += k.textContent;
              else if (k.nodeName === 'BR') out += '\\n';
              else walk(k);
            }
          };
          walk(el);
          return out.replace(/\\n$/, '');
        };
        const labelOf = (el, drop) => {
          const clone = el.cloneNode(true);
          clone.querySelectorAll(drop).forEach((x) => x.remove());
          return (clone.textContent || '').replace(/\\s+/g, ' ').trim();
        };
        const blocks = [];
        const langs = [];
        const md = [];
        const prose = [];
        const block = (code, label) => {
          const lang = label.toLowerCase().replace(/\\s+/g, '');
          let n = 3;
          for (const run of code.match(/`+/g) || []) n = Math.max(n, run.length + 1);
          const f = '`'.repeat(n);
          blocks.push(code);
          langs.push(lang);
          md.push(f + lang + '\\n' + code + '\\n' + f);
        };
        const text = (t, mark) => {
          const s = (t || '').trim();
          if (!s) return;
          prose.push(s);
          md.push((mark || '') + s);
        };
        const dil = (node) => {
          for (const el of node.children) {
            if (el.matches('[data-markdown-copy="code-block"]')) {
              const header = el.querySelector('[data-markdown-copy="exclude"]');
              const code = el.querySelector('code') || el.querySelector('pre') || el;
              block(code.textContent, header ? labelOf(header, 'button, svg') : '');
            } else if (el.matches('[data-d-component="title"]')) {
              const h = el.querySelector('h1, h2, h3, h4, h5, h6');
              text(el.innerText, '#'.repeat(h ? Number(h.tagName[1]) : 3) + ' ');
            } else if (el.matches('[data-markdown-copy="exclude"], button, svg')) {
              continue;
            } else if (el.matches('[data-d-component="text"]') || !el.children.length) {
              text(el.innerText);
            } else {
              dil(el);
            }
          }
        };
        const markdownBody = (body) => {
          const outer = (pre) => !(pre.parentElement && pre.parentElement.closest('pre'));
          const walk = (node) => {
            for (const el of node.children) {
              if (el.matches('[data-markdown-copy="code-block"]')) {
                // Row 37: a finished block in a visible window is an editor ([role=textbox][data-language]).
                const editor = el.querySelector('[data-language]');
                const header = el.querySelector('[data-markdown-copy="exclude"]');
                const code = editor ? lines(editor) : (el.querySelector('code') || el).textContent;
                block(code, editor ? editor.getAttribute('data-language') : header ? labelOf(header, 'button, svg') : '');
              } else if (el.tagName === 'PRE' && outer(el)) {
                const cm = el.querySelector('.cm-content');
                const code = cm ? (cm.querySelector(':scope > code') || cm) : (el.querySelector('code') || el);
                block(lines(code), labelOf(el, '.cm-editor, #code-block-viewer, code, button, svg, .cm-content'));
              } else if (el.querySelector('pre, [data-markdown-copy="code-block"]')) {
                walk(el);
              } else {
                const t = (el.innerText || '').trim();
                if (t) md.push(t);
              }
            }
          };
          walk(body);
          const clone = body.cloneNode(true);
          clone.querySelectorAll('pre, [data-markdown-copy="code-block"]').forEach((p) => p.remove());
          const t = clone.innerText.trim();
          if (t) prose.push(t);
        };
        for (const body of bodies) {
          if (hit.r.via === 'dil') dil(body); else markdownBody(body);
        }
        return { blocks, langs, prose: prose.join(hit.r.via === 'dil' ? '\\n\\n' : '\\n').trim(), markdown: md.join('\\n\\n') };
      }
      """;

  /**
   * The answer turn's Copy aimed at in one step (REAL-PAGE row 60: the turn may have remounted since
   * the last read): the button found again in the message's turn, scrolled into view, and its centre
   * with whether the pointer reaches it there (the bar takes the pointer only while its turn is
   * hovered); {@code focus} focuses it instead, for the keyboard. Null without the message or its Copy.
   */
  static final String COPY_AIM = """
      ([id, c, focus]) => {
      """ + HELPERS + """
        const hit = lookup(c, id);
        if (!hit) return null;
        const found = find(c.copy, turnOf(hit.r, hit.el), true);
        if (!found) return null;
        const b = found.el;
        let r = b.getBoundingClientRect();
        if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) {
          b.scrollIntoView({ block: 'center', inline: 'center' });
          r = b.getBoundingClientRect();
        }
        if (focus) {
          b.focus({ preventScroll: true });
          return { focused: document.activeElement === b };
        }
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        const at = document.elementFromPoint(x, y);
        return { x, y, reached: !!at && (at === b || b.contains(at)) };
      }
      """;

  /**
   * Where the last answer's Regenerate is: that answer's turn ({@code {css, index}}, to hover) and
   * the button ({@code {via, css, index}}) inside it, in any visibility (the bar shows on hover);
   * null when the page shows no answer or its turn no such button.
   */
  static final String REGENERATE_TARGET = """
      ([c]) => {
      """ + HELPERS + """
        const { r, msgs } = replies(c);
        if (!msgs.length) return null;
        const turn = turnOf(r, msgs[msgs.length - 1].el);
        const css = turnCss(r, turn);
        const index = css ? Array.from(document.querySelectorAll(css)).indexOf(turn) : -1;
        const button = find(c.regenerate, turn, true);
        return index < 0 || !button ? null : { turn: { css, index }, button: plain(button) };
      }
      """;

  /** Whether the page shows a message with this id, by any reply strategy. */
  static final String HAS_MESSAGE = """
      ([id, c]) => {
      """ + HELPERS + """
        return !!lookup(c, id);
      }
      """;

  /** The images of one message's turn, from the page's file service, deduplicated by file id. */
  static final String IMAGES = """
      ([id, c, imgSel]) => {
      """ + HELPERS + """
        const hit = lookup(c, id);
        if (!hit) return [];
        const turn = turnOf(hit.r, hit.el);
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
}
