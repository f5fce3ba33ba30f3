/**
 * Bytes of the demo portfolio files: small but valid PDFs and PNGs, generated deterministically
 * from the object path, so seed.sql can record their exact size and `upload-files.ts` can put
 * the very same bytes into Storage.
 */
import { deflateSync } from 'node:zlib';

/** The file kinds the demo data uses: [file name, MIME type]. */
export const DEMO_FILE_KINDS = [
  ['lebenslauf.pdf', 'application/pdf'],
  ['referenzen.pdf', 'application/pdf'],
  ['portfolio-auszug.pdf', 'application/pdf'],
  ['konzept.pdf', 'application/pdf'],
  ['moodboard.png', 'image/png'],
  ['projektfoto.png', 'image/png'],
] as const;

/** A one-page PDF (A4) showing `lines` in Helvetica; Latin-1 text only. */
function pdf(lines: string[]): Uint8Array {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\xff]/g, '?');
  const text = lines.map((l, i) => `BT /F1 ${i === 0 ? 18 : 11} Tf 56 ${780 - i * 24} Td (${esc(l)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, 'latin1'));
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A 160x120 RGB PNG with a diagonal two-colour gradient derived from `seed`. */
function png(seed: number): Uint8Array {
  const w = 160;
  const h = 120;
  const [r1, g1, b1] = [(seed * 37) % 256, (seed * 91) % 256, (seed * 53) % 256];
  const rows: Buffer[] = [];
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + w * 3);
    for (let x = 0; x < w; x++) {
      const t = (x + y) / (w + h);
      row[1 + x * 3] = Math.round(r1 * (1 - t) + 240 * t);
      row[2 + x * 3] = Math.round(g1 * (1 - t) + 240 * t);
      row[3 + x * 3] = Math.round(b1 * (1 - t) + 240 * t);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return new Uint8Array(Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })), chunk('IEND', Buffer.alloc(0)),
  ]));
}

/**
 * The bytes of a demo file. `objectPath` is "<owner>/<portfolio id>/<file name>", `title` the
 * portfolio title shown in PDFs. Same input, same bytes.
 */
export function demoFileBytes(objectPath: string, mime: string, title: string): Uint8Array {
  const seed = [...objectPath].reduce((s, c) => (s * 31 + c.charCodeAt(0)) >>> 0, 7);
  if (mime === 'image/png') return png(seed);
  const name = objectPath.split('/').pop() ?? 'datei.pdf';
  return pdf([
    title,
    `Datei: ${name}`,
    'Beispieldokument aus den Teamwerk-Demodaten.',
    'Sample document from the Teamwerk demo data.',
  ]);
}
