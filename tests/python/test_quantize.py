"""int8 quantization (models/quantize.py) and the int8 kernel layout (models/model_file.py): the panel
index formula of docs/model-format.md, the round trip to rows, and the tensor order that lets the engine
read an attention block's fused projections in place.

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


if __name__ == "__main__":
    unittest.main()
