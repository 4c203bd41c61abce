#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets added after the first two
(tokens, tokenizer_json, snapshot, openclaw) from the project's own test data,
so each seed has a known origin. Run from anywhere; it rewrites its own seeds
in those four folders under tests/fuzz/corpus/ and leaves the inputs the
fuzzers found (named found-*) alone. corpus/README.md lists what each seed is."""

import hashlib
import json
import pathlib
import struct

HERE = pathlib.Path(__file__).resolve().parent
DATA = HERE.parent / "data"
CORPUS = HERE / "corpus"


def fresh(name):
    folder = CORPUS / name
    folder.mkdir(parents=True, exist_ok=True)
    for seed in folder.iterdir():
        if not seed.name.startswith("found-"):
            seed.unlink()
    return folder


# ---- tokens: texts ----------------------------------------------------------

def tokens():
    out = fresh("tokens")
    # Composed souls of the golden personas: CR LF, invalid UTF-8, NUL and
    # controls, Unicode whitespace, every section head.
    for case in ["all-seven-reverse", "crlf-inside-and-trailing", "invalid-utf8-mix",
                 "nul-and-controls", "unicode-trims", "bom-only", "lone-cr"]:
        (out / f"golden-{case}").write_bytes((DATA / "golden" / case / "expected.soul").read_bytes())
    # Sample texts of gpt-tokenizer's test plans (tests/data/tokenizers/NOTICE).
    samples = []
    for line in (DATA / "tokenizers" / "testplans.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("Sample: ") and len(line) > 16 and line[8:] not in samples:
            samples.append(line[8:])
    for i, sample in enumerate(samples[:10]):
        (out / f"testplans-{i:02}").write_bytes(sample.encode())
    # A line feed before a letter (the boundary chunks are cut at), digits,
    # contractions and a long run of one letter.
    (out / "boundaries").write_bytes(
        b"end.\n\n## SOUL.md\n\nShe'll say it's 1234567 o'clock.\r\nNext\n  indented\nx"
        + b"a" * 120 + b"\n")


# ---- tokenizer_json: the small byte-level BPE of tst_tokenizer --------------

def byte_level_alphabet():
    chars, n = {}, 256
    for b in range(256):
        if 0x21 <= b <= 0x7E or 0xA1 <= b <= 0xAC or b >= 0xAE:
            chars[b] = chr(b)
        else:
            chars[b] = chr(n)
            n += 1
    return chars


def small_tokenizer(pre_tokenizer, normalizer=None, model_extra=None):
    """tst_tokenizer's smallTokenizerJson(): the 256 byte tokens, a few
    merges, in the layout of a real tokenizer.json."""
    alphabet = byte_level_alphabet()
    vocab = {alphabet[b]: b for b in range(256)}
    vocab.update({"he": 256, "ll": 257, "hell": 258, "hello": 259, "\u0120h": 260,
                  "\u0120hello": 261, "lo": 262})
    model = {"type": "BPE", "dropout": None, "unk_token": None, "byte_fallback": False}
    model.update(model_extra or {})
    model["vocab"] = vocab
    model["merges"] = ["l l", "h e", "he ll", "hell o", "\u0120 h", "l o"]
    doc = {"version": "1.0", "added_tokens": [], "normalizer": normalizer,
           "pre_tokenizer": pre_tokenizer, "model": model}
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()


BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
              "use_regex": True}
# The pre-tokenizer of Llama 3's tokenizer.json (and Qwen 2's, with \p{N}
# instead of \p{N}{1,3}): a Split, then ByteLevel without its own regex.
LLAMA3_SPLIT = {"type": "Sequence", "pretokenizers": [
    {"type": "Split", "pattern": {"Regex":
        "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+"
        "[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"},
     "behavior": "Isolated", "invert": False},
    {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}]}
TEXT = "hello hello, he said: 'hell' and lo!\nNext line \u00e9e\u0301 \U0001F980 42".encode()


def tokenizer_json():
    out = fresh("tokenizer_json")
    (out / "gpt2-byte-level").write_bytes(small_tokenizer(BYTE_LEVEL))
    (out / "gpt2-byte-level-text").write_bytes(small_tokenizer(BYTE_LEVEL) + b"\0" + TEXT)
    (out / "llama3-split-nfc-text").write_bytes(
        small_tokenizer(LLAMA3_SPLIT, {"type": "NFC"}) + b"\0" + TEXT)
    (out / "ignore-merges-text").write_bytes(
        small_tokenizer(BYTE_LEVEL, model_extra={"ignore_merges": True}) + b"\0" + b"hell hello")
    (out / "split-string").write_bytes(small_tokenizer({"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"String": " "}, "behavior": "Isolated", "invert": False},
        BYTE_LEVEL]}) + b"\0" + b"hello  hello")
    (out / "metaspace").write_bytes(
        small_tokenizer({"type": "Metaspace", "replacement": "\u2581"}))
    (out / "wordpiece").write_bytes(b'{"model":{"type":"WordPiece","vocab":{"a":0}}}')
    (out / "unigram").write_bytes(b'{"model":{"type":"Unigram","vocab":[["a",0]]}}')


# ---- snapshot: manifest, NUL, soul ------------------------------------------

def snapshot():
    out = fresh("snapshot")
    diff = DATA / "diff"
    cases = [("identical-folder-and-export", "b.soul.md", True),  # schema 2
             ("old-manifest", "a.soul.md", True),                 # schema 1
             ("snapshot-does-not-match", "b.soul.md", False)]     # digest differs
    for case, soul_name, placeholder in cases:
        soul = (diff / case / soul_name).read_bytes()
        manifest = json.loads((diff / case / (soul_name + ".manifest.json")).read_bytes())
        if placeholder:
            assert manifest["soul"]["sha256"] == hashlib.sha256(soul).hexdigest()
            manifest["soul"]["sha256"] = "@SHA@"
        text = json.dumps(manifest, separators=(",", ":")).encode()
        (out / case).write_bytes(text + b"\0" + soul)


# ---- openclaw: kinds, settings, lengths, bytes ------------------------------

NAMES = ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "BOOTSTRAP.md", "MEMORY.md",
         "TOOLS.md", "HEARTBEAT.md", "memory.md"]
# The kinds of fuzz_openclaw.cpp.
ABSENT, FILE, LINK, OVER_GUARD = 0, 1, 4, 8


def file_bytes(segments):
    """tests/core/openclawexamples.h's exampleFileBytes()."""
    out = b""
    for s in segments:
        if "text" in s:
            out += s["text"].encode()
        elif "hex" in s:
            out += bytes.fromhex(s["hex"])
        elif "repeat" in s:
            out += s["repeat"].encode() * s["times"]
        elif "pattern" in s:
            pattern, start = s["pattern"], s["pattern"].index("#")
            width = len(pattern) - len(pattern[start:].lstrip("#"))
            for i in range(1, s["count"] + 1):
                out += (pattern[:start] + str(i).zfill(width) + pattern[start + width:]).encode()
    return out


def folder_seed(files, max_chars=0, total_max_chars=0):
    """`files`: name -> bytes, or {"symlink": target}; a file over the 2 MiB
    guard becomes the sparse kind."""
    kinds, contents = [], []
    for name in NAMES:
        value = files.get(name)
        if value is None:
            kinds.append(ABSENT)
            contents.append(b"")
        elif isinstance(value, dict):
            kinds.append(LINK)
            contents.append(files[value["symlink"]])
        elif len(value) > 2097152:
            kinds.append(OVER_GUARD)
            contents.append(b"")
        else:
            kinds.append(FILE)
            contents.append(value)
    header = bytes(kinds) + struct.pack("<hh", max_chars, total_max_chars)
    header += b"".join(struct.pack("<H", len(c)) for c in contents)
    return header + b"".join(contents)


def scaled(segments, by):
    """The segments with every pattern's count and repeat's times divided by `by`."""
    out = []
    for s in segments:
        s = dict(s)
        if "count" in s:
            s["count"] = max(1, s["count"] // by)
        if "times" in s:
            s["times"] = max(1, s["times"] // by)
        out.append(s)
    return file_bytes(out)


def openclaw():
    out = fresh("openclaw")
    examples = {e["name"]: e for e in json.loads(
        (DATA / "openclaw-2026.9-examples.json").read_bytes())["examples"]}

    def files_of(name, by=1):
        return {key: value if isinstance(value, dict) else scaled(value, by)
                for key, value in examples[name]["files"].items()}

    # The small examples as they are, with the default settings.
    for name in ["basic", "missing-and-blank", "bootstrap-pending", "all-blank",
                 "curated-and-heartbeat", "unreadable"]:
        (out / name).write_bytes(folder_seed(files_of(name)))
    # The large ones a tenth of their size (a hundredth for the total), with
    # limits as much smaller, so they are cut the same way: AGENTS.md's policy
    # digest, an ordinary file's head and tail, the total running out.
    (out / "agents-digest-scaled").write_bytes(
        folder_seed(files_of("agents-digest", 10), max_chars=2000))
    (out / "truncated-soul-scaled").write_bytes(
        folder_seed(files_of("truncated-soul", 25), max_chars=800))
    (out / "total-budget-scaled").write_bytes(folder_seed(
        files_of("total-budget", 100) | {"USER.md": b"u" * 300},
        max_chars=200, total_max_chars=698))
    # USER.md's own 4000 cap cannot be scaled: just over it.
    user = files_of("user-over-4000")
    user["USER.md"] = user["USER.md"][:4100]
    (out / "user-over-4000-cut").write_bytes(folder_seed(user))
    # The head cut inside a surrogate pair: with limit 400 the head asks for
    # 225 units, and the first emoji stands at units 224 and 225.
    (out / "surrogate-cut-scaled").write_bytes(folder_seed(
        {"AGENTS.md": b"a\n", "SOUL.md": b"x" * 224 + "\U0001F642".encode() * 10 + b"y" * 200,
         "IDENTITY.md": b"i\n"}, max_chars=400))


tokens()
tokenizer_json()
snapshot()
openclaw()
