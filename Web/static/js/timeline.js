// The results page's contact timeline (issue #27): the session's sound, every contact marked (shot, added,
// not counted, taken out), and the edits a player makes from it. Edits go to /api/sessions/{id}/edits and
// answer with the re-measured session, which the page shows at once.
import { api, el, fmt, vocabulary } from './api.js';

const { sensitivity: LEVELS, defaultSensitivity, rejections } = await vocabulary();
/** A turned-down contact's mark, by its kind ("Not counted: no swing"). */
const REJECTED = Object.fromEntries(rejections.map((r) => [r.id, r.label]));

const W = 1000, H = 96, TOP = 30;
const NS = 'http://www.w3.org/2000/svg';
const svgEl = (tag, attrs) => { const n = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v); return n; };

/** Every contact of a session document with its state, in time order. */
export function contactsOf(session) {
  const shots = session.shots.map((s) => ({ time: s.time, state: s.origin === 'added' ? 'added' : 'shot', shot: s }));
  const rejected = (session.rejectedContacts ?? []).map((r) => ({ time: r.time, state: r.kind === 'removed' ? 'removed' : 'rejected', rejected: r }));
  return [...shots, ...rejected].sort((a, b) => a.time - b.time);
}

export class ContactTimeline {
  /** @param {{id: string, onChange: (session) => void}} options */
  constructor({ id, onChange }) {
    this.id = id; this.onChange = onChange;
    this.svg = document.getElementById('timeline');
    this.marks = document.getElementById('timeline-marks');
    this.panel = document.getElementById('edit-panel');
    this.status = document.getElementById('edit-status');
    this.undoButton = document.getElementById('undo');
    this.peaks = null; this.busy = false;
    /** The player's newest racket sound (GET /api/racket-sounds), offered beside the sensitivity levels. */
    this.racket = null;
    this.svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    this.svg.addEventListener('click', (e) => this.clicked(e));
    this.undoButton.addEventListener('click', () => this.send(`/api/sessions/${id}/edits/undo`, null, 'Undone.'));
    document.getElementById('listen-expert').addEventListener('click', () => {
      const number = (name) => { const v = document.getElementById(name).value; return v === '' ? undefined : Number(v); };
      const body = { sensitivity: this.session.sensitivity ?? defaultSensitivity, peakThresholdFactor: number('threshold-factor'),
        minRelativeAmplitude: number('min-relative-amplitude') };
      this.send(`/api/sessions/${this.id}/listen`, JSON.stringify(body), 'Listened again with your thresholds.', 'Listening to your session again…');
    });
  }

  async load(session) {
    this.session = session;
    this.draw();
    try { this.racket = (await api('/api/racket-sounds')).racketSounds[0] ?? null; } catch { this.racket = null; }
    try {
      this.peaks = (await api(`/api/sessions/${this.id}/envelope?bins=500`)).peaksDb;
    } catch (e) {
      this.status.textContent = `The sound cannot be drawn: ${e.message}`;
    }
    this.draw();
  }

  get start() { return this.session.start ?? 0; }
  x(time) { return ((time - this.start) / Math.max(this.session.duration, 1e-6)) * W; }

  draw() {
    const s = this.session;
    const nodes = [];
    if (this.peaks) {
      const n = this.peaks.length, bw = W / n;
      this.peaks.forEach((db, i) => {
        const h = Math.max(1, ((Math.max(db, -60) + 60) / 60) * (H - TOP - 4));
        nodes.push(svgEl('rect', { class: 'env', x: (i * bw).toFixed(1), y: (H - h).toFixed(1), width: Math.max(bw - 0.5, 0.5).toFixed(2), height: h.toFixed(1) }));
      });
    }
    if (this.pending != null) nodes.push(svgEl('line', { class: 'cursor', x1: this.x(this.pending), x2: this.x(this.pending), y1: 0, y2: H }));
    this.svg.replaceChildren(...nodes);
    // The marks are buttons over the sound (round at any width, big enough for a thumb, reachable by keyboard).
    this.marks.replaceChildren(...contactsOf(s).map((c) => el('button', {
      type: 'button', class: `m ${c.state}${this.selected === c.time ? ' selected' : ''}`,
      style: `left: ${((this.x(c.time) / W) * 100).toFixed(2)}%`, 'data-time': c.time, 'data-state': c.state,
      'aria-label': `${describe(c)} at ${c.time.toFixed(2)} s`, onclick: (e) => { e.stopPropagation(); this.select(c); } })));
    this.undoButton.disabled = this.busy || !(s.edits?.length);
    this.rejectedList();
    this.sensitivityButtons();
  }

  // The contacts that are not shots, each with what it would take to count it.
  rejectedList() {
    const items = contactsOf(this.session).filter((c) => c.rejected).map((c) => el('li', {},
      el('span', {}, el('strong', {}, `${c.time.toFixed(2)} s`), ' — ', c.rejected.reason),
      el('button', { type: 'button', 'data-restore': c.time, disabled: this.busy || null,
        onclick: () => this.edit('restore', c.time, `The hit at ${c.time.toFixed(2)} s counts as a shot now.`) }, 'Count it as a shot')));
    document.getElementById('rejected').replaceChildren(...items);
  }

  // Fewer / Normal / More: the sound heard again with other thresholds, the player's edits kept; and, once the
  // player has one, their racket's sound.
  sensitivityButtons() {
    const byRacket = Boolean(this.session.contactModel);
    const now = byRacket ? 'racket' : (this.session.sensitivity ?? defaultSensitivity);
    const level = LEVELS.find((l) => l.id === now) ?? LEVELS.find((l) => l.id === defaultSensitivity);
    const expert = this.session.detectorThresholds ?? {};
    document.getElementById('threshold-factor').placeholder = String(level.peakThresholdFactor);
    document.getElementById('min-relative-amplitude').placeholder = String(level.minRelativeAmplitude);
    if (expert.peakThresholdFactor != null) document.getElementById('threshold-factor').value = expert.peakThresholdFactor;
    if (expert.minRelativeAmplitude != null) document.getElementById('min-relative-amplitude').value = expert.minRelativeAmplitude;
    document.getElementById('listen-expert').disabled = this.busy;
    const buttons = LEVELS.map(({ id: level, label }) => el('button', {
      type: 'button', 'data-level': level, 'aria-pressed': String(level === now), disabled: this.busy || null,
      onclick: () => level !== now && this.send(`/api/sessions/${this.id}/listen`, JSON.stringify({ sensitivity: level }),
        `Listened again (${label.toLowerCase()}).`, 'Listening to your session again…'),
    }, label));
    if (this.racket || byRacket) {
      const racket = this.racket;
      buttons.push(el('button', {
        type: 'button', 'data-level': 'racket', 'aria-pressed': String(byRacket), disabled: this.busy || !racket || null,
        title: racket ? `Your racket's sound, learnt from ${racket.contacts} hits (${racket.name})` : null,
        onclick: () => !byRacket && racket && this.send(`/api/sessions/${this.id}/listen`, JSON.stringify({ racketSound: racket.id }),
          'Listened again with your racket\u2019s sound.', 'Listening to your session again for your racket\u2019s sound…'),
      }, 'Your racket'));
    }
    document.getElementById('sensitivity').replaceChildren(...buttons);
  }

  select(c) {
    this.selected = c.time; this.pending = null;
    const at = `${c.time.toFixed(2)} s`;
    const actions = c.shot
      ? [el('span', {}, `Shot ${c.shot.index} at ${at}${c.shot.origin === 'added' ? ' (added by you)' : ''}.`),
        el('a', { class: 'button', href: `/sessions/${this.id}/shots/${c.shot.index}` }, 'Watch it'),
        el('button', { type: 'button', id: 'edit-remove', onclick: () => this.edit('remove', c.time, `The hit at ${at} is taken out.`) }, 'Not a hit: take it out')]
      : [el('span', {}, `${at}: ${c.rejected.reason}`),
        el('button', { type: 'button', id: 'edit-restore', class: 'primary', onclick: () => this.edit('restore', c.time, `The hit at ${at} counts as a shot now.`) }, 'Count it as a shot')];
    this.showPanel(actions);
  }

  clicked(event) {
    if (this.busy) return;
    const box = this.svg.getBoundingClientRect();
    const time = this.start + ((event.clientX - box.left) / box.width) * this.session.duration;
    this.selected = null; this.pending = Math.round(time * 100) / 100;
    const at = `${this.pending.toFixed(2)} s`;
    this.showPanel([el('span', {}, `A hit we missed at ${at}?`),
      el('button', { type: 'button', id: 'edit-add', class: 'primary', onclick: () => this.edit('add', this.pending, `A hit at ${at} is added and measured.`) }, `Add a hit at ${at}`),
      el('button', { type: 'button', onclick: () => { this.pending = null; this.panel.hidden = true; this.draw(); } }, 'Cancel')]);
  }

  showPanel(children) { this.panel.replaceChildren(...children); this.panel.hidden = false; this.draw(); }

  edit(action, time, done) {
    return this.send(`/api/sessions/${this.id}/edits`, JSON.stringify({ action, time }), done);
  }

  async send(path, body, done, working = 'Measuring your session again…') {
    if (this.busy) return;
    this.busy = true; this.draw();
    this.status.classList.remove('error');
    this.status.textContent = working;
    try {
      const doc = await api(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      this.session = doc.session;
      this.selected = null; this.pending = null; this.panel.hidden = true;
      const n = doc.session.stats.shotCount;
      this.status.textContent = `${done} ${n} shot${n === 1 ? '' : 's'} now.`;
      this.onChange(doc.session);
    } catch (e) {
      this.status.textContent = e.message;
      this.status.classList.add('error');
    } finally {
      this.busy = false; this.draw();
    }
  }
}

function describe(c) {
  if (c.rejected) return REJECTED[c.rejected.kind] ?? 'Not counted';
  return { shot: `Shot ${c.shot?.index}`, added: `Shot ${c.shot?.index}, added by you` }[c.state];
}
