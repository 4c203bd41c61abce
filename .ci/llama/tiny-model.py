#!/usr/bin/python3
"""Writes a tiny llama model with random weights as GGUF, for the persona
tests' CI fixture (.ci/llama/server.mjs): two layers of width 64 on a real
tokenizer vocabulary, about 9 MB, in seconds. Its replies are nonsense, but
greedy decoding makes them the same on every run, which is what the oracle
needs: soulc test and promptfoo judge the same outputs.

    tiny-model.py LLAMA_CPP_SOURCE VOCAB_NAME OUT.gguf

LLAMA_CPP_SOURCE is llama.cpp's source (node-llama-cpp bundles it as
llama/gitRelease.bundle); its gguf-py writes the file and its
models/ggml-vocab-VOCAB_NAME.gguf gives the tokenizer. Needs numpy
(Debian's python3-numpy).
"""
import sys

import numpy as np

source, vocab_name, out = sys.argv[1:4]
sys.path.insert(0, source + "/gguf-py")
import gguf  # noqa: E402  (from the source given)

vocab = gguf.GGUFReader(f"{source}/models/ggml-vocab-{vocab_name}.gguf")


def field(name):
    f = vocab.fields[name]
    kind = f.types[0]
    if kind == gguf.GGUFValueType.ARRAY:
        inner = f.types[1]
        if inner == gguf.GGUFValueType.STRING:
            return [bytes(f.parts[i]).decode("utf-8", "surrogateescape") for i in f.data]
        return [f.parts[i].tolist()[0] for i in f.data]
    if kind == gguf.GGUFValueType.STRING:
        return bytes(f.parts[f.data[0]]).decode("utf-8")
    return f.parts[f.data[0]].tolist()[0]


tokens = field("tokenizer.ggml.tokens")
n_vocab, n_embd, n_layer, n_head, n_ff, n_ctx = len(tokens), 64, 2, 4, 128, 4096

writer = gguf.GGUFWriter(out, "llama")
writer.add_name("soulstudio-ci-tiny")
writer.add_context_length(n_ctx)
writer.add_embedding_length(n_embd)
writer.add_block_count(n_layer)
writer.add_feed_forward_length(n_ff)
writer.add_head_count(n_head)
writer.add_head_count_kv(n_head)
writer.add_layer_norm_rms_eps(1e-5)
writer.add_rope_dimension_count(n_embd // n_head)
writer.add_rope_freq_base(10000.0)
writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
writer.add_tokenizer_model(field("tokenizer.ggml.model"))
if "tokenizer.ggml.pre" in vocab.fields:
    writer.add_tokenizer_pre(field("tokenizer.ggml.pre"))
writer.add_token_list(tokens)
writer.add_token_scores(field("tokenizer.ggml.scores"))
writer.add_token_types(field("tokenizer.ggml.token_type"))
writer.add_bos_token_id(field("tokenizer.ggml.bos_token_id"))
writer.add_eos_token_id(field("tokenizer.ggml.eos_token_id"))
if "tokenizer.ggml.unknown_token_id" in vocab.fields:
    writer.add_unk_token_id(field("tokenizer.ggml.unknown_token_id"))
writer.add_add_bos_token(True)
writer.add_add_eos_token(False)

rng = np.random.default_rng(20261205)


def weights(*shape, scale=0.08, dtype=np.float16):
    return (rng.standard_normal(shape, dtype=np.float32) * scale).astype(dtype)


writer.add_tensor("token_embd.weight", weights(n_vocab, n_embd, scale=1.0))
writer.add_tensor("output_norm.weight", np.ones(n_embd, dtype=np.float32))
writer.add_tensor("output.weight", weights(n_vocab, n_embd, scale=0.3))
for i in range(n_layer):
    writer.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(n_embd, dtype=np.float32))
    for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
        writer.add_tensor(f"blk.{i}.{name}.weight", weights(n_embd, n_embd, dtype=np.float32))
    writer.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(n_embd, dtype=np.float32))
    writer.add_tensor(f"blk.{i}.ffn_gate.weight", weights(n_ff, n_embd, dtype=np.float32))
    writer.add_tensor(f"blk.{i}.ffn_up.weight", weights(n_ff, n_embd, dtype=np.float32))
    writer.add_tensor(f"blk.{i}.ffn_down.weight", weights(n_embd, n_ff, dtype=np.float32))

writer.write_header_to_file()
writer.write_kv_data_to_file()
writer.write_tensors_to_file()
writer.close()
