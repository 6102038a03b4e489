// Pick a video, say which person is you when several are in it, upload it with a progress bar, then follow
// the four stages live (SSE) until the results.
import { api, el, fmt, preferredHand, vocabulary } from './api.js';
import { PeoplePicker, describe, outline, ready, seek } from './picker.js';

const words = await vocabulary();
const STAGES = words.stages;
const MAX_BYTES = 2048 * 1024 * 1024;
const $ = (id) => document.getElementById(id);
// The sensitivity levels the program offers, the usual one chosen.
$('sensitivity').replaceChildren(...words.sensitivity.map((l) => el('option', { value: l.id, selected: l.id === words.defaultSensitivity },
  l.id === words.defaultSensitivity ? l.label : `${l.label} (${l.hint})`)));
// The player's racket sounds (learnt on a results page): the newest is chosen; the detector's sensitivity
// does not apply while one is.
let sounds = [];
async function racketSounds() {
  try { ({ racketSounds: sounds } = await api('/api/racket-sounds')); } catch { sounds = []; /* offered only when listed */ }
  $('racket-row').hidden = sounds.length === 0;
  $('racket-sound').replaceChildren(
    ...sounds.map((r, i) => el('option', { value: r.id, selected: i === 0 },
      `Your racket: ${r.name} (${r.contacts} hits)`)),
    el('option', { value: '' }, 'The usual detector'));
  racketChosen();
}
function racketChosen() {
  const chosen = $('racket-sound').value !== '' && !$('racket-row').hidden;
  $('sensitivity').disabled = chosen;
  $('sensitivity-row').hidden = chosen;
  $('racket-forget').hidden = !chosen;
  const sound = sounds.find((r) => String(r.id) === $('racket-sound').value);
  $('racket-hint').textContent = chosen && sound
    ? `Learnt ${fmt.shortDate(sound.createdAt)} from the hits you confirmed on a results page. It knows how readily to count a sound, so there is no sensitivity to choose.`
    : '';
}
$('racket-sound').addEventListener('change', racketChosen);
$('racket-forget').addEventListener('click', async () => {
  const chosen = $('racket-sound').value;
  if (!chosen) return;
  try { await api(`/api/racket-sounds/${chosen}`, { method: 'DELETE' }); } catch (e) { pickError(e.message); }
  await racketSounds();
});
racketSounds();

let hand = null, startedAt = null, timer = null, source = null, xhr = null, jobId = null;
// "Which one is you?": the file waiting for the answer, the frame shown, and the answer ({x, y, time, index, count}).
let waiting = null, who = null, player = null;

async function init() {
  hand = await preferredHand();
  if (!hand) { location.replace('/onboarding'); return; }
  $('hand-label').textContent = hand === 'left' ? 'left-handed' : 'right-handed';
  const resume = new URLSearchParams(location.search).get('job') ?? localStorage.getItem('swingmaster.job');
  if (resume) {
    try {
      const job = await api(`/api/jobs/${resume}`);
      if (job.state === 'queued' || job.state === 'running' || new URLSearchParams(location.search).has('job')) { follow(job); return; }
    } catch { /* gone: start fresh */ }
    localStorage.removeItem('swingmaster.job');
  }
}

function pickError(message) { const p = $('pick-error'); p.textContent = message; p.hidden = !message; }

/** Client-side checks before any byte is sent: type, size, and the length the browser can read. */
async function check(file) {
  const name = file.name.toLowerCase();
  if (!(file.type.startsWith('video/') || /\.(mp4|mov|m4v|mkv|webm|avi|3gp)$/.test(name))) return `${file.name} is not a video.`;
  if (file.size > MAX_BYTES) return `${file.name} is ${(file.size / 2 ** 30).toFixed(1)} GB; the limit is 2 GB. Trim it first.`;
  if (file.size === 0) return `${file.name} is empty.`;
  const v = document.createElement('video');
  v.preload = 'metadata'; v.muted = true;
  const probe = URL.createObjectURL(file);
  const duration = await new Promise((resolve) => {
    v.onloadedmetadata = () => resolve(v.duration); v.onerror = () => resolve(null);
    v.src = probe;
    setTimeout(() => resolve(null), 4000);
  });
  release(v, probe);
  const start = parseFloat($('start').value) || 0, length = parseFloat($('duration').value) || null;
  if (duration != null && isFinite(duration)) {
    const span = length ?? (duration - start);
    if (span < 5) return `The video is ${duration.toFixed(1)} s long; Swingmaster needs at least 5 s of play.`;
    if (span > 600) {
      $('trim').open = true;
      if (!$('duration').value) $('duration').value = 600;
      return `The video is ${fmt.seconds(duration)} long; the limit is 10 minutes. Choose a start and a length of up to 600 s below, then pick the file again.`;
    }
  }
  return null;   // the server checks again (and some formats the browser cannot read)
}

async function choose(file) {
  pickError('');
  const problem = await check(file);
  if (problem) { pickError(problem); return; }
  const look = await lookForPeople(file);
  if (look) askWho(file, look); else upload(file);
}

// -- Which one is you? ------------------------------------------------------------------------------------

/** The people in the frame `video` shows at `t`: the frame as a JPEG (at most 1920 px long) to /api/people. */
async function peopleAt(video, t) {
  await seek(video, t);
  const scale = Math.min(1, 1920 / Math.max(video.videoWidth, video.videoHeight));
  const canvas = el('canvas', { width: Math.round(video.videoWidth * scale), height: Math.round(video.videoHeight * scale) });
  canvas.getContext('2d').drawImage(video, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.88));
  if (!blob) throw new Error('This browser cannot take a picture of the video.');
  return api('/api/people', { method: 'POST', headers: { 'Content-Type': 'image/jpeg' }, body: blob });
}

/** Looks at a few moments of the chosen part of the video for people. Returns the frame to ask about when one
 *  shows two or more, else null (one person or none: nothing to ask; the browser cannot show the file, or the
 *  server cannot look: the upload goes on as before, never blocked by this). */
async function lookForPeople(file) {
  const status = $('pick-status');
  status.textContent = 'Looking for people in your video…';
  const video = el('video', { preload: 'auto', muted: true, playsinline: true });
  const url = URL.createObjectURL(file);
  video.muted = true; video.src = url;
  try {
    await ready(video);
    // A picture the browser cannot decode (HEVC on many desktops) has no size: nothing to show, nothing asked.
    if (!Number.isFinite(video.duration) || !video.videoWidth || !video.videoHeight) throw new Error('no picture');
    const start = Math.min(parseFloat($('start').value) || 0, video.duration);
    const end = Math.min(video.duration, start + (parseFloat($('duration').value) || video.duration));
    for (const f of [0.25, 0.5, 0.75]) {
      const time = start + f * (end - start);
      const found = await peopleAt(video, time);
      if (found.people.length >= 2) return { video, url, start, end, time, people: found.people };
    }
  } catch { /* nothing to ask */ } finally {
    status.textContent = '';
  }
  release(video, url);
  return null;
}

/** Lets go of a file shown in `video` through `url`: the element first (still loading, a revoked URL logs a
 *  failed load for every range it asks for), then the URL. */
function release(video, url) {
  video.onloadedmetadata = null; video.onerror = null;
  video.removeAttribute('src'); video.load();
  URL.revokeObjectURL(url);
}

function askWho(file, look) {
  waiting = file; player = null;
  $('pick').hidden = true; $('who').hidden = false;
  const picker = new PeoplePicker({ root: $('who-picker'), video: look.video, onPick: chose });
  who = { picker, video: look.video, url: look.url, time: look.time, timer: null, asked: 0 };
  const slider = $('who-moment');
  slider.min = look.start.toFixed(1); slider.max = look.end.toFixed(1); slider.value = look.time.toFixed(1);
  momentLabel(look.time);
  picker.show(look.people, look.time);
  showChoice();
  $('who-status').textContent = `${look.people.length} people here. Tap yourself.`;
  $('who-title').focus({ preventScroll: true });   // where a screen reader goes on; no person is chosen for them
}

function momentLabel(t) { $('who-moment-label').textContent = `${Number(t).toFixed(1)}\u00a0s`; }

/** Another moment: the frame there and its people (the earlier answer no longer names anyone shown). */
async function lookAt(t) {
  const ask = ++who.asked;
  $('who-status').textContent = 'Looking for people at this moment…';
  try {
    const found = await peopleAt(who.video, t);
    if (ask !== who.asked) return;   // the slider moved on
    who.time = t; player = null;
    who.picker.show(found.people, t);
    showChoice();
    const n = found.people.length;
    $('who-status').textContent = n === 0 ? 'Nobody Swingmaster can measure is in this picture; try another moment, or skip.'
      : n === 1 ? 'One person here: tap them if it is you.' : `${n} people here. Tap yourself.`;
  } catch (e) {
    if (ask === who.asked) $('who-status').textContent = e.message;
  }
}

function chose(person, i) {
  player = { x: person.hips.x, y: person.hips.y, time: who.time, index: i, count: who.picker.people.length };
  $('who-status').textContent = '';
  showChoice();
}

/** "You: the person in the blue outline — change", and the Analyse button once there is an answer. */
function showChoice() {
  const line = $('who-summary');
  $('who-go').disabled = !player;
  if (!player) { line.hidden = true; return; }
  line.hidden = false;
  line.replaceChildren(el('span', { class: 'swatch', style: `--outline: ${outline(player.index).color}` }),
    `You: ${describe(player.index, player.count)} — `,
    el('button', { type: 'button', class: 'link-button', onclick: () => {
      player = null; who.picker.chosen = null; who.picker.mark(); showChoice();
      who.picker.buttons.querySelector('button')?.focus();
    } }, 'change'));
}

function leaveWho() {
  $('who').hidden = true;
  clearTimeout(who?.timer);
  if (who) release(who.video, who.url);
}

$('who-moment').addEventListener('input', (e) => {
  momentLabel(e.target.value);
  clearTimeout(who.timer);
  who.timer = setTimeout(() => lookAt(Number(e.target.value)), 250);
});
$('who-go').addEventListener('click', () => { if (player) { leaveWho(); upload(waiting, player); } });
$('who-skip').addEventListener('click', () => { player = null; leaveWho(); upload(waiting, null); });

function upload(file, me = null) {
  $('pick').hidden = true; $('progress').hidden = false;
  $('progress-title').textContent = 'Uploading…'; $('progress-file').textContent = file.name;
  startClock();
  const query = new URLSearchParams({ hand });
  if (me) {
    query.set('player', `${me.x.toFixed(4)},${me.y.toFixed(4)}@${me.time.toFixed(3)}`);
    const line = $('progress-player');
    line.hidden = false;
    line.replaceChildren(el('span', { class: 'swatch', style: `--outline: ${outline(me.index).color}` }),
      `Measuring you: ${describe(me.index, me.count)} at ${me.time.toFixed(1)}\u00a0s.`);
  }
  if ($('start').value) query.set('start', $('start').value);
  if ($('duration').value) query.set('duration', $('duration').value);
  if (!$('swing-check').checked) query.set('swingCheck', 'off');
  if (!$('racket-row').hidden && $('racket-sound').value) query.set('racketSound', $('racket-sound').value);
  else if ($('sensitivity').value !== words.defaultSensitivity) query.set('sensitivity', $('sensitivity').value);
  xhr = new XMLHttpRequest();
  xhr.open('POST', `/api/uploads?${query}`);
  xhr.setRequestHeader('Content-Type', file.type || 'video/mp4');
  xhr.setRequestHeader('X-Filename', encodeURIComponent(file.name));
  const bar = $('upload-stage').querySelector('progress'), pct = $('upload-stage').querySelector('.pct');
  xhr.upload.onprogress = (e) => { if (e.lengthComputable) { bar.value = e.loaded / e.total; pct.textContent = `${Math.round(100 * e.loaded / e.total)} %`; } };
  xhr.onload = () => {
    let body = null; try { body = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
    if (xhr.status === 202 && body?.job) { bar.value = 1; pct.textContent = '100 %'; $('upload-stage').classList.add('done'); follow(body.job); }
    else fail(body?.error ?? `The upload failed (${xhr.status}).`, body?.code);
  };
  xhr.onerror = () => fail('The connection to the server was lost during the upload.');
  xhr.send(file);
}

function startClock() {
  startedAt = startedAt ?? Date.now();
  clearInterval(timer);
  timer = setInterval(() => { $('elapsed').textContent = `Elapsed ${fmt.seconds((Date.now() - startedAt) / 1000)}`; }, 500);
}

function follow(job) {
  jobId = job.id;
  localStorage.setItem('swingmaster.job', job.id);
  $('pick').hidden = true; $('progress').hidden = false;
  $('progress-file').textContent = job.file;
  if (!xhr) $('upload-stage').hidden = true;
  if (job.player && $('progress-player').hidden) {
    $('progress-player').hidden = false;
    $('progress-player').textContent = 'Measuring the person you tapped.';
  }
  startedAt = job.startedAt ? Date.parse(job.startedAt) : Date.now();
  startClock();
  render(job);
  source = new EventSource(`/api/jobs/${job.id}/events`);
  source.addEventListener('job', (e) => render(JSON.parse(e.data)));
  source.onerror = () => { /* the browser reconnects by itself; a final state closes it below */ };
}

function render(job) {
  $('progress-title').textContent = job.state === 'queued' ? 'Waiting for the analyser…' : job.state === 'running' ? 'Analysing…' : 'Analysis';
  $('stages').replaceChildren(...STAGES.map((name, i) => {
    const n = i + 1;
    const state = job.state === 'done' || n < job.stage ? 'done' : n === job.stage ? 'active' : 'waiting';
    const value = state === 'done' ? 1 : state === 'active' ? job.progress : 0;
    return el('li', { class: `stage ${state}` }, el('span', {}, name),
      el('progress', { max: 1, value, 'aria-label': name }), el('span', { class: 'pct' }, `${Math.round(value * 100)} %`));
  }));
  $('warnings').replaceChildren(...(job.warnings ?? []).map((w) => el('li', {}, `Note: ${w}`)));
  if (job.state === 'done') { finish(); location.href = `/sessions/${job.sessionId}`; }
  else if (job.state === 'failed') { finish(); fail(job.error, job.errorCode); }
  else if (job.state === 'cancelled') { finish(); fail('Cancelled. Nothing was stored.'); }
}

function finish() { source?.close(); clearInterval(timer); localStorage.removeItem('swingmaster.job'); }

function fail(message, code) {
  finish();
  $('progress').hidden = false; $('pick').hidden = true;
  $('progress-title').textContent = 'This video could not be analysed';
  const p = $('job-error'); p.textContent = message; p.hidden = false;
  const advice = {
    11: 'Pick a video file your phone or camera recorded (MP4, MOV, MKV or WebM).',
    12: 'Swingmaster finds your hits by their sound: record with the sound on, or pick another video.',
    13: 'Pick a longer video: at least 5 seconds of play.',
    14: 'Pick a start and a length (up to 10 minutes) under “Only part of the video”, then upload again.',
    15: 'That file has sound but no picture: pick the video itself.',
    30: 'Film from behind the baseline with your whole body in view, then try again.',
    31: 'No hit was heard: check that the video has the sound of the ball, or film closer to the court.',
  }[code] ?? 'Nothing was stored. Try another video, or the same one again.';
  p.append(el('br'), advice);
  $('close-note').hidden = true;   // nothing goes on in the background after a refusal
  $('cancel').hidden = true; $('again').hidden = false;
}

$('cancel').addEventListener('click', async () => {
  if (xhr && xhr.readyState !== 4) { xhr.abort(); fail('Upload cancelled. Nothing was stored.'); return; }
  if (jobId) await api(`/api/jobs/${jobId}`, { method: 'DELETE' });
});
$('file').addEventListener('change', (e) => e.target.files[0] && choose(e.target.files[0]));
const drop = $('drop');
drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => { e.preventDefault(); drop.classList.remove('over'); if (e.dataTransfer.files[0]) choose(e.dataTransfer.files[0]); });
init().catch((e) => pickError(e.message));
