// Every detection run, newest first (GET /api/detections): model, source, frames, mean FPS, interpreter summary.
import { api, el, fmt } from './api.js';
import { runFacts, sourceName } from './runs.js';

const $ = (id) => document.getElementById(id);

function model() { return new URLSearchParams(location.search).get('model') ?? ''; }

async function fillModels() {
  const select = $('f-model');
  try {
    const { models } = await api('/api/models?hidden=1');
    for (const m of models.filter((x) => x.kind === 'yolo')) select.append(el('option', { value: m.id }, m.name.trim()));
  } catch { /* the list still works with "All models" */ }
  const wanted = model();
  if (wanted && ![...select.options].some((o) => o.value === wanted)) select.append(el('option', { value: wanted }, wanted));
  select.value = wanted;
  select.addEventListener('change', () => {
    const q = new URLSearchParams(); if (select.value) q.set('model', select.value);
    history.replaceState(null, '', q.size ? `?${q}` : location.pathname);
    load();
  });
}

function item(r) {
  return el('li', { class: 'card run', 'data-run-id': r.id },
    el('div', { class: 'row between run-head' },
      el('h2', {}, el('a', { href: `/detect?model=${encodeURIComponent(r.model)}` }, r.model), ' · ', sourceName(r.source)),
      el('time', { datetime: r.startedAt, class: 'muted small' }, fmt.date(r.startedAt))),
    runFacts(r));
}

async function load() {
  const list = $('runs');
  list.setAttribute('aria-busy', 'true');
  const q = new URLSearchParams({ limit: '200' });
  if (model()) q.set('model', model());
  let runs = [];
  try {
    ({ runs } = await api(`/api/detections?${q}`));
    $('runs-error').hidden = true;
  } catch (e) {
    $('runs-error').textContent = `The runs could not be loaded: ${e.message}`;
    $('runs-error').hidden = false;
  }
  list.replaceChildren(...runs.map(item));
  $('no-runs').hidden = runs.length > 0 || !$('runs-error').hidden;
  $('runs-status').textContent = runs.length ? `${runs.length} run${runs.length === 1 ? '' : 's'}${model() ? ` of ${model()}` : ''}.` : '';
  list.setAttribute('aria-busy', 'false');
}

fillModels();
load();
