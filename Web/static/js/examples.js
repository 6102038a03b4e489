// Example pictures for the studio, drawn in the browser (no photos ship with Swingmaster): a tennis court
// with a player, ball and racket; five playing cards; a street. Each draws at any size (640×480 is sent).

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

function person(ctx, x, y, s, shirt, shorts) {
  // A standing figure: (x, y) is the top of the head, s the height in pixels.
  const u = s / 8;
  ctx.fillStyle = '#e0b18a';
  ctx.beginPath(); ctx.arc(x, y + u * 0.55, u * 0.55, 0, Math.PI * 2); ctx.fill();
  ctx.fillStyle = shirt;
  roundRect(ctx, x - u * 0.9, y + u * 1.2, u * 1.8, u * 2.8, u * 0.4); ctx.fill();
  ctx.fillStyle = shorts;
  ctx.fillRect(x - u * 0.85, y + u * 3.9, u * 1.7, u * 1.2);
  ctx.strokeStyle = '#e0b18a'; ctx.lineCap = 'round'; ctx.lineWidth = u * 0.45;
  ctx.beginPath();
  ctx.moveTo(x - u * 0.5, y + u * 5); ctx.lineTo(x - u * 0.6, y + u * 7.6);
  ctx.moveTo(x + u * 0.5, y + u * 5); ctx.lineTo(x + u * 0.6, y + u * 7.6);
  ctx.moveTo(x - u * 0.9, y + u * 1.5); ctx.lineTo(x - u * 1.6, y + u * 3.8);
  ctx.stroke();
  return { hand: [x + u * 2.2, y + u * 1.9], shoulder: [x + u * 0.9, y + u * 1.5], u };
}

function court(ctx, w, h) {
  const k = w / 640;
  ctx.fillStyle = '#3d7a5a'; ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = '#2f5f8a';
  ctx.beginPath(); ctx.moveTo(150 * k, 120 * k); ctx.lineTo(490 * k, 120 * k); ctx.lineTo(600 * k, 470 * k); ctx.lineTo(40 * k, 470 * k); ctx.closePath(); ctx.fill();
  ctx.strokeStyle = '#f4f4f0'; ctx.lineWidth = 4 * k;
  ctx.beginPath();
  ctx.moveTo(150 * k, 120 * k); ctx.lineTo(490 * k, 120 * k); ctx.lineTo(600 * k, 470 * k); ctx.lineTo(40 * k, 470 * k); ctx.closePath();
  ctx.moveTo(115 * k, 240 * k); ctx.lineTo(525 * k, 240 * k);
  ctx.moveTo(320 * k, 240 * k); ctx.lineTo(320 * k, 470 * k);
  ctx.stroke();
  // The net.
  ctx.fillStyle = '#1d1d1d'; ctx.fillRect(95 * k, 165 * k, 450 * k, 38 * k);
  ctx.fillStyle = '#f4f4f0'; ctx.fillRect(95 * k, 161 * k, 450 * k, 6 * k);
  const p = person(ctx, 250 * k, 200 * k, 230 * k, '#d8463b', '#f4f4f0');
  // Arm to the racket, the racket, the ball just in front of the strings.
  ctx.strokeStyle = '#e0b18a'; ctx.lineWidth = p.u * 0.45;
  ctx.beginPath(); ctx.moveTo(...p.shoulder); ctx.lineTo(...p.hand); ctx.stroke();
  ctx.strokeStyle = '#222'; ctx.lineWidth = 7 * k;
  ctx.beginPath(); ctx.moveTo(p.hand[0], p.hand[1]); ctx.lineTo(p.hand[0] + 40 * k, p.hand[1] - 30 * k); ctx.stroke();
  ctx.save();
  ctx.translate(p.hand[0] + 72 * k, p.hand[1] - 58 * k); ctx.rotate(-0.7);
  ctx.fillStyle = 'rgba(240,240,240,.35)'; ctx.strokeStyle = '#222'; ctx.lineWidth = 6 * k;
  ctx.beginPath(); ctx.ellipse(0, 0, 42 * k, 30 * k, 0, 0, Math.PI * 2); ctx.fill(); ctx.stroke();
  ctx.lineWidth = 1 * k; ctx.strokeStyle = '#ddd';
  for (let i = -36; i <= 36; i += 9) { ctx.beginPath(); ctx.moveTo(i * k, -28 * k); ctx.lineTo(i * k, 28 * k); ctx.stroke(); }
  ctx.restore();
  ctx.fillStyle = '#d9f23a'; ctx.strokeStyle = '#9bb020'; ctx.lineWidth = 2 * k;
  ctx.beginPath(); ctx.arc(p.hand[0] + 112 * k, p.hand[1] - 92 * k, 11 * k, 0, Math.PI * 2); ctx.fill(); ctx.stroke();
}

function cards(ctx, w, h) {
  const k = w / 640;
  const felt = ctx.createRadialGradient(w / 2, h / 2, 40 * k, w / 2, h / 2, 420 * k);
  felt.addColorStop(0, '#1f7a45'); felt.addColorStop(1, '#0e3d22');
  ctx.fillStyle = felt; ctx.fillRect(0, 0, w, h);
  const hand = [['A', '♠', '#111'], ['K', '♥', '#c8102e'], ['Q', '♦', '#c8102e'], ['J', '♣', '#111'], ['10', '♠', '#111']];
  hand.forEach(([rank, s, ink], i) => {
    ctx.save();
    ctx.translate((110 + i * 105) * k, 250 * k); ctx.rotate((i - 2) * 0.08);
    ctx.fillStyle = 'rgba(0,0,0,.35)'; roundRect(ctx, -56 * k, -76 * k, 116 * k, 160 * k, 10 * k); ctx.fill();
    ctx.fillStyle = '#fbfbf7'; roundRect(ctx, -60 * k, -80 * k, 116 * k, 160 * k, 10 * k); ctx.fill();
    ctx.fillStyle = ink; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    ctx.font = `700 ${24 * k}px Georgia, serif`; ctx.fillText(rank, -40 * k, -58 * k);
    ctx.font = `${20 * k}px serif`; ctx.fillText(s, -40 * k, -34 * k);
    ctx.font = `${64 * k}px serif`; ctx.fillText(s, -2 * k, 6 * k);
    ctx.rotate(Math.PI);
    ctx.font = `700 ${24 * k}px Georgia, serif`; ctx.fillText(rank, -36 * k, -58 * k);
    ctx.restore();
  });
}

function street(ctx, w, h) {
  const k = w / 640;
  const sky = ctx.createLinearGradient(0, 0, 0, h * 0.6);
  sky.addColorStop(0, '#7fb7e6'); sky.addColorStop(1, '#cfe6f5');
  ctx.fillStyle = sky; ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = '#f6d35b'; ctx.beginPath(); ctx.arc(560 * k, 70 * k, 34 * k, 0, Math.PI * 2); ctx.fill();
  // Buildings, pavement, road.
  [['#b9856b', 20, 90, 150, 230], ['#8d9aa8', 180, 60, 120, 260], ['#c9b38f', 310, 120, 140, 200]].forEach(([c, x, y, bw, bh]) => {
    ctx.fillStyle = c; ctx.fillRect(x * k, y * k, bw * k, bh * k);
    ctx.fillStyle = '#e9f1f7';
    for (let yy = y + 20; yy < y + bh - 40; yy += 44) for (let xx = x + 16; xx < x + bw - 24; xx += 36) ctx.fillRect(xx * k, yy * k, 20 * k, 26 * k);
  });
  ctx.fillStyle = '#9a9a94'; ctx.fillRect(0, 320 * k, w, 40 * k);
  ctx.fillStyle = '#3b3d40'; ctx.fillRect(0, 360 * k, w, 120 * k);
  ctx.fillStyle = '#f0f0f0';
  for (let x = 10; x < 640; x += 80) ctx.fillRect(x * k, 416 * k, 44 * k, 6 * k);
  // A tree.
  ctx.fillStyle = '#6b4a2b'; ctx.fillRect(497 * k, 230 * k, 16 * k, 95 * k);
  ctx.fillStyle = '#3f8a3a'; ctx.beginPath(); ctx.arc(505 * k, 215 * k, 50 * k, 0, Math.PI * 2); ctx.fill();
  // A car.
  ctx.fillStyle = '#2c6fd1'; roundRect(ctx, 70 * k, 370 * k, 230 * k, 56 * k, 14 * k); ctx.fill();
  roundRect(ctx, 115 * k, 335 * k, 130 * k, 45 * k, 14 * k); ctx.fill();
  ctx.fillStyle = '#cfe3f6'; ctx.fillRect(128 * k, 344 * k, 48 * k, 28 * k); ctx.fillRect(184 * k, 344 * k, 48 * k, 28 * k);
  ctx.fillStyle = '#151515';
  for (const x of [120, 250]) { ctx.beginPath(); ctx.arc(x * k, 428 * k, 22 * k, 0, Math.PI * 2); ctx.fill(); }
  // Two people on the pavement.
  person(ctx, 380 * k, 200 * k, 140 * k, '#2f9e6b', '#2b2b50');
  person(ctx, 440 * k, 215 * k, 120 * k, '#e38b2c', '#333');
}

export const EXAMPLES = [
  { id: 'example-court', title: 'Court', draw: court },
  { id: 'example-cards', title: 'Cards', draw: cards },
  { id: 'example-street', title: 'Street', draw: street },
];
