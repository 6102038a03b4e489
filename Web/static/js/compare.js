// Two shots aligned at their contact: side by side or as a ghost overlay, with their metrics.
import { api, el, fmt, vocabulary, colors } from './api.js';
import { SkeletonView } from './skeleton.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let a = null, b = null, rel = 0, playing = false;
const views = {};

// Every measured shot of the 20 newest sessions, named with its stroke (the documents know each shot's).
async function options() {
  const { sessions } = await api('/api/sessions');
  const docs = await Promise.all(sessions.slice(0, 20).map((s) => api(`/api/sessions/${s.id}`).catch(() => null)));
  const items = [];
  docs.forEach((doc, i) => {
    const s = sessions[i];
    for (const shot of doc?.session.shots ?? []) {
      if (shot.status !== 'ok') continue;   // a shot without a person has no skeleton to compare
      items.push({ value: `${s.id}:${shot.index}`, stroke: shot.stroke ?? null,
        label: `${fmt.shortDate(s.createdAt)} · ${s.file} · shot ${shot.index}${shot.stroke ? ` · ${shot.stroke}` : ''}` });
    }
  });
  return items;
}

// "Only forehands" etc.: both pickers list that stroke's shots (a forehand beside a serve compares little).
function fill(items) {
  const only = $('stroke').value;
  const shown = items.filter((i) => only === 'all' || i.stroke === only);
  for (const id of ['pick-a', 'pick-b']) {
    const keep = $(id).value;
    $(id).replaceChildren(...shown.map((i) => el('option', { value: i.value }, i.label)));
    if (shown.some((i) => i.value === keep)) $(id).value = keep;
  }
  if ($('pick-a').value === $('pick-b').value && shown.length > 1) $('pick-b').value = shown[1].value;
}

async function shot(key) {
  const [sid, n] = key.split(':');
  return api(`/api/sessions/${sid}/shots/${n}`);
}

function frameAt(v, t) {
  let best = null;
  for (const f of v.frames) if (!best || Math.abs(f.time - t) < Math.abs(best.time - t)) best = f;
  return best;
}

/** The joint angles of `v`'s frame `f` to draw on its skeleton. */
function anglesOf(v, f) {
  const joints = measures.filter((m) => m.joints?.[v.hand]);
  return joints.filter((m) => f?.angles?.[m.id] != null)
    .map((m) => ({ joints: m.joints[v.hand], text: fmt.measure(m, f.angles[m.id]), color: colors.angles[joints.indexOf(m) % colors.angles.length] }));
}

function draw() {
  if (!a || !b) return;
  const ghost = $('mode').value === 'ghost';
  $('pane-b').hidden = ghost;
  const ta = a.shot.contactTime + rel, tb = b.shot.contactTime + rel;
  const fa = frameAt(a, ta), fb = frameAt(b, tb);
  views.a.draw(fa, { ghost: ghost ? fb : null, groundCm: a.shot.groundCm, angles: ghost ? [] : anglesOf(a, fa),
    arc: (a.shot.arc?.body ?? []).filter((p) => p[3] <= ta).map(([f, l, h]) => [f, l, h + (a.shot.groundCm ?? 0)]) });
  if (!ghost) views.b.draw(fb, { groundCm: b.shot.groundCm, angles: anglesOf(b, fb),
    arc: (b.shot.arc?.body ?? []).filter((p) => p[3] <= tb).map(([f, l, h]) => [f, l, h + (b.shot.groundCm ?? 0)]) });
  $('t').textContent = `${rel >= 0 ? '+' : ''}${rel.toFixed(2)} s from contact`;
}

let measures = [];

function metrics() {
  const row = (label, f) => el('tr', {}, el('th', {}, label), el('td', {}, f(a)), el('td', {}, f(b)));
  $('table').replaceChildren(el('tr', {}, el('th', {}, ''), el('th', {}, 'A'), el('th', {}, 'B')),
    row('Forward', (v) => fmt.cm(v.shot.contact?.forwardCm)), row('Side', (v) => fmt.cm(v.shot.contact?.lateralCm)),
    row('Height', (v) => fmt.cm(v.shot.contact?.heightCm)),
    row('Wrist speed', (v) => (v.shot.wristSpeedCmS == null ? '–' : `${v.shot.wristSpeedCmS.toFixed(0)} cm/s`)),
    row('Contact', (v) => fmt.classification(v.shot.classification)), row('Stroke', (v) => fmt.stroke(v.shot.stroke)),
    // The body at contact, each measure with its definition on hover.
    ...measures.map((m) => { const r = row(m.label, (v) => fmt.measure(m, v.shot.angles?.[m.id])); r.title = m.definition; return r; }));
}

async function pick() {
  let vocabulary;
  [a, b, vocabulary] = await Promise.all([shot($('pick-a').value), shot($('pick-b').value), api('/api/landmarks')]);
  history.replaceState(null, '', `?a=${$('pick-a').value}&b=${$('pick-b').value}`);
  $('label-a').textContent = $('pick-a').selectedOptions[0]?.textContent ?? 'A';
  $('label-b').textContent = $('pick-b').selectedOptions[0]?.textContent ?? 'B';
  const wrist = (v) => vocabulary.wrist[v.hand];
  views.a = new SkeletonView($('skel-a'), { bones: a.bones, wrist: wrist(a), onChange: draw });
  views.b = new SkeletonView($('skel-b'), { bones: b.bones, wrist: wrist(b), onChange: draw });
  metrics(); draw();
}

async function init() {
  measures = (await vocabulary()).bodyMeasures;
  const items = await options();
  if (items.length === 0) { $('views').replaceChildren(el('p', { class: 'muted' }, 'Analyse a session first; then pick two of its shots here.')); return; }
  const present = (await vocabulary()).strokes.filter((k) => items.some((i) => i.stroke === k.id));
  $('stroke').replaceChildren(el('option', { value: 'all' }, 'All strokes'),
    ...present.map((k) => el('option', { value: k.id }, `Only ${k.plural.toLowerCase()}`)));
  fill(items);
  $('pick-a').value = params.get('a') ?? items[0].value;
  $('pick-b').value = params.get('b') ?? items[Math.min(1, items.length - 1)].value;
  $('stroke').addEventListener('change', () => { fill(items); pick(); });
  for (const id of ['pick-a', 'pick-b']) $(id).addEventListener('change', pick);
  $('mode').addEventListener('change', draw);
  $('scrub').addEventListener('input', (e) => { rel = -1 + (Number(e.target.value) / 1000) * 1.5; draw(); });
  $('play').addEventListener('click', () => {
    playing = !playing; $('play').textContent = playing ? '❚❚ Pause' : '▶ Play both';
    let last = performance.now();
    const run = (t) => { if (!playing) return; rel += (t - last) / 1000 * 0.5; last = t; if (rel > 0.5) rel = -1;
      $('scrub').value = String(((rel + 1) / 1.5) * 1000); draw(); requestAnimationFrame(run); };
    requestAnimationFrame(run);
  });
  rel = -1 + (Number($('scrub').value) / 1000) * 1.5;
  await pick();
}
init();
