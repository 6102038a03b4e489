// The studio's video input (docs/studio.md): a video uploaded as a job (POST /api/detect/video, every
// `stride`-th frame through the model), its progress over Server-Sent Events, then the video played back with
// the detections of the processed frame nearest the playhead drawn over it by the page's overlay, the
// interpreter's banners as playback passes them, and the annotated MP4 and the JSON to download.
import { el } from './api.js';
import { suit } from './banners.js';

const $ = (id) => document.getElementById(id);
export const DEFAULT_STRIDE = 3;
export const MAX_STRIDE = 300;
/** Processed frames whose centres make a track's trail (as the live camera's trails). */
const TRAIL_FRAMES = 30;
/** A jump of the playhead longer than this is a seek: banners are not replayed for what it skipped. */
const SEEK_SECONDS = 1;

/** The index of the frame whose `time` is nearest `t` in `frames` (sorted by time), or -1 when there is none. */
export function nearestFrame(frames, t) {
  if (!frames.length || !Number.isFinite(t)) return -1;
  let lo = 0, hi = frames.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (frames[mid].time < t) lo = mid + 1; else hi = mid;
  }
  return lo > 0 && Math.abs(frames[lo - 1].time - t) <= Math.abs(frames[lo].time - t) ? lo - 1 : lo;
}

/** An interpreter's video summary as per-frame interpretations in time order: [{time, interpretation}]. */
export function timeline(interpretation) {
  const { interpreter, result } = interpretation ?? {};
  if (Array.isArray(result?.frames)) {
    return result.frames.map((f) => ({ time: f.time, interpretation: { interpreter, result: f.result } }));
  }
  if (Array.isArray(result?.frameContacts)) {
    return result.frameContacts.map((c) => ({ time: c.time, interpretation: { interpreter, result: { contact: c } } }));
  }
  return [];
}

/** One sentence summing up an interpreter's result over the whole video ('' when there is none). */
export function summaryText(interpretation) {
  const { interpreter, result } = interpretation ?? {};
  if (!result) return '';
  if (interpreter === 'counter') {
    const labels = Object.entries(result.peak ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    if (!labels.length) return `Counter: nothing counted in ${result.frameCount ?? 0} frames.`;
    const parts = labels.slice(0, 5).map(([l, n]) => `${l}: up to ${n} at once, in ${result.framesWithLabel?.[l] ?? 0} frames`);
    return `Counter over ${result.frameCount} frames: ${parts.join('; ')}${labels.length > 5 ? `; and ${labels.length - 5} more classes` : ''}.`;
  }
  if (interpreter === 'poker') {
    return result.cards?.length ? `Poker: the best hand is ${result.hand} (${result.cards.map(suit).join(' ')}), first seen in frame ${result.frame}.`
      : 'Poker: no cards were seen.';
  }
  if (interpreter === 'tennis-contact') {
    const contacts = result.contacts ?? [];
    return contacts.length ? `Tennis contact: ${contacts.length} contact${contacts.length === 1 ? '' : 's'}, at ${contacts.map((c) => `${c.time.toFixed(2)} s`).join(', ')}.`
      : 'Tennis contact: no racket–ball contact.';
  }
  if (interpreter === 'passthrough') return 'Passthrough: the raw detections of every frame are in the JSON.';
  return '';
}

/** The frame with each track's recent centres as `trails` (the overlay draws them), from the frames before it. */
function withTrails(frames, index) {
  const frame = frames[index];
  if (!frame.detections?.some((d) => d.trackId != null)) return frame;
  const ids = new Set(frame.detections.map((d) => d.trackId).filter((id) => id != null));
  const points = new Map([...ids].map((id) => [id, []]));
  for (let i = Math.max(0, index - TRAIL_FRAMES); i <= index; i++) {
    for (const d of frames[i].detections ?? []) {
      if (points.has(d.trackId)) points.get(d.trackId).push([(d.box.x1 + d.box.x2) / 2, (d.box.y1 + d.box.y2) / 2]);
    }
  }
  return { ...frame, trails: [...points].map(([trackId, p]) => ({ trackId, points: p })) };
}

function megabytes(bytes) { return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} kB`; }

/**
 * The video input, wired to the page's own pieces: `page` gives `state`, `query()`, `sliderValue(k)`,
 * `showResult(frame, document)`, `clearDrawing()`, `banner(interpretation)`, `error(text)`, `status({...})`,
 * `fitMedia()` and `placeholder(show)`.
 */
export function createVideoInput(page) {
  const clip = $('clip');
  const v = {
    file: null, job: null, source: null, xhr: null, result: null, frames: [], timeline: [], index: -1,
    lastTime: null, followed: 0,
  };
  $('stride').value = String(DEFAULT_STRIDE);
  $('stride').max = String(MAX_STRIDE);

  const active = () => page.state.input === 'video';

  function say(text) { $('video-state').textContent = text; }

  function enter() {
    $('image').hidden = true;
    clip.hidden = !v.result;
    page.placeholder(!v.result);
    $('placeholder').firstElementChild.textContent = 'Choose a video on the right, or drop one here.';
    page.fitMedia();
    if (v.result) { v.index = -1; drawAt(clip.currentTime); } else $('status').textContent = 'No video yet.';
  }

  function leave() {
    clip.pause();
    clip.hidden = true;
  }

  function open(file) {
    v.file = file;
    $('video-name').textContent = `${file.name} · ${megabytes(file.size)}`;
    $('video-start').disabled = false;
    page.error('');
    say('Press Start to run the model over it.');
  }

  function stride() {
    const text = $('stride').value.trim();
    const n = Number(text);
    return /^\d+$/.test(text) && n >= 1 && n <= MAX_STRIDE ? n : null;
  }

  async function start() {
    if (!v.file) return;
    if (!page.state.model) { page.error('Choose a model first.'); return; }
    const n = stride();
    if (n == null) { page.error(`The stride must be a whole number of frames from 1 to ${MAX_STRIDE}.`); return; }
    page.error('');
    await stop();
    const q = page.query();
    q.set('stride', String(n));
    showProgress(0, 'Uploading…');
    $('video-start').disabled = true;
    $('video-cancel').hidden = false;
    const xhr = v.xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/detect/video?${q}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.setRequestHeader('X-Filename', encodeURIComponent(v.file.name));
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) showProgress(0, `Uploading ${Math.round(100 * e.loaded / e.total)} %…`); };
    xhr.onload = () => {
      if (xhr !== v.xhr) return;
      v.xhr = null;
      let body = null;
      try { body = JSON.parse(xhr.responseText); } catch { body = null; }
      if (xhr.status !== 202 || !body?.job) {
        idle();
        page.error(body?.error ?? `The server answered ${xhr.status}.`);
        return;
      }
      follow(body.job);
    };
    xhr.onerror = () => { if (xhr === v.xhr) { v.xhr = null; idle(); page.error('The video could not be sent: the connection to the server failed.'); } };
    xhr.send(v.file);
  }

  /** Cancels the upload or the job in progress (the server deletes its files). */
  async function stop() {
    if (v.xhr) { const x = v.xhr; v.xhr = null; x.abort(); }
    v.source?.close(); v.source = null;
    const job = v.job;
    if (job && !['done', 'failed', 'cancelled'].includes(job.state)) {
      v.job = null;
      await fetch(`/api/detect/jobs/${job.id}`, { method: 'DELETE', credentials: 'same-origin' }).catch(() => {});
      say('Cancelled.');
    }
    idle();
  }

  function idle() {
    $('video-start').disabled = !v.file;
    $('video-cancel').hidden = true;
  }

  function showProgress(fraction, text) {
    const bar = $('video-progress');
    bar.hidden = false;
    bar.value = fraction;
    bar.setAttribute('aria-valuetext', `${Math.round(fraction * 100)} %`);
    say(text);
  }

  /** Follows a job's events until its final state; a broken stream falls back to asking now and then. */
  function follow(job) {
    const followed = ++v.followed;
    v.job = job;
    showJob(job);
    const source = v.source = new EventSource(`/api/detect/jobs/${job.id}/events`);
    source.addEventListener('job', (e) => { if (followed === v.followed) showJob(JSON.parse(e.data)); });
    source.onerror = () => {
      source.close();
      if (followed !== v.followed || !v.job || ['done', 'failed', 'cancelled'].includes(v.job.state)) return;
      setTimeout(async () => {
        if (followed !== v.followed) return;
        try {
          const r = await fetch(`/api/detect/jobs/${job.id}`, { credentials: 'same-origin' });
          if (r.ok) { showJob(await r.json()); if (!['done', 'failed', 'cancelled'].includes(v.job?.state)) follow(v.job); }
        } catch { /* the next attempt says more */ }
      }, 1000);
    };
  }

  function showJob(job) {
    const previous = v.job;
    v.job = job;
    const frames = job.framesTotal ? `${job.framesDone} of ${job.framesTotal} frames` : `${job.framesDone} frames`;
    if (job.state === 'queued') showProgress(0, 'Waiting for the video before it…');
    else if (job.state === 'running') showProgress(job.progress, `${Math.round(job.progress * 100)} % · ${frames}`);
    else if (job.state === 'done') {
      showProgress(1, `100 % · ${job.framesDone} frames at ${(job.meanFps ?? 0).toFixed(1)} FPS`);
      v.source?.close(); v.source = null;
      idle();
      if (previous?.state !== 'done' || !v.result) load(job);
    } else {
      v.source?.close(); v.source = null;
      $('video-progress').hidden = true;
      say(job.state === 'cancelled' ? 'Cancelled.' : 'Failed.');
      if (job.state === 'failed') page.error(job.error ?? 'The video could not be processed.');
      idle();
    }
  }

  async function load(job) {
    let result;
    try {
      const r = await fetch(job.result, { credentials: 'same-origin' });
      result = await r.json();
      if (!r.ok) throw new Error(result?.error ?? `The server answered ${r.status}.`);
    } catch (e) { page.error(`The results could not be loaded: ${e.message}`); return; }
    if (v.job?.id !== job.id) return;
    v.result = result;
    v.frames = result.results ?? [];
    v.timeline = timeline(result.interpretation);
    v.index = -1; v.lastTime = null;
    const summary = summaryText(result.interpretation);
    $('video-summary').textContent = summary;
    $('video-summary').hidden = !summary;
    const stem = job.fileName.replace(/\.[^.]*$/, '');
    $('video-mp4').href = job.video;
    $('video-mp4').setAttribute('download', `${stem}-${job.model}-annotated.mp4`);
    $('video-json').href = job.result;
    $('video-json').setAttribute('download', `${stem}-${job.model}.json`);
    $('video-links').hidden = false;
    clip.src = job.source;
    if (active()) { clip.hidden = false; page.placeholder(false); }
  }

  /** Draws the processed frame nearest media time `t` (again when `force`), and the banners playback passed. */
  function drawAt(t, force = false) {
    if (!v.result || !active()) return;
    const i = nearestFrame(v.frames, t);
    passBanners(t);
    if (i < 0 || (i === v.index && !force)) return;
    v.index = i;
    const raw = v.frames[i];
    page.showResult(filtered(withTrails(v.frames, i)), { job: v.job?.id, model: v.result.model, frame: raw });
    const sp = raw.speed ?? {};
    page.status({ fps: v.job?.meanFps ?? null, pre: sp.preMs, inference: sp.inferenceMs, post: sp.postMs, network: null,
      count: page.state.result?.detections?.length ?? 0, width: raw.width, height: raw.height });
    $('overlay').dataset.frame = String(raw.frame);
  }

  /** The frame as the sliders show it: confidence and the class filter apply at once, on the page. */
  function filtered(frame) {
    const conf = page.sliderValue('conf'), classes = page.state.classes;
    const keep = (d) => d.confidence >= conf && (!classes || classes.has(d.classId));
    return { ...frame, detections: (frame.detections ?? []).filter(keep) };
  }

  function passBanners(t) {
    const last = v.lastTime;
    v.lastTime = t;
    if (last == null || t <= last || t - last > SEEK_SECONDS) return;
    for (const entry of v.timeline) if (entry.time > last && entry.time <= t) page.banner(entry.interpretation);
  }

  // Drawing in step with the picture: once per frame the browser presents where it can, else on time updates
  // and animation frames while playing.
  if ('requestVideoFrameCallback' in HTMLVideoElement.prototype) {
    const tick = (_, meta) => { drawAt(meta.mediaTime); clip.requestVideoFrameCallback(tick); };
    clip.requestVideoFrameCallback(tick);
  } else {
    const tick = () => { drawAt(clip.currentTime); if (!clip.paused) requestAnimationFrame(tick); };
    clip.addEventListener('play', () => requestAnimationFrame(tick));
    clip.addEventListener('timeupdate', () => drawAt(clip.currentTime));
  }
  clip.addEventListener('seeked', () => drawAt(clip.currentTime));
  clip.addEventListener('loadeddata', () => { page.fitMedia(); drawAt(clip.currentTime, true); });
  clip.addEventListener('error', () => { if (clip.getAttribute('src')) page.error('This browser cannot play the video; the annotated MP4 can still be downloaded.'); });

  $('video-file').addEventListener('change', (e) => e.target.files[0] && open(e.target.files[0]));
  $('video-start').addEventListener('click', start);
  $('video-cancel').addEventListener('click', stop);
  $('stride').addEventListener('change', () => { if (stride() == null) page.error(`The stride must be a whole number of frames from 1 to ${MAX_STRIDE}.`); else page.error(''); });
  const drop = $('video-drop');
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => { e.preventDefault(); drop.classList.remove('over'); if (e.dataTransfer.files[0]) open(e.dataTransfer.files[0]); });
  window.addEventListener('pagehide', () => { v.source?.close(); });

  return {
    enter, leave, open,
    /** A slider or filter moved: confidence and classes redraw now; the rest apply to the next Start. */
    settingsChanged(change) {
      if ('conf' in change || 'classes' in change) { drawAt(clip.currentTime, true); }
      if (v.result && Object.keys(change).some((k) => k !== 'conf' && k !== 'classes')) {
        say('IoU, max detections, the interpreter and tracking apply when you press Start again.');
      }
    },
    /** Another model was chosen: the drawing stays (it is the job's), and the page says whose it is. */
    modelChanged() {
      if (!v.result) return;
      drawAt(clip.currentTime, true);
      const model = page.state.model?.id;
      if (model && v.job?.model !== model) say(`These detections are from ${v.job.model}; press Start to run ${model} over the video.`);
    },
    /** The whole result document (the page's Results (JSON) button), or null before one is loaded. */
    resultLink() { return v.result ? $('video-json') : null; },
  };
}
