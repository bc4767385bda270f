"""The Python side's names for a foreign format (models/tensor_spec.py their_name and our_name, from the
format's rows in cpp/model/tensor_spec.json) are the pairs of tests/fixtures/format-rows.json, which
the converters' reader (tests/js/format-rows.test.js) must give too; and the PyTorch model's state dict
(models/transformer.py) names, by the rows, exactly the tensors the spec calls for.

  /usr/bin/python3 -m unittest discover -s tests/python
"""
import json
import os
import sys
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "models"))
from model_file import engine_name  # noqa: E402
from tensor_spec import expected_tensors, our_name, resolve_config, their_name  # noqa: E402

with open(os.path.join(ROOT, "tests", "fixtures", "format-rows.json"), encoding="utf-8") as f:
    GROUPS = json.load(f)["groups"]


class FormatRowsTest(unittest.TestCase):
    def test_each_pair(self):
        for group in GROUPS:
            for ours, theirs in group["pairs"]:
                with self.subTest(f"{group['format']}: {ours}"):
                    self.assertEqual(their_name(group["format"], ours, group["config"]), theirs)

    def test_a_row_with_a_condition_needs_a_config_it_is_true_of(self):
        with self.assertRaises(KeyError):
            their_name("marian", "decoder.layers.0.ssru.weight")

    def test_each_pair_the_other_way(self):
        for group in GROUPS:
            for ours, theirs in group["pairs"]:
                with self.subTest(f"{group['format']}: {theirs}"):
                    self.assertEqual(our_name(group["format"], theirs, group["config"]), ours)

    def test_the_pytorch_state_dict_is_the_specs_tensors(self):
        from transformer import Transformer

        config = {"encoder_layers": 2, "decoder_layers": 2, "d_model": 16, "n_heads": 2, "d_ff": 32, "activation": "relu",
                  "embed_scale": True, "max_positions": 32, "vocab_size": 12, "pad_id": 0, "unk_id": 1, "bos_id": 2, "eos_id": 3,
                  "shared_vocab": True, "tied_embeddings": True, "dropout": 0.0, "attention_dropout": 0.0, "activation_dropout": 0.0}
        for layer_norm in ("pre", "post"):
            with self.subTest(layer_norm):
                c = resolve_config({**config, "layer_norm": layer_norm})  # the defaults transformer.py reads
                names = {engine_name(key) for key in Transformer(c).state_dict()}
                self.assertEqual(names, {name for name, _, _, group in expected_tensors(c) if group is None})

    def test_a_format_without_rows_is_a_key_error(self):
        with self.assertRaises(KeyError):
            their_name("onnx", "shared.weight")


if __name__ == "__main__":
    unittest.main()
