// Trends across sessions: consistency, mean forward / height, wrist speed.
import { api, fmt, colors, el } from './api.js';
import { lineChart } from './charts.js';

async function load() {
  const { sessions } = await api('/api/sessions');
  const ordered = [...sessions].reverse();
  if (ordered.length === 0) { document.getElementById('intro').replaceChildren('No sessions yet. ', el('a', { href: '/sessions/new' }, 'Analyse a video'), ' to start your progress.'); }
  const xs = ordered.map((_, i) => i), xLabels = ordered.map((s) => fmt.shortDate(s.createdAt));
  lineChart(document.getElementById('consistency'), xs, [{ values: ordered.map((s) => s.consistency), color: colors.accent }], { xLabels, yMin: 0, yMax: 100 });
  lineChart(document.getElementById('position'), xs, [
    { values: ordered.map((s) => s.meanForwardCm), color: colors.accent },
    { values: ordered.map((s) => s.meanHeightCm), color: colors.amber },
  ], { xLabels });
  lineChart(document.getElementById('speed'), xs, [{ values: ordered.map((s) => s.meanWristSpeedCmS), color: colors.blue }], { xLabels });
}
load();
window.addEventListener('resize', load);
