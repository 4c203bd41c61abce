#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets added after the first two
(tokens, tokenizer_json, snapshot, openclaw) from the project's own test data,
and those of gitpack with git itself (git pack-objects) and by hand, so each
seed has a known origin. Run from anywhere; it rewrites its own seeds in those
five folders under tests/fuzz/corpus/ and leaves the inputs the
fuzzers found (named found-*) alone. corpus/README.md lists what each seed is."""

import hashlib
import json
import os
import pathlib
import struct
import subprocess
import tempfile
import zlib

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


# ---- gitpack: packs made by git, and by hand ----------------------------------

def git(repo, *args, stdin=None):
    env = dict(os.environ, GIT_AUTHOR_NAME="Ava", GIT_AUTHOR_EMAIL="ava@example.com",
               GIT_COMMITTER_NAME="Ava", GIT_COMMITTER_EMAIL="ava@example.com",
               GIT_AUTHOR_DATE="1700000000 +0000", GIT_COMMITTER_DATE="1700000000 +0000",
               GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
    return subprocess.run(["git", "-C", str(repo), *args], input=stdin, env=env,
                          check=True, capture_output=True).stdout


def pack_of(repo, *options):
    """Every object of `repo`, packed by git pack-objects."""
    objects = git(repo, "rev-list", "--objects", "--all")
    return git(repo, "pack-objects", "--stdout", "-q", *options, stdin=objects)


def pack_header(kind, size):
    out = bytearray()
    byte = (kind << 4) | (size & 0x0F)
    size >>= 4
    while size:
        out.append(byte | 0x80)
        byte = size & 0x7F
        size >>= 7
    out.append(byte)
    return bytes(out)


def delta_size(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def hand_pack(entries):
    body = b"PACK" + struct.pack(">II", 2, len(entries)) + b"".join(entries)
    return body + hashlib.sha1(body).digest()


def gitpack():
    out = fresh("gitpack")
    with tempfile.TemporaryDirectory() as scratch:
        small = pathlib.Path(scratch) / "small"
        git(scratch, "init", "-q", str(small))
        (small / "SOUL.md").write_bytes(b"# Ava\n\nI am Ava.\n")
        git(small, "add", "SOUL.md")
        git(small, "commit", "-q", "-m", "first")
        valid = pack_of(small)
        # One version of SOUL.md per commit, a line longer each time: git
        # makes each a delta on the next, a chain as deep as it allows.
        deep = pathlib.Path(scratch) / "deep"
        git(scratch, "init", "-q", str(deep))
        for i in range(40):
            lines = b"".join(b"Line %d of what Ava remembers.\n" % n for n in range(i + 1))
            (deep / "SOUL.md").write_bytes(b"# Ava\n\n" + lines)
            git(deep, "add", "SOUL.md")
            git(deep, "commit", "-q", "-m", "c%d" % i)
        chain = pack_of(deep, "--depth=50", "--window=50")
        # The index git writes for the small pack, for the fuzzed-index mode.
        (pathlib.Path(scratch) / "small.pack").write_bytes(valid)
        git(small, "index-pack", "-o", str(pathlib.Path(scratch) / "small.idx"),
            str(pathlib.Path(scratch) / "small.pack"))
        index = (pathlib.Path(scratch) / "small.idx").read_bytes()
    (out / "git-commit-tree-blob").write_bytes(b"\x00" + valid)
    (out / "git-delta-chain").write_bytes(b"\x00" + chain)
    (out / "git-truncated").write_bytes(b"\x00" + valid[: len(valid) // 2])
    bad = valid[:-1] + bytes([valid[-1] ^ 0xFF])
    (out / "bad-checksum-as-written").write_bytes(b"\x00" + bad)
    (out / "bad-checksum-recomputed").write_bytes(b"\x02" + bad)
    (out / "git-index").write_bytes(b"\x01" + struct.pack("<H", len(index)) + index + valid)
    # By hand: a blob and an offset delta on it that claims 1.9 GiB; a blob
    # whose header claims 1.9 GiB and a small reference delta on it.
    huge = 1900 << 20
    base = b"x" * 64
    blob = pack_header(3, len(base)) + zlib.compress(base)
    claim = delta_size(64) + delta_size(huge) + b"\x90\x40"
    (out / "delta-claims-huge").write_bytes(b"\x00" + hand_pack(
        [blob, pack_header(6, len(claim)) + bytes([len(blob)]) + zlib.compress(claim)]))
    big = pack_header(3, huge) + zlib.compress(b"x")
    big_id = hashlib.sha1(b"blob %d\0" % huge).digest()
    small_delta = delta_size(huge) + delta_size(10) + b"\x90\x0a"
    (out / "delta-on-huge-base").write_bytes(b"\x00" + hand_pack(
        [big, pack_header(7, len(small_delta)) + big_id + zlib.compress(small_delta)]))


tokens()
tokenizer_json()
snapshot()
openclaw()
gitpack()
