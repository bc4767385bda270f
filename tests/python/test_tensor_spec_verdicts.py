"""The Python writer's checker (models/tensor_spec.py) gives each case of the shared corpus
(tests/fixtures/tensor-spec-verdicts.json) the verdict written there, as the engine's loader
(tests/cpp/tensor_spec_test.cc) and the converters' checker (tests/js/tensor-spec-verdicts.test.js) must.

  /usr/bin/python3 -m unittest discover -s tests/python
"""
import json
import os
import re
import sys
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "models"))
from tensor_spec import check_tensors, expected_tensors  # noqa: E402

with open(os.path.join(ROOT, "tests", "fixtures", "tensor-spec-verdicts.json"), encoding="utf-8") as f:
    CORPUS = json.load(f)


def tensors_of(config, case):
    """{name: (dtype, shape)}: the config's expected tensors but the all-or-none groups', less `drop`,
    with `set` applied."""
    tensors = {name: ("I32" if kind == "ids" else "F32", [3 if d < 0 else d for d in shape])
               for name, shape, kind, group in expected_tensors(config) if group is None}
    for name in case.get("drop", []):
        del tensors[name]
    for name, (dtype, shape) in case.get("set", {}).items():
        tensors[name] = (dtype, shape)
    return tensors


def verdict(case):
    """None for a set the checker accepts, else the tensor its error names."""
    config = {**CORPUS["config"], **case.get("config", {})}
    try:
        check_tensors(config, tensors_of(config, case), case.get("tokenizer", []))
    except ValueError as e:
        return re.match(r"tensor '([^']+)'", str(e)).group(1)
    return None


class VerdictsTest(unittest.TestCase):
    def test_the_corpus_has_valid_and_invalid_cases(self):
        self.assertGreater(sum(c["verdict"] is None for c in CORPUS["cases"]), 3)
        self.assertGreater(sum(c["verdict"] is not None for c in CORPUS["cases"]), 3)

    def test_each_case_gets_its_verdict(self):
        for case in CORPUS["cases"]:
            with self.subTest(case["about"]):
                self.assertEqual(verdict(case), case["verdict"])


if __name__ == "__main__":
    unittest.main()
