"""The alignment layer's training form (models/alignment_layer.py): the lexicon prior in the logits gives
the distribution the engine reads (the layer's softmax times the prior, renormalized), and the teacher
links of a pair whose two directions agree are that agreement; and `add` writes a trained layer into a
model file under the spec's names, which the file's check accepts.

  /usr/bin/python3 -m unittest discover -s tests/python
"""
import argparse
import json
import os
import sys
import tempfile
import unittest

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models"))
import alignment_layer as al  # noqa: E402
from model_file import read_safetensors  # noqa: E402

MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models", "tatoeba-en-de", "tatoeba-en-de.int8.crossattn")


class AlignmentLayerTest(unittest.TestCase):
    def test_prior_in_the_logits_equals_the_engines_product_renormalized(self):
        torch.manual_seed(3)
        layer = al.AlignmentLayer(8)
        states, embeds, enc = torch.randn(1, 4, 8), torch.randn(1, 4, 8), torch.randn(1, 5, 8)
        prior = torch.rand(1, 4, 5) + 1e-4
        mask = torch.ones(1, 4, 5, dtype=torch.bool)
        with torch.no_grad():
            trained = layer(states, embeds, enc, mask, prior.log()).exp()
            product = layer(states, embeds, enc, mask).exp() * prior
        torch.testing.assert_close(trained, product / product.sum(-1, keepdim=True))

    def test_teacher_links_of_two_agreeing_directions_are_their_common_diagonal(self):
        # Three source and three target pieces (+ eos), each head attending to the mirrored position.
        forward = {"head": torch.eye(4), "prior": torch.ones(4, 4)}
        reverse = {"head": torch.eye(4), "prior": torch.ones(4, 4)}
        self.assertEqual(al.teacher_links(forward, reverse), [(0, 0), (1, 1), (2, 2)])


class AddTest(unittest.TestCase):
    def test_the_layers_tensors_join_the_model_file_under_the_specs_names(self):
        _, metadata = read_safetensors(MODEL)
        d_model = json.loads(metadata["config"])["d_model"]
        layer = al.AlignmentLayer(d_model)
        with tempfile.TemporaryDirectory() as tmp:
            saved, out = os.path.join(tmp, "layer.pt"), os.path.join(tmp, "out.crossattn")
            torch.save({"d_model": d_model, "state": layer.state_dict()}, saved)
            al.add(argparse.Namespace(model=MODEL, layer=saved, out=out))
            tensors, _ = read_safetensors(out)
        self.assertEqual(sorted(k for k in tensors if k.startswith("alignment.")),
                         ["alignment.k_proj.weight", "alignment.q_embed.weight", "alignment.q_state.bias", "alignment.q_state.weight"])
        self.assertTrue(torch.equal(tensors["alignment.q_state.weight"], layer.q_state.weight.detach()))


if __name__ == "__main__":
    unittest.main()
