// The studio's tennis mode (docs/studio.md): BlazePose beside a detect model. The server answers each picture
// with the player's 33 landmarks (`pose`) next to the detections, and says how to draw them (`skeleton`:
// the bones the sessions pages hand to skeleton.js, as BlazePose landmark pairs). This module draws the
// skeleton over the boxes and keeps the switch: shown for detect models only, it turns the tennis-contact
// interpreter on with it.
import { colors } from './api.js';

/** A landmark is drawn when its visibility is at least this (BlazePose's and Ultralytics' 0.5). */
export const VISIBLE = 0.5;

/** The interpreter tennis mode starts with. */
export const TENNIS_INTERPRETER = 'tennis-contact';

/**
 * Draws `pose` ({landmarks: [[x, y, visibility] ×33], x and y 0…1 of the picture}) with `skeleton.bones`
 * ([[a, b]] landmark pairs) on `ctx` over a drawing area of `bounds` = {width, height}. Draws nothing
 * without a pose or bones. Returns how many bones were drawn.
 */
export function drawPlayer(ctx, pose, skeleton, bounds, { lineWidth = 2 } = {}) {
  const points = pose?.landmarks;
  const bones = skeleton?.bones;
  if (!points?.length || !bones?.length) return 0;
  const at = (i) => [points[i][0] * bounds.width, points[i][1] * bounds.height];
  const seen = (i) => points[i]?.length === 3 && points[i][2] >= VISIBLE;
  const width = Math.max(2, lineWidth * 1.5);
  ctx.save();
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  // A dark edge under each bone keeps the skeleton readable on a bright court or a white shirt.
  let drawn = 0;
  // Bones and joints in the colours the shot view's skeleton uses (skeleton.js: bones in text colour, accent dots).
  for (const [stroke, w] of [['rgb(0 0 0 / 0.6)', width + 2], [colors.text, width]]) {
    ctx.strokeStyle = stroke; ctx.lineWidth = w;
    ctx.beginPath();
    drawn = 0;
    for (const [a, b] of bones) {
      if (!seen(a) || !seen(b)) continue;
      const [x1, y1] = at(a), [x2, y2] = at(b);
      ctx.moveTo(x1, y1); ctx.lineTo(x2, y2);
      drawn += 1;
    }
    ctx.stroke();
  }
  const joints = new Set(bones.flat());
  ctx.fillStyle = colors.accent;
  for (const i of joints) {
    if (!seen(i)) continue;
    const [x, y] = at(i);
    ctx.beginPath(); ctx.arc(x, y, width * 0.9, 0, Math.PI * 2); ctx.fill();
  }
  ctx.restore();
  return drawn;
}

/**
 * The Tennis mode switch: `row` (the label holding `box`) is shown for detect models only; turning it on
 * picks the tennis-contact interpreter in `interpreter` (the player may change it after). `onChange` is
 * called after every change.
 */
export class TennisSwitch {
  constructor(box, row, interpreter, onChange) {
    this.box = box; this.row = row; this.interpreter = interpreter;
    this.inContact = false;   // the last camera answer saw a contact
    box.addEventListener('change', () => {
      if (box.checked) interpreter.value = TENNIS_INTERPRETER;
      onChange();
    });
  }

  /** Whether tennis mode is on. */
  get on() { return this.box.checked && !this.row.hidden; }

  /** Shows the switch for `model` (turned off for a model that is not a detect model). */
  useModel(model) {
    const detect = model?.task === 'detect';
    this.row.hidden = !detect;
    if (!detect) this.box.checked = false;
    if (this.on) this.interpreter.value = TENNIS_INTERPRETER;
  }

  /** Adds mode=tennis to the query `q` when on. */
  query(q) { if (this.on) q.set('mode', 'tennis'); return q; }

  /**
   * Whether a camera answer's interpretation deserves a banner: answers in a row that all see the racket
   * touch the ball are one contact (as the interpreter merges a video's contact frames into one event), so
   * only the first makes a "Contact" banner. Anything else passes.
   */
  admit(interpretation) {
    const contact = interpretation?.interpreter === TENNIS_INTERPRETER && Boolean(interpretation.result?.contact);
    const first = !(contact && this.inContact);
    this.inContact = contact;
    return first;
  }

  /** A new stream (the camera reconnected): the next contact is a new one. */
  reset() { this.inContact = false; }
}
