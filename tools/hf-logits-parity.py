#!/usr/bin/env python3
"""Checks a converted OPUS-MT model against Hugging Face transformers' MarianMTModel, the reference
engine of the Hugging Face folder it was converted from. Needs Python `transformers` and `torch`
(not installed on the crossattn CI machine) and Node 20 with this repository built (dist/).

  crossattn convert models/opus-mt-en-fr -o build/opus-mt-en-fr.crossattn
  python3 tools/hf-logits-parity.py --hf models/opus-mt-en-fr --model build/opus-mt-en-fr.crossattn \
      --src ../shared/data/flores-dev/dev.en --sentences 50

For each source sentence:
  1. greedy translations: MarianMTModel.generate(num_beams=1, max_new_tokens=N) decoded with
     skip_special_tokens, against crossattn's Translator.translateBatch (beamSize 1, repeatLimit 0,
     shortlist false, maxLength N); counts identical texts and identical token ids;
  2. the function itself: crossattn force-decodes the HF translation (Translator.align), giving the
     source ids, target ids and the log-probability of each target token; MarianMTModel is run
     teacher-forced on the same ids (decoder input: decoder_start_token_id then the target ids) and its
     log_softmax read at each target token. Reports the largest |difference| over all tokens; the two
     compute the same function in fp32, so it should stay below about 1e-3 nats.
It also checks that MarianTokenizer and crossattn cut every source sentence into the same ids.
Exit status 1 if the source ids ever differ, or the largest log-probability difference exceeds --tolerance.
"""
import argparse
import json
import os
import subprocess
import sys

import torch
from transformers import MarianMTModel, MarianTokenizer

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

NODE_SCRIPT = r"""
import { readFileSync } from 'node:fs';
import { Translator } from './dist/index.js';
const { model, sources, references, maxLength } = JSON.parse(readFileSync(0, 'utf8'));
const t = await Translator.load(model);
const greedy = await t.translateBatch(sources, { beamSize: 1, repeatLimit: 0, shortlist: false, maxLength, maxLengthOffset: maxLength });
const forced = [];
for (let i = 0; i < sources.length; i++) {
  const r = await t.align(sources[i], references[i], { alignment: false, shortlist: false });
  forced.push({ sourceIds: r.sourceIds, targetIds: r.targetIds, tokenLogProbs: r.tokenLogProbs });
}
process.stdout.write(JSON.stringify({ greedy: greedy.map((r) => ({ text: r.text, targetIds: r.targetIds })), forced }));
"""


def crossattn(model, sources, references, max_length):
    """Runs crossattn (dist/index.js) on the sentences: greedy translations and forced decoding of references."""
    job = {"model": os.path.abspath(model), "sources": sources, "references": references, "maxLength": max_length}
    out = subprocess.run(["node", "--input-type=module", "-e", NODE_SCRIPT], input=json.dumps(job), cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hf", required=True, help="the Hugging Face MarianMT folder")
    ap.add_argument("--model", required=True, help="the .crossattn file converted from it")
    ap.add_argument("--src", required=True, help="source sentences, one per line")
    ap.add_argument("--sentences", type=int, default=50)
    ap.add_argument("--max-length", type=int, default=128)
    ap.add_argument("--tolerance", type=float, default=1e-3, help="largest allowed log-probability difference (nats)")
    args = ap.parse_args()

    tokenizer = MarianTokenizer.from_pretrained(args.hf)
    hf = MarianMTModel.from_pretrained(args.hf, torch_dtype=torch.float32).eval()
    sources = [line.rstrip("\n") for line in open(args.src, encoding="utf-8")][: args.sentences]
    with torch.no_grad():
        batch = [tokenizer(s, return_tensors="pt") for s in sources]
        generated = [hf.generate(**b, num_beams=1, do_sample=False, max_new_tokens=args.max_length)[0] for b in batch]
    references = [tokenizer.decode(g, skip_special_tokens=True) for g in generated]
    ours = crossattn(args.model, sources, references, args.max_length)

    same_text = sum(o["text"] == r for o, r in zip(ours["greedy"], references))
    same_ids = sum(o["targetIds"] == g.tolist()[1:] for o, g in zip(ours["greedy"], generated))  # g[0]: the start token
    worst, source_mismatch = 0.0, 0
    for b, f in zip(batch, ours["forced"]):
        if b["input_ids"][0].tolist() != f["sourceIds"]:
            source_mismatch += 1
        target = torch.tensor([[hf.config.decoder_start_token_id] + f["targetIds"][:-1]])
        with torch.no_grad():
            logits = hf(**b, decoder_input_ids=target).logits[0]  # [T, V]
        log_probs = logits.log_softmax(-1)[torch.arange(len(f["targetIds"])), torch.tensor(f["targetIds"])]
        worst = max(worst, (log_probs - torch.tensor(f["tokenLogProbs"])).abs().max().item())
    n = len(sources)
    print(f"greedy: {same_text}/{n} identical texts, {same_ids}/{n} identical token ids")
    print(f"source ids: {n - source_mismatch}/{n} identical to MarianTokenizer's")
    print(f"forced decoding of MarianMTModel's translations: largest |log-prob difference| {worst:.2e} nats")
    sys.exit(1 if source_mismatch or worst > args.tolerance else 0)


if __name__ == "__main__":
    main()
