// The analysis board of `cpbim serve` (docs/board.md): plain JavaScript, no framework.
// The page keeps the game as a list of points in play order and a cursor; every change asks
// the server for the position (POST /api/position), which tells the board size, the side to
// move, the stones still to place, the end of a finished game and Renju's forbidden points.
// A puzzle (a diagram: stones without a play order, and a side to move) is kept as the diagram
// and the side, and the stones played after it as the list: the colours start with that side.
// Beside this file: moves.js (the move list, the evaluation bar, the opening's name) and
// export.js (export, the PNG picture, the clipboard), loaded before it.
'use strict';

const S = {
  game: 'connect6',
  stones: [],      // the game line: points in play order
  cursor: 0,       // stones of the line on the board
  tree: { kids: [] }, // every line played or loaded since the game began: a trie of points
  puzzle: null,    // a diagram the list starts from: {text, base: [[point, colour]], side, first}
  pos: null,       // the last position object
  overlay: null,   // what is drawn over the stones: a solve line, a proof walk, a hint, …
  job: null,       // the job running: {id, source}
  play: null,      // a game against the engine: {human, time, depth}
  solve: null,     // the last solve result: {result, path}
  analysis: null,  // the last analysis objects
  analysisAt: null, // for a puzzle's analysis: the stones of the list at its position
  seq: 0,          // number of the last position request (older answers are dropped)
  restored: false, // has the page read back the game kept in its address or storage?
  known: new Map(), // what is known of positions, by position (moves.js)
  flipped: false,  // is the board drawn upside down (row 1 at the top, column A on the right)?
};

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const CELL = 30;
const MARGIN = 30;
const LETTERS = 'ABCDEFGHIJKLMNOPQRST';

// ---------- the game's turns (q stones first, then p a move) ----------

// Stones a move [p, of the first move q]: black's first move of the game, or the first move of
// a puzzle's side to move (its stones to place).
function pq() {
  if (S.puzzle) return [S.pos ? S.pos.p : 2, S.puzzle.first];
  return S.pos ? [S.pos.p, S.pos.q] : [2, 1];
}

// The side that plays the first move of the list.
function firstSide() {
  return S.puzzle ? S.puzzle.side : 'black';
}

function other(side) {
  return side === 'black' ? 'white' : 'black';
}

// Stones at the last move boundary at or before n.
function boundaryAtOrBefore(n) {
  const [p, q] = pq();
  if (n < q) return 0;
  return q + Math.floor((n - q) / p) * p;
}

// The next move boundary after n (or n itself when the line ends there).
function boundaryAfter(n) {
  const [p, q] = pq();
  if (n < q) return q;
  return q + (Math.floor((n - q) / p) + 1) * p;
}

// The colour of the list's stone i (0-based); with i the length of whole moves, the side to move.
function colorOfStone(i) {
  const [p, q] = pq();
  if (i < q) return firstSide();
  return Math.floor((i - q) / p) % 2 === 0 ? other(firstSide()) : firstSide();
}

// ---------- talking to the server ----------

async function api(path, body) {
  const r = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const type = r.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await r.json() : await r.text();
  if (!r.ok) throw new Error(data && data.error ? data.error : String(data));
  return data;
}

function gameName() {
  return $('game').value.trim() || 'connect6';
}

// The record of the position on the board: whole moves, and the stones of a move in progress.
// A puzzle with whole moves played after it is sent as the diagram of the board they make.
function request() {
  const whole = boundaryAtOrBefore(S.cursor);
  const line = S.stones.slice(0, S.cursor);
  const pending = line.slice(whole);
  if (S.puzzle) {
    const moves = line.slice(0, whole).map((pt, i) => [pt, colorOfStone(i)]);
    const record = whole ? diagramText(S.puzzle.base.concat(moves)) : S.puzzle.text;
    return { body: { game: S.game, record, to_move: colorOfStone(whole), pending }, pending };
  }
  return { body: { game: S.game, record: line.slice(0, whole).join(' '), pending }, pending };
}

// A diagram of the board with `stones` ([point, colour]): the top line is the last row.
function diagramText(stones) {
  const rows = Array.from({ length: S.pos.rows }, () => Array(S.pos.columns).fill('.'));
  for (const [pt, color] of stones) {
    const [c, r] = parsePoint(pt);
    rows[r][c] = color === 'black' ? 'X' : 'O';
  }
  return rows.reverse().map((r) => r.join(' ')).join('\n') + '\n';
}

// The record of the position to search: whole moves only.
function searchRecord() {
  const { body, pending } = request();
  if (pending.length) throw new Error('finish the move first: ' + pending.length + ' of its stones are placed');
  const r = { game: body.game, record: body.record };
  if (body.to_move) r.to_move = body.to_move;
  return r;
}

function say(text) {
  $('message').textContent = text || '';
}

async function refresh(keepOverlay) {
  const seq = ++S.seq;
  const { body } = request();
  try {
    const pos = await api('/api/position', body);
    if (seq !== S.seq) return;
    S.pos = pos;
    // Depths are whole rounds (an attack and its defence), as on the command line.
    $('solve-depth').step = 2 * pos.p;
    if (!keepOverlay) S.overlay = null;
    say('');
    draw();
  } catch (e) {
    if (seq !== S.seq) return;
    say(e.message);
  }
  status();
}

function status() {
  const p = S.pos;
  if (!p) return;
  let text;
  if (p.finished) {
    text = `${p.finished.winner} won`;
  } else {
    text = `${p.to_move} to move` + (p.stones_to_place > 0 ? `, ${p.stones_to_place} stone${p.stones_to_place > 1 ? 's' : ''} to place` : '');
  }
  $('status').textContent = `${p.game}: ${text}`;
  const { all, at } = siblings();
  const branch = all.length > 1 ? ` · variation ${at + 1} of ${all.length} (↑/↓)` : '';
  const played = `${S.cursor}/${S.stones.length} stones${branch}`;
  document.body.dataset.variations = all.length;
  $('counter').textContent = S.puzzle ? `puzzle (${S.puzzle.side} to move) + ${played}` : played;
  remember();
  showKnown();
  $('list').textContent = S.puzzle
    ? `(a diagram: no play order)${S.cursor ? ' then ' + S.stones.slice(0, S.cursor).join(' ') : ''}`
    : p.list;
  document.body.dataset.toMove = p.to_move;
  document.body.dataset.stones = p.stones.length + p.pending.length;
  document.body.dataset.finished = p.finished ? p.finished.winner : '';
}

// ---------- drawing ----------

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function parsePoint(name) {
  const col = LETTERS.indexOf(name[0].toUpperCase());
  const row = parseInt(name.slice(1), 10) - 1;
  return [col, row];
}

// Where column c and row r (0-based, row 0 being row 1) are drawn: row 1 at the bottom and
// column A on the left, or the other way round when the board is flipped.
function colX(c) {
  return MARGIN + CELL * (S.flipped ? S.pos.columns - 1 - c : c);
}

function rowY(r) {
  return MARGIN + CELL * (S.flipped ? r : S.pos.rows - 1 - r);
}

function xy(name) {
  const [c, r] = parsePoint(name);
  return [colX(c), rowY(r)];
}

// Turn the board upside down (the button, the key f): every point keeps its name.
function flip() {
  setFlipped(!S.flipped);
  if (S.pos) draw();
  remember();
}

function setFlipped(flipped) {
  S.flipped = flipped;
  document.body.dataset.flipped = flipped;
  $('flip').setAttribute('aria-pressed', flipped);
}

function draw() {
  const p = S.pos;
  const svg = $('board');
  svg.innerHTML = '';
  const w = MARGIN * 2 + CELL * (p.columns - 1);
  const h = MARGIN * 2 + CELL * (p.rows - 1);
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.dataset.columns = p.columns;
  svg.dataset.rows = p.rows;
  const grid = el('g', { class: 'grid' }, svg);
  for (let c = 0; c < p.columns; c++) {
    const x = colX(c);
    el('line', { x1: x, y1: MARGIN, x2: x, y2: h - MARGIN }, grid);
    el('text', { x, y: MARGIN / 2 - 2, class: 'label', 'data-column': LETTERS[c] }, svg).textContent = LETTERS[c];
    el('text', { x, y: h - MARGIN / 2 + 2, class: 'label' }, svg).textContent = LETTERS[c];
  }
  for (let r = 0; r < p.rows; r++) {
    const y = rowY(r);
    el('line', { x1: MARGIN, y1: y, x2: w - MARGIN, y2: y }, grid);
    el('text', { x: MARGIN / 2 - 2, y, class: 'label', 'data-row': r + 1 }, svg).textContent = r + 1;
    el('text', { x: w - MARGIN / 2 + 2, y, class: 'label' }, svg).textContent = r + 1;
  }
  const occupied = new Map();
  for (const [pt, color] of p.stones) occupied.set(pt, color);
  for (const [pt, color] of p.pending) occupied.set(pt, color);
  // Stones.
  const stones = el('g', { id: 'stones' }, svg);
  for (const [pt, color] of p.stones) stone(stones, pt, color, '');
  for (const [pt, color] of p.pending) stone(stones, pt, color, ' pending');
  // The last move.
  if (S.cursor > 0 && !S.overlay) {
    const from = p.pending.length ? boundaryAtOrBefore(S.cursor) : lastMoveStart(S.cursor);
    for (const pt of S.stones.slice(from, S.cursor)) {
      const [x, y] = xy(pt);
      el('circle', { cx: x, cy: y, r: 5, class: 'last', 'data-last': pt }, svg);
    }
  }
  // The winning row of a finished game.
  if (p.finished && p.finished.row.length) {
    const [x1, y1] = xy(p.finished.row[0]);
    const [x2, y2] = xy(p.finished.row[p.finished.row.length - 1]);
    el('line', { x1, y1, x2, y2, class: 'row', 'data-row': p.finished.row.join(' ') }, svg);
  }
  // Renju: black's forbidden points.
  for (const [pt, why] of p.forbidden) {
    const [x, y] = xy(pt);
    const d = 5;
    el('path', { d: `M${x - d} ${y - d}L${x + d} ${y + d}M${x - d} ${y + d}L${x + d} ${y - d}`, class: 'forbidden', 'data-forbidden': pt }, svg)
      .appendChild(title(`forbidden to black: ${why}`));
  }
  drawOverlay(svg, occupied);
  // The points to click, on top.
  const pts = el('g', { id: 'points' }, svg);
  for (let c = 0; c < p.columns; c++) {
    for (let r = 0; r < p.rows; r++) {
      const name = LETTERS[c] + (r + 1);
      const [x, y] = xy(name);
      el('rect', { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: 'pt', 'data-point': name }, pts);
    }
  }
}

function title(text) {
  const t = document.createElementNS(SVG, 'title');
  t.textContent = text;
  return t;
}

// Stones of the move that ends at stone n (its first stone's index).
function lastMoveStart(n) {
  const [p, q] = pq();
  if (n <= q) return 0;
  return n - 1 - ((n - 1 - q) % p);
}

function stone(parent, pt, color, extra) {
  const [x, y] = xy(pt);
  el('circle', { cx: x, cy: y, r: CELL / 2 - 2, class: `stone ${color}${extra}`, 'data-stone': pt, 'data-color': color }, parent);
}

// A solve line or a proof walk: numbered stones (attacker red ring, defender blue ring);
// a hint; the threat and key points of an analysed boundary.
function drawOverlay(svg, occupied) {
  const o = S.overlay;
  if (!o) return;
  const g = el('g', { id: 'overlay' }, svg);
  if (o.moves) {
    const attacker = o.attacker;
    const defender = attacker === 'black' ? 'white' : 'black';
    o.moves.forEach((move, i) => {
      const color = i % 2 === 0 ? attacker : defender;
      for (const pt of move) {
        const [x, y] = xy(pt);
        const s = el('g', { class: `line-stone ${i % 2 === 0 ? 'attack' : 'defense'}`, 'data-move-number': i + 1, 'data-point': pt }, g);
        el('circle', { cx: x, cy: y, r: CELL / 2 - 2, class: `stone ${color}` }, s);
        el('text', { x, y, class: `num ${color}` }, s).textContent = i + 1;
      }
    });
  }
  if (o.hint) {
    for (const pt of o.hint) {
      const [x, y] = xy(pt);
      el('circle', { cx: x, cy: y, r: 7, class: 'hint', 'data-hint': pt }, g);
    }
  }
  for (const pt of o.threat || []) {
    const [x, y] = xy(pt);
    const d = 7;
    el('path', { d: `M${x - d} ${y - d}L${x + d} ${y + d}M${x - d} ${y + d}L${x + d} ${y - d}`, class: 'threat', 'data-threat': pt }, g);
  }
  for (const [pt, n] of o.keys || []) {
    const [x, y] = xy(pt);
    el('circle', { cx: x, cy: y, r: 9, class: 'key', 'data-key-point': pt }, g).appendChild(title(`${pt}: in ${n} holding defences`));
  }
}

// ---------- variations: the tree of lines, nothing lost ----------

// The trie node of `line` (created when missing).
function nodeOf(line) {
  let node = S.tree;
  for (const pt of line) {
    let kid = node.kids.find((k) => k.pt === pt);
    if (!kid) {
      kid = { pt, kids: [] };
      node.kids.push(kid);
    }
    node = kid;
  }
  return node;
}

// `line` and the continuation the tree knows after it (the first variation at every branch).
function withContinuation(line) {
  const out = line.slice();
  let node = nodeOf(line);
  while (node.kids.length) {
    node = node.kids[0];
    out.push(node.pt);
  }
  return out;
}

// Make `line` the game line (kept in the tree with its continuation), `cursor` stones on.
function setLine(line, cursor) {
  nodeOf(line);
  S.stones = withContinuation(line);
  S.cursor = cursor === undefined ? line.length : cursor;
}

// The variations at the cursor: the lines that differ from the game line at its last stone.
function siblings() {
  if (S.cursor === 0 || S.puzzle) return { all: [], at: -1 };
  const all = nodeOf(S.stones.slice(0, S.cursor - 1)).kids;
  return { all, at: all.findIndex((k) => k.pt === S.stones[S.cursor - 1]) };
}

// Step to the previous (-1) or next (+1) variation at the cursor.
function variation(step) {
  const { all, at } = siblings();
  if (all.length < 2) return;
  const k = all[(at + step + all.length) % all.length];
  setLine(S.stones.slice(0, S.cursor - 1).concat([k.pt]), S.cursor);
  refresh();
}

// Every line of the tree (root to leaf), for keeping it.
function treeLines(node = S.tree, prefix = []) {
  if (!node.kids.length) return prefix.length ? [prefix] : [];
  return node.kids.flatMap((k) => treeLines(k, prefix.concat([k.pt])));
}

// The game, its line and cursor, and whether the board is flipped, in the page's address
// (shareable: the address restores them), and the whole tree in the browser's storage (a
// reload restores the variations too).
function remember() {
  // Nothing is kept before the page has read what was kept (at load), nor for a puzzle.
  if (!S.restored || S.puzzle) return;
  const flipped = S.flipped ? '&flip=1' : '';
  const hash = `#game=${encodeURIComponent(S.game)}&line=${S.stones.join(',')}&at=${S.cursor}${flipped}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
  try {
    localStorage.setItem('cpbim-board', JSON.stringify({ game: S.game, lines: treeLines(), line: S.stones, at: S.cursor, flipped: S.flipped }));
  } catch (e) {
    // Storage full or refused (a private window): the address still holds the line.
  }
}

// What the address (or else the storage) holds: {game, lines, line, at, flipped}, or null.
function remembered() {
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem('cpbim-board') || 'null');
  } catch (e) {
    kept = null;
  }
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.has('line')) {
    const line = h.get('line') ? h.get('line').split(',') : [];
    const game = h.get('game') || 'connect6';
    const at = Math.min(line.length, Number(h.get('at') || line.length));
    const lines = kept && kept.game === game ? kept.lines : [];
    return { game, lines, line, at, flipped: h.get('flip') === '1' };
  }
  return kept;
}

// ---------- set-up: clicks, undo, redo, stepping ----------

function place(pt) {
  const p = S.pos;
  if (!p) return;
  if (S.job && S.job.kind !== 'move') cancelJob();
  if (p.finished) return say(`the game is over: ${p.finished.winner} won`);
  if (S.play && p.to_move !== S.play.human) return say('the engine is to move');
  const on = S.stones.slice(0, S.cursor);
  if (on.includes(pt)) {
    if (on[on.length - 1] === pt && !S.play) return undo();
    return say(`${pt} is taken`);
  }
  const forbidden = p.forbidden.find(([f]) => f === pt);
  if (forbidden) return say(`${pt} is forbidden to black (${forbidden[1]})`);
  setLine(on.concat([pt]));
  refresh().then(afterHumanMove);
}

function undo() {
  if (S.cursor === 0) return;
  S.cursor -= 1;
  refresh();
}

function redo() {
  if (S.cursor >= S.stones.length) return;
  S.cursor += 1;
  refresh();
}

function go(n) {
  S.cursor = Math.max(0, Math.min(S.stones.length, n));
  refresh();
}

function back() {
  go(S.cursor === boundaryAtOrBefore(S.cursor) ? boundaryAtOrBefore(S.cursor - 1) : boundaryAtOrBefore(S.cursor));
}

function forward() {
  go(boundaryAfter(S.cursor));
}

function clearBoard() {
  stopPlay();
  S.stones = [];
  S.cursor = 0;
  S.tree = { kids: [] };
  S.puzzle = null;
  refresh();
}

async function newGame() {
  S.game = gameName();
  S.stones = [];
  S.cursor = 0;
  S.tree = { kids: [] };
  S.puzzle = null;
  stopPlay();
  clearResults();
  await refresh();
}

function clearResults() {
  $('solve-result').textContent = '';
  $('prove-result').textContent = '';
  $('proof').innerHTML = '';
  $('analysis').innerHTML = '';
  S.solve = null;
  S.analysis = null;
}

// Load `text` (the record box by default). A diagram becomes a puzzle: its side to move is the
// one chosen under "to move", or the one its stone counts tell.
async function load(text) {
  if (typeof text !== 'string') text = $('record-text').value;
  const game = gameName();
  const body = { game, record: text };
  const side = $('to-move').value;
  if (side) body.to_move = side;
  try {
    const pos = await api('/api/position', body);
    S.game = game;
    stopPlay();
    clearResults();
    S.pos = pos;
    if (pos.ordered) {
      S.puzzle = null;
      S.tree = { kids: [] };
      setLine(pos.stones.map(([pt]) => pt));
    } else {
      S.puzzle = { text, base: pos.stones, side: pos.to_move, first: pos.stones_to_place || pos.p };
      S.stones = [];
      S.cursor = 0;
    }
    sideWanted(false);
    await refresh();
  } catch (e) {
    // A diagram whose stone counts do not tell the side to move: ask for it.
    const wanted = e.message.includes('--to-move');
    sideWanted(wanted);
    say(wanted ? `${e.message} — here: choose black or white under "to move"` : e.message);
  }
}

function sideWanted(on) {
  $('to-move').classList.toggle('wanted', on);
}

// A new side to move: a puzzle (or a diagram that wanted one) is loaded again with it; the
// stones played after the puzzle are dropped, their colours would change.
function sideChanged() {
  if (S.puzzle) load(S.puzzle.text);
  else if ($('to-move').classList.contains('wanted')) load();
}

// ---------- jobs: progress, result, cancel ----------

async function startJob(kind, path, body, onResult) {
  if (S.job) cancelJob();
  let started;
  try {
    started = await api(path, body);
  } catch (e) {
    jobFailed(kind, e.message);
    return;
  }
  const source = new EventSource(started.events);
  const job = { id: started.id, kind, source };
  S.job = job;
  $('job').hidden = false;
  $('job-kind').textContent = kind;
  $('job-progress').textContent = '';
  $('job-progress').dataset.nodes = '';
  const done = () => {
    source.close();
    if (S.job === job) {
      S.job = null;
      $('job').hidden = true;
    }
  };
  source.addEventListener('progress', (ev) => {
    if (S.job !== job) return;
    const p = JSON.parse(ev.data);
    const text = progressText(p);
    $('job-progress').textContent = text;
    $('job-progress').dataset.nodes = p.nodes === undefined ? '' : p.nodes;
    if (kind === 'solve') $('solve-result').textContent = `searching… ${text}`;
    if (kind === 'analyze') $('analysis').textContent = `analysing… ${text}`;
    if (kind === 'prove') $('prove-result').textContent = `proving… ${text}`;
  });
  source.addEventListener('result', (ev) => {
    done();
    onResult(JSON.parse(ev.data));
  });
  source.addEventListener('error', (ev) => {
    if (ev.data) jobFailed(kind, JSON.parse(ev.data).error);
    done();
  });
  source.addEventListener('cancelled', () => {
    say(`${kind} cancelled`);
    done();
  });
  source.addEventListener('end', done);
}

// A job refused or failed: its box says why (not "solving…" forever), and so does the message line.
function jobFailed(kind, message) {
  const box = { solve: 'solve-result', analyze: 'analysis', prove: 'prove-result' }[kind];
  if (box) $(box).textContent = `error: ${message}`;
  say(message);
}

// `1.2 M nodes, depth 12, searches 3/10, boundary 1/5, 0.8 s`: what the job's progress has.
function progressText(p) {
  const parts = [];
  if (p.threats !== undefined) parts.push(`threats ≤ ${p.threats}`);
  if (p.nodes !== undefined) parts.push(`${count(p.nodes)} nodes`);
  if (p.leaf_searches !== undefined) parts.push(`${count(p.leaf_searches)} leaf searches`);
  if (p.root_total) parts.push(`root ${p.root_done}/${p.root_total} settled`);
  if (p.depth) parts.push(`depth ${p.depth}`);
  if (p.searches) parts.push(`searches ${p.searches_done}/${p.searches}, boundary ${p.boundaries_done}/${p.boundaries}`);
  parts.push(`${(p.elapsed_ms / 1000).toFixed(1)} s`);
  return parts.join(', ');
}

function count(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(0)} k`;
  return String(n);
}

function cancelJob() {
  const job = S.job;
  if (!job) return;
  job.source.close();
  S.job = null;
  $('job').hidden = true;
  fetch(`/api/jobs/${job.id}`, { method: 'DELETE' });
  if (job.kind === 'move' && S.play) stopPlay();
}

// ---------- solve and the proof tree ----------

function numberOrEmpty(id) {
  const v = $(id).value.trim();
  return v === '' ? undefined : Number(v);
}

function solve() {
  let body;
  try {
    body = searchRecord();
  } catch (e) {
    return say(e.message);
  }
  body.proof = true;
  const depth = numberOrEmpty('solve-depth');
  const time = numberOrEmpty('solve-time');
  if (depth !== undefined) body.depth = depth;
  if (time !== undefined) body.time = time;
  const t0 = performance.now();
  const [key, side] = [keyAt(S.cursor), S.pos.to_move];
  $('solve-result').textContent = 'solving…';
  $('solve-result').removeAttribute('data-solve-ms');
  $('solve-result').removeAttribute('data-result');
  $('proof').innerHTML = '';
  startJob('solve', '/api/solve', body, (r) => {
    if (r.result === 'win') noteWin(key, side, r.depth, 'solve');
    showSolve(r);
    showEval();
    $('solve-result').dataset.solveMs = (performance.now() - t0).toFixed(1);
  });
}

function showSolve(r) {
  const box = $('solve-result');
  box.dataset.result = r.result;
  if (r.result === 'finished') {
    box.textContent = `finished: ${r.winner} won, ${r.row.join(' ')}`;
    return;
  }
  const attacker = S.pos.to_move;
  box.innerHTML = '';
  const head = document.createElement('div');
  head.textContent = `${attacker}: ${r.result} ${r.depth}  (${r.nodes} nodes, ${r.time_ms} ms)`;
  box.appendChild(head);
  if (r.result !== 'win') return;
  const line = document.createElement('div');
  line.className = 'mono';
  line.id = 'solve-line';
  line.textContent = r.line.map((m) => m.join(' ')).join(' | ');
  box.appendChild(line);
  S.solve = { result: r, attacker, path: [] };
  S.overlay = { moves: r.line, attacker };
  draw();
  showProof();
}

// ---------- prove: a threat-space proof ----------

function prove() {
  let body;
  try {
    body = searchRecord();
  } catch (e) {
    return say(e.message);
  }
  if ($('prove-side').value) body.side = $('prove-side').value;
  for (const [id, key] of [['prove-threats', 'threats'], ['prove-quiet', 'quiet'], ['prove-time', 'time']]) {
    const v = numberOrEmpty(id);
    if (v !== undefined) body[key] = v;
  }
  $('prove-result').textContent = 'proving…';
  $('prove-result').removeAttribute('data-result');
  const key = keyAt(S.cursor);
  startJob('prove', '/api/prove', body, (r) => {
    if (r.result === 'proven') noteWin(key, r.side, null, 'prove');
    showProve(r);
    showEval();
  });
}

// The answer as `cpbim prove` words it; a proven win's first threat drawn on the board.
function showProve(r) {
  const box = $('prove-result');
  box.dataset.result = r.result;
  const l = r.limits;
  const limits = `threats ≤ ${l.threats}, width ${l.width}` + (l.quiet ? `, ${l.quiet} quiet moves` : '');
  const cost = `${count(r.nodes)} nodes, ${count(r.leaf_searches)} leaf searches, ${(r.time_ms / 1000).toFixed(2)} s`;
  if (r.result !== 'proven') {
    box.textContent = r.result === 'stopped'
      ? `stopped at threat budget ${r.threats} (${limits}): not proven  (${cost})`
      : `not proven within the limits (${limits}); this says nothing of who wins`
        + (r.refutation ? `; ${r.to_move}'s ${r.refutation.join(' ')} is not answered within them` : '')
        + `  (${cost})`;
    return;
  }
  const p = r.proof;
  const first = p.threat || p.quiet || (p.leaf && (p.leaf.attack || p.leaf.six));
  const how = p.threat ? `first threat ${p.threat.join(' ')}`
    : p.quiet ? `first a quiet move, ${p.quiet.join(' ')}`
    : p.leaf ? `the double-threat search's win, first ${first.join(' ')}`
    : `${r.to_move} to move: every move answered, ${p.replies.length} by a proof of its own`;
  const threats = r.threats === 1 ? '1 threat' : `${r.threats} threats`;
  box.textContent = `proven: ${r.side} wins with ${threats} on the longest line (${how})  (${cost})`;
  if (first) {
    S.overlay = { moves: [first], attacker: r.side };
    draw();
  }
}

// The proof tree walk: the path is the defences chosen so far.
function proofNode() {
  let node = S.solve.result.proof;
  const moves = [];
  for (const d of S.solve.path) {
    moves.push(node.attack, d.stones);
    node = d.next;
  }
  return { node, moves };
}

function showProof() {
  const box = $('proof');
  box.innerHTML = '';
  if (!S.solve || !S.solve.result.proof) return;
  const { node, moves } = proofNode();
  const head = document.createElement('div');
  const attack = node.six || node.attack;
  head.textContent = node.six
    ? `move ${moves.length + 1}: ${node.six.join(' ')} completes the row`
    : `move ${moves.length + 1}: attack ${node.attack.join(' ')}; choose a defence (${node.defenses.length}):`;
  head.id = 'proof-node';
  head.dataset.attack = attack.join(' ');
  box.appendChild(head);
  if (S.solve.path.length) {
    const up = document.createElement('button');
    up.id = 'proof-back';
    up.textContent = 'back';
    up.onclick = () => { S.solve.path.pop(); walk(); };
    box.appendChild(up);
    const top = document.createElement('button');
    top.id = 'proof-top';
    top.textContent = 'main line';
    top.onclick = () => { S.solve.path = []; walk(); };
    box.appendChild(top);
  }
  if (node.attack) {
    const list = document.createElement('div');
    list.className = 'defenses';
    if (!node.defenses.length) list.textContent = 'no defence answers every threat';
    for (const d of node.defenses) {
      const b = document.createElement('button');
      b.className = 'defense';
      b.dataset.defense = d.stones.join(' ');
      b.textContent = d.stones.join(' ');
      b.onclick = () => { S.solve.path.push(d); walk(); };
      list.appendChild(b);
    }
    box.appendChild(list);
  }
}

function walk() {
  const { node, moves } = proofNode();
  const shown = S.solve.path.length ? moves.concat([node.six || node.attack]) : S.solve.result.line;
  S.overlay = { moves: shown, attacker: S.solve.attacker };
  draw();
  showProof();
}

// ---------- analysis ----------

function analyze() {
  let body;
  try {
    body = searchRecord();
  } catch (e) {
    return say(e.message);
  }
  body.defenses = $('analyze-defenses').checked;
  $('analysis').textContent = 'analysing…';
  // A puzzle is analysed as the one position on the board (it has no earlier boundaries).
  const at = S.puzzle ? S.cursor : null;
  const line = S.stones.slice(0, S.cursor);
  startJob('analyze', '/api/analyze', body, (objects) => {
    noteAnalysis(objects, line, at !== null);
    showAnalysis(objects, at);
  });
}

function res(s) {
  return `${s.result} ${s.depth}`;
}

// The analysis objects; `at`: the place in the list of a puzzle's one position.
function showAnalysis(objects, at) {
  S.analysis = objects;
  S.analysisAt = at;
  const box = $('analysis');
  box.innerHTML = '';
  const t = document.createElement('table');
  t.innerHTML = '<tr><th>stones</th><th>to move</th><th>last</th><th>live B/W</th><th>thn B/W</th><th>wins?</th><th>threat?</th><th>defences</th><th>move played</th></tr>';
  for (const b of objects) {
    const tr = document.createElement('tr');
    if (b.result === 'finished') {
      tr.innerHTML = `<td>${b.stones}</td><td colspan="8">game over: ${b.winner} won, ${b.row.join(' ')}</td>`;
      t.appendChild(tr);
      continue;
    }
    tr.className = 'boundary';
    tr.dataset.stones = b.stones;
    const d = b.defenses;
    const hold = !d ? '-' : !d.needed ? 'no threat' : d.stopped ? 'stopped' : `${d.holding}/${d.pairs}`;
    tr.innerHTML = `<td>${b.stones}</td><td>${b.to_move}</td><td class="mono">${b.last_move.join(' ')}</td>` +
      `<td>${b.live_windows.black}/${b.live_windows.white}</td><td>${b.thn.black}/${b.thn.white}</td>` +
      `<td>${res(b.win)}</td><td>${res(b.threat)}</td><td class="hold">${hold}</td>` +
      `<td class="verdict">${reviewText(b.review)}</td>`;
    if (b.review) tr.dataset.verdict = b.review.verdict;
    tr.onclick = () => showBoundary(b, tr);
    t.appendChild(tr);
  }
  box.appendChild(t);
  const last = objects.filter((b) => b.result !== 'finished').pop();
  if (last) showBoundary(last, t.querySelector(`tr[data-stones="${last.stones}"]`));
}

// The move played from a boundary and what it did (`cpbim analyze`'s review): `K9 L10 ?? walked
// into a loss (eval +28 → loss)`.
function reviewText(r) {
  if (!r) return '';
  const ev = (v) => (v === null || v === undefined ? '' : v >= 900000 ? 'win' : v <= -900000 ? 'loss' : (v > 0 ? '+' : '') + v);
  const mark = r.mark ? ` ${r.mark}` : '';
  const evals = r.eval_before === null ? '' : ` (eval ${ev(r.eval_before)}${r.eval_after === null ? '' : ' → ' + ev(r.eval_after)})`;
  return `${r.move.join(' ')}${mark} ${r.verdict}${evals}`;
}

// Go to a boundary: the threat the side to move must answer (blue crosses) and the points of
// the most holding defences (green rings).
async function showBoundary(b, tr) {
  for (const r of document.querySelectorAll('#analysis tr.selected')) r.classList.remove('selected');
  if (tr) tr.classList.add('selected');
  S.cursor = S.analysisAt === null ? b.stones : S.analysisAt;
  await refresh(true);
  const threat = b.threat.result === 'win' && b.threat.line.length ? b.threat.line[0] : [];
  const keys = b.defenses && b.defenses.key_points ? b.defenses.key_points : [];
  S.overlay = { threat, keys };
  draw();
}

// ---------- play against the engine ----------

function moveBody() {
  const body = searchRecord();
  const depth = numberOrEmpty('play-depth');
  if (depth !== undefined) body.depth = depth;
  else body.time = numberOrEmpty('play-time') || 1;
  return body;
}

function startPlay() {
  S.play = { human: $('play-color').value };
  $('play-status').textContent = `you play ${S.play.human}`;
  document.body.dataset.playing = S.play.human;
  afterHumanMove();
}

function stopPlay() {
  if (!S.play) return;
  S.play = null;
  delete document.body.dataset.playing;
  $('play-status').textContent = '';
}

function afterHumanMove() {
  const p = S.pos;
  if (!S.play || !p) return;
  if (p.finished) {
    $('play-status').textContent = `game over: ${p.finished.winner} won`;
    return;
  }
  if (p.to_move === S.play.human || p.pending.length) return;
  let body;
  try {
    body = moveBody();
  } catch (e) {
    return say(e.message);
  }
  $('play-status').textContent = 'the engine thinks…';
  const [line, side] = [S.stones.slice(0, S.cursor), p.to_move];
  startJob('move', '/api/move', body, async (r) => {
    if (!S.play) return;
    noteEngineMove(positionKey(line), r, side, line.concat(r.move), 'engine');
    setLine(line.concat(r.move));
    await refresh();
    $('play-status').textContent = `engine: ${r.move.join(' ')} (${r.verdict}, eval ${r.eval})`;
    document.body.dataset.engineMoves = (Number(document.body.dataset.engineMoves || 0) + 1).toString();
    afterHumanMove();
  });
}

function hint() {
  let body;
  try {
    body = moveBody();
  } catch (e) {
    return say(e.message);
  }
  const [key, side] = [keyAt(S.cursor), S.pos.to_move];
  startJob('move', '/api/move', body, (r) => {
    noteEngineMove(key, r, side, null, 'hint');
    S.overlay = { hint: r.move };
    draw();
    showEval();
    $('play-status').textContent = `hint: ${r.move.join(' ')} (${r.verdict})`;
  });
}

// ---------- wiring ----------

function wire() {
  $('board').addEventListener('click', (ev) => {
    const pt = ev.target.dataset && ev.target.dataset.point;
    if (pt) place(pt);
  });
  $('undo').onclick = undo;
  $('redo').onclick = redo;
  $('clear').onclick = clearBoard;
  $('first').onclick = () => go(0);
  $('back').onclick = back;
  $('forward').onclick = forward;
  $('last').onclick = () => go(S.stones.length);
  $('new-game').onclick = newGame;
  $('game').addEventListener('change', newGame);
  $('load').onclick = () => load();
  $('to-move').addEventListener('change', sideChanged);
  $('file').addEventListener('change', () => {
    const f = $('file').files[0];
    if (!f) return;
    const reader = new FileReader();
    reader.onload = () => { $('record-text').value = reader.result; load(); };
    reader.readAsText(f);
  });
  $('solve').onclick = solve;
  $('analyze').onclick = analyze;
  $('prove').onclick = prove;
  $('play-start').onclick = startPlay;
  $('play-stop').onclick = () => { if (S.job && S.job.kind === 'move') cancelJob(); stopPlay(); };
  $('hint').onclick = hint;
  $('job-cancel').onclick = cancelJob;
  $('flip').onclick = flip;
  for (const b of document.querySelectorAll('button.export')) b.onclick = () => exportAs(b.dataset.format);
  $('png').onclick = exportPng;
  $('copy').onclick = copyPosition;
  document.addEventListener('keydown', (ev) => {
    if (ev.target.tagName === 'TEXTAREA' || ev.target.tagName === 'INPUT') return;
    const keys = {
      ArrowLeft: back,
      ArrowRight: forward,
      Home: () => go(0),
      End: () => go(S.stones.length),
      ArrowUp: () => variation(-1),
      ArrowDown: () => variation(1),
      f: flip,
    };
    if (keys[ev.key]) {
      ev.preventDefault();
      keys[ev.key]();
    }
  });
}

// The game the address or the storage holds, restored with its variations.
async function restore() {
  const kept = remembered();
  S.restored = true;
  if (!kept || !Array.isArray(kept.line)) return;
  $('game').value = kept.game;
  // The kept game's board first: its stones per move cut the line into whole moves.
  if (S.game !== kept.game) await newGame();
  S.game = kept.game;
  S.tree = { kids: [] };
  for (const l of kept.lines || []) nodeOf(l);
  setLine(kept.line, Math.min(kept.at, kept.line.length));
  setFlipped(kept.flipped === true);
  await refresh();
  // A line the server does not accept (an edited address) leaves an empty board.
  if (!S.pos || S.pos.stones.length + S.pos.pending.length !== S.cursor) await newGame();
  remember();
}

wire();
newGame().then(restore).then(() => {
  // Ready: the board is drawn. The browser tests read how long that took.
  document.body.dataset.readyMs = performance.now().toFixed(1);
});
