"""The tensor spec from Python (models/tensor_spec.py): every shipped model holds exactly what it calls
for, and write_safetensors refuses a model file that disagrees with it."""
import glob
import json
import os
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "models"))
from model_file import DTYPES, header_padding, read_safetensors, write_safetensors  # noqa: E402
from tensor_spec import check_tensors, expected_tensors, initial_tensors  # noqa: E402

SHIPPED = sorted(glob.glob(os.path.join(ROOT, "models", "*", "*.crossattn")))


class TensorSpecTest(unittest.TestCase):
    def test_every_shipped_model_passes(self):
        self.assertGreater(len(SHIPPED), 3)
        for path in SHIPPED:
            tensors, metadata = read_safetensors(path)
            tokenizer = json.loads(metadata["tokenizer"])
            check_tensors(json.loads(metadata["config"]), {n: (DTYPES[t.dtype], list(t.shape)) for n, t in tensors.items()},
                          {tokenizer["source_spm"], tokenizer["target_spm"]})

    def test_ssru_and_source_vocabulary_rules(self):
        config = {"encoder_layers": 1, "decoder_layers": 2, "d_model": 8, "n_heads": 2, "d_ff": 16, "activation": "relu",
                  "embed_scale": True, "max_positions": 16, "vocab_size": 10, "pad_id": 0, "unk_id": 1, "bos_id": 2, "eos_id": 3,
                  "source_vocab_size": 12, "shared_vocab": False, "tied_embeddings": True, "layer_norm": "post",
                  "decoder_autoregression": "ssru"}
        names = {name: shape for name, shape, _, _ in expected_tensors(config)}
        self.assertEqual(names["encoder.embed_tokens.weight"], [12, 8])
        self.assertEqual(names["decoder.layers.1.ssru.forget_weight"], [8, 8])
        self.assertNotIn("decoder.layers.0.self_attn.q_proj.weight", names)
        self.assertEqual(names["shortlist.offsets"], [13])

    def test_initial_tensors_pass_the_check_with_neutral_norms_and_biases(self):
        import torch

        config = {"encoder_layers": 1, "decoder_layers": 1, "d_model": 8, "n_heads": 2, "d_ff": 16, "activation": "relu",
                  "embed_scale": True, "max_positions": 16, "vocab_size": 10, "pad_id": 0, "unk_id": 1, "bos_id": 2, "eos_id": 3,
                  "shared_vocab": True, "tied_embeddings": True, "layer_norm": "pre", "final_logits_bias": True}
        tensors = initial_tensors(config, torch.Generator().manual_seed(1))
        check_tensors(config, {n: ("F32", list(t.shape)) for n, t in tensors.items()}, set())
        self.assertTrue(torch.equal(tensors["decoder.layers.0.cross_attn_layer_norm.weight"], torch.ones(8)))
        self.assertTrue(torch.equal(tensors["encoder.layer_norm.weight"], torch.ones(8)))
        for name in ("encoder.layers.0.fc1.bias", "final_logits_bias", "decoder.layer_norm.bias"):
            self.assertEqual(tensors[name].abs().max().item(), 0, name)
        q = tensors["encoder.layers.0.self_attn.q_proj.weight"]
        self.assertGreater(q.std().item(), 0.01)
        self.assertLess(q.std().item(), 0.04)
        again = initial_tensors(config, torch.Generator().manual_seed(1))
        self.assertTrue(all(torch.equal(tensors[n], again[n]) for n in tensors), "seeded: the same tensors again")

    def test_int8_weights_start_on_16_bytes_and_wider_tensors_on_4(self):
        tensors, metadata = read_safetensors(os.path.join(ROOT, "models", "general-en-de", "general-en-de.int8.crossattn"))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "rewritten.crossattn")
            write_safetensors(path, tensors, metadata)
            with open(path, "rb") as f:
                n = int.from_bytes(f.read(8), "little")
                header = json.loads(f.read(n))
        header.pop("__metadata__")
        starts = {dtype: [8 + n + t["data_offsets"][0] for t in header.values() if t["dtype"] == dtype] for dtype in ("I8", "F32")}
        self.assertEqual(min(starts["I8"]) % 16, 0)
        self.assertTrue(all(start % 4 == 0 for start in starts["F32"]))
        for json_length in range(40):
            for wide in range(0, 64, 4):
                start = 8 + json_length + header_padding(json_length, wide)
                self.assertEqual((start + wide) % 16, 0)
                self.assertEqual(start % (8 if wide % 8 == 0 else 4), 0)

    def test_write_refuses_what_the_spec_refuses(self):
        tensors, metadata = read_safetensors(os.path.join(ROOT, "models", "multi30k-en-de", "multi30k-en-de.crossattn"))
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "m.crossattn")
            write_safetensors(out, tensors, metadata)  # as it is: accepted
            for damage, message in [
                (lambda t: t.pop("decoder.layers.1.fc1.bias"), "decoder.layers.1.fc1.bias' is missing"),
                (lambda t: t.update({"encoder.layers.7.fc1.bias": t["encoder.layers.0.fc1.bias"]}), "not a tensor of this config"),
                (lambda t: t.update({"encoder.layers.0.fc2.weight": t["encoder.layers.0.fc1.weight"]}), "has shape"),
                # a scale only beside an I8 matrix (this file is fp32), as the engine's loader requires
                (lambda t: t.update({"encoder.layers.0.fc1.weight_scale": t["encoder.layers.0.fc1.bias"]}), "not a tensor of this config"),
            ]:
                damaged = dict(tensors)
                damage(damaged)
                with self.assertRaisesRegex(ValueError, message):
                    write_safetensors(out, damaged, metadata)


if __name__ == "__main__":
    unittest.main()
