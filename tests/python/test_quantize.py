"""int8 quantization (models/quantize.py) and the int8 kernel layout (models/model_file.py): the panel
index formula of docs/model-format.md, the round trip to rows, and the tensor order that lets the engine
read an attention block's fused projections in place; and dequantization (models/dequantize.py), which
must give back the numbers the int8 engine multiplies by.

  /usr/bin/python3 -m unittest discover -s tests/python
"""
import json
import os
import struct
import sys
import tempfile
import unittest

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models"))
import dequantize  # noqa: E402
import quantize  # noqa: E402
from model_file import dequantized, int8_panels, int8_rows, write_safetensors  # noqa: E402


class KernelLayoutTest(unittest.TestCase):
    def setUp(self):
        self.q = torch.randint(-127, 128, (8, 12), dtype=torch.int8, generator=torch.Generator().manual_seed(1))

    def test_panels_follow_the_documented_index(self):
        panels = int8_panels(self.q)
        self.assertEqual(tuple(panels.shape), (2, 3, 16))
        for j in range(8):
            for k in range(12):
                p, f, kk, h, e = j // 4, j % 4, k // 4, (k % 4) // 2, k % 2
                self.assertEqual(panels[p, kk, 8 * h + 2 * f + e].item(), self.q[j, k].item())

    def test_rows_undo_panels(self):
        self.assertTrue(torch.equal(int8_rows(int8_panels(self.q)), self.q))

    def test_dequantized_reads_rows_and_panels_alike(self):
        scale = torch.rand(8)
        rows = dequantized({"w": self.q, "w_scale": scale}, "w")
        panels = dequantized({"w": int8_panels(self.q), "w_scale": scale}, "w")
        self.assertTrue(torch.equal(rows, panels))
        self.assertTrue(torch.equal(rows[3], self.q[3].float() * scale[3]))

    def test_layout_keeps_rows_for_dimensions_that_are_not_multiples_of_4(self):
        odd = self.q[:, :10]
        self.assertEqual(quantize.laid_out(odd, "kernel").dim(), 2)
        self.assertEqual(quantize.laid_out(self.q, "kernel").dim(), 3)
        self.assertTrue(torch.equal(quantize.laid_out(int8_panels(self.q), "rows"), self.q))


class TensorOrderTest(unittest.TestCase):
    def test_an_attention_blocks_int8_projections_are_back_to_back_in_q_k_v_order(self):
        tensors = {}
        for block in ("decoder.layers.0.cross_attn", "decoder.layers.0.self_attn"):
            for proj in ("k_proj", "out_proj", "q_proj", "v_proj"):
                tensors[f"{block}.{proj}.weight"] = torch.zeros(1, 4, 16, dtype=torch.int8)
                tensors[f"{block}.{proj}.weight_scale"] = torch.ones(4)
                tensors[f"{block}.{proj}.bias"] = torch.zeros(4)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "m.safetensors")
            write_safetensors(path, tensors, {})
            with open(path, "rb") as f:
                (n,) = struct.unpack("<Q", f.read(8))
                header = json.loads(f.read(n))
        begin = {name: entry["data_offsets"][0] for name, entry in header.items() if name != "__metadata__"}
        for block, order in (("decoder.layers.0.self_attn", "qkv"), ("decoder.layers.0.cross_attn", "kv")):
            names = [f"{block}.{p}_proj.weight" for p in order]
            for a, b in zip(names, names[1:]):
                self.assertEqual(begin[b] - begin[a], 64, f"{b} does not follow {a}")


class DequantizeTest(unittest.TestCase):
    def setUp(self):
        g = torch.Generator().manual_seed(2)
        self.w = torch.randn(8, 12, generator=g) * 0.05
        q, scale = quantize.quantize_rows(self.w)
        self.tensors = {"layer.weight": int8_panels(q), "layer.weight_scale": scale, "layer.bias": torch.randn(8, generator=g),
                        "shortlist.targets": torch.arange(5, dtype=torch.int32)}
        self.q, self.scale = q, scale

    def test_each_weight_is_its_int8_value_times_its_row_scale(self):
        out, _ = dequantize.dequantize(self.tensors, {})
        self.assertEqual(out["layer.weight"].dtype, torch.float32)
        self.assertTrue(torch.equal(out["layer.weight"], self.q.float() * self.scale[:, None]))
        self.assertLess((out["layer.weight"] - self.w).abs().max().item(), self.scale.max().item())

    def test_other_tensors_are_kept_and_scales_and_quantization_dropped(self):
        out, metadata = dequantize.dequantize(self.tensors, {"config": "{}", "quantization": "{}"})
        self.assertEqual(sorted(out), ["layer.bias", "layer.weight", "shortlist.targets"])
        self.assertTrue(torch.equal(out["shortlist.targets"], self.tensors["shortlist.targets"]))
        self.assertEqual(metadata, {"config": "{}"})

    def test_quantizing_the_dequantized_weights_again_gives_the_same_int8_values(self):
        out, _ = dequantize.dequantize(self.tensors, {})
        q, _ = quantize.quantize_rows(out["layer.weight"])
        self.assertTrue(torch.equal(q, self.q))

    def test_a_file_without_int8_matrices_is_refused(self):
        with self.assertRaises(ValueError):
            dequantize.dequantize({"layer.weight": self.w}, {})


class MatrixNamesTest(unittest.TestCase):
    CONFIG = {"encoder_layers": 1, "decoder_layers": 1, "d_model": 8, "n_heads": 2, "d_ff": 16, "activation": "relu",
              "embed_scale": True, "max_positions": 16, "vocab_size": 10, "pad_id": 0, "unk_id": 1, "bos_id": 2, "eos_id": 3,
              "shared_vocab": True, "tied_embeddings": True, "final_logits_bias": True, "layer_norm": "post"}

    def test_an_ssru_decoders_two_matrices_are_both_quantized_and_its_bias_is_not(self):
        names = quantize.matrix_names({**self.CONFIG, "decoder_autoregression": "ssru"})
        self.assertIn("decoder.layers.0.ssru.weight", names)
        self.assertIn("decoder.layers.0.ssru.forget_weight", names)
        self.assertNotIn("decoder.layers.0.ssru.forget_bias", names)
        self.assertNotIn("decoder.layers.0.self_attn.q_proj.weight", names)

    def test_matrices_are_the_linear_layers_and_the_embedding_not_norms_or_biases(self):
        names = quantize.matrix_names(self.CONFIG)
        self.assertIn("shared.weight", names)
        self.assertIn("encoder.layers.0.fc1.weight", names)
        self.assertIn("decoder.layers.0.cross_attn.k_proj.weight", names)
        self.assertNotIn("encoder.layers.0.final_layer_norm.weight", names)
        self.assertNotIn("final_logits_bias", names)


if __name__ == "__main__":
    unittest.main()
