"""A compact checkpoint made from a shipped model file (models/compact_from_model.py): it must hold the numbers
the int8 engine multiplies by, the file's own vocabulary, and the step a continued run resumes from; and it
must refuse a config whose model is not the file's.

  /usr/bin/python3 -m unittest discover -s tests/python
"""
import json
import os
import sys
import unittest

import torch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "models"))
from compact_from_model import compact_of  # noqa: E402
from model_file import dequantized, engine_name, read_safetensors  # noqa: E402

MODEL = os.path.join(ROOT, "models", "tatoeba-en-de", "tatoeba-en-de.int8.crossattn")
CONFIG = os.path.join(ROOT, "models", "configs", "tatoeba-en-de.json")


class CompactFromModelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(CONFIG) as f:
            cls.config = json.load(f)
        cls.compact = compact_of(MODEL, cls.config, step=1234, epoch=3)
        cls.tensors, cls.metadata = read_safetensors(MODEL)

    def test_weights_are_the_int8_engines_numbers_in_fp16(self):
        weights = self.compact["model"]
        int8_names = [k for k in weights if self.tensors[engine_name(k)].dtype == torch.int8]
        self.assertGreater(len(int8_names), 10)
        for key, value in weights.items():
            self.assertEqual(value.dtype, torch.float16, key)
            expected = dequantized(self.tensors, engine_name(key)).half()
            self.assertTrue(torch.equal(value, expected), key)

    def test_vocabulary_is_the_files_own(self):
        name = json.loads(self.metadata["tokenizer"])["source_spm"]
        self.assertEqual(self.compact["spm"], self.tensors[name].numpy().tobytes())

    def test_state_resumes_at_the_given_step(self):
        state = self.compact["state"]
        self.assertEqual((state["step"], state["epoch"], state["batch_in_epoch"]), (1234, 3, 0))
        self.assertIsNone(state["rewarm_from"])
        self.assertEqual(self.compact["config"], self.config)

    def test_refuses_another_architecture(self):
        other = json.loads(json.dumps(self.config))
        other["model"]["d_model"] *= 2
        with self.assertRaisesRegex(ValueError, "d_model"):
            compact_of(MODEL, other, step=0, epoch=0)


if __name__ == "__main__":
    unittest.main()
