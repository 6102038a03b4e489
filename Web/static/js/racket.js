// "Your racket's sound" on the results page: learn a contact model from this session's hits as the player
// left them (POST /api/sessions/{id}/racket-sound), for the upload page to offer on the next videos.
import { api, fmt } from './api.js';

/** Fewest hits a racket sound is learnt from (the engine's ContactModel.minimumContacts). */
const MINIMUM = 10;
const $ = (id) => document.getElementById(id);

export class RacketSound {
  /** @param {string} id the session; @param {(sound) => void} onLearnt told of a racket sound learnt here. */
  constructor(id, onLearnt = () => {}) {
    this.id = id; this.onLearnt = onLearnt;
    this.learnt = null;   // the newest racket sound learnt from this session, if any
    $('racket-learn').addEventListener('click', () => this.learn());
  }

  /** Shows the block for `session` (after every edit too: the count of hits follows the player's changes). */
  async show(session) {
    this.session = session;
    if (this.learnt === null) {
      try {
        const { racketSounds } = await api('/api/racket-sounds');
        this.learnt = racketSounds.find((r) => String(r.sessionId) === String(this.id)) ?? false;
      } catch { this.learnt = false; }
    }
    const heard = $('racket-heard');
    const model = session.contactModel;
    heard.hidden = !model;
    if (model) heard.textContent = `The hits here were heard with your racket's sound (learnt from ${model.contacts} hits). Fewer, Normal or More above hear them with the usual detector instead.`;
    const hits = session.shots.length + (session.rejectedContacts ?? []).filter((r) => r.kind !== 'removed').length;
    const enough = hits >= MINIMUM;
    $('racket-learn').disabled = !enough || this.busy;
    $('racket-learn').textContent = this.learnt ? 'Learn it again from these hits' : "Learn my racket's sound";
    $('racket-need').textContent = enough ? `from the ${hits} hits above` : `Needs at least ${MINIMUM} hits; this session has ${hits}.`;
    if (this.learnt && !this.busy) this.say(learntLine(this.learnt));
  }

  async learn() {
    this.busy = true;
    $('racket-learn').disabled = true;
    this.say('Listening to your session and learning your racket\u2019s sound…');
    try {
      const { racketSound } = await api(`/api/sessions/${this.id}/racket-sound`, { method: 'POST' });
      this.learnt = racketSound;
      this.busy = false;
      this.onLearnt(racketSound);
      this.say(learntLine(racketSound));
    } catch (e) {
      this.busy = false;
      this.say(e.message, true);
    }
    this.show(this.session);
  }

  say(text, error = false) {
    const p = $('racket-status');
    p.className = error ? 'small error' : 'small';
    p.replaceChildren(text);
    if (!error && this.learnt && text === learntLine(this.learnt)) {
      const a = document.createElement('a');
      a.href = '/sessions/new'; a.textContent = 'Upload a video with it';
      p.append(' ', a);
    }
  }
}

function learntLine(r) {
  return `Learnt ${fmt.shortDate(r.createdAt)} from ${r.contacts} of your hits (it finds ${Math.round(100 * r.f1)} % of them again). The upload page offers it for your next videos.`;
}
