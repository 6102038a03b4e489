// Trends across sessions: consistency, mean forward / height, wrist speed — of every shot, or of one
// stroke type (a forehand and a serve meet the ball in different places, so each is followed on its own).
import { api, fmt, colors, el, vocabulary } from './api.js';
import { lineChart } from './charts.js';

const { strokes } = await vocabulary();
const STROKES = strokes.map((s) => s.id);
const names = Object.fromEntries(strokes.map((s) => [s.id, s.plural]));
let sessions = [], stroke = 'all';

async function load() {
  ({ sessions } = await api('/api/sessions'));
  if (sessions.length === 0) { document.getElementById('intro').replaceChildren('No sessions yet. ', el('a', { href: '/sessions/new' }, 'Analyse a video'), ' to start your progress.'); }
  buttons();
  draw();
}

function buttons() {
  const present = STROKES.filter((k) => sessions.some((s) => s.byStroke?.[k]));
  const group = document.getElementById('strokes');
  group.hidden = present.length === 0;
  const button = (key, label) => el('button', { type: 'button', 'data-stroke': key, 'aria-pressed': String(stroke === key),
    onclick: () => { stroke = key; buttons(); draw(); } }, label);
  group.replaceChildren(button('all', 'All strokes'), ...present.map((k) => button(k, names[k])));
}

function draw() {
  // Oldest first; with a stroke chosen, only the sessions that have it.
  const ordered = [...sessions].reverse().map((s) => (stroke === 'all' ? s : s.byStroke?.[stroke] && { ...s.byStroke[stroke], createdAt: s.createdAt }))
    .filter(Boolean);
  const xs = ordered.map((_, i) => i), xLabels = ordered.map((s) => fmt.shortDate(s.createdAt));
  lineChart(document.getElementById('consistency'), xs, [{ values: ordered.map((s) => s.consistency), color: colors.accent }], { xLabels, yMin: 0, yMax: 100 });
  lineChart(document.getElementById('position'), xs, [
    { values: ordered.map((s) => s.meanForwardCm), color: colors.accent },
    { values: ordered.map((s) => s.meanHeightCm), color: colors.amber },
  ], { xLabels });
  lineChart(document.getElementById('speed'), xs, [{ values: ordered.map((s) => s.meanWristSpeedCmS), color: colors.blue }], { xLabels });
}
load();
window.addEventListener('resize', () => draw());
