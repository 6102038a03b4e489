// Small canvas charts: lines over sessions or time, and the contact scatter seen from above.
import { fitCanvas, colors } from './api.js';

/**
 * Draws lines sharing one x axis. series: [{ values: [number|null], color, label }]; xs: numbers;
 * options: { xLabels: [string], marker: x, yUnit: string, height }.
 */
export function lineChart(canvas, xs, series, options = {}) {
  const { ctx, width, height } = fitCanvas(canvas, options.height ?? 220);
  const pad = { l: 44, r: 12, t: 12, b: 26 };
  const all = series.flatMap((s) => s.values).filter((v) => v != null && isFinite(v));
  if (!all.length || !xs.length) { ctx.fillStyle = colors.muted; ctx.fillText('No data yet', pad.l, height / 2); return; }
  let lo = Math.min(...all), hi = Math.max(...all);
  if (options.yMin != null) lo = Math.min(lo, options.yMin);
  if (options.yMax != null) hi = Math.max(hi, options.yMax);
  if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
  // A little room above and below, but never past a bound the caller fixed (consistency stays 0–100).
  const span = hi - lo;
  if (options.yMin == null || lo > options.yMin) lo -= span * 0.08;
  if (options.yMax == null || hi < options.yMax) hi += span * 0.08;
  const x0 = Math.min(...xs), x1 = Math.max(...xs);
  const X = (x) => pad.l + (x1 > x0 ? (x - x0) / (x1 - x0) : 0.5) * (width - pad.l - pad.r);
  const Y = (y) => pad.t + (1 - (y - lo) / (hi - lo)) * (height - pad.t - pad.b);
  ctx.font = '12px system-ui'; ctx.lineWidth = 1;
  for (let i = 0; i <= 4; i++) {
    const v = lo + (i / 4) * (hi - lo), y = Y(v);
    ctx.strokeStyle = colors.grid; ctx.beginPath(); ctx.moveTo(pad.l, y); ctx.lineTo(width - pad.r, y); ctx.stroke();
    ctx.fillStyle = colors.muted; ctx.fillText(v.toFixed(Math.abs(hi - lo) < 10 ? 1 : 0), 4, y + 4);
  }
  if (options.xLabels) {
    const step = Math.max(1, Math.ceil(options.xLabels.length / Math.max(1, Math.floor((width - pad.l) / 70))));
    options.xLabels.forEach((t, i) => { if (i % step === 0) { ctx.fillStyle = colors.muted; ctx.fillText(t, X(xs[i]) - 14, height - 6); } });
  }
  if (options.marker != null) {
    ctx.strokeStyle = colors.text; ctx.setLineDash([4, 4]);
    ctx.beginPath(); ctx.moveTo(X(options.marker), pad.t); ctx.lineTo(X(options.marker), height - pad.b); ctx.stroke(); ctx.setLineDash([]);
    ctx.fillStyle = colors.text; ctx.fillText(options.markerLabel ?? 'contact', X(options.marker) + 4, pad.t + 10);
  }
  for (const s of series) {
    ctx.strokeStyle = s.color; ctx.fillStyle = s.color; ctx.lineWidth = 2; ctx.beginPath();
    let pen = false;
    s.values.forEach((v, i) => {
      if (v == null || !isFinite(v)) { pen = false; return; }
      const px = X(xs[i]), py = Y(v);
      if (pen) ctx.lineTo(px, py); else ctx.moveTo(px, py);
      pen = true;
    });
    ctx.stroke();
    if (xs.length < 40) s.values.forEach((v, i) => { if (v != null) { ctx.beginPath(); ctx.arc(X(xs[i]), Y(v), 3, 0, 7); ctx.fill(); } });
  }
}

/**
 * Contact points seen from above: the hip at the centre, forward up, the hitting side to the right,
 * a body silhouette, dots coloured by `colourBy` ('classification' or 'stroke') and the 1-SD ellipse.
 */
export function contactScatter(canvas, shots, stats, colourBy = 'classification') {
  const { ctx, width, height } = fitCanvas(canvas, canvas.clientWidth || 380);
  const points = shots.filter((s) => s.contact);
  const reach = Math.max(80, ...points.map((s) => Math.max(Math.abs(s.contact.forwardCm), Math.abs(s.contact.lateralCm)) * 1.15));
  const cx = width / 2, cy = height * 0.62, scale = Math.min(width, height) / 2 / reach * 0.95;
  const P = (lat, fwd) => [cx + lat * scale, cy - fwd * scale];
  ctx.font = '12px system-ui';
  // Rings every 20 cm.
  ctx.strokeStyle = colors.grid;
  for (let r = 20; r <= reach; r += 20) { ctx.beginPath(); ctx.arc(cx, cy, r * scale, 0, 7); ctx.stroke(); }
  ctx.fillStyle = colors.muted; ctx.fillText('forward ↑', cx + 4, 14); ctx.fillText('hitting side →', width - 92, cy - 6);
  // Silhouette from above: shoulders, head, hips.
  ctx.fillStyle = '#2f4a3d'; ctx.beginPath(); ctx.ellipse(cx, cy, 24 * scale, 11 * scale, 0, 0, 7); ctx.fill();
  ctx.beginPath(); ctx.ellipse(cx, cy, 9 * scale, 9 * scale, 0, 0, 7); ctx.fillStyle = '#3e5f4f'; ctx.fill();
  ctx.strokeStyle = colors.text; ctx.beginPath(); ctx.moveTo(cx - 6, cy); ctx.lineTo(cx + 6, cy); ctx.moveTo(cx, cy - 6); ctx.lineTo(cx, cy + 6); ctx.stroke();
  // The 1-SD ellipse around the mean.
  if (stats?.forward && stats?.lateral) {
    const [mx, my] = P(stats.lateral.meanCm, stats.forward.meanCm);
    ctx.strokeStyle = colors.accent; ctx.lineWidth = 2; ctx.setLineDash([6, 4]); ctx.beginPath();
    ctx.ellipse(mx, my, Math.max(2, stats.lateral.sdCm * scale), Math.max(2, stats.forward.sdCm * scale), 0, 0, 7); ctx.stroke(); ctx.setLineDash([]);
  }
  for (const s of points) {
    const [x, y] = P(s.contact.lateralCm, s.contact.forwardCm);
    ctx.fillStyle = colors[s[colourBy]] ?? colors.muted; ctx.beginPath(); ctx.arc(x, y, 6, 0, 7); ctx.fill();
    ctx.strokeStyle = '#0b1410'; ctx.lineWidth = 1.5; ctx.stroke();
  }
}
