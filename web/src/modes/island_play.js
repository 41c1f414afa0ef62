// The island game in the viewer: a panel beside the map that plays the
// example world through `POST /v1/islands/example/play`. The server keeps
// no session: the panel holds the save and sends it back with every
// command, so a reload of the page (or another replica) loses nothing but
// the panel's log. Every number and action shown comes from the answer's
// status: the panel knows no interaction by name.

import { postJson } from '../api.js';
import { el } from '../ui.js';

const PLAY_URL = '/v1/islands/example/play';

/** Lines of the log kept on screen (the newest first). */
const LOG_LINES = 40;

/**
 * Starts a game of `seed` in `lang` inside `panel`; `mark(status)` is
 * called after each answer so the map can show where the explorer is.
 * Returns the game's handle (`command`, `state`).
 */
export async function startGame({ panel, seed, lang, mark, setStatus }) {
  let save = null;
  let status = null;
  let moves = 0;
  let busy = false;
  const log = [];

  const head = el('div', { class: 'play-head' });
  const actions = el('div', { class: 'play-actions' });
  const paths = el('ul', { class: 'play-paths' });
  const logBox = el('div', { class: 'play-log', 'aria-live': 'polite' });
  panel.replaceChildren(el('h2', {}, 'Play'), head, el('h2', {}, 'Actions'), actions,
    el('h2', {}, 'Paths from here'), paths, el('h2', {}, 'Log'), logBox);

  async function send(command) {
    if (busy) return false;
    busy = true;
    try {
      const body = save ? { save, lang, command } : { seed, lang, command };
      const answer = await postJson(PLAY_URL, body);
      save = answer.save;
      status = answer.status;
      if (command) moves++;
      log.unshift({ command, text: answer.text });
      log.length = Math.min(log.length, LOG_LINES);
      draw();
      mark(status);
      setStatus('');
      return true;
    } catch (err) {
      setStatus(`play: ${err.message}`, 'error');
      return false;
    } finally {
      busy = false;
    }
  }

  function draw() {
    const agent = Object.entries(status.agent)
      .map(([k, v]) => el('li', {}, k.replace(/_/g, ' '), el('span', { class: 'count', 'data-agent': k }, String(Math.round(v)))));
    head.replaceChildren(el('ul', {},
      el('li', {}, 'time', el('span', { class: 'count play-clock' }, status.time)),
      el('li', {}, 'here', el('span', { class: 'count play-here' }, `${status.here.name} (${status.here.explored_pct}%)`)),
      ...agent,
      el('li', {}, 'explored', el('span', { class: 'count' }, `${status.explored[0]} / ${status.explored[1]}`))));
    if (status.ended) head.append(el('p', { class: 'play-ended' }, status.ended));
    actions.replaceChildren(...status.actions.map((name) => el('button', {
      type: 'button', 'data-command': name, onclick: () => send(name),
    }, name)));
    paths.replaceChildren(...status.paths.map((p) => el('li', {},
      el('span', {}, `${p.n}. ${p.name} · ${p.minutes} min${p.sea ? ' by sea' : ''}${p.visited ? ' ✓' : ''}`),
      ...p.actions.map((name) => el('button', {
        type: 'button', 'data-command': `${name} ${p.n}`, onclick: () => send(`${name} ${p.n}`),
      }, name)))));
    if (status.hidden_paths > 0) paths.append(el('li', { class: 'count' }, `${status.hidden_paths} not yet found`));
    logBox.replaceChildren(...log.map((entry) => el('div', { class: 'play-entry' },
      entry.command ? el('div', { class: 'play-command' }, `> ${entry.command}`) : '',
      el('pre', {}, entry.text))));
  }

  await send('');
  return {
    command: send,
    state: () => (status ? { moves, ...status, log: log.length } : null),
  };
}
