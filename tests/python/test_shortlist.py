"""The lexical shortlist table (models/shortlist.py): counts of piece links, p(t | s), the per-source
cut, and the frequent pieces, on a corpus whose links are known.

  /usr/bin/python3 -m unittest discover -s tests/python
"""
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models"))
import shortlist as sl  # noqa: E402

VOCAB = 20


class LexicalTableTest(unittest.TestCase):
    def setUp(self):
        # Source piece 5 links to 9 three times and to 11 once; 6 links to 12 twice; a link past the
        # end of its sentence (3-0 in a 2-piece source) is ignored.
        self.src = [[5, 6], [5, 6], [5], [5, 8], [4, 4]]
        self.tgt = [[9, 12], [9, 12], [9], [11, 3], [10]]
        self.links = ["0-0 1-1", "0-0 1-1", "0-0", "0-0", "3-0"]

    def test_counts_each_source_target_link(self):
        s, t, count = sl.link_counts(self.src, self.tgt, self.links, VOCAB)
        self.assertEqual(sorted(zip(s.tolist(), t.tolist(), count.tolist())), [(5, 9, 3), (5, 11, 1), (6, 12, 2)])

    def test_table_keeps_the_most_probable_targets_of_each_source_piece(self):
        s, t, count = sl.link_counts(self.src, self.tgt, self.links, VOCAB)
        offsets, targets = sl.lexical_table(s, t, count, VOCAB, per_source=50, min_prob=0.0)
        self.assertEqual(offsets.dtype, np.int32)
        self.assertEqual(len(offsets), VOCAB + 1)
        self.assertEqual(targets[offsets[5]:offsets[6]].tolist(), [9, 11])  # p = 0.75, 0.25: best first
        self.assertEqual(targets[offsets[6]:offsets[7]].tolist(), [12])
        self.assertEqual(offsets[-1], 3)
        self.assertEqual(np.diff(offsets)[[0, 4, 7, 8]].tolist(), [0, 0, 0, 0])  # pieces without links

        offsets, targets = sl.lexical_table(s, t, count, VOCAB, per_source=1, min_prob=0.0)
        self.assertEqual(targets[offsets[5]:offsets[6]].tolist(), [9])
        offsets, targets = sl.lexical_table(s, t, count, VOCAB, per_source=50, min_prob=0.5)
        self.assertEqual(targets.tolist(), [9, 12])

    def test_frequent_targets_are_the_most_common_pieces_and_eos(self):
        frequent = sl.frequent_targets(self.tgt, VOCAB, n=2, eos_id=3)
        self.assertEqual(frequent.tolist(), [3, 9, 12])  # 9 three times, 12 twice, eos always


if __name__ == "__main__":
    unittest.main()
