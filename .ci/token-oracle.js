// The corpus and the comparisons of .ci/token-oracle (run from there, with
// tiktoken and tokenizers installed beside this file).
//
//   node oracle.js SOULC CL100K_TIKTOKEN_FILE WORKDIR
"use strict";

const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");
const { get_encoding } = require("tiktoken");
const { Tokenizer } = require("tokenizers");

const [soulc, cl100kFile, work] = process.argv.slice(2);

// ---------------------------------------------------------------- corpus ---

let seed = 20261201;
function random() {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (n) => Math.floor(random() * n);
const pick = (a) => a[int(a.length)];
const cp = (c) => String.fromCodePoint(c);
const range = (a, b) => cp(a + int(b - a + 1));

// Letters of scripts assigned long before Unicode 14 (so both engines agree
// on their properties).
const scripts = {
  latin: () => pick("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
  latinExt: () => range(0xc0, 0x17f).replace(/[\u00d7\u00f7]/, "e"),
  greek: () => range(0x3b1, 0x3c9),
  greekUpper: () => range(0x391, 0x3a9).replace("\u03a2", "\u03a3"),
  cyrillic: () => range(0x410, 0x44f),
  armenian: () => range(0x561, 0x586),
  hebrew: () => range(0x5d0, 0x5ea),
  arabic: () => range(0x627, 0x64a),
  devanagari: () => range(0x915, 0x939) + (random() < 0.4 ? range(0x93e, 0x94c) : ""),
  bengali: () => range(0x995, 0x9a8),
  tamil: () => pick(["\u0b95", "\u0b99", "\u0b9a", "\u0b9e", "\u0b9f", "\u0ba3", "\u0ba4", "\u0ba8", "\u0baa", "\u0bae"]) + (random() < 0.4 ? "\u0bbf" : ""),
  thai: () => range(0xe01, 0xe2e),
  georgian: () => range(0x10d0, 0x10f0),
  ethiopic: () => range(0x1200, 0x1248),
  hangul: () => range(0xac00, 0xd7a3),
  hiragana: () => range(0x3041, 0x3093),
  katakana: () => range(0x30a1, 0x30f6),
  cjk: () => range(0x4e00, 0x9fa5),
  fullwidth: () => range(0xff21, 0xff3a),
};
const scriptNames = Object.keys(scripts);

const words = ("you are ava a calm assistant who keeps notes short and asks before acting " +
  "the user prefers metric units and plain answers never invent facts cite the file " +
  "when unsure say so tools grep search calendar memory heartbeat check inbox summarize " +
  "identity voice warm direct brief honest kind persona soul agents tools schedule " +
  "reply within three sentences unless asked prefer lists for steps keep secrets").split(" ");
const contractions = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d"];

function caseVariants(s) {
  return s.split("").map((c) => (random() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join("");
}
function word() {
  const w = pick(words);
  const r = random();
  if (r < 0.1) return w.toUpperCase();
  if (r < 0.3) return w[0].toUpperCase() + w.slice(1);
  return w;
}
function sentence() {
  const n = 3 + int(12);
  const parts = [];
  for (let i = 0; i < n; i++) {
    let w = word();
    if (random() < 0.05) w += caseVariants(pick(contractions));
    if (random() < 0.05) w = int(100000).toString();
    if (random() < 0.03) w = "`" + w + "`";
    if (random() < 0.03) w = "**" + w + "**";
    parts.push(w);
  }
  let s = parts.join(" ");
  s = s[0].toUpperCase() + s.slice(1);
  return s + pick([".", ".", ".", "!", "?", ":", ";", "...", " —", ""]);
}
function proseMarkdown() {
  const lines = [];
  const n = 1 + int(25);
  for (let i = 0; i < n; i++) {
    const r = random();
    if (r < 0.1) lines.push(pick(["#", "##", "###"]) + " " + sentence());
    else if (r < 0.3) lines.push(pick(["-", "*", "1.", "  -"]) + " " + sentence());
    else if (r < 0.35) lines.push("```\n" + sentence() + "\n```");
    else if (r < 0.4) lines.push("> " + sentence());
    else if (r < 0.45) lines.push("[" + word() + "](https://example.org/" + word() + "?q=" + int(999) + ")");
    else if (r < 0.5) lines.push("");
    else lines.push(sentence() + " " + sentence());
  }
  return lines.join(pick(["\n", "\n", "\n\n", "\r\n"]));
}
function scriptWord(name) {
  let s = "";
  const n = 1 + int(12);
  for (let i = 0; i < n; i++) s += scripts[name]();
  return s;
}
function manyScripts() {
  const parts = [];
  const n = 3 + int(30);
  const main = pick(scriptNames);
  for (let i = 0; i < n; i++) {
    const name = random() < 0.7 ? main : pick(scriptNames);
    parts.push(scriptWord(name));
    if (random() < 0.15) parts.push(pick([",", "。", "、", "،", "।", "!", "?", ".", ":", "«", "»", "“", "”"]));
  }
  return parts.join(pick([" ", " ", "", "\n", "  "]));
}
const emoji = () => range(0x1f600, 0x1f64f);
const emojiBits = [
  () => emoji(),
  () => range(0x1f300, 0x1f5ff),
  () => emoji() + range(0x1f3fb, 0x1f3ff),
  () => "\u{1F469}\u200D\u{1F4BB}",
  () => "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}",
  () => "\u{1F3F3}\uFE0F\u200D\u{1F308}",
  () => "\u{1F1E9}\u{1F1EA}\u{1F1EB}\u{1F1F7}",
  () => "1\uFE0F\u20E3",
  () => "\u2764\uFE0F",
  () => "\u{1F44D}\u{1F3FD}",
  () => "\u{1F9D1}\u200D\u{1F91D}\u200D\u{1F9D1}",
];
function emojiText() {
  const parts = [];
  const n = 1 + int(20);
  for (let i = 0; i < n; i++) parts.push(random() < 0.6 ? pick(emojiBits)() : word());
  return parts.join(pick([" ", "", " ", "\n"]));
}
function combining() {
  const parts = [];
  const n = 1 + int(20);
  for (let i = 0; i < n; i++) {
    const r = random();
    if (r < 0.3) {
      let s = pick(["a", "e", "o", "n", "A", "E", "i", "x", "Z"]);
      const k = 1 + int(4);
      for (let j = 0; j < k; j++) s += range(0x300, 0x36f);
      parts.push(s + (random() < 0.5 ? word() : ""));
    } else if (r < 0.5) {
      parts.push(range(0x1100, 0x1112) + range(0x1161, 0x1175) + (random() < 0.5 ? range(0x11a8, 0x11c2) : ""));
    } else if (r < 0.7) {
      parts.push(range(0x627, 0x64a) + range(0x64b, 0x652) + range(0x627, 0x64a));
    } else if (r < 0.85) {
      parts.push(range(0x915, 0x939) + "\u094d" + range(0x915, 0x939) + range(0x93e, 0x94c));
    } else {
      parts.push("\u0301" + word() + "\u20dd");
    }
  }
  return parts.join(pick([" ", "", "\n"]));
}
function digits() {
  const parts = [];
  const n = 1 + int(10);
  for (let i = 0; i < n; i++) {
    const r = random();
    const len = 1 + int(random() < 0.2 ? 300 : 12);
    let d = "";
    if (r < 0.5) for (let j = 0; j < len; j++) d += int(10);
    else if (r < 0.6) for (let j = 0; j < len; j++) d += range(0x660, 0x669);
    else if (r < 0.7) for (let j = 0; j < len; j++) d += range(0xff10, 0xff19);
    else if (r < 0.75) for (let j = 0; j < len; j++) d += range(0x966, 0x96f);
    else if (r < 0.85) d = int(1e6) + pick([".", ",", " ", "-", "/", ":"]) + int(1e6);
    else d = pick(["²", "³", "½", "¾", "Ⅻ", "ⅷ", "①", "⑳", "٫"]) + int(100);
    parts.push(d + (random() < 0.3 ? word() : ""));
  }
  return parts.join(pick([" ", "", "\n", ", "]));
}
function contractionText() {
  const parts = [];
  const n = 1 + int(20);
  for (let i = 0; i < n; i++) {
    const pre = pick([word(), word(), "", " ", "1", "é", "中", ".", "\u017f", "O"]);
    const apos = pick(["'", "'", "'", "\u2019"]);
    const c = pick(contractions).slice(1);
    const tail = pick(["", "", "s", "x", " ", "\n", "'", word()]);
    parts.push(pre + apos + caseVariants(c) + tail);
    if (random() < 0.1) parts.push("'\u017f");
    if (random() < 0.1) parts.push("'\u212a");
  }
  return parts.join(pick([" ", "", "\n"]));
}
const spaces = ["\t", "\n", "\u000b", "\f", "\r", " ", "\u0085", "\u00a0", "\u1680", "\u2000", "\u2005",
  "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\u180e", "\u200b", "\ufeff", "\u001c", "\u001f"];
function whitespace() {
  const parts = [];
  const n = 1 + int(15);
  for (let i = 0; i < n; i++) {
    let run = "";
    const k = 1 + int(random() < 0.2 ? 60 : 5);
    for (let j = 0; j < k; j++) run += pick(spaces);
    parts.push(run);
    parts.push(random() < 0.3 ? pick(["!", "#", "1", "中", "é", "\u0301"]) : word());
  }
  if (random() < 0.5) parts.unshift(pick(spaces).repeat(1 + int(4)));
  return parts.join("");
}
function crlf() {
  const lines = [];
  const n = 1 + int(30);
  for (let i = 0; i < n; i++) {
    const r = random();
    lines.push(r < 0.2 ? "" : r < 0.3 ? "  " + sentence() + "  " : r < 0.4 ? "- " + word() + pick([":", ".", "!", ""]) : sentence());
  }
  const sep = () => pick(["\r\n", "\r\n", "\n", "\r", "\r\n\r\n", "\n\r", " \r\n", "/\r\n"]);
  return lines.map((l) => l + sep()).join("");
}
function longWord() {
  const r = random();
  const len = 1000 + int(20000);
  if (r < 0.25) {
    let s = "";
    while (s.length < len) s += pick(["ka", "lo", "mi", "nu", "ri", "ta", "shu", "pe"]);
    return s;
  }
  if (r < 0.5) {
    const bytes = Buffer.alloc(Math.floor(len * 0.75));
    for (let i = 0; i < bytes.length; i++) bytes[i] = int(256);
    return "data:image/png;base64," + bytes.toString("base64");
  }
  if (r < 0.65) {
    let s = "";
    for (let i = 0; i < len; i++) s += "0123456789abcdef"[int(16)];
    return s;
  }
  if (r < 0.8) return pick(["a", "z", "é", "x"]).repeat(200 + int(3000)) + " " + word();
  if (r < 0.9) return scriptWord(pick(scriptNames)).repeat(50 + int(200));
  return "https://example.org/" + Array.from({ length: 100 + int(400) }, word).join("/");
}
// Raw bytes: BOMs, invalid sequences, cut characters.
const badBytes = [[0xff], [0xfe], [0x80], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98], [0xe4, 0xb8],
  [0xf4, 0x90, 0x80, 0x80], [0xc3], [0xef, 0xbb, 0xbf], [0xf8, 0x88, 0x80, 0x80, 0x80]];
function bytesText() {
  const chunks = [];
  if (random() < 0.5) chunks.push(Buffer.from([0xef, 0xbb, 0xbf]));
  const n = 1 + int(15);
  for (let i = 0; i < n; i++) {
    chunks.push(Buffer.from(random() < 0.5 ? word() + " " : pick([sentence(), manyScripts(), emojiText()])));
    if (random() < 0.6) chunks.push(Buffer.from(pick(badBytes)));
  }
  return Buffer.concat(chunks);
}
// Characters first assigned in Unicode 15.0 or 15.1, which PCRE2 10.42 does not know.
const unicode15 = [[0x11f00, 0x11f10], [0x11f12, 0x11f3a], [0x1e4d0, 0x1e4f9], [0x1e030, 0x1e06d], [0x1d2c0, 0x1d2d3],
  [0x31350, 0x323af], [0x2ebf0, 0x2ee5d], [0x11b00, 0x11b09], [0x10efd, 0x10eff], [0x1fa75, 0x1fa77], [0x1f6dc, 0x1f6dc],
  [0x0cf3, 0x0cf3], [0x0ece, 0x0ece], [0x1123f, 0x11241], [0x1e08f, 0x1e08f], [0x2ffc, 0x2fff], [0x31ef, 0x31ef]];
function isUnicode15(c) {
  for (const [a, b] of unicode15) if (c >= a && c <= b) return true;
  return false;
}
function hasUnicode15(s) {
  for (const ch of s) if (isUnicode15(ch.codePointAt(0))) return true;
  return false;
}

// Where a Unicode 15+ character may change the pieces: the run of non-space
// characters around it (the engines class it differently, so the piece it is
// in, and the pieces it touches, may be cut differently), the one white space
// character a piece may take in front, and the line breaks a punctuation
// piece takes after it. As byte ranges [start, end) of the text's UTF-8.
function unicode15Windows(text) {
  const chars = Array.from(text);
  const offsets = [0];
  for (const ch of chars) offsets.push(offsets[offsets.length - 1] + Buffer.byteLength(ch));
  const space = (ch) => /\s/u.test(ch);
  const windows = [];
  chars.forEach((ch, i) => {
    if (!isUnicode15(ch.codePointAt(0))) return;
    let start = i;
    while (start > 0 && !space(chars[start - 1])) start--;
    if (start > 0) start--;
    let end = i + 1;
    while (end < chars.length && !space(chars[end])) end++;
    while (end < chars.length && (chars[end] === "\r" || chars[end] === "\n")) end++;
    windows.push([offsets[start], offsets[end]]);
  });
  return windows;
}

// For a text with Unicode 15+ characters whose ids differ: null when every
// difference lies around such a character, else where the first other one
// is. Both id lists cut the same bytes into tokens; the lists are walked
// together, and wherever they differ they are followed to the next byte
// where both have a token boundary again (resynchronised). The stretch in
// between is excused only when it overlaps a window of unicode15Windows.
function differenceAwayFromUnicode15(have, want, bytesOfId) {
  let haveBytes;
  let wantBytes;
  try {
    haveBytes = have.map(bytesOfId);
    wantBytes = want.map(bytesOfId);
  } catch (e) {
    return { at: 0, why: `an id has no bytes (${e.message})` };
  }
  const wantText = Buffer.concat(wantBytes);
  if (!Buffer.concat(haveBytes).equals(wantText)) {
    const a = Buffer.concat(haveBytes);
    let at = 0;
    while (at < a.length && at < wantText.length && a[at] === wantText[at]) at++;
    return { at: 0, why: `soulc's tokens spell other bytes from byte ${at}` };
  }
  const windows = unicode15Windows(new TextDecoder("utf-8", { ignoreBOM: true }).decode(wantText));
  let i = 0;
  let j = 0;
  let pi = 0;
  let pj = 0;
  while (i < have.length && j < want.length) {
    if (have[i] === want[j]) {
      pi += haveBytes[i++].length;
      pj += wantBytes[j++].length;
      continue;
    }
    const start = pi;
    const first = i;
    pi += haveBytes[i++].length;
    pj += wantBytes[j++].length;
    while (pi !== pj) {
      if (pi < pj) pi += haveBytes[i++].length;
      else pj += wantBytes[j++].length;
    }
    if (!windows.some(([a, b]) => start < b && a < pi))
      return { at: first, why: `bytes ${start}..${pi} hold no Unicode 15+ character` };
  }
  return null;
}
function unicode15Text() {
  const parts = [];
  const n = 1 + int(10);
  for (let i = 0; i < n; i++) {
    const [a, b] = pick(unicode15);
    parts.push(word() + range(a, b) + (random() < 0.5 ? range(a, b) : "") + pick(["", " ", "x", "1"]));
  }
  return parts.join(" ");
}
// Prose with one to three Unicode 15+ characters put anywhere (inside a
// word, between words, before a line break): most of the text is far from
// them, and must still give the same ids.
function unicode15InProse() {
  const chars = Array.from(random() < 0.5 ? proseMarkdown() : manyScripts() + "\n" + proseMarkdown());
  const n = 1 + int(3);
  for (let k = 0; k < n; k++) {
    const [a, b] = pick(unicode15);
    chars.splice(int(chars.length + 1), 0, range(a, b));
  }
  return chars.join("");
}
function mixed() {
  const gens = [proseMarkdown, manyScripts, emojiText, combining, digits, contractionText, whitespace, crlf];
  const n = 2 + int(5);
  let s = "";
  for (let i = 0; i < n; i++) s += pick(gens)() + pick(["", " ", "\n", "\n\n## SOUL.md\n\n"]);
  return s;
}
function bigFile(kind) {
  const parts = [];
  let size = 0;
  while (size < 2 * 1024 * 1024) {
    const p = kind === 0 ? proseMarkdown() : kind === 1 ? mixed() : manyScripts() + "\n" + proseMarkdown();
    parts.push(p);
    size += Buffer.byteLength(p) + 1;
  }
  return parts.join("\n");
}

const plan = [
  ["prose", 1000, proseMarkdown], ["scripts", 800, manyScripts], ["emoji", 500, emojiText],
  ["combining", 400, combining], ["digits", 400, digits], ["contractions", 500, contractionText],
  ["whitespace", 500, whitespace], ["crlf", 300, crlf], ["long", 120, longWord], ["bytes", 300, bytesText],
  ["mixed", 400, mixed], ["unicode15", 60, unicode15Text], ["unicode15-in-prose", 200, unicode15InProse],
];
const corpusDir = path.join(work, "corpus");
fs.mkdirSync(corpusDir);
const texts = []; // {file, kind, bytes}
for (const [kind, n, gen] of plan) {
  for (let i = 0; i < n; i++) {
    const t = gen();
    texts.push({ kind, bytes: Buffer.isBuffer(t) ? t : Buffer.from(t, "utf8") });
  }
}
texts.push({ kind: "empty", bytes: Buffer.alloc(0) });
for (let k = 0; k < 3; k++) texts.push({ kind: "2MB", bytes: Buffer.from(bigFile(k), "utf8") });
texts.forEach((t, i) => {
  t.file = path.join(corpusDir, String(i).padStart(5, "0") + ".txt");
  fs.writeFileSync(t.file, t.bytes);
  // As the compose rule decodes: maximal subparts to U+FFFD, a BOM kept.
  t.text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(t.bytes);
  t.u15 = hasUnicode15(t.text);
});
const totalBytes = texts.reduce((a, t) => a + t.bytes.length, 0);
console.log(`corpus: ${texts.length} texts, ${(totalBytes / 1e6).toFixed(1)} MB, ` +
  `${texts.filter((t) => t.u15).length} with Unicode 15+ characters`);

// ------------------------------------------------------------ comparison ---

function runSoulc(args) {
  // Batches keep the command line short.
  const ids = [];
  const counts = [];
  for (let i = 0; i < texts.length; i += 400) {
    const files = texts.slice(i, i + 400).map((t) => t.file);
    for (const [flag, out] of [[["--ids"], ids], [[], counts]]) {
      const r = spawnSync(soulc, ["count", ...args, ...flag, ...files], { maxBuffer: 1 << 30, encoding: "latin1" });
      if (r.status !== 0) throw new Error(`soulc failed (${r.status}): ${r.stderr}`);
      const lines = r.stdout.split("\n");
      lines.pop();
      if (lines.length !== files.length) throw new Error(`soulc printed ${lines.length} lines for ${files.length} files`);
      out.push(...lines);
    }
  }
  return { ids: ids.map((l) => (l === "" ? [] : l.split(" ").map(Number))), counts: counts.map(Number) };
}

function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

let failed = false;
// bytesOfId(id): the token's bytes, to line the two id lists up where they
// differ in a text with Unicode 15+ characters.
function compare(label, expectedOf, soulcArgs, bytesOfId) {
  const started = Date.now();
  const got = runSoulc(soulcArgs);
  const tally = { texts: 0, tokens: 0, mismatches: 0, u15Mismatches: 0, u15Texts: 0 };
  const shown = [];
  return Promise.all(texts.map((t) => expectedOf(t))).then((expected) => {
    texts.forEach((t, i) => {
      const want = expected[i];
      const have = got.ids[i];
      tally.texts++;
      tally.tokens += want.length;
      if (t.u15) tally.u15Texts++;
      const same = have.length === want.length && firstDifference(have, want) === want.length
        && got.counts[i] === want.length;
      if (same) return;
      // soulc's count must be its own ids' count even where the ids may differ.
      let away = got.counts[i] === have.length ? null : { at: 0, why: "count is not the ids' count" };
      if (t.u15 && !away) {
        away = differenceAwayFromUnicode15(have, want, bytesOfId);
        if (!away) {
          tally.u15Mismatches++;
          return;
        }
      }
      tally.mismatches++;
      if (shown.length < 5) {
        const at = away ? away.at : firstDifference(have, want);
        shown.push(`  ${path.basename(t.file)} (${t.kind}): count ${got.counts[i]} vs ${want.length}, ` +
          `ids differ at ${at}: soulc [${have.slice(at, at + 6)}] oracle [${want.slice(at, at + 6)}]` +
          (away ? ` (${away.why})` : ""));
      }
    });
    console.log(`${label}: ${tally.texts} texts, ${tally.tokens} tokens, ${tally.mismatches} mismatches; ` +
      `Unicode 15+ texts: ${tally.u15Texts}, ${tally.u15Mismatches} of them differ only around those ` +
      `characters (known limit) [${((Date.now() - started) / 1000).toFixed(1)} s]`);
    for (const line of shown) console.log(line);
    if (tally.mismatches > 0) failed = true;
  });
}

// tokenizer.json files made from cl100k_base's ranks.
function byteLevelAlphabet() {
  const chars = [];
  let next = 256;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || b >= 0xae;
    chars.push(String.fromCharCode(printable ? b : next++));
  }
  return chars;
}
function makeTokenizerJsons() {
  const alphabet = byteLevelAlphabet();
  const rank = new Map();
  const tokens = [];
  for (const line of fs.readFileSync(cl100kFile, "latin1").split("\n")) {
    if (!line) continue;
    const [b64, r] = line.split(" ");
    const key = Buffer.from(b64, "base64").toString("latin1");
    rank.set(key, Number(r));
    tokens.push([key, Number(r)]);
  }
  tokens.sort((a, b) => a[1] - b[1]);
  const bl = (key) => Array.from(key, (c) => alphabet[c.charCodeAt(0)]).join("");
  const vocab = {};
  for (const [key, r] of tokens) vocab[bl(key)] = r;
  const merges = [];
  for (const [key, r] of tokens) {
    if (key.length < 2) continue;
    let best = null;
    for (let i = 1; i < key.length; i++) {
      const a = rank.get(key.slice(0, i));
      const b = rank.get(key.slice(i));
      if (a === undefined || b === undefined || a >= r || b >= r) continue;
      const worst = Math.max(a, b);
      if (!best || worst < best[0]) best = [worst, i];
    }
    if (best) merges.push([bl(key.slice(0, best[1])), bl(key.slice(best[1]))]);
  }
  const cl100kPattern = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
  const qwenPattern = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
  const byteLevel = (useRegex) => ({ type: "ByteLevel", add_prefix_space: false, trim_offsets: true, use_regex: useRegex });
  const split = (p) => ({ type: "Split", pattern: { Regex: p }, behavior: "Isolated", invert: false });
  const make = (normalizer, preTokenizer, ignoreMerges) => ({
    version: "1.0", truncation: null, padding: null, added_tokens: [], normalizer,
    pre_tokenizer: preTokenizer, post_processor: null, decoder: byteLevel(true),
    model: { type: "BPE", dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null,
      fuse_unk: false, byte_fallback: false, ignore_merges: ignoreMerges, vocab, merges },
  });
  const files = {
    "llama3-like": make(null, { type: "Sequence", pretokenizers: [split(cl100kPattern), byteLevel(false)] }, true),
    "qwen2-like": make({ type: "NFC" }, { type: "Sequence", pretokenizers: [split(qwenPattern), byteLevel(false)] }, false),
    "gpt2-like": make(null, byteLevel(true), false),
  };
  console.log(`tokenizer.json: ${Object.keys(vocab).length} tokens, ${merges.length} merges`);
  const idBytes = [];
  for (const [key, r] of tokens) idBytes[r] = Buffer.from(key, "latin1");
  const bytesOfId = (id) => {
    if (idBytes[id] === undefined) throw new Error(`no token ${id}`);
    return idBytes[id];
  };
  return Object.entries(files).map(([name, json]) => {
    const file = path.join(work, name + ".json");
    fs.writeFileSync(file, JSON.stringify(json));
    return [name, file, bytesOfId];
  });
}

(async () => {
  for (const encoding of ["o200k_base", "cl100k_base"]) {
    const enc = get_encoding(encoding);
    const bytesOfId = (id) => Buffer.from(enc.decode_single_token_bytes(id));
    await compare(`${encoding} vs tiktoken 1.0.22`, (t) => Array.from(enc.encode_ordinary(t.text)),
      ["--encoding", encoding], bytesOfId);
    enc.free();
  }
  for (const [name, file, bytesOfId] of makeTokenizerJsons()) {
    const tok = Tokenizer.fromFile(file);
    await compare(`tokenizer.json (${name}) vs tokenizers 0.23.2`,
      async (t) => (await tok.encode(t.text, null, { addSpecialTokens: false })).getIds(),
      ["--tokenizer", file], bytesOfId);
  }
  console.log(failed ? "token-oracle: FAILED" : "token-oracle: passed");
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.error("token-oracle:", e);
  process.exit(2);
});
