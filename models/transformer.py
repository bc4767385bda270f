"""Encoder-decoder Transformer (Vaswani et al. 2017), the PyTorch reference of the C++ engine.

Written out layer by layer (not torch.nn.Transformer) so that every operation has a
one-to-one counterpart in cpp/: the parity test compares the two to 1e-3.

Dimension legend used in shape comments:
  B batch, S src_len, T tgt_len, D d_model, H n_heads, Dk d_model / n_heads, F d_ff, V vocab_size

The config keys (see docs/model-format.md) are general enough to express HF MarianMT
(OPUS-MT) checkpoints: post-norm, swish, sinusoidal positions in halves, final_logits_bias; and
native Marian's own conventions (sinusoidal_layout "marian", decoder_start "zero"), so that a model
trained with them computes in Bergamot what it computes here (docs/bergamot.md).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ACTIVATIONS = {"relu": F.relu, "gelu": F.gelu, "swish": F.silu}


def sinusoidal_positions(length, d_model, layout):
    """Sinusoidal position encodings [length, d_model] (Vaswani et al. 2017, section 3.5).

    layout "interleaved": sin on even dimensions, cos on odd ones (the paper);
    layout "halves": sin in the first half, cos in the second (HF MarianMT), the same frequencies;
    layout "marian": halves with native Marian's frequencies 10000^(-i / (d_model/2 - 1)), i < d_model/2
    (src/graph/node_initializers.cpp, sinusoidalPositionEmbeddings). cpp/model/positions.cc is the same.
    """
    if layout not in ("interleaved", "halves", "marian"):
        raise ValueError(f"unknown sinusoidal layout {layout!r}")
    half = d_model // 2
    pos = torch.arange(length, dtype=torch.float32)[:, None]  # [L, 1]
    if layout == "marian":
        inv_freq = torch.exp(torch.arange(half, dtype=torch.float32) * (-math.log(10000.0) / (half - 1)))  # [D/2]
    else:
        inv_freq = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    angles = pos * inv_freq  # [L, D/2]
    out = torch.zeros(length, d_model)
    if layout == "interleaved":
        out[:, 0::2] = torch.sin(angles)
        out[:, 1::2] = torch.cos(angles)
    else:
        out[:, :half] = torch.sin(angles)
        out[:, half:] = torch.cos(angles)
    return out


class MultiHeadAttention(nn.Module):
    """Scaled dot-product attention over n_heads heads (Vaswani et al. 2017, eq. 1 and section 3.2.2)."""

    def __init__(self, d_model, n_heads, dropout):
        super().__init__()
        self.n_heads, self.d_k = n_heads, d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.dropout = dropout

    def split(self, x):  # [B, L, D] -> [B, H, L, Dk]
        return x.view(x.shape[0], x.shape[1], self.n_heads, self.d_k).transpose(1, 2)

    def forward(self, query, memory, mask):
        """query [B, T, D] asks; memory [B, S, D] gives keys and values; mask broadcasts to [B, H, T, S]
        with True where attention is allowed. Returns (output [B, T, D], weights [B, H, T, S])."""
        q = self.split(self.q_proj(query)) / math.sqrt(self.d_k)  # [B, H, T, Dk]
        k = self.split(self.k_proj(memory))  # [B, H, S, Dk]
        v = self.split(self.v_proj(memory))  # [B, H, S, Dk]
        scores = (q @ k.transpose(-1, -2)).masked_fill(~mask, float("-inf"))  # [B, H, T, S]
        weights = scores.float().softmax(-1)  # in fp32 under bf16 autocast too
        context = F.dropout(weights, self.dropout, self.training) @ v  # [B, H, T, Dk]
        context = context.transpose(1, 2).reshape(query.shape)  # [B, T, D]
        return self.out_proj(context), weights


class FeedForward(nn.Module):
    def __init__(self, d_model, d_ff, activation, dropout):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)
        self.activation, self.dropout = ACTIVATIONS[activation], dropout

    def forward(self, x):  # [B, L, D] -> [B, L, D]
        h = F.dropout(self.activation(self.fc1(x)), self.dropout, self.training)
        return self.fc2(h)


class Sublayer(nn.Module):
    """Residual around one block with pre- or post-layer-norm: x + f(LN(x)) or LN(x + f(x))."""

    def __init__(self, d_model, pre_norm, eps, dropout):
        super().__init__()
        self.norm = nn.LayerNorm(d_model, eps=eps)
        self.pre_norm, self.dropout = pre_norm, dropout

    def forward(self, x, block):
        if self.pre_norm:
            out, extra = block(self.norm(x))
            return x + F.dropout(out, self.dropout, self.training), extra
        out, extra = block(x)
        return self.norm(x + F.dropout(out, self.dropout, self.training)), extra


class EncoderLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        pre, eps, p = c["layer_norm"] == "pre", c["layer_norm_eps"], c["dropout"]
        self.self_attn = MultiHeadAttention(c["d_model"], c["n_heads"], c["attention_dropout"])
        self.ffn = FeedForward(c["d_model"], c["d_ff"], c["activation"], c["activation_dropout"])
        self.self_attn_sublayer = Sublayer(c["d_model"], pre, eps, p)
        self.ffn_sublayer = Sublayer(c["d_model"], pre, eps, p)

    def forward(self, x, src_mask):  # x [B, S, D]; src_mask [B, 1, 1, S]
        x, _ = self.self_attn_sublayer(x, lambda h: self.self_attn(h, h, src_mask))
        x, _ = self.ffn_sublayer(x, lambda h: (self.ffn(h), None))
        return x


class DecoderLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        pre, eps, p = c["layer_norm"] == "pre", c["layer_norm_eps"], c["dropout"]
        self.self_attn = MultiHeadAttention(c["d_model"], c["n_heads"], c["attention_dropout"])
        self.cross_attn = MultiHeadAttention(c["d_model"], c["n_heads"], c["attention_dropout"])
        self.ffn = FeedForward(c["d_model"], c["d_ff"], c["activation"], c["activation_dropout"])
        self.self_attn_sublayer = Sublayer(c["d_model"], pre, eps, p)
        self.cross_attn_sublayer = Sublayer(c["d_model"], pre, eps, p)
        self.ffn_sublayer = Sublayer(c["d_model"], pre, eps, p)

    def forward(self, y, encoder_out, tgt_mask, src_mask):
        """y [B, T, D] decoder states; encoder_out [B, S, D] the final encoder output, the same memory
        for every decoder layer. Returns (y [B, T, D], cross-attention weights [B, H, T, S])."""
        y, _ = self.self_attn_sublayer(y, lambda h: self.self_attn(h, h, tgt_mask))
        # Queries from the decoder, keys and values from the encoder; the residual adds the result
        # to the decoder state that asked.
        y, cross = self.cross_attn_sublayer(y, lambda h: self.cross_attn(h, encoder_out, src_mask))
        y, _ = self.ffn_sublayer(y, lambda h: (self.ffn(h), None))
        return y, cross


class Transformer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        d, v = c["d_model"], c["vocab_size"]
        self.shared = nn.Embedding(v, d, padding_idx=c["pad_id"])
        if not c["shared_vocab"]:
            raise NotImplementedError("separate source/target vocabularies: the engine reads them, training does not")
        self.encoder_layers = nn.ModuleList(EncoderLayer(c) for _ in range(c["encoder_layers"]))
        self.decoder_layers = nn.ModuleList(DecoderLayer(c) for _ in range(c["decoder_layers"]))
        pre = c["layer_norm"] == "pre"
        self.encoder_norm = nn.LayerNorm(d, eps=c["layer_norm_eps"]) if pre else None
        self.decoder_norm = nn.LayerNorm(d, eps=c["layer_norm_eps"]) if pre else None
        self.lm_head = None if c["tied_embeddings"] else nn.Linear(d, v, bias=False)
        self.final_logits_bias = nn.Parameter(torch.zeros(v)) if c["final_logits_bias"] else None
        self.embed_scale = math.sqrt(d) if c["embed_scale"] else 1.0
        self.register_buffer(
            "positions", sinusoidal_positions(c["max_positions"], d, c["sinusoidal_layout"]), persistent=False
        )
        nn.init.normal_(self.shared.weight, 0.0, d**-0.5)
        with torch.no_grad():
            self.shared.weight[c["pad_id"]].zero_()

    def embed(self, ids, zero_at_start=False):  # [B, L] -> [B, L, D]
        """Scaled embeddings plus positions; with zero_at_start, position 0 gets its encoding alone (the
        decoder's first input under config "decoder_start": "zero", native Marian's convention)."""
        x = self.shared(ids) * self.embed_scale
        if zero_at_start:
            x = torch.cat([torch.zeros_like(x[:, :1]), x[:, 1:]], 1)
        x = x + self.positions[: ids.shape[1]]
        return F.dropout(x, self.c["dropout"], self.training)

    def encode(self, src):  # src [B, S] -> encoder_out [B, S, D], src_mask [B, 1, 1, S]
        src_mask = (src != self.c["pad_id"])[:, None, None, :]
        x = self.embed(src)
        for layer in self.encoder_layers:
            x = layer(x, src_mask)
        return (self.encoder_norm(x) if self.encoder_norm is not None else x), src_mask

    def decode(self, tgt_in, encoder_out, src_mask, last_only=False):
        """tgt_in [B, T] teacher-forced decoder input. Returns (logits [B, T, V], cross [L][B, H, T, S]);
        with last_only the logits of the last position alone, [B, 1, V] (greedy decoding needs no more)."""
        t = tgt_in.shape[1]
        tgt_mask = torch.ones(t, t, dtype=torch.bool, device=tgt_in.device).tril()[None, None]  # [1, 1, T, T]
        y, cross = self.embed(tgt_in, zero_at_start=self.c.get("decoder_start", "token") == "zero"), []
        for layer in self.decoder_layers:
            y, weights = layer(y, encoder_out, tgt_mask, src_mask)
            cross.append(weights)
        if last_only:
            y = y[:, -1:]
        if self.decoder_norm is not None:
            y = self.decoder_norm(y)
        logits = y @ (self.shared.weight if self.lm_head is None else self.lm_head.weight).T  # [B, T, V]
        if self.final_logits_bias is not None:
            logits = logits + self.final_logits_bias
        return logits, cross

    def forward(self, src, tgt_in, with_cross_attention=False):
        """Teacher-forced logits [B, T, V]; with_cross_attention also gives the weights [L][B, H, T, S]."""
        encoder_out, src_mask = self.encode(src)
        logits, cross = self.decode(tgt_in, encoder_out, src_mask)
        return (logits, cross) if with_cross_attention else logits

    @torch.no_grad()
    def greedy(self, src, max_len):
        """Batched greedy decoding; src [B, S]. Returns target ids [B, <=max_len] without the start token."""
        encoder_out, src_mask = self.encode(src)
        c = self.c
        out = torch.full((src.shape[0], 1), c["decoder_start_id"], dtype=torch.long, device=src.device)
        done = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
        for _ in range(max_len):
            logits, _ = self.decode(out, encoder_out, src_mask, last_only=True)
            nxt = logits[:, -1].argmax(-1).masked_fill(done, c["pad_id"])
            out = torch.cat([out, nxt[:, None]], 1)
            done |= nxt == c["eos_id"]
            if done.all():
                break
        return out[:, 1:]
