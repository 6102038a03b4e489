// Sessions, newest first, with a trend chart and the running job (if any).
import { api, el, fmt, preferredHand, colors } from './api.js';
import { lineChart } from './charts.js';

const list = document.getElementById('sessions');

async function load() {
  const [{ sessions }, hand, { jobs }] = await Promise.all([api('/api/sessions'), preferredHand(), api('/api/jobs')]);
  if (!hand && sessions.length === 0) { location.replace('/onboarding'); return; }
  showJob(jobs.find((j) => j.state === 'queued' || j.state === 'running'));
  document.getElementById('empty').hidden = sessions.length > 0;
  list.replaceChildren(...sessions.map(row));
  const trend = document.getElementById('trend-card');
  trend.hidden = sessions.length < 2;
  if (!trend.hidden) drawTrend(sessions);
}

function showJob(job) {
  const banner = document.getElementById('job-banner');
  if (!job) { banner.hidden = true; return; }
  banner.hidden = false;
  banner.replaceChildren(el('strong', {}, `Analysing ${job.file}`), ' — ',
    job.stageName ? `${job.stageName} (${Math.round(job.progress * 100)} %)` : 'waiting to start', ' · ',
    el('a', { href: `/sessions/new?job=${job.id}` }, 'watch it'));
  setTimeout(async () => {
    const now = await api(`/api/jobs/${job.id}`);
    if (now.state === 'queued' || now.state === 'running') showJob(now); else load();
  }, 2000);
}

function row(s) {
  const thumb = el('img', { class: 'thumb', src: `/api/sessions/${s.id}/thumbnail.jpg`, alt: '', loading: 'lazy', decoding: 'async' });
  const remove = el('button', { type: 'button', class: 'danger', 'aria-label': `Delete session ${s.file}`, onclick: () => confirmDelete(s) }, 'Delete');
  return el('li', { class: 'session' }, thumb,
    el('div', {},
      el('a', { class: 'open', href: `/sessions/${s.id}` }, s.file),
      el('div', { class: 'meta' }, `${fmt.date(s.createdAt)} · ${fmt.seconds(s.duration)} · ${s.shots} shot${s.shots === 1 ? '' : 's'}`),
      el('div', { class: 'meta' }, s.meanForwardCm == null ? 'no contact measured' : `contact ${fmt.cm(s.meanForwardCm)} in front, ${fmt.cm(s.meanHeightCm)} high`), remove),
    el('div', { class: 'score' }, s.consistency == null ? '–' : s.consistency.toFixed(0), el('small', {}, 'consistency')));
}

function confirmDelete(s) {
  const dialog = document.getElementById('confirm-delete');
  document.getElementById('confirm-text').textContent = `${s.file} (${fmt.date(s.createdAt)}) and its video will be deleted.`;
  dialog.onclose = async () => {
    if (dialog.returnValue !== 'delete') return;
    await api(`/api/sessions/${s.id}`, { method: 'DELETE' });
    load();
  };
  dialog.showModal();
}

function drawTrend(sessions) {
  const ordered = [...sessions].reverse();
  lineChart(document.getElementById('trend'), ordered.map((_, i) => i), [
    { values: ordered.map((s) => s.consistency), color: colors.accent, label: 'consistency' },
    { values: ordered.map((s) => s.meanForwardCm), color: colors.blue, label: 'forward cm' },
  ], { xLabels: ordered.map((s) => fmt.shortDate(s.createdAt)) });
}

load().catch((e) => list.replaceChildren(el('li', { class: 'error' }, e.message)));
