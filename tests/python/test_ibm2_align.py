"""The training-data aligner (models/ibm2_align.py) and the guided-alignment targets of train.py.

  /usr/bin/python3 -m unittest discover -s tests/python
"""
import os
import random
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models"))
import ibm2_align as ia  # noqa: E402


def synthetic_corpus(pairs, seed=0):
    """A language pair whose words translate one to one (source word w is target word w + 50), with
    one target-only word (7, a particle) after the first word and the last two words swapped: the
    true links are known."""
    rng = random.Random(seed)
    src, tgt, gold = [], [], []
    for _ in range(pairs):
        n = rng.randint(3, 9)
        s = rng.sample(range(8, 48), n)
        t = [s[0] + 50, 7] + [w + 50 for w in s[1:-2]] + [s[-1] + 50, s[-2] + 50]
        links = {(0, 0)} | {(i, i + 1) for i in range(1, n - 2)} | {(n - 1, n - 1), (n - 2, n)}
        src.append(np.array(s))
        tgt.append(np.array(t))
        gold.append(links)
    return src, tgt, gold


class DiagonalIBM2Test(unittest.TestCase):
    def test_learns_the_lexicon_and_finds_the_links_in_both_directions(self):
        src, tgt, gold = synthetic_corpus(400)
        links = ia.fit_both(src, tgt, vocab_size=100, iterations=5, log=lambda _: None)
        found = sum(len(h & g) for h, g in zip(links, gold))
        self.assertGreater(found / sum(map(len, gold)), 0.97)
        wrong = sum(len(h - g) for h, g in zip(links, gold))
        self.assertLess(wrong / sum(map(len, links)), 0.03)

    def test_a_target_word_without_counterpart_stays_unaligned_more_often_than_not(self):
        src, tgt, _ = synthetic_corpus(400)
        model = ia.DiagonalIBM2(100)
        corpus = model.flatten(src, tgt, chunk=64)  # several chunks, joined
        for _ in range(5):
            model.em_step(corpus)
        viterbi = model.viterbi(corpus, len(src))
        particle_linked = sum(any(j == 1 for _, j in links) for links in viterbi)
        self.assertLess(particle_linked, len(src) / 2)

    def test_the_prior_favours_the_diagonal_and_sums_to_one(self):
        model = ia.DiagonalIBM2(10, p_null=0.1, tension=4.0)
        corpus = model.flatten([np.array([1, 2, 3, 4])], [np.array([5, 6, 7, 8])])
        prior = corpus["prior"].reshape(4, 5)  # [target, source + NULL]
        np.testing.assert_allclose(prior.sum(1), 1.0, rtol=1e-6)
        np.testing.assert_allclose(prior[:, 4], 0.1)
        self.assertEqual(list(prior[:, :4].argmax(1)), [0, 1, 2, 3])


class GrowDiagFinalAndTest(unittest.TestCase):
    def test_grows_from_the_intersection_into_neighbours_then_adds_lone_words(self):
        forward = {(0, 0), (1, 1), (2, 1), (4, 4)}
        backward = {(0, 0), (1, 1), (3, 2), (5, 5)}
        # (2, 1) neighbours (1, 1) and covers unaligned source word 2, then (3, 2) neighbours (2, 1);
        # (4, 4) and (5, 5) touch no link and join at the end, both their words being unaligned.
        self.assertEqual(ia.grow_diag_final_and(forward, backward),
                         {(0, 0), (1, 1), (2, 1), (3, 2), (4, 4), (5, 5)})

    def test_a_final_link_needs_both_words_unaligned(self):
        self.assertEqual(ia.grow_diag_final_and({(0, 0)}, {(0, 0), (0, 2)}), {(0, 0)})


class HelpersTest(unittest.TestCase):
    def test_word_of_piece_starts_a_word_at_each_boundary_mark(self):
        self.assertEqual(ia.word_of_piece(["\u2581Kar", "ate", "anzug", "\u2581.", "\u2581a"]), [0, 0, 0, 1, 2])

    def test_aer_counts_sure_and_possible_links(self):
        # A = {(0,0),(1,1),(2,2)}, S = {(0,0),(1,1)}, P = S + {(2,2)}: AER = 1 - (2 + 3) / (3 + 2) = 0
        self.assertAlmostEqual(ia.aer([{(0, 0), (1, 1), (2, 2)}], [({(0, 0), (1, 1)}, {(2, 2)})]), 0.0)
        self.assertAlmostEqual(ia.aer([{(0, 1)}], [({(0, 0)}, set())]), 1.0)


class GuidedAlignmentTargetsTest(unittest.TestCase):
    def test_rows_spread_one_over_the_linked_source_pieces(self):
        import train
        aln = train.alignment_targets(["0-0 1-0 2-1", ""], t_len=3, s_len=4)
        self.assertEqual(tuple(aln.shape), (2, 3, 4))
        self.assertEqual(aln[0, 0].tolist(), [0.5, 0.5, 0.0, 0.0])
        self.assertEqual(aln[0, 1].tolist(), [0.0, 0.0, 1.0, 0.0])
        self.assertEqual(float(aln[0, 2].sum()), 0.0)  # eos: no link
        self.assertEqual(float(aln[1].sum()), 0.0)


if __name__ == "__main__":
    unittest.main()
