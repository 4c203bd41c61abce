// Records the token figures the tests hold from OpenAI's tokenizer (npm
// tiktoken 1.0.22, encode_ordinary), so each has a recipe and CI can check
// that it still comes out the same:
//
// 1. tests/data/tokenizers/tiktoken-goldens.json, read by tst_tokenizer:
//    - each rank file's size and SHA-256, of the ranks tiktoken ships
//      (tiktoken/encoders/NAME.json, written out in the .tiktoken format);
//    - the ids of short texts chosen for their edges (BOM, CR LF, special
//      token look-alikes, U+180E, contractions, invalid UTF-8, seams);
//    - the count and the ids' SHA-256 of long single pieces (the heap merge).
// 2. The "stable prefix: N of M tokens (P%)" figures in the expected.out of
//    each tests/data/diff case: the common o200k_base ids of the two souls,
//    the souls composed here by docs/compose-rule.md (not by soulc). The rest
//    of each expected.out is written by hand and left as it is.
//
//   node token-goldens.js SOURCE_DIR            write the files
//   node token-goldens.js --check SOURCE_DIR    compare, exit 1 on a difference
//
// Run it from a folder where tiktoken@1.0.22 is installed (.ci/token-oracle
// does both: it installs tiktoken and runs --check).
"use strict";

const fs = require("fs");
const path = require("path");
const crypto = require("crypto");
const { get_encoding } = require("tiktoken");
// The package's exports leave out package.json: read it beside the module.
const tiktokenVersion = JSON.parse(fs.readFileSync(
  path.join(path.dirname(require.resolve("tiktoken")), "package.json"), "utf8")).version;

const args = process.argv.slice(2);
const check = args[0] === "--check";
const src = check ? args[1] : args[0];
if (!src) {
  console.error("usage: node token-goldens.js [--check] SOURCE_DIR");
  process.exit(2);
}
const encodings = ["o200k_base", "cl100k_base"];

// ------------------------------------------------------------- the bytes ---

// A text is a list of segments, as tests/data/vectors.json describes files:
// {text} (UTF-8), {hex}, {repeat, times}, or {base64Sequence: n}: the
// base64 of n bytes, byte i being ((i * 2654435761) mod 2^32 >> 13) & 255.
function bytesOf(segments) {
  return Buffer.concat(segments.map((s) => {
    if (s.text !== undefined) return Buffer.from(s.text, "utf8");
    if (s.hex !== undefined) return Buffer.from(s.hex, "hex");
    if (s.repeat !== undefined) return Buffer.from(s.repeat.repeat(s.times), "utf8");
    if (s.base64Sequence !== undefined) {
      const raw = Buffer.alloc(s.base64Sequence);
      for (let i = 0; i < raw.length; i++) raw[i] = (Math.imul(i, 2654435761) >>> 13) & 255;
      return Buffer.from(raw.toString("base64"), "latin1");
    }
    throw new Error(`unknown segment ${JSON.stringify(s)}`);
  }));
}

// As the compose rule decodes: each maximal invalid subpart is one U+FFFD,
// a leading BOM is kept.
const decode = (bytes) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);

// The ids as 32-bit little-endian numbers, hashed.
function idsSha256(ids) {
  const raw = Buffer.alloc(ids.length * 4);
  ids.forEach((id, i) => raw.writeUInt32LE(id, i * 4));
  return crypto.createHash("sha256").update(raw).digest("hex");
}

// ------------------------------------------------------ tst_tokenizer ---

const shortTexts = [
  ["o200k BOM kept", "o200k_base", [{ text: "\ufeffHello world" }]],
  ["o200k CR LF", "o200k_base", [{ text: "line one\r\nline two\r\n\r\n  indented\r\n" }]],
  ["o200k special look-alikes", "o200k_base",
    [{ text: "<|endoftext|> and <|im_start|>user<|im_end|><|fim_prefix|>" }]],
  ["o200k U+180E is not white space", "o200k_base", [{ text: "a\u180e b\u180e\u180e c \u180e" }]],
  ["o200k contractions", "o200k_base",
    [{ text: "I'M you'RE they've He'Ll it'S we'D don'T O'Neil 'tis \u017f'\u017f I\u2019m" }]],
  // Each maximal invalid subpart is one U+FFFD, as the compose rule decodes.
  ["o200k invalid UTF-8", "o200k_base", [{ text: "a" }, { hex: "ff" }, { text: "b" }, { hex: "c080" }]],
  ["o200k seam after punctuation", "o200k_base", [{ text: "end.\n\n## SOUL.md\n\nx" }]],
  ["cl100k seam after punctuation", "cl100k_base", [{ text: "end.\n\n## SOUL.md\n\nx" }]],
  ["cl100k seam after a word", "cl100k_base", [{ text: "end\n\n## SOUL.md\n\nx" }]],
];

const longTexts = [
  ["one letter", [{ repeat: "a", times: 100000 }]],
  ["digits", [{ repeat: "1234567890", times: 10000 }]],
  ["base64", [{ base64Sequence: 60000 }]],
  ["spaces", [{ repeat: " ", times: 100000 }, { text: "x" }]],
  ["long word", [{ repeat: "Supercalifragilistic", times: 3000 }]],
];

// The ranks as tiktoken ships them, in the .tiktoken format ("base64 rank"
// lines in rank order), which is what resources/tokenizers/ must hold.
function rankFile(encoding) {
  const json = require(`tiktoken/encoders/${encoding}.json`);
  const ranks = [];
  for (const line of json.bpe_ranks.split("\n")) {
    if (!line) continue;
    const [, offset, ...tokens] = line.split(" ");
    tokens.forEach((token, i) => ranks.push([Number(offset) + i, token]));
  }
  ranks.sort((a, b) => a[0] - b[0]);
  return Buffer.from(ranks.map(([rank, token]) => `${token} ${rank}\n`).join(""), "latin1");
}

function tokenizerGoldens(encoders) {
  const rankFiles = encodings.map((encoding) => {
    const bytes = rankFile(encoding);
    return { encoding, bytes: bytes.length, sha256: crypto.createHash("sha256").update(bytes).digest("hex") };
  });
  const golden = shortTexts.map(([name, encoding, segments]) => ({
    name, encoding, bytes: segments,
    ids: Array.from(encoders[encoding].encode_ordinary(decode(bytesOf(segments)))),
  }));
  const longPieces = [];
  for (const encoding of encodings) {
    for (const [name, segments] of longTexts) {
      const ids = Array.from(encoders[encoding].encode_ordinary(decode(bytesOf(segments))));
      longPieces.push({
        name: `${encoding.replace("_base", "")} ${name}`, encoding, bytes: segments,
        count: ids.length, idsSha256: idsSha256(ids),
      });
    }
  }
  const doc = {
    format: "tiktoken-goldens/1",
    about: `Written by .ci/token-goldens.js from npm tiktoken ${tiktokenVersion} (encode_ordinary of the ` +
      "bytes decoded as the compose rule decodes them); do not edit by hand. A text is a list of " +
      "segments: {text} (UTF-8), {hex}, {repeat, times}, or {base64Sequence: n}, the base64 of n bytes " +
      "whose byte i is ((i * 2654435761) mod 2^32 >> 13) & 255. idsSha256 hashes the ids as 32-bit " +
      "little-endian numbers. rankFiles are the ranks tiktoken ships, in the .tiktoken format.",
    tiktoken: tiktokenVersion,
    rankFiles, golden, longPieces,
  };
  return Buffer.from(formatJson(doc) + "\n", "utf8");
}

// JSON with two-space indents, arrays of numbers on one line, and every
// character outside printable ASCII escaped (so BOMs and controls show).
function formatJson(value, indent = "") {
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === "number")) return "[" + value.join(", ") + "]";
    if (value.length === 0) return "[]";
    return "[\n" + value.map((v) => inner + formatJson(v, inner)).join(",\n") + "\n" + indent + "]";
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    // A segment stays on one line.
    if (keys.every((k) => typeof value[k] !== "object")) {
      const flat = "{" + keys.map((k) => `${escape(k)}: ${formatJson(value[k])}`).join(", ") + "}";
      if (flat.length <= 100) return flat;
    }
    return "{\n" + keys.map((k) => `${inner}${escape(k)}: ${formatJson(value[k], inner)}`).join(",\n") +
      "\n" + indent + "}";
  }
  return typeof value === "string" ? escape(value) : JSON.stringify(value);
}
function escape(s) {
  return JSON.stringify(s).replace(/[^\x20-\x7e]/g,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

// ------------------------------------------------------------ soulc diff ---

const slotNames = ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "TOOLS.md", "HEARTBEAT.md", "MEMORY.md"];
const capBytes = 2097152;
const notice = "\n[truncated: exceeds 2 MB bootstrap cap]";
const whiteSpace = "\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const trim = (s) => s.replace(new RegExp(`^[${whiteSpace}]+|[${whiteSpace}]+$`, "g"), "");

// docs/compose-rule.md: the seven slots in order, each a regular file (after
// links) read up to the cap, decoded lossily with the BOM kept, the notice
// added when cut, trimmed of White_Space, under "## NAME\n\n"; joined by a
// blank line.
function composeFolder(dir) {
  const sections = [];
  for (const name of slotNames) {
    let bytes;
    try {
      if (!fs.statSync(path.join(dir, name)).isFile()) continue;
      bytes = fs.readFileSync(path.join(dir, name));
    } catch {
      continue;
    }
    const truncated = bytes.length > capBytes;
    const text = decode(truncated ? bytes.subarray(0, capBytes) : bytes) + (truncated ? notice : "");
    sections.push(`## ${name}\n\n${trim(text)}`);
  }
  return Buffer.from(sections.join("\n\n"), "utf8");
}

// A side of a case: the folder `a`, or the exported soul `a.soul.md`.
function soulOf(caseDir, side) {
  const folder = path.join(caseDir, side);
  if (fs.existsSync(folder)) return composeFolder(folder);
  return fs.readFileSync(folder + ".soul.md");
}

const prefixLine = /^stable prefix: \d+ of \d+ tokens \(\d+%\)/m;

function diffGoldens(o200k) {
  const diffDir = path.join(src, "tests/data/diff");
  const out = new Map();
  for (const name of fs.readdirSync(diffDir).sort()) {
    const caseDir = path.join(diffDir, name);
    if (!fs.statSync(caseDir).isDirectory()) continue;
    const file = path.join(caseDir, "expected.out");
    const expected = fs.readFileSync(file, "latin1");
    if (!prefixLine.test(expected)) continue; // an error case: no prefix
    const a = soulOf(caseDir, "a");
    const b = soulOf(caseDir, "b");
    const idsA = Array.from(o200k.encode_ordinary(decode(a)));
    const idsB = Array.from(o200k.encode_ordinary(decode(b)));
    const identical = a.equals(b);
    let common = 0;
    while (common < idsA.length && common < idsB.length && idsA[common] === idsB[common]) common++;
    const tokens = identical ? idsB.length : common;
    const percent = identical ? 100 : idsB.length === 0 ? 0 : Math.min(99, Math.floor((tokens * 100) / idsB.length));
    const line = `stable prefix: ${tokens} of ${idsB.length} tokens (${percent}%)`;
    out.set(file, Buffer.from(expected.replace(prefixLine, line), "latin1"));
  }
  if (out.size < 10) throw new Error(`only ${out.size} diff cases with a stable prefix in ${diffDir}`);
  return out;
}

// ------------------------------------------------------------------ main ---

const encoders = Object.fromEntries(encodings.map((e) => [e, get_encoding(e)]));
const files = new Map([[path.join(src, "tests/data/tokenizers/tiktoken-goldens.json"), tokenizerGoldens(encoders)]]);
for (const [file, bytes] of diffGoldens(encoders.o200k_base)) files.set(file, bytes);

let differ = 0;
for (const [file, bytes] of files) {
  const shown = path.relative(src, file);
  const old = fs.existsSync(file) ? fs.readFileSync(file) : null;
  if (old && old.equals(bytes)) {
    console.log(`same      ${shown}`);
    continue;
  }
  differ++;
  if (check) {
    console.log(`DIFFERENT ${shown}`);
    const oldLines = old ? old.toString("latin1").split("\n") : [];
    const newLines = bytes.toString("latin1").split("\n");
    let shownLines = 0;
    for (let i = 0; i < Math.max(oldLines.length, newLines.length) && shownLines < 6; i++) {
      if (oldLines[i] === newLines[i]) continue;
      console.log(`  line ${i + 1}: committed ${JSON.stringify(oldLines[i] ?? null).slice(0, 160)}`);
      console.log(`  line ${i + 1}: tiktoken  ${JSON.stringify(newLines[i] ?? null).slice(0, 160)}`);
      shownLines++;
    }
  } else {
    fs.writeFileSync(file, bytes);
    console.log(`written   ${shown}`);
  }
}
for (const enc of Object.values(encoders)) enc.free();
if (check) {
  console.log(differ ? `token-goldens: ${differ} of ${files.size} files differ from tiktoken ${tiktokenVersion}`
    : `token-goldens: all ${files.size} files as tiktoken ${tiktokenVersion} gives them`);
  process.exit(differ ? 1 : 0);
}
