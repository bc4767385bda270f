"""Native Marian's conventions in the PyTorch reference (models/transformer.py), as
tests/cpp/marian_conventions_test.cc checks them in the engine: the sinusoid frequencies and the
zero vector as the decoder's first input (docs/bergamot.md).

  /usr/bin/python3 -m unittest discover -s tests/python
"""
import math
import os
import sys
import unittest

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models"))
from transformer import Transformer, sinusoidal_positions  # noqa: E402

CONFIG = {"encoder_layers": 1, "decoder_layers": 1, "d_model": 8, "n_heads": 2, "d_ff": 16, "activation": "relu",
          "layer_norm": "post", "layer_norm_eps": 1e-6, "embed_scale": True, "positional_encoding": "sinusoidal",
          "sinusoidal_layout": "marian", "max_positions": 16, "tied_embeddings": True, "shared_vocab": True,
          "final_logits_bias": True, "vocab_size": 20, "pad_id": 0, "unk_id": 1, "bos_id": 2, "eos_id": 3,
          "decoder_start_id": 2, "dropout": 0.0, "attention_dropout": 0.0, "activation_dropout": 0.0}


class SinusoidTest(unittest.TestCase):
    def test_each_layout_follows_its_formula(self):
        # d = 4: the paper's frequencies are 10000^(-2i/4) = 1 and 0.01; Marian's 10000^(-i/(4/2 - 1)) = 1 and 1e-4.
        want = {"interleaved": [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)],
                "halves": [math.sin(1), math.sin(0.01), math.cos(1), math.cos(0.01)],
                "marian": [math.sin(1), math.sin(1e-4), math.cos(1), math.cos(1e-4)]}
        for layout, row in want.items():
            got = sinusoidal_positions(2, 4, layout)[1].tolist()
            for g, w in zip(got, row):
                self.assertAlmostEqual(g, w, places=6, msg=layout)

    def test_an_unknown_layout_is_an_error(self):
        with self.assertRaises(ValueError):
            sinusoidal_positions(2, 4, "rotary")


class ZeroDecoderStartTest(unittest.TestCase):
    def test_the_first_input_is_the_position_alone(self):
        torch.manual_seed(0)
        src, tgt_in = torch.tensor([[5, 6, 7, 3]]), torch.tensor([[2, 9, 10]])
        zero = Transformer({**CONFIG, "decoder_start": "zero"}).eval()
        token = Transformer(CONFIG).eval()
        token.load_state_dict(zero.state_dict())
        with torch.no_grad():
            ours = token(src, tgt_in)
            token.shared.weight[2].zero_()  # the start token's row zeroed: the same first input
            zeroed, marian = token(src, tgt_in), zero(src, tgt_in)
        others = [v for v in range(CONFIG["vocab_size"]) if v != 2]  # the tied output layer reads row 2 too
        self.assertTrue(torch.allclose(marian[..., others], zeroed[..., others], atol=1e-5))
        self.assertGreater((marian - ours).abs().max().item(), 1e-3)


if __name__ == "__main__":
    unittest.main()
