#!/usr/bin/env node
/**
 * Merges messages into src/i18n/en.json and de.json (sorted keys), so several people can add
 * keys at once without clobbering each other's edits. Run it under a lock:
 *   flock /tmp/teamwerk-i18n.lock node frontend/scripts/add-messages.mjs patch.json
 * patch.json: { "en": { "key": "text" }, "de": { "key": "Text" }, "remove": ["old.key"] }
 * Every key must be given in both languages. Exit 1 on a missing translation.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/i18n');
const patch = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const en = Object.keys(patch.en ?? {});
const de = Object.keys(patch.de ?? {});
const missing = [...en.filter((k) => !(k in (patch.de ?? {}))), ...de.filter((k) => !(k in (patch.en ?? {})))];
if (missing.length) {
  console.error(`missing translation for: ${missing.join(', ')}`);
  process.exit(1);
}
for (const lang of ['en', 'de']) {
  const file = path.join(dir, `${lang}.json`);
  const current = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const k of patch.remove ?? []) delete current[k];
  Object.assign(current, patch[lang] ?? {});
  const sorted = Object.fromEntries(Object.keys(current).sort().map((k) => [k, current[k]]));
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(sorted, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
}
console.log(`merged ${en.length} keys${patch.remove?.length ? `, removed ${patch.remove.length}` : ''}`);
