// The 3D skeleton on a plain canvas: body-frame joints (cm; X forward, Y toward the hitting side, Z up
// from the pelvis) projected with a turnable camera. Drag to turn, wheel or pinch to zoom.
import { colors } from './api.js';

export class SkeletonView {
  constructor(canvas, { bones, wrist, onChange } = {}) {
    this.canvas = canvas; this.bones = bones ?? []; this.wrist = wrist;   // the hitting wrist's row (GET /api/landmarks: wrist[hand])
    this.reset();   // before onChange is set: the caller has not stored this view yet, so it must not be asked to draw
    this.onChange = onChange;
    let drag = null;
    const pinch = new Map();
    canvas.addEventListener('pointerdown', (e) => { canvas.setPointerCapture(e.pointerId); pinch.set(e.pointerId, e); drag = { x: e.clientX, y: e.clientY, yaw: this.yaw, pitch: this.pitch }; canvas.style.cursor = 'grabbing'; });
    canvas.addEventListener('pointermove', (e) => {
      if (pinch.size === 2 && pinch.has(e.pointerId)) {
        const [a, b] = [...pinch.values()];
        const before = Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY);
        pinch.set(e.pointerId, e);
        const [c, d] = [...pinch.values()];
        const after = Math.hypot(c.clientX - d.clientX, c.clientY - d.clientY);
        if (before > 0) { this.zoom = Math.min(4, Math.max(0.4, this.zoom * after / before)); this.changed(); }
        return;
      }
      if (!drag) return;
      this.yaw = drag.yaw + (e.clientX - drag.x) * 0.01;
      this.pitch = Math.min(1.4, Math.max(-0.2, drag.pitch + (e.clientY - drag.y) * 0.01));
      this.changed();
    });
    const end = (e) => { pinch.delete(e.pointerId); drag = null; canvas.style.cursor = 'grab'; };
    canvas.addEventListener('pointerup', end); canvas.addEventListener('pointercancel', end);
    canvas.addEventListener('wheel', (e) => { e.preventDefault(); this.zoom = Math.min(4, Math.max(0.4, this.zoom * (e.deltaY < 0 ? 1.1 : 0.9))); this.changed(); }, { passive: false });
  }

  reset() { this.yaw = -0.6; this.pitch = 0.25; this.zoom = 1; this.changed?.(); }
  changed() { this.onChange?.(); }

  /** Screen position of body point [forward, lateral, up] (cm). */
  project([f, l, u], w, h) {
    // Camera behind the player by default (as filmed): screen x = lateral, screen y = up.
    const cy = Math.cos(this.yaw), sy = Math.sin(this.yaw), cp = Math.cos(this.pitch), sp = Math.sin(this.pitch);
    const x = l * cy - f * sy;
    const depth = l * sy + f * cy;
    const y = u * cp - depth * sp;
    const z = u * sp + depth * cp;
    const s = (Math.min(w, h) / 260) * this.zoom;
    const persp = 600 / (600 + z);
    return [w / 2 + x * s * persp, h * 0.55 - y * s * persp, z];
  }

  /**
   * Draws one frame. frame.body: 17 × [f, l, u] or null; arc: [[f, l, u]] (height from the ground is
   * converted by the caller); contact: { point: [f,l,u], glow: 0…1, distances: bool }; angles: [{ joints:
   * [a, b, c] rows of frame.body (vertex b), text, color }] drawn as a wedge at the vertex, the text beside it.
   */
  draw(frame, { arc = [], ghost = null, contact = null, groundCm = null, angles = [] } = {}) {
    const canvas = this.canvas, ratio = window.devicePixelRatio || 1;
    const w = canvas.clientWidth, h = canvas.clientHeight;
    if (canvas.width !== Math.round(w * ratio) || canvas.height !== Math.round(h * ratio)) { canvas.width = Math.round(w * ratio); canvas.height = Math.round(h * ratio); }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, w, h);
    ctx.fillStyle = '#0b1410'; ctx.fillRect(0, 0, w, h);
    const P = (p) => this.project(p, w, h);
    // Ground grid (20 cm squares) at the feet.
    const g = groundCm ?? -95;
    ctx.strokeStyle = '#1d3329'; ctx.lineWidth = 1;
    for (let i = -100; i <= 100; i += 20) {
      let [a, b] = [P([i, -100, g]), P([i, 100, g])]; ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
      [a, b] = [P([-100, i, g]), P([100, i, g])]; ctx.beginPath(); ctx.moveTo(a[0], a[1]); ctx.lineTo(b[0], b[1]); ctx.stroke();
    }
    // Axes labels.
    ctx.font = '12px system-ui'; ctx.fillStyle = colors.muted;
    // Axis labels stay inside the canvas however the view is turned (a phone's canvas is narrow).
    const label = (text, [x, y]) => {
      const width = ctx.measureText(text).width;
      ctx.fillText(text, Math.min(Math.max(4, x), w - width - 4), Math.min(Math.max(14, y), h - 4));
    };
    label('forward', P([110, 0, g]));
    label('hitting side', P([0, 110, g]));
    if (ghost?.body) this.bonesOf(ctx, ghost.body, P, 'rgba(124,196,255,0.45)', 3);
    // The wrist arc.
    if (arc.length > 1) {
      ctx.strokeStyle = colors.amber; ctx.lineWidth = 2.5; ctx.beginPath();
      arc.forEach((p, i) => { const [x, y] = P(p); if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y); }); ctx.stroke();
    }
    if (frame?.body) {
      this.bonesOf(ctx, frame.body, P, colors.text, 4);
      const hand = frame.body[this.wrist];
      if (hand) {
        const [wx, wy] = P(hand);
        ctx.fillStyle = colors.accent; ctx.beginPath(); ctx.arc(wx, wy, 6, 0, 7); ctx.fill();
      }
    }
    // The pelvis: a white crosshair at the origin.
    const [ox, oy] = P([0, 0, 0]);
    ctx.strokeStyle = '#ffffff'; ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(ox - 9, oy); ctx.lineTo(ox + 9, oy); ctx.moveTo(ox, oy - 9); ctx.lineTo(ox, oy + 9); ctx.stroke();
    if (contact?.point) {
      const [cx, cy] = P(contact.point);
      const glow = contact.glow ?? 1;
      ctx.strokeStyle = `rgba(200,224,74,${0.35 + 0.65 * glow})`; ctx.lineWidth = 3;
      ctx.beginPath(); ctx.arc(cx, cy, 10 + 8 * glow, 0, 7); ctx.stroke();
      if (contact.distances) this.distances(ctx, contact.point, P, contact.heightFrom ?? 0);
    }
    // The joint angles last, so their values are never hidden under the other labels.
    const placed = [];   // the value boxes drawn so far: a later one moves down rather than cover one
    if (frame?.body) for (const a of angles) this.angle(ctx, frame.body, a, P, w, placed);
  }

  /** The angle at joint b between the bones to a and c: a wedge in the picture and its value beside it. */
  angle(ctx, body, { joints: [a, b, c], text, color = colors.blue }, P, width, placed = []) {
    if (!body[a] || !body[b] || !body[c]) return;
    const [ax, ay] = P(body[a]), [bx, by] = P(body[b]), [cx, cy] = P(body[c]);
    const t1 = Math.atan2(ay - by, ax - bx), t2 = Math.atan2(cy - by, cx - bx);
    let d = t2 - t1;
    while (d > Math.PI) d -= 2 * Math.PI;
    while (d < -Math.PI) d += 2 * Math.PI;
    // A wedge no longer than a third of the shorter bone on screen, so a small skeleton is not buried.
    const r = Math.max(6, Math.min(16, Math.hypot(ax - bx, ay - by) / 3, Math.hypot(cx - bx, cy - by) / 3));
    ctx.strokeStyle = color; ctx.fillStyle = color; ctx.lineWidth = 2;
    ctx.beginPath(); ctx.moveTo(bx, by); ctx.arc(bx, by, r, t1, t1 + d, d < 0); ctx.closePath();
    ctx.globalAlpha = 0.3; ctx.fill(); ctx.globalAlpha = 1; ctx.stroke();
    // The value outside the angle, on the far side of the bisector, inside the canvas and clear of the others.
    const mid = t1 + d / 2 + Math.PI;
    ctx.font = 'bold 13px system-ui';
    const tw = ctx.measureText(text).width;
    const tx = Math.min(Math.max(4, bx + Math.cos(mid) * (r + 12) - tw / 2), width - tw - 4);
    let ty = by + Math.sin(mid) * (r + 12) + 5;
    const hits = (y) => placed.some((p) => tx < p.x + p.w + 4 && p.x < tx + tw + 4 && y - 13 < p.y + 4 && p.y - 13 < y + 4);
    for (let i = 0; i < 6 && hits(ty); i++) ty += 18;
    placed.push({ x: tx, y: ty, w: tw });
    ctx.fillStyle = '#0b1410'; ctx.fillRect(tx - 3, ty - 13, tw + 6, 17);
    ctx.fillStyle = color; ctx.fillText(text, tx, ty);
  }

  bonesOf(ctx, body, P, color, width) {
    ctx.strokeStyle = color; ctx.lineWidth = width; ctx.lineCap = 'round';
    for (const [a, b] of this.bones) {
      if (!body[a] || !body[b]) continue;
      const [x1, y1] = P(body[a]), [x2, y2] = P(body[b]);
      ctx.beginPath(); ctx.moveTo(x1, y1); ctx.lineTo(x2, y2); ctx.stroke();
    }
    ctx.fillStyle = color;
    body.slice(0, 5).forEach((p) => { const [x, y] = P(p); ctx.beginPath(); ctx.arc(x, y, 2.5, 0, 7); ctx.fill(); });
  }

  /** Forward, side and height of the contact drawn as labelled lines from the pelvis (height from the ground). */
  distances(ctx, [f, l, u], P, ground) {
    const segs = [
      [[0, 0, 0], [f, 0, 0], colors.accent, `forward ${f.toFixed(0)} cm`],
      [[f, 0, 0], [f, l, 0], colors.blue, `side ${l.toFixed(0)} cm`],
      [[f, l, ground], [f, l, u], colors.amber, `height ${(u - ground).toFixed(0)} cm`],
    ];
    ctx.font = '13px system-ui'; ctx.lineWidth = 2; ctx.setLineDash([5, 4]);
    for (const [a, b, color, label] of segs) {
      const [x1, y1] = P(a), [x2, y2] = P(b);
      ctx.strokeStyle = color; ctx.beginPath(); ctx.moveTo(x1, y1); ctx.lineTo(x2, y2); ctx.stroke();
      ctx.fillStyle = color; ctx.fillText(label, (x1 + x2) / 2 + 6, (y1 + y2) / 2 - 4);
    }
    ctx.setLineDash([]);
  }
}
