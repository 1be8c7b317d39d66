package dev.solweb.provider.seat.playwright.page;

/** The JavaScript that reads the effort control's open menus and the Chat/Work switch; it clicks nothing. */
final class MenuScripts {

  private MenuScripts() {}

  /**
   * What the open menus hold: radio rows (disabled ones marked: a capped tier, REAL-PAGE row 21;
   * each with the run of adjacent radios it sits in, for {@link LadderRun}),
   * submenu openers, a slider (its label from aria-valuetext, else its status text before the
   * comma, "High, 3 of 5." of row 26; its value; whether it takes focus itself or through its
   * menuitem, row 26's aria-hidden slider), and any tooltip showing.
   */
  static final String MENU = """
      (sel) => {
      """ + PageScripts.COMMON + """
        // run: radios that are adjacent siblings share one (a separator or a menuitem between starts another).
        let run = -1;
        const radios = Array.from(document.querySelectorAll(sel.radio), (r, index) => ({
          index, first: firstText(r), full: fullText(r),
          run: r.previousElementSibling && r.previousElementSibling.getAttribute('role') === 'menuitemradio' ? run : ++run,
          checked: r.getAttribute('aria-checked') === 'true' || r.getAttribute('data-state') === 'checked',
          disabled: r.getAttribute('aria-disabled') === 'true' || r.hasAttribute('data-disabled') }));
        const openers = Array.from(document.querySelectorAll(sel.opener), (o, index) => ({
          index, text: firstText(o), effort: o.hasAttribute('data-model-picker-thinking-effort-action'),
          expanded: o.getAttribute('aria-expanded') === 'true' || o.getAttribute('data-state') === 'open' }));
        const s = document.querySelector(sel.slider);
        let slider = null;
        if (s) {
          const item = s.closest('[role="menuitem"]');
          const status = (item || s.parentElement).querySelector('[role="status"]');
          const statusText = status ? fullText(status) : '';
          const items = Array.from(document.querySelectorAll(sel.item));
          slider = { text: s.getAttribute('aria-valuetext') || (statusText ? statusText.split(',')[0].trim() : firstText(s)),
            status: statusText, now: Number(s.getAttribute('aria-valuenow')), min: Number(s.getAttribute('aria-valuemin')),
            max: Number(s.getAttribute('aria-valuemax')), focusable: s.tabIndex >= 0 && s.getAttribute('aria-hidden') !== 'true',
            item: item ? items.indexOf(item) : -1 };
        }
        const tip = Array.from(document.querySelectorAll('[role="tooltip"]')).map((t) => fullText(t)).find(Boolean)
          || Array.from(document.querySelectorAll('[data-state="delayed-open"], [data-state="instant-open"]'))
            .filter(visible).map(fullText).find(Boolean) || null;
        return { open: document.querySelectorAll(sel.menu).length, radios, openers, slider, tooltip: tip };
      }
      """;

  /**
   * The Chat/Work switch (rows 21, 27): whether Work is pressed, and the Chat button to press
   * ({@code {via, css, index}}), by their names and aria-pressed (or the August role=radio with
   * data-state=on).
   */
  static final String MODE = """
      ([chat, work]) => {
      """ + PageScripts.COMMON + PageScripts.FIND + """
        const pressed = (el) => el.getAttribute('aria-pressed') === 'true' || el.getAttribute('aria-checked') === 'true'
          || el.getAttribute('data-state') === 'on';
        const css = 'button[aria-pressed]' + ', [role="radio"]';
        const w = find([{ via: 'label', css, names: work }]);
        const c = find([{ via: 'label', css, names: chat }]);
        return { work: !!w && pressed(w.el), chat: plain(c), chatPressed: !!c && pressed(c.el) };
      }
      """;
}
