// fakesol page: the model rows of a page that shows several model families at once (mutation
// model-families; ../shared/REAL-PAGE.md rows 59, 61, 62, 64). Written for this project from those
// rows; nothing is copied. The rows are data (FAKESOL.models.rows, their slugs and this account's
// Extra High resolved by PageModels.java from the seed):
// - three families in one Chat menu, "Latest" (which runs on its target) and a bare "6" both
//   present; the pill repeats the bare version ("6 6 High", row 61);
// - "GPT-6.2 Sol Instant" is its own row, not an effort (row 62): an Instant row sends its own slug
//   and no thinking_effort, and shows no effort rows;
// - the retiring GPT-5.6 Sol row's text is its name PLUS a notice in the page's language (row 64);
// - efforts differ by model (row 62): a row shows only its own; picking a row that lacks the effort
//   chosen moves the effort to the row's Medium (its first where it has none).
// The choice lives in the backend (/api/model) like the effort. Same global scope as page.js.
'use strict';

const FakesolModels = (() => {
  const THINKING = { Medium: 'standard', High: 'extended', 'Extra High': 'max' }; // row 25
  let chosen = null; // the row name the backend confirmed
  const models = () => FAKESOL.models || null;
  const rows = () => (models() ? models().rows : []);
  const row = (name) => rows().find((r) => r.name === name) || null;
  /** The row a choice runs on: Latest runs on its target. */
  const target = (r) => (r && r.latest ? row(r.target) : r);
  const active = () => !!models() && shape().picker === 'families';
  const efforts = () => { const t = target(row(chosen)); return !t || t.instant ? [] : t.efforts; };

  /** The effort the chosen row runs at: the confirmed one when it offers it, else its Medium (else its first). */
  function effective() {
    const offered = efforts();
    if (offered.includes(effortLabel)) return effortLabel;
    return offered.includes('Medium') ? 'Medium' : offered[0] || null;
  }

  async function load() {
    if (active()) chosen = (await api('/api/model')).json.row;
  }

  /** The pill: the row's header and the effort word ("6 6 High"); an Instant row shows its header alone. */
  function pillText() {
    const r = row(chosen);
    const e = effective();
    return (r ? r.header : '') + (e ? ' ' + shown(e) : '');
  }

  /** The request fields for the chosen row (wire.js), or null on a page without model families. */
  function fields() {
    const t = target(row(chosen));
    if (!active() || !t) return null;
    if (t.instant) return { model: t.slug };
    const e = effective();
    if (e === 'Instant') return { model: t.instantSlug || t.slug };
    if (e === 'Pro') return { model: t.proSlug || t.slug };
    return { model: t.slug, thinking_effort: THINKING[e] || 'standard' };
  }

  async function pick(name) {
    const r = await api('/api/model', { row: name });
    if (r.status !== 200) return;
    chosen = r.json.row;
    const e = effective();
    if (e && e !== effortLabel) await commitEffort(e); // picker.js: the effort follows the row (it prepares again)
    else FakesolWire.composed(composerText());
    closeMenus();
  }

  /** The menu: every model row (a retiring one with its notice under the name), then the chosen row's efforts. */
  function menu(content) {
    const group = el('div', { role: 'group' });
    const notice = (models().notice || {})[locale] || (models().notice || {}).en;
    for (const r of rows()) {
      const radio = radioRow(r.name, r.name === chosen, () => pick(r.name));
      if (r.retiring && notice) {
        radio.firstChild.classList.add('flex-col', 'items-start');
        radio.firstChild.appendChild(el('div', { class: 'text-xs text-token-text-tertiary', text: notice }));
      }
      group.appendChild(radio);
    }
    content.appendChild(group);
    const offered = efforts();
    if (!offered.length) return;
    content.appendChild(el('div', { role: 'separator' }));
    const tiers = el('div', { role: 'group' });
    for (const canonical of offered) {
      tiers.appendChild(capRow(radioRow(shown(canonical), canonical === effective(), () => pickEffort(canonical)), canonical));
    }
    content.appendChild(tiers);
  }

  return { active, load, pillText, fields, menu };
})();
