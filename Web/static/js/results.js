// One session: headline numbers, the contact scatter from above, the sortable shot table, downloads.
import { api, el, fmt, stat, vocabulary } from './api.js';
import { contactScatter } from './charts.js';
import { ContactTimeline } from './timeline.js';
import { PeoplePicker, describe, outline, ready, seek } from './picker.js';
import { RacketSound } from './racket.js';

const id = document.body.dataset.session;
const { strokes, bodyMeasures } = await vocabulary();
const STROKES = strokes.map((s) => s.id);
const strokeName = Object.fromEntries(strokes.map((s) => [s.id, s.plural]));
let session = null, shots = [], sortKey = 'index', ascending = true, stroke = 'all';
// An edit answers with the re-measured session: everything on the page follows it.
const timeline = new ContactTimeline({ id, onChange: (next) => { session = next; strokeFilter(); show(); racket.show(session); } });
// A racket sound learnt here is offered at once beside the sensitivity levels.
const racket = new RacketSound(id, (sound) => { timeline.racket = sound; timeline.draw(); });

async function load() {
  ({ session } = await api(`/api/sessions/${id}`));
  document.getElementById('title').textContent = session.file.split('/').pop();
  document.getElementById('subtitle').textContent = `${fmt.date(session.createdAt)} · ${fmt.seconds(session.duration)} · ${session.hand}-handed`;
  strokeFilter();
  show();
  whoLine();
  timeline.load(session);
  racket.show(session);
  document.getElementById('dl-json').href = `/api/sessions/${id}/export.json`;
  document.getElementById('dl-csv').href = `/api/sessions/${id}/export.csv`;
  document.getElementById('dl-trc').href = `/api/sessions/${id}/export.trc`;
  document.getElementById('dl-mot').href = `/api/sessions/${id}/export.mot`;
  document.getElementById('dl-video').href = `/api/sessions/${id}/original`;
  document.getElementById('dl-annotated').href = `/api/sessions/${id}/annotated.mp4`;
  document.getElementById('dl-highlights').href = `/api/sessions/${id}/highlights.mp4`;
  // Highlights need a shot to cut.
  document.getElementById('dl-highlights').hidden = session.shots.length === 0;
}

// One button per stroke type the session has, beside "All strokes": each stroke is judged on its own.
function strokeFilter() {
  const by = session.stats.byStroke ?? {};
  const present = STROKES.filter((k) => by[k]);
  const group = document.getElementById('strokes');
  group.hidden = present.length === 0;
  const button = (key, label) => el('button', { type: 'button', 'aria-pressed': String(stroke === key),
    onclick: () => { stroke = key; strokeFilter(); show(); } }, label);
  group.replaceChildren(button('all', `All strokes (${session.stats.shotCount})`),
    ...present.map((k) => button(k, `${strokeName[k]} (${by[k].shotCount})`)));
}

// The statistics, scatter and table of the stroke chosen (or of all).
function show() {
  const st = stroke === 'all' ? session.stats : (session.stats.byStroke?.[stroke] ?? { shotCount: 0 });
  const mine = stroke === 'all' ? session.shots : session.shots.filter((s) => s.stroke === stroke);
  const counts = { early: 0, optimal: 0, late: 0 };
  for (const s of mine) if (s.classification) counts[s.classification]++;
  const axis = (a) => (a ? `${a.meanCm.toFixed(0)} ± ${a.sdCm.toFixed(0)} cm` : '–');
  document.getElementById('stats').replaceChildren(
    stat('Consistency', st.consistency == null ? '–' : st.consistency.toFixed(0), 'of 100 · steadier contact scores higher', true),
    stat(stroke === 'all' ? 'Shots' : strokeName[stroke], String(st.shotCount),
      stroke === 'all' ? heardLine() : `of ${session.stats.shotCount} shots`),
    stat('Forward', axis(st.forward), 'in front of your hip'),
    stat('Side', axis(st.lateral), 'toward your hitting side'),
    stat('Height', axis(st.height), 'above the ground'),
    stat('Wrist speed', st.wristSpeed ? `${st.wristSpeed.meanCmS.toFixed(0)} cm/s` : '–',
      st.wristSpeed ? `min ${st.wristSpeed.minCmS.toFixed(0)} · max ${st.wristSpeed.maxCmS.toFixed(0)}` : null),
    stat('Early · Optimal · Late', `${counts.early} · ${counts.optimal} · ${counts.late}`, 'by how far in front you met the ball'));
  if (session.soundDelay) document.getElementById('stats').append(el('p', { class: 'muted sound-delay', id: 'sound-delay' }, soundDelayLine(session.soundDelay)));
  if (session.warnings?.length) document.getElementById('stats').append(...session.warnings.map((w) => el('p', { class: 'warnings' }, `Note: ${w}`)));
  body(st);
  shots = mine;
  // Colour by stroke while several strokes share the scatter; by Early / Optimal / Late within one.
  const mixed = new Set(mine.map((s) => s.stroke).filter(Boolean)).size > 1;
  contactScatter(document.getElementById('scatter'), shots, st, mixed ? 'stroke' : 'classification');
  const legend = mixed
    ? STROKES.flatMap((k) => [el('span', { class: `dot ${k}` }), ` ${strokeName[k]} `])
    : [el('span', { class: 'dot early' }), ' Early ', el('span', { class: 'dot optimal' }), ' Optimal ', el('span', { class: 'dot late' }), ' Late'];
  document.getElementById('legend').replaceChildren(...legend);
  table();
}

// The session's sound delay in a player's words (the document's soundDelay; docs/analysis.md).
// The body measures at contact of the stroke chosen: mean ± SD, the definition on hover.
function body(st) {
  const card = document.getElementById('body-card');
  card.hidden = !st.angles;
  if (!st.angles) return;
  document.getElementById('body-stats').replaceChildren(...bodyMeasures.filter((m) => st.angles[m.id]).map((m) => {
    const { mean, sd } = st.angles[m.id];
    const tile = stat(m.label, fmt.measure(m, mean), `± ${fmt.measure(m, sd)}`);
    tile.title = m.definition;
    return tile;
  }));
}

function soundDelayLine(d) {
  const ms = Math.round(Math.abs(d.ms));
  const lag = `${ms} ms ${d.ms >= 0 ? 'after' : 'before'} the picture`;
  if (d.source === 'measured') {
    const how = [d.shotsUsed ? `measured on ${d.shotsUsed} of your swings` : null,
      d.spreadMs != null ? `±${Math.round(d.spreadMs)} ms` : null].filter(Boolean);
    return `Sound reached your phone ${lag}${how.length ? ` (${how.join(', ')})` : ''}, so each shot is measured ${ms} ms before it was heard: at the moment of contact.`;
  }
  if (d.source === 'given') return ms === 0 ? 'Shots are measured when they were heard (sound delay set to 0 ms).' : `Sound delay set to ${ms} ms; each shot is measured that much before it was heard.`;
  return `Shots are measured when they were heard: ${d.reason ?? 'the sound delay could not be measured.'}`;
}

// "6 hits heard · 2 not counted": the contacts that are not shots are listed under the timeline.
function heardLine() {
  const notShots = session.rejectedContacts?.length ?? 0;
  const heard = `${session.contactsHeard} hit${session.contactsHeard === 1 ? '' : 's'} heard`;
  return notShots ? `${heard} · ${notShots} not counted` : heard;
}

// The video with the skeleton and the highlights are made on the server the first time they are asked for
// (202 with progress until then): show how far it got, then download it.
let drawing = false;
const drawn = {
  'dl-annotated': { making: 'Drawing the skeleton on your video…', ready: 'Your video with the skeleton is downloading.' },
  'dl-highlights': { making: 'Cutting your shots into highlights…', ready: 'Your highlights are downloading.' },
};
for (const [id, words] of Object.entries(drawn)) {
  document.getElementById(id).addEventListener('click', async (event) => {
    event.preventDefault();
    if (drawing) return;
    drawing = true;
    const link = event.currentTarget, status = document.getElementById('dl-status');
    status.classList.remove('error');
    link.setAttribute('aria-disabled', 'true');
    try {
      for (;;) {
        const res = await fetch(link.href, { headers: { Range: 'bytes=0-0' } });
        if (res.status === 202) {
          const { progress } = await res.json();
          status.textContent = `${words.making} ${Math.round(progress * 100)} %`;
          await new Promise((r) => setTimeout(r, 1000));
          continue;
        }
        if (!res.ok) throw new Error((await res.json().catch(() => null))?.error ?? `The server answered ${res.status}.`);
        status.textContent = words.ready;
        location.href = link.href;
        break;
      }
    } catch (e) {
      status.textContent = e.message;
      status.classList.add('error');
    } finally {
      drawing = false;
      link.removeAttribute('aria-disabled');
    }
  });
}

// -- Who was measured (issue #39): the person the player tapped, and tapping again to measure another ------------

const $ = (name) => document.getElementById(name);
const who = { picker: null, video: null, moments: [], at: 0, frameTime: 0, chosen: null, measured: null, busy: false };

/** "You: the person you tapped at 4.6 s", or how the analysis chose when the player did not say. */
function whoLine() {
  const p = session.player;
  $('who-line').textContent = p
    ? (p.time != null ? `You: the person you tapped at ${p.time.toFixed(1)}\u00a0s, followed through every shot.`
      : `You: the person nearest the point you gave (${Math.round(p.x * 100)}\u00a0% across, ${Math.round(p.y * 100)}\u00a0% down), in every shot.`)
    : 'At each hit Swingmaster measured the biggest person in view, or whoever else swung when they did not. Measured the wrong person? Tap yourself.';
  $('who-open').textContent = p ? 'Change' : 'Tap yourself';
}

/** The moments to look at: where the player tapped (if they did), then every shot's contact. */
function moments() {
  const times = session.shots.map((s) => s.contactTime).filter((t) => t != null);
  const p = session.player;
  const list = [...new Set([...(p?.time != null ? [p.time] : []), ...times])];
  return list.map((t) => ({ t, shot: session.shots.find((s) => s.contactTime === t) }));
}

async function openWho() {
  $('who-panel').hidden = false; $('who-open').setAttribute('aria-expanded', 'true'); $('who-done').textContent = '';
  $('who-open').textContent = 'Close';
  if (!who.video) {
    who.video = el('video', { preload: 'auto', muted: true, playsinline: true });
    who.picker = new PeoplePicker({ root: $('who-picker'), video: who.video, onPick: whoPicked });
    who.video.src = `/api/sessions/${id}/video`;
  }
  who.moments = moments(); who.at = 0;
  if (!who.moments.length) { $('who-status').textContent = 'This session has no shot to look at.'; return; }
  await showMoment();
  $('who-panel').scrollIntoView({ block: 'nearest' });
}

function closeWho() {
  $('who-panel').hidden = true; $('who-open').setAttribute('aria-expanded', 'false');
  who.chosen = null; $('who-measure').disabled = true;
  whoLine();
}

async function showMoment() {
  const { t, shot } = who.moments[who.at];
  $('who-prev').disabled = who.at === 0; $('who-next').disabled = who.at === who.moments.length - 1;
  $('who-at').textContent = `${shot ? `Shot ${shot.index} of ${session.shots.length}` : 'Where you tapped'} · ${t.toFixed(1)}\u00a0s`;
  $('who-status').textContent = 'Looking for people at this moment…';
  $('who-status').classList.remove('error');
  who.chosen = null; $('who-measure').disabled = true;
  try {
    const [found] = await Promise.all([api(`/api/sessions/${id}/people?t=${t.toFixed(3)}`), ready(who.video)]);
    await seek(who.video, found.time + 0.001);
    who.frameTime = found.time;
    // The person measured now, when the player tapped at this moment: shown chosen, with "You" on them.
    const p = session.player;
    let mine = null;
    if (p?.time != null && Math.abs(p.time - found.time) < 0.06 && found.people.length) {
      mine = found.people.reduce((best, q, i) => ((q.hips.x - p.x) ** 2 + (q.hips.y - p.y) ** 2 < best.d ? { i, d: (q.hips.x - p.x) ** 2 + (q.hips.y - p.y) ** 2 } : best), { i: 0, d: Infinity }).i;
    }
    who.measured = mine;
    who.picker.show(found.people, found.time, mine);
    const n = found.people.length;
    $('who-status').textContent = n === 0 ? 'Nobody Swingmaster can measure is in view here; try another shot.'
      : mine != null ? `Outlined in ${outline(mine).name}: the person measured now. Tap someone else to measure them instead.`
        : `${n} ${n === 1 ? 'person' : 'people'} here. Tap yourself.`;
  } catch (e) {
    $('who-status').textContent = e.message;
  }
}

function whoPicked(person, i) {
  who.chosen = { x: person.hips.x, y: person.hips.y, time: who.frameTime };
  $('who-status').replaceChildren(el('span', { class: 'swatch', style: `--outline: ${outline(i).color}` }),
    who.measured === i ? `The person measured now: ${describe(i, who.picker.people.length)}. Tap someone else to measure them instead.`
      : `You: ${describe(i, who.picker.people.length)}, not measured yet. “Measure me” measures every shot again on them.`);
  $('who-measure').disabled = who.busy || who.measured === i;
}

async function measureMe() {
  if (!who.chosen || who.busy) return;
  who.busy = true;
  for (const b of ['who-measure', 'who-prev', 'who-next', 'who-cancel']) $(b).disabled = true;
  $('who-status').textContent = 'Measuring you on every shot again… (every swing is posed again: about as long as the body-pose stage took)';
  try {
    ({ session } = await api(`/api/sessions/${id}/player`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(who.chosen) }));
    strokeFilter(); show(); whoLine(); timeline.load(session); racket.show(session);
    closeWho();
    const measured = session.stats.shotCount;
    $('who-done').textContent = measured
      ? `Measured again on the person you tapped: ${measured} shot${measured === 1 ? '' : 's'}.`
      : 'Measured again on the person you tapped: none of the hits shows them swinging. If that is not you, tap yourself again.';
  } catch (e) {
    $('who-status').textContent = e.message;
    $('who-status').classList.add('error');
  } finally {
    who.busy = false;
    for (const b of ['who-cancel']) $(b).disabled = false;
    $('who-measure').disabled = !who.chosen;
    if (who.moments.length) { $('who-prev').disabled = who.at === 0; $('who-next').disabled = who.at === who.moments.length - 1; }
  }
}

$('who-open').addEventListener('click', () => ($('who-panel').hidden ? openWho() : closeWho()));
$('who-cancel').addEventListener('click', closeWho);
$('who-prev').addEventListener('click', () => { if (who.at > 0) { who.at--; showMoment(); } });
$('who-next').addEventListener('click', () => { if (who.at < who.moments.length - 1) { who.at++; showMoment(); } });
$('who-measure').addEventListener('click', measureMe);

const value = {
  index: (s) => s.index, time: (s) => s.contactTime, forward: (s) => s.contact?.forwardCm, lateral: (s) => s.contact?.lateralCm,
  height: (s) => s.contact?.heightCm, speed: (s) => s.wristSpeedCmS, classification: (s) => s.classification ?? '',
  stroke: (s) => s.stroke ?? '',
};

function table() {
  const sorted = [...shots].sort((a, b) => {
    const x = value[sortKey](a), y = value[sortKey](b);
    if (x == null) return 1; if (y == null) return -1;
    return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
  });
  document.querySelector('#shots tbody').replaceChildren(...sorted.map((s) => {
    const open = () => { location.href = `/sessions/${id}/shots/${s.index}`; };
    return el('tr', { tabindex: 0, onclick: open, onkeydown: (e) => e.key === 'Enter' && open(), 'aria-label': `Shot ${s.index}, open` },
      el('td', {}, s.index), el('td', {}, `${s.contactTime.toFixed(2)} s`),
      el('td', {}, fmt.cm(s.contact?.forwardCm)), el('td', {}, fmt.cm(s.contact?.lateralCm)), el('td', {}, fmt.cm(s.contact?.heightCm)),
      el('td', {}, s.wristSpeedCmS == null ? '–' : `${s.wristSpeedCmS.toFixed(0)} cm/s`),
      el('td', {}, el('span', { class: `tag ${s.classification ?? 'none'}` }, fmt.classification(s.classification))),
      el('td', {}, fmt.stroke(s.stroke)));
  }));
  for (const th of document.querySelectorAll('#shots th')) {
    th.setAttribute('aria-sort', th.dataset.key === sortKey ? (ascending ? 'ascending' : 'descending') : 'none');
  }
}

for (const th of document.querySelectorAll('#shots th')) {
  th.querySelector('button').addEventListener('click', () => {
    ascending = sortKey === th.dataset.key ? !ascending : true; sortKey = th.dataset.key; table();
  });
}
window.addEventListener('resize', () => session && show());
load().catch((e) => document.getElementById('stats').replaceChildren(el('p', { class: 'error' }, e.message)));
