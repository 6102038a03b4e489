// The model catalog as cards: filters, favourite / hide / remove, per-model defaults, and adding a model.
import { api, el, fmt } from './api.js';
import { recentRuns } from './runs.js';

const $ = (id) => document.getElementById(id);
const TASKS = { detect: 'Detect', segment: 'Segment', classify: 'Classify', pose: 'Pose', obb: 'Rotated boxes (OBB)' };
const HINTS = { generic: 'general objects', poker: 'playing cards', tennis: 'tennis', faceClassification: 'faces', custom: 'custom classes' };
const INTERPRETERS = [
  ['', 'None'], ['passthrough', 'Passthrough (raw detections)'], ['counter', 'Counter (counts per class)'],
  ['poker', 'Poker hand (card labels)'], ['tennis-contact', 'Tennis contact (racket meets ball)'],
];
const WEEK_MS = 7 * 24 * 3600 * 1000;
let models = [];

// -- filters (kept in the address, so a reload or a shared link keeps them) -------------------------

const filters = { task: $('f-task'), fav: $('f-fav'), recent: $('f-recent'), hidden: $('f-hidden') };

function readFilters() {
  const q = new URLSearchParams(location.search);
  filters.task.value = TASKS[q.get('task')] ? q.get('task') : '';
  filters.fav.checked = q.get('fav') === '1';
  filters.recent.checked = q.get('recent') === '1';
  filters.hidden.checked = q.get('hidden') === '1';
}

function writeFilters() {
  const q = new URLSearchParams();
  if (filters.task.value) q.set('task', filters.task.value);
  for (const k of ['fav', 'recent', 'hidden']) if (filters[k].checked) q.set(k, '1');
  history.replaceState(null, '', q.size ? `?${q}` : location.pathname);
}

function visible(m) {
  if (filters.task.value && m.task !== filters.task.value) return false;
  if (filters.fav.checked && !m.favorite) return false;
  if (filters.recent.checked && !(m.lastUsedAt && Date.now() - Date.parse(m.lastUsedAt) < WEEK_MS)) return false;
  return true;
}

async function load() {
  const list = $('models');
  list.setAttribute('aria-busy', 'true');
  try {
    ({ models } = await api(`/api/models${filters.hidden.checked ? '?hidden=1' : ''}`));
    listError('');
  } catch (e) {
    listError(`The models could not be loaded: ${e.message}`);
    models = [];
  }
  render();
  list.setAttribute('aria-busy', 'false');
}

function render() {
  const shown = models.filter(visible);
  $('models').replaceChildren(...shown.map(card));
  $('none').hidden = shown.length > 0 || models.length === 0;
}

function listStatus(message) { $('list-status').textContent = message; }

function listError(message) { const p = $('list-error'); p.textContent = message; p.hidden = !message; }

// -- one card ---------------------------------------------------------------------------------------

function bytes(n) {
  if (n == null) return '–';
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(0)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

function kindText(m) {
  if (m.kind === 'blazepose') return 'Pose (BlazePose) — used by session analysis';
  if (m.kind === 'yolo') return `YOLO · ${TASKS[m.task] ?? m.task ?? 'unknown task'}`;
  return 'Not usable';
}

function sourceText(m) {
  return { bundled: 'Bundled with Swingmaster', local: 'Added from a file', remote: 'Downloaded' }[m.source] ?? m.source;
}

async function copy(text, button) {
  try {
    if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(text);
    else {
      const area = el('textarea', { class: 'offscreen', 'aria-hidden': 'true' });
      area.value = text; document.body.append(area); area.select();
      document.execCommand('copy'); area.remove();
    }
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Copy failed';
  }
  setTimeout(() => { button.textContent = 'Copy'; }, 1500);
}

function fact(label, ...value) {
  return [el('dt', {}, label), el('dd', {}, ...value)];
}

function card(m) {
  const title = `model-${m.id}-title`;
  const facts = el('dl', { class: 'facts' },
    fact('Id', el('code', {}, m.id)),
    fact('Source', sourceText(m), m.url ? [' · ', el('a', { href: m.url, rel: 'noreferrer' }, 'origin')] : null),
    fact('Size', bytes(m.sizeBytes)),
    fact('Input', m.inputSize?.length === 2 ? `${m.inputSize[1]} × ${m.inputSize[0]} px` : 'any size'),
    fact('Classes', m.labels?.length
      ? el('details', { class: 'labels' }, el('summary', {}, `${m.labels.length} class${m.labels.length === 1 ? '' : 'es'}`),
        el('ol', { start: 0 }, ...m.labels.map((l) => el('li', {}, l))))
      : 'none listed'),
    fact('SHA-256', m.sha256
      ? [el('code', { title: m.sha256 }, `${m.sha256.slice(0, 12)}…`), ' ',
        el('button', { type: 'button', class: 'mini', 'aria-label': `Copy the SHA-256 of ${m.name}`, onclick: (e) => copy(m.sha256, e.currentTarget) }, 'Copy')]
      : '–'),
    fact('Last used', m.lastUsedAt ? fmt.date(m.lastUsedAt) : 'never'),
    fact('Uses', String(m.useCount ?? 0)),
  );

  const star = el('button', {
    type: 'button', class: 'star', 'aria-pressed': m.favorite ? 'true' : 'false', 'aria-label': `Favourite: ${m.name}`,
    title: m.favorite ? 'Remove from favourites' : 'Mark as favourite',
    onclick: () => patch(m, { favorite: !m.favorite }, node),
  }, m.favorite ? '★' : '☆');

  const actions = el('div', { class: 'row actions' },
    m.kind === 'yolo' && !m.problem ? el('a', { class: 'button primary', href: `/detect?model=${encodeURIComponent(m.id)}` }, 'Open in studio') : null,
    el('button', { type: 'button', onclick: () => patch(m, { hidden: !m.hidden }, node) }, m.hidden ? 'Show' : 'Hide'),
    m.source === 'bundled'
      ? el('button', { type: 'button', class: 'danger', disabled: true, 'aria-describedby': `model-${m.id}-bundled` }, 'Remove')
      : el('button', { type: 'button', class: 'danger', onclick: () => confirmRemove(m) }, 'Remove'),
  );

  const node = el('li', { class: `card model${m.hidden ? ' is-hidden' : ''}`, 'data-model-id': m.id, 'aria-labelledby': title },
    el('div', { class: 'model-head' },
      el('div', {},
        el('h2', { id: title }, m.name.trim()),
        el('p', { class: 'badges' },
          el('span', { class: `badge kind-${m.kind}` }, kindText(m)),
          m.kind === 'yolo' && HINTS[m.typeHint] && m.typeHint !== 'custom' ? el('span', { class: 'badge' }, HINTS[m.typeHint]) : null,
          m.hidden ? el('span', { class: 'badge hidden-badge' }, 'Hidden') : null)),
      star),
    m.problem ? el('p', { class: 'error problem' }, m.problem) : null,
    m.kind === 'blazepose' ? el('p', { class: 'muted small' }, 'Not a YOLO model: it cannot run in the studio.') : null,
    facts,
    recentRuns(m),
    actions,
    m.source === 'bundled' ? el('p', { class: 'muted small', id: `model-${m.id}-bundled` }, 'Bundled models cannot be removed; hide it instead.') : null,
    el('p', { class: 'muted small card-status', role: 'status', 'aria-live': 'polite' }),
    m.kind === 'yolo' ? defaultsForm(m) : null,
  );
  return node;
}

function numberField(name, label, value, attrs) {
  return el('label', {}, label, el('input', { name, type: 'number', inputmode: 'decimal', value: value ?? '', ...attrs }));
}

function defaultsForm(m) {
  const d = m.defaults ?? {};
  const id = (k) => `model-${m.id}-${k}`;
  const options = el('textarea', {
    name: 'interpreterOptions', id: id('options'), rows: 3, spellcheck: 'false', placeholder: '{"minimumConfidence": 0.5}',
    'aria-describedby': id('options-help'),
  });
  options.value = d.interpreterOptions == null ? '' : JSON.stringify(d.interpreterOptions, null, 1);
  const select = el('select', { name: 'interpreter' },
    ...INTERPRETERS.map(([value, label]) => el('option', { value, selected: (d.interpreter ?? '') === value }, label)));
  const problem = el('p', { class: 'error small', role: 'alert', hidden: true });
  const form = el('form', { class: 'defaults-form', novalidate: true },
    el('div', { class: 'fields' },
      numberField('conf', 'Confidence', d.conf, { min: 0, max: 1, step: 0.01, placeholder: '0.25' }),
      numberField('iou', 'IoU', d.iou, { min: 0, max: 1, step: 0.01, placeholder: '0.45' }),
      numberField('maxDet', 'Max detections', d.maxDet, { min: 1, max: 10000, step: 1, inputmode: 'numeric', placeholder: '300' }),
      numberField('lineWidth', 'Line width', d.lineWidth, { min: 1, max: 20, step: 1, inputmode: 'numeric', placeholder: '2' })),
    el('label', { class: 'wide' }, 'Interpreter', select),
    el('label', { class: 'wide', for: id('options') }, 'Interpreter options (JSON)'),
    options,
    el('p', { class: 'muted small', id: id('options-help') }, 'A JSON object, or empty for the interpreter’s own defaults.'),
    problem,
    el('div', { class: 'row' },
      el('button', { type: 'submit', class: 'primary' }, 'Save defaults'),
      el('button', { type: 'button', onclick: () => patchDefaults(m, {}, form, 'Reset to Ultralytics’ defaults.') }, 'Reset')),
  );
  const check = () => {
    const text = options.value.trim();
    let message = '';
    if (text) {
      try {
        const v = JSON.parse(text);
        if (v === null || typeof v !== 'object' || Array.isArray(v)) message = 'Interpreter options must be a JSON object, like {"minimumConfidence": 0.5}.';
        else if (!select.value) message = 'Interpreter options need an interpreter: choose one above, or empty the options.';
      } catch (e) {
        message = `Interpreter options are not valid JSON (${e.message.replace(/^JSON\.parse: /, '')}).`;
      }
    }
    options.setCustomValidity(message);
    options.setAttribute('aria-invalid', message ? 'true' : 'false');
    problem.textContent = message; problem.hidden = !message;
    return !message;
  };
  options.addEventListener('input', check);
  select.addEventListener('change', () => { if (options.value.trim()) check(); });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!check()) { options.focus(); return; }
    for (const input of form.querySelectorAll('input')) {
      if (!input.checkValidity()) {
        problem.textContent = `${input.parentElement.firstChild.textContent.trim()} must be between ${input.min} and ${input.max}.`;
        problem.hidden = false; input.focus(); return;
      }
    }
    const defaults = {};
    for (const k of ['conf', 'iou']) if (form.elements[k].value !== '') defaults[k] = parseFloat(form.elements[k].value);
    for (const k of ['maxDet', 'lineWidth']) if (form.elements[k].value !== '') defaults[k] = parseInt(form.elements[k].value, 10);
    if (select.value) defaults.interpreter = select.value;
    if (options.value.trim()) defaults.interpreterOptions = JSON.parse(options.value);
    patchDefaults(m, defaults, form, 'Defaults saved.');
  });
  return el('details', { class: 'defaults' }, el('summary', {}, 'Defaults for the studio'), form);
}

// -- changes ----------------------------------------------------------------------------------------

function say(node, message, error = false) {
  const p = node.querySelector('.card-status');
  if (!p) return;
  p.textContent = message; p.classList.toggle('error', error); p.classList.toggle('muted', !error);
}

async function patch(m, body, node) {
  try {
    const updated = await api(`/api/models/${encodeURIComponent(m.id)}`, {
      method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    const fresh = replace(node, updated);
    if ('hidden' in body) {
      const text = updated.hidden ? `${updated.name} is hidden: the studio no longer lists it.` : `${updated.name} is shown again.`;
      if (fresh.isConnected) say(fresh, text); else listStatus(`${text} Tick “Show hidden” to see it here.`);
    }
  } catch (e) {
    say(node, e.message, true);
  }
}

async function patchDefaults(m, defaults, form, done) {
  const node = form.closest('.model');
  try {
    const updated = await api(`/api/models/${encodeURIComponent(m.id)}`, {
      method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ defaults }),
    });
    const fresh = replace(node, updated);
    fresh.querySelector('details.defaults').open = true;
    say(fresh, done);
  } catch (e) {
    say(node, e.message, true);
  }
}

/** Swaps a card for the server's new version (or drops it when the filters now exclude it). */
function replace(node, updated) {
  const i = models.findIndex((x) => x.id === updated.id);
  if (i >= 0) models[i] = updated;
  if (updated.hidden && !filters.hidden.checked) { models.splice(i, 1); node.remove(); return node; }
  const fresh = card(updated);
  node.replaceWith(fresh);
  return fresh;
}

function confirmRemove(m) {
  const dialog = $('confirm-remove');
  $('remove-text').textContent = `${m.name} (${m.id}, ${bytes(m.sizeBytes)}) will be deleted from this server, with its defaults.`;
  dialog.onclose = async () => {
    if (dialog.returnValue !== 'remove') return;
    try {
      await api(`/api/models/${encodeURIComponent(m.id)}`, { method: 'DELETE' });
      await load();
    } catch (e) {
      const node = document.querySelector(`[data-model-id="${CSS.escape(m.id)}"]`);
      if (node) say(node, e.message, true); else listError(e.message);
    }
  };
  dialog.returnValue = '';
  dialog.showModal();
}

// -- adding a model ---------------------------------------------------------------------------------

function addError(message) {
  const p = $('add-error'); p.textContent = message; p.hidden = !message;
  if (message) $('add-status').textContent = '';
}

function add(file) {
  addError(''); $('add-status').textContent = '';
  if (!/\.(onnx|zip)$/i.test(file.name)) { addError(`${file.name} is not an .onnx model or a .zip holding one.`); return; }
  if (file.size === 0) { addError(`${file.name} is empty.`); return; }
  const box = $('add-progress'), bar = box.querySelector('progress'), pct = box.querySelector('.pct');
  box.hidden = false; bar.value = 0; pct.textContent = '0 %'; $('add-name').textContent = file.name;
  $('model-file').disabled = true;
  const xhr = new XMLHttpRequest();
  xhr.open('POST', '/api/models');
  xhr.setRequestHeader('Content-Type', 'application/octet-stream');
  xhr.setRequestHeader('X-Filename', encodeURIComponent(file.name));
  xhr.upload.onprogress = (e) => {
    if (!e.lengthComputable) return;
    bar.value = e.loaded / e.total; pct.textContent = `${Math.round(100 * e.loaded / e.total)} %`;
    if (e.loaded === e.total) $('add-status').textContent = 'Reading the model…';
  };
  const finish = () => { $('model-file').disabled = false; $('model-file').value = ''; box.hidden = true; };
  xhr.onload = async () => {
    finish();
    let body = null; try { body = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
    if (xhr.status === 201 || (xhr.status === 200 && body?.id)) {
      $('add-status').textContent = `Added ${body.name} (${body.id}).`;
      await load();
      const node = document.querySelector(`[data-model-id="${CSS.escape(body.id)}"]`);
      if (node) { node.classList.add('fresh'); node.scrollIntoView({ block: 'nearest' }); }
    } else {
      addError(body?.error ?? `The upload failed (${xhr.status}).`);
    }
  };
  xhr.onerror = () => { finish(); addError('The connection to the server was lost during the upload.'); };
  xhr.send(file);
}

$('model-file').addEventListener('change', (e) => e.target.files[0] && add(e.target.files[0]));
const drop = $('model-drop');
drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => { e.preventDefault(); drop.classList.remove('over'); if (e.dataTransfer.files[0]) add(e.dataTransfer.files[0]); });

readFilters();
filters.task.addEventListener('change', () => { writeFilters(); render(); });
filters.fav.addEventListener('change', () => { writeFilters(); render(); });
filters.recent.addEventListener('change', () => { writeFilters(); render(); });
filters.hidden.addEventListener('change', () => { writeFilters(); load(); });
load();
