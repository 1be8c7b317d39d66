// fakesol page: uploads, as the real page does them (../shared/REAL-PAGE.md rows 44-49). The inputs
// that sit in the composer without opening a menu (#upload-files, #upload-photos, #upload-camera),
// "Add files and more" and its menu item (the file chooser), one chip per file (a [role=group] named
// by the file name, duplicates renamed name(2).ext), the four requests the page makes per file
// (create, PUT of the bytes, /uploaded, the processing stream of JSON lines), and the Send body's
// parts (row 48: images as image_asset_pointer parts, every file in metadata.attachments). A Send
// while a file is still processing drops it without a word (row 46). Faults (FakeSolUploads.Fault):
// early_chip, processing_fails, throttled, image_without_stream, decoy_input, menu_only.
// This script owns every upload; page.js's older tray sees none. Written here from those rows.
'use strict';

window.FakesolUploads = (() => {
  const IMAGE = /^image\//;
  const FAILED = /\.(error|failed|cancelled|unknown)$/;
  const JSON_HEADERS = { 'content-type': 'application/json' };
  let faults = new Set();
  const ready = fetch('/api/uploads').then((r) => r.json()).then((c) => { faults = new Set(c.faults || []); }, () => {});
  const decoys = new WeakSet();
  let entries = []; // this composer's files: {file, shown, image, state, fileId, width, height, chip, abort}

  // The composer's container: its form, or (row 55) the div page.js drew where there is no form.
  const composerForm = () => {
    if (composerBoxNode && composerBoxNode.isConnected) return composerBoxNode;
    const t = document.getElementById('attachment-tray');
    return t && t.closest('form');
  };
  const inComposer = (node) => !!node && (!!node.closest('form') || (!!composerForm() && composerForm().contains(node)));
  const make = (tag, attrs, text) => {
    const n = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => n.setAttribute(k, v));
    if (text) n.textContent = text;
    return n;
  };

  // ---- Row 44: the controls ------------------------------------------------------------------

  /** Puts the inputs into a freshly drawn composer (once per form). */
  function fit(form) {
    if (!form || form.dataset.fakesolUploads) return;
    form.dataset.fakesolUploads = '1';
    const generic = form.querySelector('#upload-files');
    if (faults.has('menu_only')) { if (generic) generic.remove(); return; }
    if (faults.has('decoy_input')) {
      // A zero-sized file input first in the form that nothing listens to; the real one loses its id.
      if (generic) generic.removeAttribute('id');
      const decoy = make('input', { type: 'file', multiple: '', style: 'width:0;height:0;padding:0;border:0;position:absolute' });
      decoys.add(decoy);
      form.prepend(decoy);
    }
    for (const id of ['upload-photos', 'upload-camera']) {
      form.appendChild(make('input', { type: 'file', id, accept: 'image/*', multiple: '', class: 'sr-only', tabindex: '-1',
        'aria-hidden': 'true' }));
    }
  }
  new MutationObserver(() => ready.then(() => fit(composerForm()))).observe(document.documentElement, { childList: true, subtree: true });

  /** The composer's inputs: this script starts every upload (page.js's own listener never hears of them). */
  document.addEventListener('change', (e) => {
    const input = e.target;
    if (!(input instanceof HTMLInputElement) || input.type !== 'file' || !inComposer(input)) return;
    e.stopPropagation();
    if (decoys.has(input)) return; // starts nothing
    chosen(input);
  }, true);

  function chosen(input) {
    const imageOnly = /^image\//.test(input.accept || '');
    const files = Array.from(input.files || []);
    input.value = '';
    for (const f of files) {
      if (imageOnly && !IMAGE.test(f.type)) { toast('Unsupported file type: ' + f.name); continue; }
      add(f);
    }
  }

  /** "Add files and more" opens a menu; its first item opens the file chooser (a trusted click only). */
  document.addEventListener('click', (e) => {
    const opener = e.target.closest && e.target.closest('#composer-plus-btn, button[aria-haspopup="menu"]');
    const plus = opener && inComposer(opener) ? opener : null;
    if (!plus || (plus.id !== 'composer-plus-btn' && plus.textContent !== '+') || !e.isTrusted) return;
    const open = document.getElementById('fakesol-upload-menu');
    if (open) { open.remove(); plus.setAttribute('aria-expanded', 'false'); return; }
    const menu = make('div', { role: 'menu', id: 'fakesol-upload-menu', 'data-radix-popper-content-wrapper': '' });
    const item = make('div', { role: 'menuitem', tabindex: '-1' }, 'Add photos & files');
    item.addEventListener('click', (ev) => {
      if (!ev.isTrusted) return;
      menu.remove();
      plus.setAttribute('aria-expanded', 'false');
      const input = make('input', { type: 'file', multiple: '' });
      input.addEventListener('change', () => chosen(input));
      input.click();
    });
    menu.append(item, make('div', { role: 'menuitem', tabindex: '-1' }, 'Create image'));
    const box = plus.getBoundingClientRect();
    menu.style.left = box.left + 'px';
    menu.style.top = (box.bottom + 4) + 'px';
    document.body.appendChild(menu);
    plus.setAttribute('aria-expanded', 'true');
  });

  // ---- Row 47: the chip ----------------------------------------------------------------------

  /** Row 47: a name already in the composer becomes name(2).ext, name(3).ext, ... */
  function shownName(name) {
    const taken = new Set(entries.map((x) => x.shown));
    if (!taken.has(name)) return name;
    const dot = name.lastIndexOf('.');
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const ext = dot > 0 ? name.slice(dot) : '';
    for (let n = 2; ; n++) if (!taken.has(stem + '(' + n + ')' + ext)) return stem + '(' + n + ')' + ext;
  }

  function renderChip(entry) {
    const tray = document.getElementById('attachment-tray');
    if (!tray || entry.removed) return;
    const chip = entry.chip || make('div', { role: 'group', class: 'attachment-chip' });
    // Row 66 (november.js): once uploaded, an image's preview shows its name with a timestamp added.
    const name = uploadPreviewName(entry.shown, entry.image, entry.state === 'done');
    chip.setAttribute('aria-label', name);
    chip.replaceChildren();
    if (entry.image) {
      const img = make('img', { alt: '', width: '32', height: '32' });
      img.src = entry.preview || (entry.preview = URL.createObjectURL(entry.file));
      chip.appendChild(img);
    }
    chip.appendChild(make('span', { class: 'truncate' }, name.length > 24 ? name.slice(0, 20) + '\u2026' : name));
    // Row 46: the early chip never shows progress; the ordinary one does while its file is on the way.
    if (entry.state === 'uploading' && !faults.has('early_chip')) chip.appendChild(make('div', { role: 'progressbar' }));
    if (entry.state === 'failed') chip.appendChild(make('span', { 'data-fakesol-upload-error': '' }, entry.error));
    const index = entries.indexOf(entry) + 1;
    const remove = make('button', { type: 'button', 'aria-label': 'Remove file ' + index + ': ' + name }, '\u00D7');
    remove.addEventListener('click', () => discard(entry));
    chip.appendChild(remove);
    if (!entry.chip) { entry.chip = chip; tray.appendChild(chip); }
  }

  function discard(entry) {
    entry.removed = true;
    entry.abort.abort();
    entries = entries.filter((x) => x !== entry);
    if (entry.chip) entry.chip.remove();
  }

  function toast(text) {
    const host = document.getElementById('toasts') || document.body;
    const t = make('div', { role: 'alert', class: 'toast' }, text);
    host.appendChild(t);
    setTimeout(() => t.remove(), 8000);
  }

  // ---- Row 45: the four requests ------------------------------------------------------------

  async function add(file) {
    const entry = { file, shown: shownName(file.name), image: IMAGE.test(file.type), state: 'uploading', fileId: null,
      width: 0, height: 0, abort: new AbortController() };
    entries.push(entry);
    renderChip(entry);
    try {
      await upload(entry);
      entry.state = 'done';
    } catch (err) {
      if (entry.removed) return;
      entry.state = 'failed';
      entry.error = String((err && err.message) || err);
      if (err && err.throttled) toast(entry.error);
    }
    renderChip(entry);
  }

  async function upload(entry) {
    const signal = entry.abort.signal;
    const post = (url, body) => fetch(url, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body), signal });
    const created = await post('/backend-api/files', { file_name: entry.file.name, file_size: entry.file.size,
      use_case: 'multimodal', timezone_offset_min: new Date().getTimezoneOffset(), reset_rate_limits: false });
    if (!created.ok) {
      let j = null;
      try { j = await created.json(); } catch (e) { j = null; }
      const d = j && j.detail;
      const err = new Error(typeof d === 'string' ? d : (d && d.message) || ('upload refused (' + created.status + ')'));
      err.throttled = created.status === 429;
      throw err;
    }
    const c = await created.json();
    entry.fileId = c.file_id;
    const put = await fetch(c.upload_url, { method: 'PUT', signal, body: entry.file,
      headers: { 'x-ms-blob-type': 'BlockBlob', 'content-type': entry.file.type || 'application/octet-stream' } });
    if (put.status !== 201) throw new Error('the upload failed (' + put.status + ')');
    const done = await post('/backend-api/files/' + encodeURIComponent(entry.fileId) + '/uploaded', {});
    if (!done.ok) throw new Error('the upload failed (' + done.status + ')');
    if (entry.image) {
      const img = new Image();
      img.src = entry.preview || (entry.preview = URL.createObjectURL(entry.file));
      try { await img.decode(); entry.width = img.naturalWidth; entry.height = img.naturalHeight; } catch (e) { /* not decodable */ }
      if (faults.has('image_without_stream')) return; // row 45: some image uploads finish here
    }
    const processing = await post('/backend-api/files/process_upload_stream', { file_id: entry.fileId, file_name: entry.file.name,
      use_case: 'multimodal', index_for_retrieval: !entry.image, entry_surface: 'composer' });
    if (!processing.ok) throw new Error('processing failed (' + processing.status + ')');
    const reader = processing.body.getReader();
    const decoder = new TextDecoder();
    let pending = '';
    let completed = false;
    for (;;) {
      const { done: end, value } = await reader.read();
      pending += end ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = pending.split('\n');
      pending = end ? '' : lines.pop();
      for (const line of lines) {
        if (!line.trim()) continue;
        const j = JSON.parse(line);
        if (FAILED.test(j.event || '')) throw new Error(j.message || j.event);
        if (j.event === 'file.processing.completed') completed = true;
      }
      if (end) break;
    }
    if (!completed) throw new Error('processing ended unfinished');
  }

  // ---- Send ----------------------------------------------------------------------------------

  /** An ordinary page takes no Send while a file is on the way; the early chip's page does (and drops the file). */
  const holding = () => !faults.has('early_chip') && entries.some((x) => x.state === 'uploading');
  document.addEventListener('click', (e) => {
    const send = e.target.closest && e.target.closest('button');
    if (send && sendButtons.has(send) && holding()) { e.preventDefault(); e.stopImmediatePropagation(); }
  }, true);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && holding() && e.target.closest && inComposer(e.target)) {
      e.preventDefault(); e.stopImmediatePropagation();
    }
  }, true);

  /** turn.js, as the Send's body is made: row 48's parts for the files that are done; the rest are dropped. */
  function intoRequest(request) {
    const message = request.messages[0];
    const done = entries.filter((x) => x.state === 'done');
    entries.forEach((x) => { if (x.chip) x.chip.remove(); });
    entries = [];
    const images = done.filter((x) => x.image);
    if (images.length) {
      message.content = { content_type: 'multimodal_text', parts: images.map((x) => ({ content_type: 'image_asset_pointer',
        asset_pointer: 'sediment://' + x.fileId, size_bytes: x.file.size, width: x.width, height: x.height }))
        .concat(message.content.parts) };
    }
    message.metadata = Object.assign({}, message.metadata, { attachments: done.map((x) => Object.assign({ id: x.fileId,
      name: x.shown, mime_type: x.file.type || 'application/octet-stream', size: x.file.size },
      x.image ? { width: x.width, height: x.height } : {})) });
  }

  return { intoRequest };
})();
