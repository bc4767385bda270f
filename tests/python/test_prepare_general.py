"""The data pipeline's filters and held-out split (models/prepare_general.py), on hand-made pairs.

  /usr/bin/python3 -m unittest discover -s tests/python
"""
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models"))
import prepare_general as pg  # noqa: E402


def first_failed(en, de):
    return next((name for name, drop in pg.FILTERS if drop(en, de)), None)


class FilterTest(unittest.TestCase):
    def test_clean_pairs_pass(self):
        for en, de in [("A dog runs through the grass.", "Ein Hund rennt durch das Gras."),
                       ("R&D department", "F&E-Abteilung"),
                       ("The price is 5%.", "Der Preis beträgt 5 %."),
                       ("5% of the people", "5 % der Menschen"),
                       ("Where is the station?", "Wo ist der Bahnhof?")]:
            self.assertIsNone(first_failed(en, de), en)

    def test_each_filter_catches_its_case(self):
        cases = {
            "empty": ("", "Hallo"),
            "too_long": ("word " * 90, "Wort " * 90),
            "markup": [("Open %s", "%s öffnen"), ("_File", "_Datei"), ("Save &As", "Speichern &unter"),
                       ("Tom &amp; Jerry", "Tom &amp; Jerry"), ("{ $count } files", "{ $count } Dateien"),
                       ("<b>Bold</b> text", "<b>Fetter</b> Text"), ("%1 of %2", "%1 von %2"), ("Item {0}", "Element {0}"),
                       ("house {n}", "Haus {n}"), ("elevator [Am.]", "Aufzug")],
            "same": ("Firefox", "firefox"),
            "length_ratio": ("A very long sentence indeed with many words in it", "Kurz"),
            "script": ("Hello world", "Привет мир"),
            "language": [("The cat is on the table and it sleeps.", "The cat sits on the table and it is nice."),
                         ("Der Hund ist nicht mit der Katze im Haus.", "Der Hund ist nicht mit der Katze im Haus!")],
        }
        for name, pairs in cases.items():
            for en, de in pairs if isinstance(pairs, list) else [pairs]:
                self.assertEqual(first_failed(en, de), name, (en, de))

    def test_clean_normalizes_quotes_spaces_and_tokenized_punctuation(self):
        self.assertEqual(pg.clean("Das  „Haus“\u00ad ist ‚schön’"), "Das \"Haus\" ist 'schön'")
        self.assertEqual(pg.clean("Da ( wie immer ) , oder ?", detokenize=True), "Da (wie immer), oder?")
        self.assertEqual(pg.clean("e\u0301"), "\u00e9")  # NFC

    def test_labels_are_short_and_unpunctuated(self):
        self.assertTrue(pg.is_label("Save As"))
        self.assertFalse(pg.is_label("Stop."))
        self.assertFalse(pg.is_label("Save the file now"))


class MixtureTest(unittest.TestCase):
    def test_whole_weights_repeat_exactly_and_fractions_in_proportion(self):
        rng = random.Random(0)
        pair = ("The house is old.", "Das Haus ist alt.")
        self.assertEqual(pg.repeat(pair, 3.0, rng), [pair] * 3)
        copies = sum(len(pg.repeat(pair, 0.3, rng)) for _ in range(10_000))
        self.assertAlmostEqual(copies / 10_000, 0.3, delta=0.02)

    def test_labels_are_capped_in_both_mixtures(self):
        rng = random.Random(0)
        copies = sum(len(pg.repeat(("Save As", "Speichern unter"), 2.0, rng)) for _ in range(10_000))
        self.assertAlmostEqual(copies / 10_000, pg.LABEL_WEIGHT, delta=0.02)

    def test_fine_tuning_favours_sentence_level_general_text(self):
        weights = {stem: w for stem, _, w in pg.SOURCES}
        general = ["wmt-newstest-2008-2018", "mlqe-pe", "xquad"]
        software = ["gettext", "mozilla", "manpages", "gettext-terms"]
        for stem in general:
            self.assertGreaterEqual(weights[stem][1], 1, stem)
        for stem in software:  # kept a little, so the last phase does not forget them
            self.assertTrue(0 < weights[stem][1] < weights[stem][0], stem)

    def test_the_everyday_phase_favours_conversation_and_keeps_general_text(self):
        weights = {stem: dict(zip((prefix for prefix, _ in pg.MIXTURES), w)) for stem, _, w in pg.SOURCES}
        for stem in ["tatoeba"]:
            self.assertGreater(weights[stem]["everyday"], weights[stem]["finetune"], stem)
        for stem in ["wmt-newstest-2008-2018", "mlqe-pe", "xquad", "ding-sentences"]:
            self.assertGreaterEqual(weights[stem]["everyday"], 1, stem)
        for stem in ["gettext", "mozilla", "manpages", "gettext-terms"]:
            self.assertTrue(0 < weights[stem]["everyday"] <= weights[stem]["finetune"], stem)


class MixTest(unittest.TestCase):
    def test_held_out_sentences_filtered_pairs_and_later_duplicates_are_dropped(self):
        sources = {
            "first": [("The house is old.", "Das Haus ist alt."), ("The sky is blue today.", "Der Himmel ist heute blau."),
                      ("", "Leer")],
            "second": [("The house is OLD!", "Das Haus ist alt."), ("Where is the station?", "Wo ist der Bahnhof?")],
        }
        held_out = {"flores-dev": [("The  sky is blue today", "Etwas ganz anderes.")]}
        rows, mixtures = pg.mix([("first", "a", (2.0, 1.0, 0.0)), ("second", "b", (1.0, 0.0, 1.0))],
                                sources.get, held_out, seed=1)
        first, second = rows
        self.assertEqual((first["read"], first["kept"], first["held_out"], first["dropped"]["empty"]), (3, 1, 1, 1))
        self.assertEqual((second["kept"], second["duplicate"]), (1, 1))  # the earlier source keeps the pair
        self.assertEqual(sorted(mixtures["train"]), sorted([("The house is old.", "Das Haus ist alt.")] * 2
                                                           + [("Where is the station?", "Wo ist der Bahnhof?")]))
        self.assertEqual(mixtures["finetune"], [("The house is old.", "Das Haus ist alt.")])
        self.assertEqual(mixtures["everyday"], [("Where is the station?", "Wo ist der Bahnhof?")])

    def test_the_sources_added_on_2026_11_27_are_mixed_general_text_above_game_text(self):
        weights = {stem: w for stem, _, w in pg.SOURCES}
        games = ["wesnoth", "naev", "cataclysm-dda", "freedroidrpg", "widelands", "gcompris", "tuxpaint-stamps"]
        for stem in ["wmt15-sample", *games]:
            self.assertIn(stem, weights)
        for stem in games:
            for phase in range(len(pg.MIXTURES)):
                self.assertLess(weights[stem][phase], weights["wmt15-sample"][phase], (stem, phase))


class HeldOutNewsTest(unittest.TestCase):
    def test_news_is_cut_at_the_anchors_of_the_held_out_years(self):
        (name17, first17), (name18, first18) = pg.HELD_OUT_NEWS
        pairs = [("old", "alt"), (first17, "a"), ("x", "x2"), (first18, "b"), ("y", "y2")]
        train, held = pg.split_news(pairs)
        self.assertEqual(train, [("old", "alt")])
        self.assertEqual(held[name17], [(first17, "a"), ("x", "x2")])
        self.assertEqual(held[name18], [(first18, "b"), ("y", "y2")])

    def test_a_missing_anchor_is_an_error(self):
        with self.assertRaises(ValueError):
            pg.split_news([("old", "alt")])


if __name__ == "__main__":
    unittest.main()
