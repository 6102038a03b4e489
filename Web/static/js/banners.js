// Interpreter banners over the studio's picture (docs/studio.md): a poker hand, counts per class, a
// racket–ball contact. Newest on top, at most 8 on screen, each shown 4 s, at least 0.8 s apart (the rest
// wait in a short queue where the newest win).
import { el } from './api.js';

export const BANNER_MS = 4000, BANNER_GAP_MS = 800, BANNERS_ON_SCREEN = 8;

const SUITS = { H: '♥', D: '♦', C: '♣', S: '♠' };

/** "10H" → "10♥"; a label that is not a card stays as it is. */
export function suit(card) {
  const s = SUITS[card.slice(-1).toUpperCase()];
  return s ? card.slice(0, -1) + s : card;
}

const arrows = (c) => `${c.forward} ↓ ${c.backward} ↑`;

/**
 * The banner an interpretation deserves ({kind, title, detail}), or null (passthrough, nothing found).
 * `crossings` (the counter with tracking on) turns a frame where objects crossed the line into a crossing
 * banner with the totals so far.
 */
export function bannerFor(interpretation, crossings) {
  const { interpreter, result } = interpretation ?? {};
  if (interpreter === 'counter' && crossings?.crossings?.length) {
    const who = crossings.crossings.map((c) => `${c.label} #${c.trackId} ${c.forward ? '↓' : '↑'}`).join(' · ');
    const totals = Object.entries(crossings.counts ?? {}).map(([l, c]) => `${l} ${arrows(c)}`).join(' · ');
    return { kind: 'counter', title: `Crossed the line (${crossings.total} so far)`, detail: `${who} — ${totals}` };
  }
  if (!result) return null;
  if (interpreter === 'poker' && result.cards?.length) {
    return { kind: 'poker', title: result.hand, detail: result.cards.map(suit).join(' ') };
  }
  if (interpreter === 'counter' && result.counts && Object.keys(result.counts).length) {
    // The most frequent classes first; a long tail is summed up so the banner stays on one line.
    const parts = Object.entries(result.counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([l, n]) => `${n}× ${l}`);
    const more = parts.length > 5 ? ` · +${parts.length - 5} more classes` : '';
    return { kind: 'counter', title: `Counted ${result.total ?? parts.length}`, detail: parts.slice(0, 5).join(' · ') + more };
  }
  if (interpreter === 'tennis-contact' && result.contact) {
    const c = result.contact;
    return { kind: 'contact', title: 'Contact', detail: `at ${(c.time ?? 0).toFixed(2)} s · ${c.rule} rule · ${(c.confidence ?? 0).toFixed(2)}` };
  }
  return null;
}

/** The banners shown in `box`. */
export class Banners {
  constructor(box) {
    this.box = box;
    this.queue = [];
    this.lastAt = -Infinity;
    this.timer = null;
  }

  /** Queues the banner for an interpretation, unless it says the same as the newest one shown or waiting. */
  show(interpretation, crossings) {
    const b = bannerFor(interpretation, crossings);
    if (!b) return;
    const key = `${b.title}|${b.detail}`;
    const newest = this.box.firstElementChild;
    // The camera repeats the same answer frame after frame: one banner per change, not one per frame.
    if (this.queue.some((q) => q.key === key) || (newest?.dataset.key === key && !newest.classList.contains('leaving'))) return;
    this.queue.push({ ...b, key });
    if (this.queue.length > BANNERS_ON_SCREEN) this.queue.shift();   // the oldest waiting ones are stale
    this.pump();
  }

  pump() {
    if (this.timer || !this.queue.length) return;
    const wait = this.lastAt + BANNER_GAP_MS - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => { this.timer = null; this.pump(); }, wait);
      return;
    }
    const b = this.queue.shift();
    this.lastAt = performance.now();
    const node = el('div', { class: `banner ${b.kind}`, 'data-key': b.key, title: `${b.title}: ${b.detail}` },
      el('strong', {}, b.title), ' ', el('span', {}, b.detail));
    this.box.prepend(node);
    while (this.box.children.length > BANNERS_ON_SCREEN) this.box.lastElementChild.remove();
    setTimeout(() => { node.classList.add('leaving'); setTimeout(() => node.remove(), 300); }, BANNER_MS);
    this.pump();
  }
}
