// "Which one is you?" (issue #39): one frame of the video with every person the pose stage could measure
// outlined in its own colour. Tap a person's outline, or anywhere (the nearest person is taken); or use the
// buttons under the frame (keyboard and screen readers). The upload page and the results page share it.
import { el } from './api.js';

/** Outline colours, each with the word the page uses for it. */
export const OUTLINES = [
  { name: 'blue', color: '#7cc4ff' }, { name: 'yellow', color: '#f5c542' }, { name: 'pink', color: '#ff8fd0' },
  { name: 'green', color: '#6fdc8c' }, { name: 'orange', color: '#ff9f43' }, { name: 'purple', color: '#b99cff' },
  { name: 'white', color: '#ffffff' }, { name: 'red', color: '#ff5b5b' },
];

/** The outline of person `i` (colours repeat after eight, with the number telling them apart). */
export const outline = (i) => OUTLINES[i % OUTLINES.length];

/** "the person in the blue outline" (with the number once colours repeat). */
export function describe(i, count) {
  return `the person in the ${outline(i).name} outline${count > OUTLINES.length ? ` (number ${i + 1})` : ''}`;
}

/** Waits until `video` shows the frame at `time` seconds (a seek, or nothing when it is there already). */
export function seek(video, time) {
  return new Promise((resolve, reject) => {
    const done = () => { cleanup(); resolve(); };
    const failed = () => { cleanup(); reject(new Error('Your browser cannot show this video.')); };
    const cleanup = () => { video.removeEventListener('seeked', done); video.removeEventListener('error', failed); };
    video.addEventListener('seeked', done);
    video.addEventListener('error', failed);
    video.currentTime = time;
  });
}

/** Waits until `video` knows its size and has a frame to show. */
export function ready(video) {
  if (video.readyState >= 2) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Your browser cannot show this video.')), 15000);
    video.addEventListener('loadeddata', () => { clearTimeout(timer); resolve(); }, { once: true });
    video.addEventListener('error', () => { clearTimeout(timer); reject(new Error('Your browser cannot show this video.')); }, { once: true });
  });
}

export class PeoplePicker {
  /**
   * @param {{root: HTMLElement, video: HTMLVideoElement, onPick: (person, index) => void}} options
   * `root` receives the frame (with `video` in it) and the buttons; `onPick` is called with the chosen person.
   */
  constructor({ root, video, onPick }) {
    this.root = root; this.video = video; this.onPick = onPick;
    this.people = []; this.chosen = null; this.time = 0;
    this.frame = el('div', { class: 'frame-box' });
    this.overlay = el('div', { class: 'people-overlay', 'aria-hidden': 'true' });
    video.classList.add('frame-video');
    video.muted = true; video.playsInline = true; video.setAttribute('playsinline', '');
    this.frame.append(video, this.overlay);
    this.buttons = el('div', { class: 'people-buttons', role: 'group', 'aria-label': 'Which one is you?' });
    root.replaceChildren(this.frame, this.buttons);
    // A tap on an outline takes that person; a tap anywhere else the person nearest it.
    this.overlay.addEventListener('click', (e) => {
      const r = this.overlay.getBoundingClientRect();
      const i = this.nearest((e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height);
      if (i != null) this.pick(i);
    });
  }

  /** Shows `people` (from /api/…/people) over the frame now in the video, taken at `time` seconds. */
  show(people, time, chosen = null) {
    this.people = people; this.time = time; this.chosen = chosen;
    const w = this.video.videoWidth || 16, h = this.video.videoHeight || 9;
    this.frame.style.setProperty('--ratio', `${w} / ${h}`);
    this.overlay.replaceChildren(...people.map((p, i) => {
      const box = el('div', { class: 'person-box', 'data-person': i, 'data-hips': `${p.hips.x.toFixed(4)},${p.hips.y.toFixed(4)}` });
      Object.assign(box.style, {
        left: `${(p.box.x1 * 100).toFixed(2)}%`, top: `${(p.box.y1 * 100).toFixed(2)}%`,
        width: `${((p.box.x2 - p.box.x1) * 100).toFixed(2)}%`, height: `${((p.box.y2 - p.box.y1) * 100).toFixed(2)}%`,
      });
      box.style.setProperty('--outline', outline(i).color);
      if (p.box.y1 < 0.08) box.classList.add('tag-inside');   // no room above: the number goes inside
      if (p.box.x2 > 0.85) box.classList.add('tag-right');    // near the right edge: the number hangs leftwards
      box.append(el('span', { class: 'person-tag' }, String(i + 1)));
      return box;
    }));
    this.buttons.replaceChildren(...people.map((p, i) => el('button', {
      type: 'button', class: 'person-button', 'data-person': i, 'aria-pressed': 'false',
      onclick: () => this.pick(i),
    }, el('span', { class: 'swatch', style: `--outline: ${outline(i).color}` }), `${i + 1} · ${outline(i).name}`)));
    this.mark();
  }

  /** The person whose outline holds the point (the smallest when several do), else the one whose hips are nearest. */
  nearest(x, y) {
    if (!this.people.length) return null;
    const inside = this.people.map((p, i) => ({ p, i }))
      .filter(({ p }) => x >= p.box.x1 && x <= p.box.x2 && y >= p.box.y1 && y <= p.box.y2)
      .sort((a, b) => (a.p.box.x2 - a.p.box.x1) * (a.p.box.y2 - a.p.box.y1) - (b.p.box.x2 - b.p.box.x1) * (b.p.box.y2 - b.p.box.y1));
    if (inside.length) return inside[0].i;
    let best = 0, bestD = Infinity;
    this.people.forEach((p, i) => { const d = (p.hips.x - x) ** 2 + (p.hips.y - y) ** 2; if (d < bestD) { best = i; bestD = d; } });
    return best;
  }

  pick(i) {
    this.chosen = i;
    this.mark();
    this.onPick(this.people[i], i);
  }

  /** Draws who is chosen: a thick outline and "You" on them, the others dimmed; the pressed button. */
  mark() {
    for (const box of this.overlay.children) {
      const i = Number(box.dataset.person);
      box.classList.toggle('chosen', i === this.chosen);
      box.classList.toggle('other', this.chosen != null && i !== this.chosen);
      box.querySelector('.person-tag').textContent = i === this.chosen ? `You (${i + 1})` : String(i + 1);
    }
    for (const b of this.buttons.children) b.setAttribute('aria-pressed', String(Number(b.dataset.person) === this.chosen));
  }
}
