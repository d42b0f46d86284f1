// A small QR code encoder of our own (ISO/IEC 18004): byte mode, error correction level M,
// versions 1 to 10 (up to 213 bytes: any table link). No library is loaded at run time; the
// tests check its matrix against a reference encoder (tests/web/test_invite.py).

// Per version: [error correction codewords per block, blocks of group 1, data codewords in
// each, blocks of group 2, data codewords in each] at level M.
const BLOCKS = [null,
  [10, 1, 16, 0, 0], [16, 1, 28, 0, 0], [26, 1, 44, 0, 0], [18, 2, 32, 0, 0], [24, 2, 43, 0, 0],
  [16, 4, 27, 0, 0], [18, 4, 31, 0, 0], [22, 2, 38, 2, 39], [22, 3, 36, 2, 37], [26, 4, 43, 1, 44]];
const ALIGN = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];
const LEVEL_M = 0; // the two bits of level M in the format information

function dataCodewords(version) {
  const [, n1, d1, n2, d2] = BLOCKS[version];
  return n1 * d1 + n2 * d2;
}

// Reed-Solomon over GF(256) with the polynomial 0x11D.
function multiply(x, y) {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z;
}

function divisor(degree) {
  const result = new Array(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = multiply(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = multiply(root, 0x02);
  }
  return result;
}

function remainder(data, div) {
  const result = div.map(() => 0);
  for (const b of data) {
    const factor = b ^ result.shift();
    result.push(0);
    div.forEach((coef, i) => { result[i] ^= multiply(coef, factor); });
  }
  return result;
}

// The message's codewords: mode, length, the bytes, terminator and padding, then split into
// blocks, each followed by its error correction, interleaved.
function codewords(bytes, version) {
  const bits = [];
  const put = (value, length) => { for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  const capacity = dataCodewords(version) * 8;
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(parseInt(bits.slice(i, i + 8).join(""), 2));
  const [ec, n1, d1, n2, d2] = BLOCKS[version];
  const div = divisor(ec);
  const blocks = [];
  let at = 0;
  for (let i = 0; i < n1 + n2; i++) {
    const size = i < n1 ? d1 : d2;
    const block = data.slice(at, at + size);
    at += size;
    blocks.push([block, remainder(block, div)]);
  }
  const out = [];
  for (let i = 0; i < Math.max(d1, d2); i++) for (const [block] of blocks) if (i < block.length) out.push(block[i]);
  for (let i = 0; i < ec; i++) for (const [, check] of blocks) out.push(check[i]);
  return out;
}

function bch(value, poly, bits) {
  let rem = value << bits;
  const top = Math.floor(Math.log2(poly));
  for (let i = Math.floor(Math.log2(rem || 1)); i >= top; i--) if ((rem >>> i) & 1) rem ^= poly << (i - top);
  return (value << bits) | rem;
}

const MASKS = [
  (r, c) => (r + c) % 2 === 0, (r) => r % 2 === 0, (r, c) => c % 3 === 0, (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0, (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0, (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

// The function patterns (finders, timing, alignment, format and version areas) of a version:
// `dark` with their colours, `fixed` marking the modules no data may use.
function skeleton(version) {
  const size = version * 4 + 17;
  const dark = Array.from({ length: size }, () => new Array(size).fill(false));
  const fixed = Array.from({ length: size }, () => new Array(size).fill(false));
  const set = (r, c, on) => { dark[r][c] = on; fixed[r][c] = true; };
  for (let i = 0; i < size; i++) { set(6, i, i % 2 === 0); set(i, 6, i % 2 === 0); }
  for (const [r0, c0] of [[3, 3], [3, size - 4], [size - 4, 3]]) {
    for (let dr = -4; dr <= 4; dr++) {
      for (let dc = -4; dc <= 4; dc++) {
        const r = r0 + dr;
        const c = c0 + dc;
        if (r < 0 || r >= size || c < 0 || c >= size) continue;
        const d = Math.max(Math.abs(dr), Math.abs(dc));
        set(r, c, d !== 2 && d !== 4);
      }
    }
  }
  const align = ALIGN[version];
  for (const r0 of align) {
    for (const c0 of align) {
      if ((r0 === 6 && c0 === 6) || (r0 === 6 && c0 === align[align.length - 1]) || (c0 === 6 && r0 === align[align.length - 1])) continue;
      for (let dr = -2; dr <= 2; dr++) for (let dc = -2; dc <= 2; dc++) set(r0 + dr, c0 + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
    }
  }
  for (let i = 0; i < 9; i++) { fixed[8][i] = true; fixed[i][8] = true; }
  for (let i = 0; i < 8; i++) { fixed[8][size - 1 - i] = true; fixed[size - 1 - i][8] = true; }
  set(size - 8, 8, true); // the dark module
  if (version >= 7) {
    const info = bch(version, 0x1f25, 12);
    for (let i = 0; i < 18; i++) {
      const on = ((info >>> i) & 1) === 1;
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      set(a, b, on);
      set(b, a, on);
    }
  }
  return { size, dark, fixed };
}

function drawFormat(dark, size, mask) {
  const info = bch((LEVEL_M << 3) | mask, 0x537, 10) ^ 0x5412;
  const bit = (i) => ((info >>> i) & 1) === 1;
  const set = (x, y, on) => { dark[y][x] = on; }; // x: the column, y: the row
  for (let i = 0; i <= 5; i++) set(8, i, bit(i));
  set(8, 7, bit(6));
  set(8, 8, bit(7));
  set(7, 8, bit(8));
  for (let i = 9; i < 15; i++) set(14 - i, 8, bit(i));
  for (let i = 0; i < 8; i++) set(size - 1 - i, 8, bit(i));
  for (let i = 8; i < 15; i++) set(8, size - 15 + i, bit(i));
  set(8, size - 8, true);
}

function placeData(dark, fixed, size, words) {
  let i = 0;
  const total = words.length * 8;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let vert = 0; vert < size; vert++) {
      for (let j = 0; j < 2; j++) {
        const c = right - j;
        const upward = ((right + 1) & 2) === 0;
        const r = upward ? size - 1 - vert : vert;
        if (!fixed[r][c] && i < total) {
          dark[r][c] = ((words[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
          i++;
        }
      }
    }
  }
}

// The standard's penalty of a masked symbol: the mask with the lowest is used.
function penalty(dark, size) {
  let score = 0;
  const line = (get) => {
    let run = 1;
    const seq = [];
    for (let i = 0; i < size; i++) seq.push(get(i));
    for (let i = 1; i <= size; i++) {
      if (i < size && seq[i] === seq[i - 1]) {
        run++;
      } else {
        if (run >= 5) score += run - 2;
        run = 1;
      }
    }
    const padded = [false, false, false, false, ...seq, false, false, false, false];
    const pattern = [true, false, true, true, true, false, true];
    for (let i = 0; i + 7 <= padded.length; i++) {
      if (!pattern.every((p, k) => padded[i + k] === p)) continue;
      const before = padded.slice(Math.max(0, i - 4), i);
      const after = padded.slice(i + 7, i + 11);
      if ((before.length === 4 && before.every((x) => !x)) || (after.length === 4 && after.every((x) => !x))) score += 40;
    }
  };
  for (let r = 0; r < size; r++) line((c) => dark[r][c]);
  for (let c = 0; c < size; c++) line((r) => dark[r][c]);
  let darkCount = 0;
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      if (dark[r][c]) darkCount++;
      if (r + 1 < size && c + 1 < size && dark[r][c] === dark[r + 1][c] && dark[r][c] === dark[r][c + 1] && dark[r][c] === dark[r + 1][c + 1]) score += 3;
    }
  }
  const total = size * size;
  score += (Math.ceil(Math.abs(darkCount * 20 - total * 10) / total) - 1) * 10;
  return score;
}

// The QR code of `text` (its UTF-8 bytes): {version, mask, size, dark: rows of booleans};
// `mask` forces one (the tests' reference uses the same), else the best is chosen.
export function qrCode(text, mask = null) {
  const bytes = [...new TextEncoder().encode(text)];
  let version = 1;
  while (version <= 10 && 4 + (version < 10 ? 8 : 16) + bytes.length * 8 > dataCodewords(version) * 8) version++;
  if (version > 10) throw new Error("too long for a QR code of version 10");
  const words = codewords(bytes, version);
  const { size, dark, fixed } = skeleton(version);
  placeData(dark, fixed, size, words);
  const masked = (m) => {
    const out = dark.map((row, r) => row.map((on, c) => (fixed[r][c] ? on : on !== MASKS[m](r, c))));
    drawFormat(out, size, m);
    return out;
  };
  let best = mask;
  if (best === null) {
    let lowest = Infinity;
    for (let m = 0; m < 8; m++) {
      const score = penalty(masked(m), size);
      if (score < lowest) { lowest = score; best = m; }
    }
  }
  return { version, mask: best, size, dark: masked(best) };
}

// The code as an SVG (drawn by the page, no image fetched), with the quiet zone of 4 modules.
export function qrSvg(text, label) {
  const { size, dark } = qrCode(text);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const full = size + 8;
  svg.setAttribute("viewBox", `0 0 ${full} ${full}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("shape-rendering", "crispEdges");
  const back = document.createElementNS(ns, "rect");
  back.setAttribute("width", String(full));
  back.setAttribute("height", String(full));
  back.setAttribute("fill", "#fff");
  let d = "";
  dark.forEach((row, r) => row.forEach((on, c) => { if (on) d += `M${c + 4} ${r + 4}h1v1h-1z`; }));
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(back, path);
  return svg;
}
