"""The Python side's names for a foreign format (models/tensor_spec.py their_name, from the format's
rows in cpp/model/tensor_spec.json) are the pairs of tests/fixtures/format-rows.json, which the
converters' reader (tests/js/format-rows.test.js) must give too.

  /usr/bin/python3 -m unittest discover -s tests/python
"""
import json
import os
import sys
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "models"))
from tensor_spec import their_name  # noqa: E402

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

    def test_a_format_without_rows_is_a_key_error(self):
        with self.assertRaises(KeyError):
            their_name("onnx", "shared.weight")


if __name__ == "__main__":
    unittest.main()
