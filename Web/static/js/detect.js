// The studio: a YOLO model from the catalog on a picture (POST /api/detect) or the camera (a WebSocket to
// /api/detect/live), the results drawn over it, the model's speed, and interpreter banners (docs/studio.md).
import { api, el } from './api.js';
import { classColor, drawResult } from './overlay.js';
import { EXAMPLES } from './examples.js';
import { Banners } from './banners.js';
import { createVideoInput } from './detect-video.js';
import { TennisSwitch, drawPlayer } from './tennis.js';

const $ = (id) => document.getElementById(id);
const TASKS = ['detect', 'segment', 'classify', 'pose', 'obb'];
const TASK_NAMES = { detect: 'detection', segment: 'segmentation', classify: 'classification', pose: 'pose', obb: 'rotated-box (OBB)' };
const INTERPRETERS = [['', 'None'], ['passthrough', 'Passthrough'], ['counter', 'Counter'], ['poker', 'Poker hand'],
  ['tennis-contact', 'Tennis contact']];
const MAX_SIDE = 2048;          // a bigger picture is scaled down before it is sent
const LIVE_SIDE = 960;          // camera frames are sent at most this long
const MAX_IN_FLIGHT = 2;        // camera frames sent and not yet answered

const state = {
  models: [], model: null, task: 'detect', input: 'image',
  image: null,        // {blob, name, width, height}
  result: null,       // the frame drawn: {width, height, detections, classification?}
  document: null,     // the last whole answer (image) or result message (camera), for the JSON panel
  classes: null,      // null = all; else a Set of class ids
};

// -- settings ---------------------------------------------------------------------------------------

const sliders = ['conf', 'iou', 'maxDet', 'lineWidth'];
const sliderValue = (k) => (k === 'maxDet' || k === 'lineWidth' ? parseInt($(k).value, 10) : parseFloat($(k).value));

function showSlider(k) { $(`${k}-out`).textContent = k === 'conf' || k === 'iou' ? sliderValue(k).toFixed(2) : String(sliderValue(k)); }

function setSlider(k, v) {
  if (v == null || Number.isNaN(v)) return;
  const input = $(k);
  if (k === 'maxDet' && v > Number(input.max)) input.max = String(v);
  input.value = String(v);
  showSlider(k);
}

function query() {
  const q = new URLSearchParams({ model: state.model.id });
  for (const k of ['conf', 'iou', 'maxDet']) q.set(k, String(sliderValue(k)));
  if (state.classes) q.set('classes', [...state.classes].sort((a, b) => a - b).join(','));
  // Always said, "none" included: an unset value would take the model's stored default interpreter.
  q.set('interpret', $('interpreter').value || 'none');
  if ($('track').checked) q.set('track', '1');
  return tennis.query(q);
}

function applyDefaults(model) {
  const d = model.defaults ?? {};
  setSlider('conf', d.conf ?? 0.25);
  setSlider('iou', d.iou ?? 0.45);
  setSlider('maxDet', d.maxDet ?? 300);
  setSlider('lineWidth', d.lineWidth ?? 2);
  $('interpreter').value = d.interpreter ?? '';
}

// -- models and task tabs ---------------------------------------------------------------------------

async function loadModels() {
  const { models } = await api('/api/models');
  state.models = models.filter((m) => m.kind === 'yolo' && !m.problem);
  const wanted = new URLSearchParams(location.search).get('model');
  let pick = null;
  if (wanted) {
    pick = state.models.find((m) => m.id === wanted);
    if (!pick) {
      try {
        const m = await api(`/api/models/${encodeURIComponent(wanted)}`);
        if (m.kind === 'blazepose') notice(`${m.name} is a BlazePose model used by the session analysis; it does not run in the studio.`);
        else if (m.kind !== 'yolo' || m.problem) notice(`${m.name} cannot run: ${m.problem ?? 'it is not a YOLO model.'}`);
        else { state.models.push(m); pick = m; }   // a hidden model, asked for by name
      } catch (e) { notice(e.message); }
    }
  }
  pick ??= state.models.find((m) => m.task === 'detect') ?? state.models[0] ?? null;
  selectTask(pick?.task ?? 'detect', pick);
}

function note(text) { $('model-note').textContent = text; }

/** A sentence about the model asked for in the address, kept above the model actually shown. */
function notice(text) { state.notice = text; note(text); }

function selectTask(task, model = null) {
  state.task = TASKS.includes(task) ? task : 'detect';
  for (const tab of $('tasks').querySelectorAll('[role=tab]')) {
    const on = tab.dataset.task === state.task;
    tab.setAttribute('aria-selected', on ? 'true' : 'false');
    tab.tabIndex = on ? 0 : -1;
    const count = state.models.filter((m) => m.task === tab.dataset.task).length;
    tab.classList.toggle('empty', count === 0);
  }
  $('model-row').setAttribute('aria-labelledby', `tab-${state.task}`);
  const list = state.models.filter((m) => m.task === state.task);
  const select = $('model');
  if (!list.length) {
    select.replaceChildren(el('option', { value: '' }, `No ${TASK_NAMES[state.task]} model yet`));
    select.disabled = true;
    note(state.notice ? `${state.notice} ` : '');
    $('model-note').append(`Add a ${TASK_NAMES[state.task]} model (an Ultralytics YOLO .onnx export) on the `,
      el('a', { href: '/models' }, 'Models page'), '.');
    useModel(null);
    return;
  }
  select.disabled = false;
  select.replaceChildren(...list.map((m) => el('option', { value: m.id }, m.favorite ? `★ ${m.name.trim()}` : m.name.trim())));
  const chosen = model && list.includes(model) ? model : list[0];
  select.value = chosen.id;
  useModel(chosen);
}

function useModel(model) {
  state.model = model;
  if (model) {
    note(state.notice ? `${state.notice} Showing ${describe(model)}.` : describe(model));
    const q = new URLSearchParams(location.search); q.set('model', model.id);
    history.replaceState(null, '', `?${q}`);
    applyDefaults(model);
  }
  tennis.useModel(model);
  buildChips(model?.labels ?? []);
  // A classifier answers its top five classes: overlap, a box count and a class filter mean nothing to it.
  const classify = model?.task === 'classify';
  for (const k of ['iou', 'maxDet']) $(k).closest('.slider').hidden = classify;
  if (classify) $('classes-box').hidden = true;
  clearDrawing();
  if (state.input === 'image') runImage();
  else if (state.input === 'video') video.modelChanged();
  else restartLive();
}

function describe(m) {
  const size = m.inputSize?.length === 2 ? `${m.inputSize[1]}×${m.inputSize[0]}` : 'any size';
  return `${m.id} · input ${size} · ${m.labels?.length ?? 0} classes`;
}

// -- class filter -----------------------------------------------------------------------------------

function buildChips(labels) {
  state.classes = null;
  $('classes').replaceChildren(...labels.map((label, id) => el('button', {
    type: 'button', class: 'chip', 'aria-pressed': 'true', 'data-class': id,
    onclick: (e) => toggleClass(id, e.currentTarget),
  }, el('span', { class: 'swatch', style: `background:${classColor(id)}` }), label)));
  $('classes-box').hidden = labels.length === 0;
  summarizeClasses();
}

function toggleClass(id, chip) {
  const all = state.model?.labels?.length ?? 0;
  const set = state.classes ?? new Set([...Array(all).keys()]);
  if (set.has(id)) set.delete(id); else set.add(id);
  state.classes = set.size === all ? null : set;
  chip.setAttribute('aria-pressed', set.has(id) ? 'true' : 'false');
  summarizeClasses();
  settingsChanged({ classes: state.classes ? [...state.classes].sort((a, b) => a - b) : null });
}

function setAllClasses(on) {
  state.classes = on ? null : new Set();
  for (const chip of $('classes').children) chip.setAttribute('aria-pressed', on ? 'true' : 'false');
  summarizeClasses();
  settingsChanged({ classes: on ? null : [] });
}

function summarizeClasses() {
  const n = state.classes?.size;
  $('classes-summary').textContent = n == null ? 'Classes: all' : n === 0 ? 'Classes: none (nothing is kept)'
    : `Classes: ${n} of ${state.model?.labels?.length ?? 0}`;
}

// -- the picture and the drawing --------------------------------------------------------------------

const overlay = $('overlay');

function displayed() {
  return state.input === 'camera' ? $('camera') : state.input === 'video' ? $('clip') : $('image');
}

/** The picture's own size: a video's frames, a canvas's pixels. */
function naturalSize(media) {
  return media instanceof HTMLVideoElement ? [media.videoWidth, media.videoHeight] : [media.width, media.height];
}

function redraw() {
  const media = displayed();
  const width = media.clientWidth, height = media.clientHeight;
  const ratio = window.devicePixelRatio || 1;
  if (!width || !height) return;
  const w = Math.round(width * ratio), h = Math.round(height * ratio);
  if (overlay.width !== w || overlay.height !== h) { overlay.width = w; overlay.height = h; }
  const ctx = overlay.getContext('2d');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  drawResult(ctx, state.result, { width, height }, { lineWidth: sliderValue('lineWidth') });
  overlay.dataset.bones = String(drawPlayer(ctx, state.result?.pose, state.skeleton, { width, height }, { lineWidth: sliderValue('lineWidth') }));
}

function clearDrawing() {
  state.result = null;
  overlay.getContext('2d').clearRect(0, 0, overlay.width, overlay.height);
  overlay.dataset.detections = '0';
}

function showResult(frame, document) {
  state.result = frame;
  state.document = document;
  overlay.dataset.detections = String(frame?.detections?.length ?? 0);
  redraw();
  $('snapshot').disabled = false;
  $('download').disabled = false;
  if ($('raw-box').open) showRaw();
}

/** The JSON for reading: number arrays on one line, a mask's long run list cut short (the download has all). */
function readable(document) {
  const text = JSON.stringify(document, (key, value) => (key === 'counts' && Array.isArray(value) && value.length > 16
    ? `${value.slice(0, 12).join(', ')}, … (${value.length} runs in all)` : value), 1);
  return text.replace(/\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]/g, (_, inner) => `[${inner.replace(/\s+/g, ' ')}]`);
}

function showRaw() {
  const text = state.document ? readable(state.document) : '';
  $('raw').textContent = text.length > 200000 ? `${text.slice(0, 200000)}\n… (${text.length} characters; download the JSON for all)` : text;
}

/**
 * Sizes the picture (or the video) to the space it has: as wide as its column, at most ~70 % of the window's
 * height, never more than 3× its own size; the drawing follows through the ResizeObserver below.
 */
function fitMedia() {
  const media = displayed();
  const [w, h] = naturalSize(media);
  if (media.hidden || !w || !h) return;
  const room = $('picture').parentElement.clientWidth;
  const tall = window.innerHeight * (window.innerWidth >= 900 ? 0.72 : 0.62);
  const scale = Math.min(room / w, tall / h, 3);
  media.style.width = `${Math.floor(w * scale)}px`;
  media.style.height = `${Math.floor(h * scale)}px`;
}

new ResizeObserver(() => redraw()).observe($('picture'));
new ResizeObserver(() => fitMedia()).observe($('picture').parentElement);
window.addEventListener('resize', fitMedia);
$('camera').addEventListener('loadedmetadata', fitMedia);
$('camera').addEventListener('resize', fitMedia);
$('clip').addEventListener('loadedmetadata', fitMedia);

function placeholder(show) { $('placeholder').hidden = !show; }

function error(message) { const p = $('error'); p.textContent = message ?? ''; p.hidden = !message; }

// -- status bar -------------------------------------------------------------------------------------

const ms = (v) => (v == null || Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(1) : v.toFixed(0));

function status({ live: isLive = false, fps = null, pre, inference, post, network, count, width, height, dropped = null, pose = null }) {
  const m = state.model;
  const size = m?.inputSize?.length === 2 ? `${m.inputSize[1]}×${m.inputSize[0]}` : '';
  const s = $('status');
  s.replaceChildren(...[
    el('span', { class: 'st-model' }, m?.id ?? 'no model'),
    size ? el('span', {}, `input ${size}`) : null,
    width ? el('span', {}, `picture ${width}×${height}`) : null,
    el('span', { class: 'st-fps', title: isLive ? 'Answers per second' : 'The rate the model would run at this speed' },
      isLive ? `${(fps ?? 0).toFixed(1)} FPS` : fps ? `≈ ${fps.toFixed(1)} FPS` : 'one picture'),
    el('span', { title: 'preprocess / inference / postprocess / network, in milliseconds' },
      `pre ${ms(pre)} · inference ${ms(inference)} · post ${ms(post)} · network ${ms(network)} ms`),
    pose == null ? null : el('span', { title: 'BlazePose on this frame, in milliseconds (tennis mode)' }, `pose ${ms(pose)} ms`),
    el('span', { class: 'st-count' }, count == null ? '' : m?.task === 'classify' ? 'top classes' : `${count} found`),
    dropped ? el('span', {}, `${dropped} dropped`) : null,
  ].filter(Boolean));
  s.dataset.fps = isLive && fps != null ? fps.toFixed(2) : '';
  s.dataset.detections = count == null ? '' : String(count);
}

// -- image ------------------------------------------------------------------------------------------

let runTimer = null, runAbort = null;

function scheduleRun() { clearTimeout(runTimer); runTimer = setTimeout(runImage, 250); }

async function openImage(file, name = file.name) {
  error('');
  let bitmap;
  try { bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' }); } catch {
    error(`${name} is not a picture this browser can open (try a JPEG or PNG).`);
    return;
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = $('image');
  canvas.width = Math.round(bitmap.width * scale); canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d').drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close?.();
  // A JPEG is sent as drawn, so its EXIF rotation (applied above) and the coordinates agree; a big
  // picture is sent scaled down; anything else as it is.
  let blob = file;
  if (scale < 1 || /jpe?g/i.test(file.type)) blob = await new Promise((r) => canvas.toBlob(r, 'image/jpeg', 0.92));
  state.image = { blob, name, width: canvas.width, height: canvas.height };
  canvas.hidden = false;
  placeholder(false);
  fitMedia();
  clearDrawing();
  runImage();
}

async function runImage() {
  clearTimeout(runTimer);
  if (state.input !== 'image' || !state.image) return;
  if (!state.model) { status({}); return; }
  if (state.classes?.size === 0) { clearDrawing(); status({ count: 0 }); return; }
  runAbort?.abort();
  const abort = runAbort = new AbortController();
  const started = performance.now();
  $('picture').setAttribute('aria-busy', 'true');
  try {
    const body = await api(`/api/detect?${query()}`, {
      method: 'POST', body: state.image.blob, signal: abort.signal,
      headers: { 'Content-Type': state.image.blob.type || 'application/octet-stream' },
    });
    const took = performance.now() - started;
    if (abort !== runAbort) return;
    const frame = body.results?.[0] ?? { width: state.image.width, height: state.image.height, detections: [] };
    const sp = frame.speed ?? {};
    const server = (sp.preMs ?? 0) + (sp.inferenceMs ?? 0) + (sp.postMs ?? 0);
    error('');
    state.skeleton = body.skeleton;
    showResult(frame, body);
    status({ fps: server > 0 ? 1000 / server : null, pre: sp.preMs, inference: sp.inferenceMs, post: sp.postMs, network: Math.max(0, took - server),
      count: frame.detections?.length ?? 0, width: frame.width, height: frame.height });
    if (body.interpretation) banner(body.interpretation);
  } catch (e) {
    if (e.name === 'AbortError') return;
    if (abort === runAbort) { clearDrawing(); error(e.message); }
  } finally {
    if (abort === runAbort) $('picture').removeAttribute('aria-busy');
  }
}

function buildExamples() {
  $('examples').replaceChildren(...EXAMPLES.map((ex) => {
    const thumb = document.createElement('canvas');
    thumb.width = 96; thumb.height = 72;
    ex.draw(thumb.getContext('2d'), 96, 72);
    return el('button', {
      type: 'button', class: 'example', 'aria-label': `Example picture: ${ex.title}`,
      onclick: async () => {
        const canvas = document.createElement('canvas');
        canvas.width = 640; canvas.height = 480;
        ex.draw(canvas.getContext('2d'), 640, 480);
        const blob = await new Promise((r) => canvas.toBlob(r, 'image/png'));
        openImage(blob, `${ex.id}.png`);
      },
    }, thumb, el('span', {}, ex.title));
  }));
}

// -- camera -----------------------------------------------------------------------------------------

const live = {
  stream: null, socket: null, paused: false, sent: 0, answered: 0, sentAt: new Map(), capturing: false,
  arrivals: [], lastAnswerAt: 0, timer: null, wanted: false,
};

function cameraWhy() {
  if (!window.isSecureContext) {
    return `The camera needs a secure page: this browser only lends it to https:// pages and to http://localhost or http://127.0.0.1. Open the studio on the server's own machine, or start the server with HTTPS for a phone (swingmaster serve --tls-cert … --tls-key …; see docs/studio.md).`;
  }
  if (!navigator.mediaDevices?.getUserMedia) return 'This browser cannot lend a camera to a web page.';
  return null;
}

async function startCamera() {
  live.wanted = true;
  const why = cameraWhy();
  const p = $('camera-why');
  p.hidden = !why; p.textContent = why ?? '';
  if (why) { placeholder(true); $('placeholder').firstElementChild.textContent = 'No camera on this page.'; return; }
  $('live-state').textContent = 'Asking for the camera…';
  const deviceId = $('camera-pick').value || undefined;
  try {
    live.stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: deviceId ? { deviceId: { exact: deviceId } } : { facingMode: 'environment', width: { ideal: 1280 }, height: { ideal: 720 } },
    });
  } catch (e) {
    const text = e.name === 'NotAllowedError' ? 'The camera was not allowed. Allow it in the browser’s site settings, then choose Camera again.'
      : e.name === 'NotFoundError' ? 'No camera was found on this device.'
        : e.name === 'NotReadableError' ? 'The camera is busy in another app.' : `The camera could not start (${e.message}).`;
    p.hidden = false; p.textContent = text; $('live-state').textContent = '';
    return;
  }
  if (!live.wanted) { stopStream(); return; }
  const video = $('camera');
  video.srcObject = live.stream;
  video.hidden = false; $('image').hidden = true; placeholder(false);
  fitMedia();
  await video.play().catch(() => {});
  await listCameras();
  $('pause').disabled = false;
  live.paused = false; $('pause').textContent = 'Pause';
  openSocket();
}

async function listCameras() {
  const devices = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput');
  const pick = $('camera-pick');
  const current = live.stream?.getVideoTracks()[0]?.getSettings().deviceId;
  if (devices.length > 1) {
    pick.replaceChildren(...devices.map((d, i) => el('option', { value: d.deviceId, selected: d.deviceId === current }, d.label || `Camera ${i + 1}`)));
  }
  $('camera-pick-label').hidden = devices.length <= 1;
}

function stopStream() {
  live.stream?.getTracks().forEach((t) => t.stop());
  live.stream = null;
  $('camera').srcObject = null;
}

function stopCamera() {
  live.wanted = false;
  closeSocket();
  stopStream();
  $('camera').hidden = true;
  $('pause').disabled = true;
  $('live-state').textContent = '';
}

function openSocket() {
  closeSocket();
  if (!state.model || !live.stream) return;
  const q = query();
  const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/detect/live?${q}`);
  socket.binaryType = 'arraybuffer';
  tennis.reset();
  live.socket = socket; live.ready = false; live.sent = 0; live.answered = 0; live.sentAt.clear(); live.arrivals = [];
  $('live-state').textContent = 'Connecting…';
  socket.onopen = () => { $('live-state').textContent = 'Connected, waiting for the model…'; };
  socket.onmessage = (e) => { if (socket === live.socket && typeof e.data === 'string') message(JSON.parse(e.data)); };
  socket.onclose = (e) => {
    if (socket !== live.socket) return;
    live.socket = null;
    if (live.wanted) {
      $('live-state').textContent = '';
      error(e.reason ? `The live connection closed: ${e.reason}` : 'The live connection to the server closed. Choose Camera again to reconnect.');
    }
  };
  clearInterval(live.timer);
  live.timer = setInterval(pump, 15);
}

function closeSocket() {
  clearInterval(live.timer);
  const s = live.socket;
  live.socket = null;
  if (s && s.readyState <= 1) s.close(1000, 'closed by the page');
}

function restartLive() { if (state.input === 'camera' && live.stream) openSocket(); }

/** Sends the next frame when the socket is ready and fewer than MAX_IN_FLIGHT frames wait for an answer. */
function pump() {
  const s = live.socket, video = $('camera');
  if (!s || s.readyState !== 1 || !live.ready || live.paused || live.capturing || video.readyState < 2) return;
  if (live.sent - live.answered >= MAX_IN_FLIGHT) {
    // Safety net: an answer that never comes (a frame refused without a frame id) must not stall the camera.
    if (performance.now() - live.lastAnswerAt > 3000) live.answered = live.sent; else return;
  }
  if (state.classes?.size === 0) return;
  const scale = Math.min(1, LIVE_SIDE / Math.max(video.videoWidth, video.videoHeight));
  const canvas = live.canvas ??= document.createElement('canvas');
  canvas.width = Math.round(video.videoWidth * scale); canvas.height = Math.round(video.videoHeight * scale);
  canvas.getContext('2d').drawImage(video, 0, 0, canvas.width, canvas.height);
  live.capturing = true;
  canvas.toBlob(async (blob) => {
    try {
      if (!blob || s !== live.socket || s.readyState !== 1) return;
      const buffer = await blob.arrayBuffer();
      if (s !== live.socket || s.readyState !== 1) return;
      s.send(buffer);
      live.sent += 1;
      live.sentAt.set(live.sent, performance.now());
      if (live.sent - live.answered === 1) live.lastAnswerAt = performance.now();
    } finally {
      live.capturing = false;
    }
  }, 'image/jpeg', 0.8);
}

function message(m) {
  if (m.type === 'ready') {
    live.ready = true;
    state.skeleton = m.skeleton;
    live.lastAnswerAt = performance.now();
    $('live-state').textContent = 'Live';
    error('');
  } else if (m.type === 'result') {
    const now = performance.now();
    const sentAt = live.sentAt.get(m.frameId);
    // A frame sent while another was being processed waited on the server until about when that one's
    // answer arrived here; the round trip minus serverMs would count the wait as network.
    const previous = live.arrivals.at(-1) ?? 0;
    for (const id of live.sentAt.keys()) if (id <= m.frameId) live.sentAt.delete(id);
    live.answered = Math.max(live.answered, m.frameId);
    live.lastAnswerAt = now;
    live.arrivals.push(now);
    while (live.arrivals.length > 2 && now - live.arrivals[0] > 2000) live.arrivals.shift();
    const span = (live.arrivals.at(-1) - live.arrivals[0]) / 1000;
    const fps = live.arrivals.length > 1 && span > 0 ? (live.arrivals.length - 1) / span : (m.fps ?? 0);
    const t = m.timings ?? {};
    showResult(m, m);
    status({ live: true, fps, pre: (t.decodeMs ?? 0) + (t.preMs ?? 0), inference: t.inferenceMs, post: t.postMs,
      network: sentAt == null ? null : Math.max(0, now - Math.max(sentAt, previous) - (t.serverMs ?? 0)),
      count: m.detections?.length ?? 0, width: m.width, height: m.height, dropped: m.dropped, pose: t.poseMs });
    if (m.interpretation && tennis.admit(m.interpretation)) banner(m.interpretation, m.crossings);
  } else if (m.type === 'settings') {
    live.settings = m.settings;
  } else if (m.type === 'error') {
    error(m.error);
  }
}

// -- settings changes -------------------------------------------------------------------------------

let pendingSettings = {}, settingsTimer = null;

/** A changed setting: the image runs again (debounced), the camera sends it (coalesced). */
function settingsChanged(change) {
  if (state.input === 'video') { video.settingsChanged(change); return; }
  if (state.input === 'image') { scheduleRun(); return; }
  if (change.classes?.length === 0) { clearDrawing(); return; }   // no frame is sent while no class is kept
  Object.assign(pendingSettings, change);
  if (settingsTimer) return;
  settingsTimer = setTimeout(() => {
    settingsTimer = null;
    const body = pendingSettings; pendingSettings = {};
    if (live.socket?.readyState === 1) live.socket.send(JSON.stringify(body));
  }, 120);
}

for (const k of sliders) {
  $(k).addEventListener('input', () => {
    showSlider(k);
    if (k === 'lineWidth') redraw(); else settingsChanged({ [k]: sliderValue(k) });
  });
}

// -- banners ----------------------------------------------------------------------------------------

const banners = new Banners($('banners'));
const banner = (interpretation, crossings) => banners.show(interpretation, crossings);

// -- snapshot and download --------------------------------------------------------------------------

function download(blob, name) {
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

function stamp() { return new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-'); }

$('snapshot').addEventListener('click', () => {
  const media = displayed();
  const [width, height] = naturalSize(media);
  if (!width || !height) return;
  const canvas = document.createElement('canvas');
  canvas.width = width; canvas.height = height;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(media, 0, 0, width, height);
  const ctxOverlay = document.createElement('canvas');
  ctxOverlay.width = width; ctxOverlay.height = height;
  // The lines keep the thickness they have on screen, relative to the picture.
  const lw = sliderValue('lineWidth') * width / Math.max(media.clientWidth, 1);
  drawResult(ctxOverlay.getContext('2d'), state.result, { width, height }, { lineWidth: lw });
  drawPlayer(ctxOverlay.getContext('2d'), state.result?.pose, state.skeleton, { width, height }, { lineWidth: lw });
  ctx.drawImage(ctxOverlay, 0, 0);
  canvas.toBlob((blob) => blob && download(blob, `studio-${state.model?.id ?? 'picture'}-${stamp()}.png`), 'image/png');
});

$('download').addEventListener('click', () => {
  if (state.input === 'video' && video.resultLink()) { video.resultLink().click(); return; }
  if (!state.document) return;
  download(new Blob([JSON.stringify(state.document, null, 2)], { type: 'application/json' }),
    `studio-${state.model?.id ?? 'result'}-${stamp()}.json`);
});

$('raw-box').addEventListener('toggle', () => { if ($('raw-box').open) showRaw(); });

// -- wiring -----------------------------------------------------------------------------------------

function setInput(input) {
  if (input === state.input) return;
  state.input = input;
  clearDrawing();
  error('');
  $('image-panel').hidden = input !== 'image';
  $('camera-panel').hidden = input !== 'camera';
  $('video-panel').hidden = input !== 'video';
  if (input !== 'video') video.leave();
  if (input === 'video') {
    stopCamera();
    $('camera-why').hidden = true;
    video.enter();
  } else if (input === 'camera') {
    $('image').hidden = true;
    $('status').textContent = 'Starting the camera…';
    startCamera();
  } else {
    stopCamera();
    $('camera-why').hidden = true;
    $('image').hidden = !state.image;
    fitMedia();
    $('placeholder').firstElementChild.textContent = 'Pick an image below, drop one here, or start the camera.';
    placeholder(!state.image);
    if (state.image) runImage(); else $('status').textContent = 'No picture yet.';
  }
}

for (const radio of document.querySelectorAll('input[name=input]')) radio.addEventListener('change', (e) => setInput(e.target.value));

$('tasks').addEventListener('click', (e) => {
  const tab = e.target.closest('[role=tab]');
  if (tab) selectTask(tab.dataset.task);
});
$('tasks').addEventListener('keydown', (e) => {
  const i = TASKS.indexOf(state.task);
  const next = e.key === 'ArrowRight' ? (i + 1) % TASKS.length : e.key === 'ArrowLeft' ? (i + TASKS.length - 1) % TASKS.length : null;
  if (next == null) return;
  e.preventDefault();
  selectTask(TASKS[next]);
  $(`tab-${TASKS[next]}`).focus();
});
$('model').addEventListener('change', (e) => useModel(state.models.find((m) => m.id === e.target.value) ?? null));
$('interpreter').replaceChildren(...INTERPRETERS.map(([value, label]) => el('option', { value }, label)));
$('interpreter').addEventListener('change', (e) => settingsChanged({ interpret: e.target.value || null }));
$('track').addEventListener('change', (e) => settingsChanged({ track: e.target.checked }));
// Tennis mode is chosen when the socket opens: switching it reconnects the camera (or re-runs the picture).
const tennis = new TennisSwitch($('tennis'), $('tennis-row'), $('interpreter'), () => {
  clearDrawing();
  if (state.input === 'image') runImage(); else restartLive();
});
$('classes-all').addEventListener('click', () => setAllClasses(true));
$('classes-none').addEventListener('click', () => setAllClasses(false));
$('pause').addEventListener('click', () => {
  live.paused = !live.paused;
  $('pause').textContent = live.paused ? 'Resume' : 'Pause';
  $('pause').setAttribute('aria-pressed', live.paused ? 'true' : 'false');
  $('live-state').textContent = live.paused ? 'Paused' : 'Live';
  const video = $('camera');
  if (live.paused) video.pause(); else video.play().catch(() => {});
});
$('camera-pick').addEventListener('change', async () => { stopCamera(); await startCamera(); });
$('image-file').addEventListener('change', (e) => e.target.files[0] && openImage(e.target.files[0]));
for (const zone of [$('image-drop'), $('picture')]) {
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault(); zone.classList.remove('over');
    const file = e.dataTransfer.files[0];
    if (!file) return;
    const kind = file.type.startsWith('video/') ? 'video' : 'image';
    if (state.input !== kind) { document.querySelector(`input[name=input][value=${kind}]`).checked = true; setInput(kind); }
    if (kind === 'video') video.open(file); else openImage(file);
  });
}
window.addEventListener('pagehide', () => stopCamera());

const video = createVideoInput({ state, query, sliderValue, showResult, clearDrawing, banner, error, status, fitMedia, placeholder });

for (const k of sliders) showSlider(k);
buildExamples();
loadModels().catch((e) => { error(`The models could not be loaded: ${e.message}`); });
