// First visit: the dominant hand (stored like the CLI's) and how to film.
import { api, preferredHand } from './api.js';

const go = document.getElementById('go');
const buttons = [...document.querySelectorAll('.hand')];

function select(hand) {
  for (const b of buttons) b.setAttribute('aria-checked', String(b.dataset.hand === hand));
  go.removeAttribute('aria-disabled');
  go.textContent = 'Upload a video';
}

for (const b of buttons) {
  b.addEventListener('click', async () => {
    await api('/api/preferences', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ hand: b.dataset.hand }) });
    select(b.dataset.hand);
  });
}
go.addEventListener('click', (e) => { if (go.hasAttribute('aria-disabled')) e.preventDefault(); });
preferredHand().then((h) => h && select(h));
