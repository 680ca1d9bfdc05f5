#!/usr/bin/env node
// Draws the Impulse app icon in code and writes PNGs (no image tools needed):
//   build/icons/icon.png           1024×1024 (macOS .icns and Windows .ico are
//                                  generated from it by electron-builder)
//   build/icons/png/<n>x<n>.png    16…512, the Linux icon set
// Run: node build/make-icons.mjs
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Encodes straight (non-premultiplied) RGBA8 pixels as a PNG. */
export function encodePng(width, height, rgba) {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const clamp01 = (x) => Math.min(1, Math.max(0, x));

/** Signed distance to a rounded box centred at the origin (half size h, radius r). */
function roundedBox(x, y, h, r) {
  const qx = Math.abs(x) - h + r, qy = Math.abs(y) - h + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/**
 * The icon in unit coordinates (0..1, y down): a deep blue rounded tile, a
 * fading trail of a ball flying up and right after an impact, the ball, and
 * an orange impact flash where the trail starts.
 */
function shade(u, v, px) {
  // px: size of one pixel in unit coordinates (antialiasing width).
  let r = 0, g = 0, b = 0, a = 0;
  const over = (cr, cg, cb, ca) => {
    r = cr * ca + r * (1 - ca);
    g = cg * ca + g * (1 - ca);
    b = cb * ca + b * (1 - ca);
    a = ca + a * (1 - ca);
  };
  const tile = roundedBox(u - 0.5, v - 0.5, 0.44, 0.1);
  const tileA = clamp01(0.5 - tile / px);
  if (tileA <= 0) return [0, 0, 0, 0];
  const t = v; // vertical gradient
  over(0.07 + 0.05 * (1 - t), 0.1 + 0.08 * (1 - t), 0.22 + 0.16 * (1 - t), tileA);
  // Impact flash: a four-pointed star at the lower left.
  const fx = u - 0.3, fy = v - 0.7;
  const star = Math.min(Math.abs(fx) * 6 + Math.abs(fy), Math.abs(fy) * 6 + Math.abs(fx)) - 0.09;
  over(1.0, 0.55, 0.15, clamp01(0.5 - star / px) * tileA);
  // Trail: circles along a parabola, growing and brightening towards the ball.
  for (let k = 0; k < 6; k++) {
    const s = k / 6;
    const cx = 0.3 + 0.36 * s, cy = 0.7 - 0.5 * s + 0.22 * s * s;
    const rad = 0.03 + 0.05 * s;
    const d = Math.hypot(u - cx, v - cy) - rad;
    over(0.55, 0.75, 1.0, clamp01(0.5 - d / px) * (0.15 + 0.45 * s) * tileA);
  }
  // Ball.
  const bx = u - 0.7, by = v - 0.34;
  const d = Math.hypot(bx, by) - 0.12;
  const lit = clamp01(0.75 - 2.2 * (bx * 0.6 + by * 0.8));
  over(0.85 + 0.15 * lit, 0.9 + 0.1 * lit, 1.0, clamp01(0.5 - d / px) * tileA);
  return [r / Math.max(a, 1e-9), g / Math.max(a, 1e-9), b / Math.max(a, 1e-9), a];
}

/** Renders the icon at `size` pixels with 2×2 supersampling. */
export function renderIcon(size) {
  const rgba = new Uint8Array(size * size * 4);
  const px = 1 / size;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < 2; sy++)
        for (let sx = 0; sx < 2; sx++) {
          const [cr, cg, cb, ca] = shade((x + 0.25 + 0.5 * sx) / size, (y + 0.25 + 0.5 * sy) / size, px);
          r += cr * ca;
          g += cg * ca;
          b += cb * ca;
          a += ca;
        }
      const o = (y * size + x) * 4;
      rgba[o] = a > 0 ? Math.round((255 * r) / a) : 0;
      rgba[o + 1] = a > 0 ? Math.round((255 * g) / a) : 0;
      rgba[o + 2] = a > 0 ? Math.round((255 * b) / a) : 0;
      rgba[o + 3] = Math.round((255 * a) / 4);
    }
  }
  return rgba;
}

function main() {
  const out = join(here, 'icons');
  mkdirSync(join(out, 'png'), { recursive: true });
  writeFileSync(join(out, 'icon.png'), encodePng(1024, 1024, renderIcon(1024)));
  for (const n of [16, 32, 48, 64, 128, 256, 512]) writeFileSync(join(out, 'png', `${n}x${n}.png`), encodePng(n, n, renderIcon(n)));
  console.log(`wrote ${join(out, 'icon.png')} and ${join(out, 'png')}/{16..512}.png`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
