// Export from the board page (docs/board.md): the position as text, diagram, SGF or the SVG of
// `analyze --svg` (the server writes them), the board as drawn here as a PNG picture, and the
// position's text copied to the clipboard. Loaded before board.js, whose state (S) and
// helpers these functions use when called.
'use strict';

// The export's text in the box and behind the download link.
function offer(text, blob, name, format) {
  $('export-text').value = text;
  $('export-text').dataset.format = format;
  const a = $('export-download');
  if (a.href) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(blob);
  a.download = name;
}

// The record of the position on the board as the export endpoint takes it.
function exportRequest(format) {
  const { body } = request();
  const req = { game: body.game, record: body.record, format };
  if (body.to_move) req.to_move = body.to_move;
  return req;
}

async function exportAs(format) {
  try {
    const text = await api('/api/export', exportRequest(format));
    const type = format === 'svg' ? 'image/svg+xml' : 'text/plain';
    const ext = format === 'list' || format === 'diagram' ? 'txt' : format;
    offer(text, new Blob([text], { type }), `position.${ext}`, format);
  } catch (e) {
    say(e.message);
  }
}

// ---------- the board as a PNG picture ----------

// Pixels of the picture per unit of the board's drawing (a point is 30 units apart).
const PNG_SCALE = 2;

// The board's drawing as a standalone SVG: the page's style rules for it inside, its
// background drawn, without the transparent points that take the clicks.
function standaloneSvg(w, h) {
  const svg = $('board');
  const copy = svg.cloneNode(true);
  const points = copy.querySelector('#points');
  if (points) points.remove();
  copy.setAttribute('width', w);
  copy.setAttribute('height', h);
  const rules = [];
  for (const sheet of document.styleSheets) {
    for (const rule of sheet.cssRules) {
      if (rule.selectorText && rule.selectorText.startsWith('#board ')) rules.push(rule.cssText);
    }
  }
  const style = document.createElementNS(SVG, 'style');
  style.textContent = `text { font-family: ${getComputedStyle(document.body).fontFamily}; }\n${rules.join('\n')}`;
  const background = el('rect', { width: w, height: h, fill: getComputedStyle(svg).backgroundColor });
  copy.prepend(style, background);
  return new XMLSerializer().serializeToString(copy);
}

// The board as drawn (stones, marks, the solve line; flipped or not) as a PNG blob.
async function boardPng() {
  const [, , w, h] = $('board').getAttribute('viewBox').split(' ').map(Number);
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(standaloneSvg(w, h))}`;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = w * PNG_SCALE;
  canvas.height = h * PNG_SCALE;
  const ctx = canvas.getContext('2d');
  ctx.scale(PNG_SCALE, PNG_SCALE);
  ctx.drawImage(img, 0, 0, w, h);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no PNG'))), 'image/png'));
}

async function exportPng() {
  try {
    const png = await boardPng();
    const [, , w, h] = $('board').getAttribute('viewBox').split(' ').map(Number);
    offer(`PNG picture of the board, ${w * PNG_SCALE}×${h * PNG_SCALE} pixels, ${png.size} bytes: press download`, png, 'position.png', 'png');
  } catch (e) {
    say(`PNG: ${e.message}`);
  }
}

// ---------- the position to the clipboard ----------

// Copy the position's text (a stone list; a puzzle: its diagram) with the clipboard API, or,
// where the browser refuses it, by selecting it in the export box and the copy command. The
// status beside the button says which (data-how: clipboard, selection or failed).
async function copyPosition() {
  const status = $('copy-status');
  status.textContent = 'copying…';
  status.dataset.how = '';
  let text;
  try {
    text = (await api('/api/export', exportRequest(S.puzzle ? 'diagram' : 'list'))).trimEnd();
  } catch (e) {
    status.textContent = '';
    return say(e.message);
  }
  let how = 'clipboard';
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    how = copyBySelection(text) ? 'selection' : 'failed';
  }
  status.dataset.how = how;
  status.dataset.text = text;
  status.textContent = {
    clipboard: 'copied',
    selection: 'copied (from the box below)',
    failed: 'the browser refused: the text is selected in the box below, copy it from there',
  }[how];
}

// The fallback: the text selected in the export box, and the browser's copy command.
function copyBySelection(text) {
  const box = $('export-text');
  box.value = text;
  box.dataset.format = 'copy';
  box.focus();
  box.select();
  try {
    return document.execCommand('copy');
  } catch (e) {
    return false;
  }
}
