"""The alignment lexicon (models/lexicon.py): lex(s, t) = sqrt(p(t | s) p(s | t)) per linked pair, its
table layout, and the per-source cut, on counts whose probabilities are known.

  /usr/bin/python3 -m unittest discover -s tests/python
"""
import math
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models"))
import lexicon  # noqa: E402

VOCAB = 10


class AlignmentLexiconTest(unittest.TestCase):
    def setUp(self):
        # c(5, 9) = 3, c(5, 7) = 1, c(6, 9) = 1, sorted by source then target as link_counts returns them.
        self.s, self.t, self.count = np.array([5, 5, 6]), np.array([7, 9, 9]), np.array([1, 3, 1])

    def test_scores_are_the_geometric_mean_of_both_conditional_probabilities(self):
        offsets, targets, scores = lexicon.alignment_lexicon(self.s, self.t, self.count, VOCAB)
        self.assertEqual((offsets.dtype, targets.dtype, scores.dtype), (np.int32, np.int32, np.float32))
        self.assertEqual(len(offsets), VOCAB + 1)
        self.assertEqual(targets[offsets[5]:offsets[6]].tolist(), [7, 9])  # ascending within a source
        self.assertEqual(targets[offsets[6]:offsets[7]].tolist(), [9])
        # p(9 | 5) = 3/4, p(5 | 9) = 3/4; p(7 | 5) = 1/4, p(5 | 7) = 1; p(9 | 6) = 1, p(6 | 9) = 1/4
        expected = [math.sqrt(1 / 4 * 1), math.sqrt(3 / 4 * 3 / 4), math.sqrt(1 * 1 / 4)]
        np.testing.assert_allclose(scores, expected, rtol=1e-6)

    def test_per_source_keeps_the_most_probable_targets(self):
        offsets, targets, scores = lexicon.alignment_lexicon(self.s, self.t, self.count, VOCAB, per_source=1)
        self.assertEqual(targets.tolist(), [9, 9])  # source 5 keeps 9 (p = 3/4), source 6 its only one
        self.assertEqual(offsets[-1], 2)
        np.testing.assert_allclose(scores, [0.75, 0.5], rtol=1e-6)


if __name__ == "__main__":
    unittest.main()
