// The move list and the evaluation bar of the board page (docs/board.md). What the page has
// learnt about positions — the engine's evaluations (Analyse, Play, hint), the wins found
// (Solve, Prove, Analyse's searches) and the verdicts of the moves played (Analyse) — is kept
// by position in S.known, so it stays with its position whatever line is on the board.
// Loaded before board.js, whose state (S) and helpers these functions use when called.
'use strict';

// An engine value at least this large is a decided game: ±1,000,000 less the plies.
const DECIDED = 900000;
// The engine value at which the bar gives the better side about three quarters.
const EVAL_SCALE = 40;

// The key of the position a line of the board's game makes (a puzzle's: its diagram and side,
// then the line played after it).
function positionKey(line) {
  const base = S.puzzle ? `${S.puzzle.text}|${S.puzzle.side}` : '';
  return `${S.game}|${base}|${line.join(',')}`;
}

// The key of the position after the first n stones of the game line.
function keyAt(n) {
  return positionKey(S.stones.slice(0, n));
}

// What is known of a position: {eval: {black, source}, win: {winner, plies, source}, review}.
function known(key) {
  if (!S.known.has(key)) S.known.set(key, {});
  return S.known.get(key);
}

// The engine's value `v` for `side` (as `cpbim move` and `analyze` give it); a decided value
// is a win of the side it favours.
function noteEval(key, v, side, source) {
  if (typeof v !== 'number') return;
  const black = side === 'black' ? v : -v;
  if (Math.abs(v) >= DECIDED) noteWin(key, black > 0 ? 'black' : 'white', 1000000 - Math.abs(v), source);
  else known(key).eval = { black, source };
}

// A forced win of `winner` (`plies` deep, as `cpbim solve` counts them; null when not known).
// A known depth replaces an unknown or a deeper one.
function noteWin(key, winner, plies, source) {
  const k = known(key);
  const better = !k.win || (plies !== null && (k.win.plies === null || plies < k.win.plies));
  if (better) k.win = { winner, plies, source };
}

// What `cpbim analyze` said of each boundary of `line` (a puzzle: of its one position, the
// board after `line`): the engine's value, the win of the side to move, the verdict of the move
// played from there (kept with the position that move made).
function noteAnalysis(objects, line, puzzle) {
  for (const b of objects) {
    if (b.result === 'finished') continue;
    const here = puzzle ? line : line.slice(0, b.stones);
    const key = positionKey(here);
    if (b.eval) noteEval(key, b.eval.value, b.to_move, 'analyse');
    if (b.win.result === 'win') noteWin(key, b.to_move, b.win.depth, 'analyse');
    if (b.review) known(positionKey(line.slice(0, b.stones + b.review.move.length))).review = b.review;
  }
}

// The engine chose `r.move` for the side to move of the position `key`: its value holds there
// and, for black's share, after the move too (the value of the line it expects).
function noteEngineMove(key, r, side, played, source) {
  noteEval(key, r.eval, side, source);
  if (!played) return;
  const after = positionKey(played);
  if (Math.abs(r.eval) >= DECIDED) noteWin(after, r.eval > 0 ? side : other(side), null, source);
  else noteEval(after, r.eval, side, source);
}

// ---------- the move list ----------

// One entry per move of the game line (a move in progress too): `3. K11 L12 ??`; the move
// the cursor is in is marked, a click goes to its end.
function showMoves() {
  const box = $('moves');
  box.innerHTML = '';
  let start = 0;
  for (let n = 1; start < S.stones.length; n++) {
    const end = Math.min(boundaryAfter(start), S.stones.length);
    box.appendChild(moveEntry(n, start, end));
    start = end;
  }
  const current = box.querySelector('.current');
  if (current) keepInView(box, current);
}

function moveEntry(n, start, end) {
  const b = document.createElement('button');
  b.className = `move ${colorOfStone(start)}`;
  b.dataset.move = n;
  b.dataset.end = end;
  b.textContent = `${n}. ${S.stones.slice(start, end).join(' ')}`;
  const review = (S.known.get(keyAt(end)) || {}).review;
  if (review) {
    b.dataset.verdict = review.verdict;
    b.title = review.verdict;
    if (review.mark) {
      const mark = document.createElement('span');
      mark.className = 'mark';
      mark.dataset.mark = review.mark;
      mark.textContent = review.mark;
      b.append(' ', mark);
    }
  }
  if (S.cursor > start && S.cursor <= end) {
    b.classList.add('current');
    b.setAttribute('aria-current', 'step');
  }
  b.onclick = () => go(end);
  return b;
}

// Scroll the list (not the page) so that `entry` shows.
function keepInView(box, entry) {
  const top = entry.offsetTop - box.offsetTop;
  if (top < box.scrollTop) box.scrollTop = top;
  else if (top + entry.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = top + entry.offsetHeight - box.clientHeight;
}

// ---------- the evaluation bar ----------

// The evaluation of the position at the cursor: the end of a finished game, a win found, or
// the engine's value; "—" when none is known (a move in progress has none).
function evaluation() {
  const p = S.pos;
  if (p.finished) return { share: p.finished.winner === 'black' ? 1 : 0, text: `${p.finished.winner} won`, source: 'game over' };
  const k = p.pending.length ? {} : S.known.get(keyAt(S.cursor)) || {};
  if (k.win) {
    const w = k.win;
    const how = w.plies === null ? '' : w.plies === 0 ? ': the row now' : ` in ${w.plies} plies`;
    return { share: w.winner === 'black' ? 1 : 0, text: `${w.winner} wins${how}`, source: w.source };
  }
  if (k.eval) {
    const v = k.eval.black;
    const text = v === 0 ? 'even (0)' : `${v > 0 ? 'black' : 'white'} +${Math.abs(v)}`;
    return { share: 1 / (1 + Math.exp(-v / EVAL_SCALE)), text, source: k.eval.source };
  }
  return { share: null, text: '—', source: '' };
}

function showEval() {
  const e = evaluation();
  const bar = $('eval-bar');
  bar.classList.toggle('none', e.share === null);
  bar.dataset.share = e.share === null ? '' : e.share.toFixed(3);
  $('eval-black').style.height = `${e.share === null ? 0 : (100 * e.share).toFixed(1)}%`;
  $('eval-text').textContent = e.text;
  $('eval-source').textContent = e.source ? `(${e.source})` : '';
  $('eval-source').dataset.source = e.source;
}

// The DIF name of a Connect6 line's opening (the server's), and the thesis's figures of it.
function showOpening(p) {
  const o = p.opening;
  const box = $('opening');
  box.dataset.opening = o ? o.short : '';
  if (!o) {
    box.textContent = '';
    return;
  }
  const figures = o.figures.length ? `, thesis fig. ${o.figures.join(', ')}` : '';
  box.textContent = `· opening ${o.short} (${o.name}${figures})`;
}

// Everything this file shows, for the position on the board.
function showKnown() {
  if (!S.pos) return;
  showMoves();
  showEval();
  showOpening(S.pos);
}
