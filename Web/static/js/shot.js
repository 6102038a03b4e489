// The shot view: the video with the wrist arc drawn over it (left) and the 3D skeleton (right), both
// driven by one clock — the video's media time — plus the wrist's forward / side / height over the swing.
import { api, el, fmt, stat, colors, vocabulary } from './api.js';
import { SkeletonView } from './skeleton.js';
import { lineChart } from './charts.js';

const $ = (id) => document.getElementById(id);
const sessionId = document.body.dataset.session, number = Number(document.body.dataset.shot);
const video = $('video'), overlay = $('overlay');
let view, skeleton, wrist, measures = [], drawn = [], A = 0, B = 0, now = 0;
// The joint angles drawn on the skeleton and charted, each in its own colour.
const angleColors = colors.angles;

async function load() {
  const [shotView, landmarks, words] = await Promise.all([api(`/api/sessions/${sessionId}/shots/${number}`), api('/api/landmarks'), vocabulary()]);
  view = shotView;
  const shot = view.shot;
  wrist = landmarks.wrist[view.hand];
  measures = words.bodyMeasures;
  drawn = measures.filter((m) => m.joints?.[view.hand]);
  document.title = `Shot ${number} · Swingmaster`;
  $('title').textContent = `Shot ${number}`;
  $('counter').textContent = `Shot ${number} of ${view.shotCount}`;
  pager($('prev'), number - 1); pager($('next'), number + 1);
  $('metrics').replaceChildren(
    stat('Contact', fmt.classification(shot.classification), `${shot.stroke ? fmt.stroke(shot.stroke) + ' · ' : ''}at ${shot.contactTime.toFixed(2)} s`, true),
    stat('Forward', fmt.cm(shot.contact?.forwardCm), 'in front of your hip'),
    stat('Side', fmt.cm(shot.contact?.lateralCm), 'toward your hitting side'),
    stat('Height', fmt.cm(shot.contact?.heightCm), 'above the ground'),
    stat('Wrist speed', shot.wristSpeedCmS == null ? '–' : `${shot.wristSpeedCmS.toFixed(0)} cm/s`, 'at contact'));
  const times = view.frames.map((f) => f.time);
  A = Math.max(0, (times[0] ?? shot.contactTime - 1) - 0.2);
  B = (times[times.length - 1] ?? shot.contactTime + 0.5) + 0.2;
  body();
  skeleton = new SkeletonView($('skeleton'), { bones: view.bones, wrist, onChange: () => drawSkeleton() });
  video.src = `/api/sessions/${sessionId}/video`;
  video.playbackRate = Number($('speed').value);
  video.addEventListener('loadedmetadata', () => { video.currentTime = A; }, { once: true });
  series();
  tick();
}

/** The body at contact: a tile per measure (value, range over the swing) and its definition. */
function body() {
  const shot = view.shot;
  if (!shot.angles) { $('body-card').hidden = true; return; }
  $('body').replaceChildren(...measures.map((m) => {
    const range = shot.angleRange?.[m.id];
    return stat(m.label, fmt.measure(m, shot.angles[m.id]), range ? `${fmt.measure(m, range[0])} to ${fmt.measure(m, range[1])} over the swing` : '');
  }));
  $('dl-shot-trc').href = `/api/sessions/${sessionId}/export.trc?shot=${number}`;
  $('dl-shot-mot').href = `/api/sessions/${sessionId}/export.mot?shot=${number}`;
  $('definitions').replaceChildren(...measures.flatMap((m) => [el('dt', {}, m.label), el('dd', {}, m.definition)]));
  $('angle-legend').replaceChildren(...drawn.map((m, i) => el('span', { class: 'key' },
    el('span', { class: 'dot', style: `background:${angleColors[i % angleColors.length]}` }), m.label)));
}

function pager(link, n) {
  if (n < 1 || n > view.shotCount) { link.setAttribute('aria-disabled', 'true'); link.removeAttribute('href'); }
  else link.href = `/sessions/${sessionId}/shots/${n}`;
}

/** The posed frame nearest `t`. */
function frameAt(t) {
  let best = null;
  for (const f of view.frames) if (!best || Math.abs(f.time - t) < Math.abs(best.time - t)) best = f;
  return best;
}

/** Which arc points are shown at time `t` (the arc grows with playback, or a window around now). */
function visible(time, t) {
  const w = $('window').value;
  return w === 'all' ? time <= t + 1e-6 : Math.abs(time - t) <= Number(w);
}

function glow(t) { return Math.max(0, 1 - Math.abs(t - view.shot.contactTime) / 0.2); }

function drawOverlay(t) {
  const w = overlay.clientWidth, h = overlay.clientHeight, ratio = window.devicePixelRatio || 1;
  // Follow the box's size (it changes when the video's metadata arrives and on resize).
  if (overlay.width !== Math.round(w * ratio) || overlay.height !== Math.round(h * ratio)) { overlay.width = Math.round(w * ratio); overlay.height = Math.round(h * ratio); }
  const ctx = overlay.getContext('2d');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0); ctx.clearRect(0, 0, w, h);
  const sx = w / view.video.width, sy = h / view.video.height;
  const arc = (view.shot.arc?.image ?? []).filter((p) => visible(p[2], t));
  if (arc.length > 1) {
    ctx.strokeStyle = colors.amber; ctx.lineWidth = 3; ctx.lineJoin = 'round'; ctx.beginPath();
    arc.forEach(([x, y], i) => (i ? ctx.lineTo(x * sx, y * sy) : ctx.moveTo(x * sx, y * sy))); ctx.stroke();
  }
  const frame = frameAt(t);
  if (frame?.image && Math.abs(frame.time - t) < 0.25) {
    const [x, y] = frame.image[wrist];
    ctx.fillStyle = colors.accent; ctx.beginPath(); ctx.arc(x * sx, y * sy, 5, 0, 7); ctx.fill();
    const g = glow(t);
    if (g > 0) {
      ctx.strokeStyle = `rgba(200,224,74,${g})`; ctx.lineWidth = 4; ctx.shadowColor = colors.accent; ctx.shadowBlur = 16 * g;
      ctx.beginPath(); ctx.arc(x * sx, y * sy, 14 + 10 * g, 0, 7); ctx.stroke(); ctx.shadowBlur = 0;
    }
  }
}

function drawSkeleton() {
  const t = now, shot = view.shot, ground = shot.groundCm ?? 0;
  const arc = (shot.arc?.body ?? []).filter((p) => visible(p[3], t)).map(([f, l, hgt]) => [f, l, hgt + ground]);
  const contact = shot.contact ? { point: [shot.contact.forwardCm, shot.contact.lateralCm, shot.contact.heightCm + ground],
    glow: glow(t), distances: t >= shot.contactTime - 0.05, heightFrom: ground } : null;
  const frame = frameAt(t);
  const angles = drawn.filter((m) => frame?.angles?.[m.id] != null)
    .map((m) => ({ joints: m.joints[view.hand], text: fmt.measure(m, frame.angles[m.id]), color: angleColors[drawn.indexOf(m) % angleColors.length] }));
  skeleton.draw(frame, { arc, contact, groundCm: shot.groundCm, angles });
}

function series() {
  const frames = view.frames.filter((f) => f.body);
  const ground = view.shot.groundCm ?? 0;
  lineChart($('series'), frames.map((f) => f.time), [
    { values: frames.map((f) => f.body[wrist][0]), color: colors.accent },
    { values: frames.map((f) => f.body[wrist][1]), color: colors.blue },
    { values: frames.map((f) => f.body[wrist][2] - ground), color: colors.amber },
  ], { marker: view.shot.contactTime, xLabels: frames.map((f) => `${f.time.toFixed(1)}s`) });
  const posed = view.frames.filter((f) => f.angles);
  if (posed.length && view.shot.angles) {
    lineChart($('angle-series'), posed.map((f) => f.time), drawn.map((m, i) => ({ values: posed.map((f) => f.angles[m.id] ?? null), color: angleColors[i % angleColors.length] })),
      { marker: view.shot.contactTime, xLabels: posed.map((f) => `${f.time.toFixed(1)}s`), height: 200 });
  }
}

/** One clock for both panes: the video's media time, per presented frame when the browser can say. */
function render(t) {
  now = t;
  if ($('loop').checked && !video.paused && t >= B) { video.currentTime = A; }
  if (document.activeElement !== $('scrub')) $('scrub').value = String(Math.round(((t - A) / (B - A)) * 1000));
  drawOverlay(t);
  drawSkeleton();
}

function tick() {
  if ('requestVideoFrameCallback' in HTMLVideoElement.prototype) {
    const onFrame = (_, meta) => { render(meta.mediaTime); video.requestVideoFrameCallback(onFrame); };
    video.requestVideoFrameCallback(onFrame);
  }
  // Paused seeks and browsers without the callback: follow currentTime on animation frames.
  const onAnim = () => { if (video.paused || !('requestVideoFrameCallback' in HTMLVideoElement.prototype)) render(video.currentTime); requestAnimationFrame(onAnim); };
  requestAnimationFrame(onAnim);
}

function togglePlay() {
  if (video.paused) { if (video.currentTime >= B) video.currentTime = A; video.play(); } else video.pause();
}
video.addEventListener('play', () => { $('play').textContent = '❚❚'; $('play').setAttribute('aria-label', 'Pause'); });
video.addEventListener('pause', () => { $('play').textContent = '▶'; $('play').setAttribute('aria-label', 'Play'); });
$('play').addEventListener('click', togglePlay);
document.querySelector('.video-box').addEventListener('click', togglePlay);
// One frame back or forward by the frames' own times (phones drop and stretch frames, so 1 / fps is not
// a frame): the next posed frame, else a nominal frame past the swing window's frames.
const step = (d) => {
  video.pause();
  const t = video.currentTime, times = view.frames.map((f) => f.time), eps = 1e-3;
  const next = d > 0 ? times.find((x) => x > t + eps) : [...times].reverse().find((x) => x < t - eps);
  video.currentTime = Math.min(B, Math.max(A, next ?? t + d / (view.video.fps || 30)));
};
$('back').addEventListener('click', () => step(-1));
$('fwd').addEventListener('click', () => step(1));
$('scrub').addEventListener('input', (e) => { video.currentTime = A + (Number(e.target.value) / 1000) * (B - A); });
$('speed').addEventListener('change', (e) => { video.playbackRate = Number(e.target.value); });
$('window').addEventListener('change', () => render(video.currentTime));
$('reset-view').addEventListener('click', () => skeleton.reset());
document.addEventListener('keydown', (e) => {
  if (e.target.matches('input, select, textarea')) return;
  if (e.key === 'ArrowLeft' && number > 1) location.href = `/sessions/${sessionId}/shots/${number - 1}`;
  else if (e.key === 'ArrowRight' && number < view.shotCount) location.href = `/sessions/${sessionId}/shots/${number + 1}`;
  else if (e.key === ',') step(-1);
  else if (e.key === '.') step(1);
  else if (e.key === ' ') { e.preventDefault(); togglePlay(); }
});
window.addEventListener('resize', () => { if (view) { series(); render(video.currentTime); } });
load().catch((e) => $('metrics').replaceChildren(el('p', { class: 'error' }, e.message)));

// "Contact here": the player adds a hit the detector missed at the video's current time; the session is
// measured again and the results page shows it.
$('contact-here').addEventListener('click', async () => {
  const status = $('contact-status');
  const time = Math.round(video.currentTime * 1000) / 1000;
  status.classList.remove('error');
  status.textContent = `Adding a hit at ${time.toFixed(2)} s…`;
  try {
    await api(`/api/sessions/${sessionId}/edits`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'add', time }) });
    location.href = `/sessions/${sessionId}#contacts-card`;
  } catch (e) {
    status.textContent = e.message;
    status.classList.add('error');
  }
});
