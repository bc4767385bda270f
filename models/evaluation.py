"""Greedy translation of a test set with the PyTorch model and its corpus BLEU, for train.py's
evaluations during training (the engine's own numbers come from tools/evaluate.js).

BLEU is sacreBLEU's default corpus BLEU (Post 2018): the sacrebleu package where it is installed
(the GPU machines), else tools/bleu.js, our implementation of the same metric (checked against
sacreBLEU's documented example in tests/js/bleu.test.js).
"""
import os
import re
import shutil
import subprocess
import tempfile

import torch

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@torch.no_grad()
def greedy_translate(model, sp, lines, m, device, batch_tokens=6000):
    """Greedy translations of `lines` (strings), in order. Sentences are batched by length; each may
    produce at most 2 * src_len + 10 tokens (the engine's default limit)."""
    model.eval()
    ids = [sp.encode(line)[: m["max_positions"] - 1] + [m["eos_id"]] for line in lines]
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    out = [""] * len(ids)
    start = 0
    while start < len(order):
        longest = len(ids[order[start]])
        end = start
        while end < len(order) and max(longest, len(ids[order[end]])) * 3 * (end - start + 1) <= batch_tokens:
            longest = max(longest, len(ids[order[end]]))
            end += 1
        end = max(end, start + 1)
        batch = order[start:end]
        src = torch.full((len(batch), longest), m["pad_id"], dtype=torch.long)
        for row, i in enumerate(batch):
            src[row, : len(ids[i])] = torch.tensor(ids[i])
        max_len = min(m["max_positions"] - 1, 2 * longest + 10)
        tgt = model.greedy(src.to(device), max_len).tolist()  # [B, <= max_len]
        for row, i in enumerate(batch):
            tokens = tgt[row]
            if m["eos_id"] in tokens:
                tokens = tokens[: tokens.index(m["eos_id"])]
            out[i] = sp.decode(tokens)
        start = end
    model.train()
    return out


def corpus_bleu(hypotheses, references):
    """sacreBLEU's default corpus BLEU of hypotheses against one reference stream, or None when neither
    sacrebleu nor node is available."""
    try:
        import sacrebleu
        return round(sacrebleu.corpus_bleu(hypotheses, [references]).score, 2)
    except ImportError:
        pass
    if shutil.which("node") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, name) for name in ("hyp", "ref")]
        for path, lines in zip(paths, (hypotheses, references)):
            with open(path, "w", encoding="utf-8") as f:
                f.writelines(line.replace("\n", " ") + "\n" for line in lines)
        result = subprocess.run(["node", os.path.join(REPO, "tools", "bleu.js"), *paths],
                                capture_output=True, text=True, check=True)
    return float(re.match(r"BLEU = ([0-9.]+)", result.stdout).group(1))
