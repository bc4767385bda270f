"""The Python writer's config check (models/tensor_spec.py resolve_config) gives each case of the shared
corpus (tests/fixtures/config-verdicts.json) the verdict written there, as the engine's
(tests/cpp/config_test.cc) and the converters' checker (tests/js/config-verdicts.test.js) must.

  /usr/bin/python3 -m unittest discover -s tests/python
"""
import json
import os
import re
import sys
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "models"))
from tensor_spec import resolve_config  # noqa: E402

with open(os.path.join(ROOT, "tests", "fixtures", "config-verdicts.json"), encoding="utf-8") as f:
    CORPUS = json.load(f)


def verdict(case):
    """None for a config the checker accepts, else the field its error names."""
    config = {k: v for k, v in CORPUS["config"].items() if k not in case.get("drop", [])}
    config.update(case.get("set", {}))
    try:
        resolve_config(config)
    except ValueError as e:
        return re.search(r"'([^']+)'", str(e)).group(1)
    return None


class ConfigVerdictsTest(unittest.TestCase):
    def test_the_corpus_has_valid_and_invalid_cases(self):
        self.assertGreater(sum(c["verdict"] is None for c in CORPUS["cases"]), 3)
        self.assertGreater(sum(c["verdict"] is not None for c in CORPUS["cases"]), 20)

    def test_each_case_gets_its_verdict(self):
        for case in CORPUS["cases"]:
            with self.subTest(case["about"]):
                self.assertEqual(verdict(case), case["verdict"])

    def test_defaults_are_filled_in(self):
        config = resolve_config(CORPUS["config"])
        self.assertEqual(config["decoder_start_id"], CORPUS["config"]["bos_id"])
        self.assertEqual(config["source_vocab_size"], CORPUS["config"]["vocab_size"])
        self.assertEqual(config["decoder_autoregression"], "self-attention")


if __name__ == "__main__":
    unittest.main()
