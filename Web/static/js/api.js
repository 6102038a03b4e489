// Shared by every page: API calls with the server's error sentences, formatting, the nav highlight.

/** Fetches JSON; a non-2xx answer throws an Error carrying the server's sentence. */
export async function api(path, options = {}) {
  const response = await fetch(path, { credentials: 'same-origin', ...options });
  if (response.status === 204) return null;
  const text = await response.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = null; }
  if (!response.ok) {
    const error = new Error(body?.error ?? `The server answered ${response.status}.`);
    error.status = response.status; error.code = body?.code;
    throw error;
  }
  return body;
}

export const fmt = {
  cm: (v, digits = 0) => (v == null ? '–' : `${v.toFixed(digits)} cm`),
  num: (v, digits = 0) => (v == null ? '–' : v.toFixed(digits)),
  seconds: (s) => { if (s == null) return '–'; const m = Math.floor(s / 60), r = Math.round(s % 60); return m ? `${m} min ${r} s` : `${s.toFixed(1)} s`; },
  date: (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
  shortDate: (iso) => new Date(iso).toLocaleDateString(undefined, { month: 'short', day: 'numeric' }),
  classification: (c) => (c ? c[0].toUpperCase() + c.slice(1) : 'No person'),
  stroke: (k) => (k ? k[0].toUpperCase() + k.slice(1) : '–'),
  /** A body measure's value (GET /api/vocabulary's bodyMeasures entry m): whole degrees, the stance in shoulder widths. */
  measure: (m, v) => (v == null ? '–' : m.unit === 'deg' ? `${v.toFixed(0)}°` : `${v.toFixed(2)}×`),
};

/** An element from a tag, attributes and children (strings are text, never HTML). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (k === 'class') node.className = v;
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c != null) node.append(c instanceof Node ? c : String(c));
  return node;
}

/** A statistic tile. */
export function stat(label, value, detail, hero = false) {
  return el('div', { class: hero ? 'stat hero-stat' : 'stat' },
    el('div', { class: 'label' }, label), el('div', { class: 'value' }, value), detail ? el('div', { class: 'detail' }, detail) : null);
}

/** The words the pages share with the program (GET /api/vocabulary: analysis stages, job states, stroke
 * types, sensitivity levels), fetched once per page. */
let words = null;
export function vocabulary() { return (words ??= api('/api/vocabulary')); }

/** The preferred hand, or null before onboarding. */
export async function preferredHand() { return (await api('/api/preferences')).hand ?? null; }

/** A canvas sized to its CSS box at the device pixel ratio; returns the 2D context in CSS pixels. */
export function fitCanvas(canvas, cssHeight) {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || canvas.parentElement.clientWidth;
  const height = cssHeight ?? (canvas.clientHeight || width * 0.75);
  canvas.width = Math.round(width * ratio); canvas.height = Math.round(height * ratio);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { ctx, width, height };
}

export const colors = { early: '#7cc4ff', optimal: '#6fdc8c', late: '#ff7a6b', accent: '#c8e04a', blue: '#7cc4ff',
  amber: '#f5c542', grid: '#2e4a3c', text: '#eef4ea', muted: '#a9bcae', red: '#ff7a6b',
  forehand: '#c8e04a', backhand: '#b99cff', serve: '#f5c542',
  // The joint angles (the elbow, the racket-side knee, the other knee), apart from the wrist's colours.
  angles: ['#b99cff', '#5ee0c8', '#ff9ad5'] };

// Highlight the current section in the header.
const page = document.body.dataset.page;
const section = { results: 'home', shot: 'home', detections: 'models' }[page] ?? page;
document.querySelector(`[data-nav="${section}"]`)?.setAttribute('aria-current', 'page');
