// One detection run in words, shared by the detections page and the model cards.
import { el, fmt } from './api.js';

const INTERPRETERS = { passthrough: 'Passthrough', counter: 'Counter', poker: 'Poker hand', 'tennis-contact': 'Tennis contact' };

/** What the run ran on, as a player says it. */
export function sourceName(source) {
  if (!source) return 'a file';
  return { image: 'a picture', camera: 'the camera', video: 'a video' }[source] ?? source;
}

const plural = (n, one, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** The run's numbers and its interpreter's summary, as a small block. */
export function runFacts(r) {
  const seconds = (Date.parse(r.endedAt) - Date.parse(r.startedAt)) / 1000;
  const numbers = [plural(r.frames, 'frame'), plural(r.detections, 'detection')];
  if (r.frames > 1 && r.meanFps > 0) numbers.push(`${fmt.num(r.meanFps, 1)} FPS`);
  if (r.averageInferenceMs > 0) numbers.push(`model ${fmt.num(r.averageInferenceMs, 0)} ms a frame`);
  if (r.frames > 1 && seconds >= 1) numbers.push(fmt.seconds(seconds));
  return el('div', { class: 'run-facts' },
    el('p', { class: 'small' }, numbers.join(' · ')),
    r.interpreter
      ? el('p', { class: 'small run-summary' }, el('strong', {}, `${INTERPRETERS[r.interpreter] ?? r.interpreter}: `), r.summary ?? 'nothing to report')
      : null);
}

/** A card's "Recent runs": the latest few, and a link to all of them. */
export function recentRuns(m) {
  if (!m.runs?.length) return null;
  return el('div', { class: 'recent-runs' },
    el('h3', {}, 'Recent runs'),
    el('ul', {}, ...m.runs.map((r) => el('li', {},
      el('span', { class: 'muted small' }, `${fmt.date(r.startedAt)} · ${sourceName(r.source)}`), runFacts(r)))),
    el('a', { href: `/detections?model=${encodeURIComponent(m.id)}`, class: 'small' }, 'All runs of this model'));
}
