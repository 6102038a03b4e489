// Draws a YOLO result (the `detect --json` shape of docs/studio.md) on a 2D canvas: masks, boxes or
// rotated boxes with "label 0.87" tags, pose keypoints with the COCO-17 skeleton, and a classifier's top 5.
// Coordinates in a result are pixels of the picture as sent; the caller gives the scale to the canvas.

/** COCO-17 skeleton as keypoint index pairs (0 nose … 16 right ankle), as the CLI's annotator draws it. */
export const COCO_SKELETON = [[15, 13], [13, 11], [16, 14], [14, 12], [11, 12], [5, 11], [6, 12], [5, 6], [5, 7],
  [6, 8], [7, 9], [8, 10], [1, 2], [0, 1], [0, 2], [1, 3], [2, 4], [3, 5], [4, 6]];

/** Keypoints at or below this visibility are not drawn (Ultralytics' threshold). */
export const KEYPOINT_THRESHOLD = 0.5;

/** The class colour as [r, g, b]: the golden-angle hue walk of the CLI's annotator, so both agree. */
export function classRGB(id) {
  const h = (((id * 137.508) % 360) + 360) % 360 / 60;
  const x = 1 - Math.abs((h % 2) - 1);
  const [r, g, b] = [[1, x, 0], [x, 1, 0], [0, 1, x], [0, x, 1], [x, 0, 1], [1, 0, x]][Math.min(Math.floor(h), 5)];
  return [r, g, b].map((v) => Math.floor(v * 230 + 25));
}

export function classColor(id, alpha = 1) {
  const [r, g, b] = classRGB(id);
  return alpha === 1 ? `rgb(${r} ${g} ${b})` : `rgb(${r} ${g} ${b} / ${alpha})`;
}

/** Black or white, whichever reads better on the class colour. */
function inkOn(id) {
  const [r, g, b] = classRGB(id);
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#000' : '#fff';
}

/**
 * Decodes a COCO uncompressed RLE (column-major; `counts` alternate runs of 0 and 1, starting with 0s)
 * into a row-major Uint8Array of `height × width` (1 inside the mask). Runs past the end are clipped.
 */
export function decodeRLE(mask) {
  const [h, w] = mask.size;
  const out = new Uint8Array(w * h);
  let i = 0;
  for (let k = 0; k < mask.counts.length && i < w * h; k++) {
    const run = mask.counts[k];
    if (k % 2 === 1) {
      for (let j = i, end = Math.min(i + run, w * h); j < end; j++) {
        const x = Math.floor(j / h), y = j - x * h;
        out[y * w + x] = 1;
      }
    }
    i += run;
  }
  return out;
}

// One reusable canvas for the masks (painted at the picture's size, then scaled onto the target).
let maskCanvas = null;

function drawMasks(ctx, detections, sx, sy) {
  const masked = detections.filter((d) => d.mask?.size?.length === 2 && d.mask.counts?.length);
  if (!masked.length) return;
  const [h, w] = masked[0].mask.size;
  if (!(w > 0 && h > 0)) return;
  maskCanvas ??= document.createElement('canvas');
  if (maskCanvas.width !== w || maskCanvas.height !== h) { maskCanvas.width = w; maskCanvas.height = h; }
  const mctx = maskCanvas.getContext('2d');
  const image = mctx.createImageData(w, h);
  const px = image.data;
  // Later (less confident) detections first so the most confident mask ends on top, as in the CLI.
  for (const d of [...masked].reverse()) {
    if (d.mask.size[0] !== h || d.mask.size[1] !== w) continue;
    const bits = decodeRLE(d.mask);
    const [r, g, b] = classRGB(d.classId);
    for (let p = 0; p < bits.length; p++) {
      if (!bits[p]) continue;
      const o = p * 4;
      px[o] = r; px[o + 1] = g; px[o + 2] = b; px[o + 3] = 110;
    }
  }
  mctx.putImageData(image, 0, 0);
  ctx.save();
  ctx.imageSmoothingEnabled = true;
  ctx.drawImage(maskCanvas, 0, 0, w * sx, h * sy);
  ctx.restore();
}

/** A filled "label 0.87" tag whose bottom-left sits at (x, y), kept inside the canvas. */
function tag(ctx, text, x, y, classId, lineWidth, bounds) {
  // Grows with the line width, but stays small on a small picture (a phone) so the tags do not bury it.
  const size = Math.max(10, Math.min(18, 10 + lineWidth * 1.5, bounds.width / 30));
  ctx.font = `600 ${size}px system-ui, sans-serif`;
  const pad = 3, w = ctx.measureText(text).width + 2 * pad, h = size + 2 * pad;
  let left = Math.min(Math.max(x - lineWidth / 2, 0), Math.max(bounds.width - w, 0));
  let top = y - h;
  if (top < 0) top = y;  // no room above: inside the box
  ctx.fillStyle = classColor(classId);
  ctx.fillRect(left, top, w, h);
  ctx.fillStyle = inkOn(classId);
  ctx.textBaseline = 'top';
  ctx.fillText(text, left + pad, top + pad + 1);
}

function drawPose(ctx, keypoints, sx, sy, lineWidth) {
  const visible = (k) => k && (k.length < 3 || k[2] >= KEYPOINT_THRESHOLD);
  if (keypoints.length === 17) {
    ctx.strokeStyle = 'rgb(51 153 255)';
    ctx.lineWidth = Math.max(lineWidth * 0.75, 1);
    ctx.beginPath();
    for (const [a, b] of COCO_SKELETON) {
      if (!visible(keypoints[a]) || !visible(keypoints[b])) continue;
      ctx.moveTo(keypoints[a][0] * sx, keypoints[a][1] * sy);
      ctx.lineTo(keypoints[b][0] * sx, keypoints[b][1] * sy);
    }
    ctx.stroke();
  }
  keypoints.forEach((k, i) => {
    if (!visible(k)) return;
    ctx.fillStyle = classColor(i + 3);
    ctx.beginPath();
    ctx.arc(k[0] * sx, k[1] * sy, Math.max(lineWidth + 1, 2.5), 0, Math.PI * 2);
    ctx.fill();
  });
}

/** The top five classes as bars in the top-left corner. */
function drawClassification(ctx, top, bounds) {
  const rows = top.slice(0, 5);
  if (!rows.length) return;
  const size = Math.max(12, Math.min(16, bounds.width / 32));
  ctx.font = `600 ${size}px system-ui, sans-serif`;
  const rowH = size + 10, pad = 8;
  const width = Math.min(bounds.width - 2 * pad, Math.max(180, bounds.width * 0.45));
  ctx.fillStyle = 'rgb(11 20 16 / 0.72)';
  ctx.fillRect(pad, pad, width, rows.length * rowH + 8);
  rows.forEach((c, i) => {
    const y = pad + 4 + i * rowH;
    const full = width - 8;
    ctx.fillStyle = 'rgb(255 255 255 / 0.12)';
    ctx.fillRect(pad + 4, y, full, rowH - 3);
    ctx.fillStyle = classColor(c.classId, 0.85);
    ctx.fillRect(pad + 4, y, Math.max(2, full * Math.min(Math.max(c.confidence, 0), 1)), rowH - 3);
    ctx.fillStyle = '#fff';
    ctx.strokeStyle = 'rgb(0 0 0 / 0.7)';
    ctx.lineWidth = 3;
    ctx.textBaseline = 'middle';
    const text = `${c.label} ${c.confidence.toFixed(2)}`;
    ctx.strokeText(text, pad + 10, y + (rowH - 3) / 2);
    ctx.fillText(text, pad + 10, y + (rowH - 3) / 2);
  });
}

/**
 * Draws `frame` ({width, height, detections, classification?}) on `ctx`, whose drawing area is
 * `bounds` = {width, height} in the context's units; the picture is stretched to fill it.
 */
export function drawResult(ctx, frame, bounds, { lineWidth = 2 } = {}) {
  ctx.clearRect(0, 0, bounds.width, bounds.height);
  if (!frame || !(frame.width > 0) || !(frame.height > 0)) return;
  const sx = bounds.width / frame.width, sy = bounds.height / frame.height;
  const detections = frame.detections ?? [];
  drawMasks(ctx, detections, sx, sy);
  ctx.lineJoin = 'round';
  // Least confident first, so the most confident box and tag end on top.
  const ordered = [...detections].reverse();
  for (const d of ordered) {
    ctx.strokeStyle = classColor(d.classId);
    ctx.lineWidth = lineWidth;
    ctx.beginPath();
    if (d.obb?.points?.length === 4) {
      d.obb.points.forEach(([x, y], i) => (i ? ctx.lineTo(x * sx, y * sy) : ctx.moveTo(x * sx, y * sy)));
      ctx.closePath();
    } else if (d.box) {
      ctx.rect(d.box.x1 * sx, d.box.y1 * sy, (d.box.x2 - d.box.x1) * sx, (d.box.y2 - d.box.y1) * sy);
    }
    ctx.stroke();
    if (d.keypoints?.length) drawPose(ctx, d.keypoints, sx, sy, lineWidth);
  }
  for (const d of ordered) {
    let ax = d.box?.x1 ?? 0, ay = d.box?.y1 ?? 0;
    if (d.obb?.points?.length === 4) [ax, ay] = d.obb.points.reduce((a, p) => (p[1] < a[1] ? p : a));
    const id = d.trackId != null ? `#${d.trackId} ` : '';
    tag(ctx, `${id}${d.label} ${d.confidence.toFixed(2)}`, ax * sx, ay * sy, d.classId, lineWidth, bounds);
  }
  // With tracking on: where each object came from, as a fading line through its recent centres.
  for (const t of frame.trails ?? []) {
    if (!(t.points?.length > 1)) continue;
    ctx.strokeStyle = classColor(t.trackId);
    ctx.lineWidth = Math.max(1, lineWidth - 1);
    ctx.globalAlpha = 0.8;
    ctx.beginPath();
    t.points.forEach(([x, y], i) => (i ? ctx.lineTo(x * sx, y * sy) : ctx.moveTo(x * sx, y * sy)));
    ctx.stroke();
    ctx.globalAlpha = 1;
  }
  if (frame.crossings?.line) drawCountingLine(ctx, frame.crossings, bounds, lineWidth);
  if (frame.classification?.length) drawClassification(ctx, frame.classification, bounds);
}

/** The counter's line (normalised ends) with its totals: ↓ counts crossings from its left to its right side. */
function drawCountingLine(ctx, crossings, bounds, lineWidth) {
  const { x1, y1, x2, y2 } = crossings.line;
  ctx.save();
  ctx.strokeStyle = '#f5c542';
  ctx.lineWidth = Math.max(2, lineWidth);
  ctx.setLineDash([10, 6]);
  ctx.beginPath();
  ctx.moveTo(x1 * bounds.width, y1 * bounds.height);
  ctx.lineTo(x2 * bounds.width, y2 * bounds.height);
  ctx.stroke();
  ctx.setLineDash([]);
  let forward = 0, backward = 0;
  for (const c of Object.values(crossings.counts ?? {})) { forward += c.forward; backward += c.backward; }
  const text = `${forward} ↓  ${backward} ↑`;
  ctx.font = '600 14px system-ui, sans-serif';
  ctx.textBaseline = 'bottom';
  const x = Math.min(Math.max(8, x1 * bounds.width + 8), bounds.width - ctx.measureText(text).width - 8);
  const y = Math.max(20, y1 * bounds.height - 6);
  ctx.lineWidth = 3;
  ctx.strokeStyle = 'rgba(0,0,0,0.75)';
  ctx.strokeText(text, x, y);
  ctx.fillStyle = '#f5c542';
  ctx.fillText(text, x, y);
  ctx.restore();
}
