"""A model file's lexical shortlist as Marian's binary lex file (lex.s2t.bin), for Bergamot to score the
same candidates as our engine: the inverse of bindings/src/convert/marian-shortlist.ts.

File layout (browsermt/marian-dev e88c1aa src/data/shortlist.cpp:164-201): six uint64 { magic
0xF11A48D5013417F5; checksum; firstNum; bestNum; wordToOffsetSize; shortListsSize }, then wordToOffset
(uint64, source id -> start) and shortLists (uint32, target ids ascending within each source id).
Bergamot scores, for a sentence, the ids below firstNum and each source id's list (shortlist.cpp:259-311).
Our shortlist's frequent pieces are any ids, not the first ones, so firstNum is 0 and every list holds
them, with eos, which our engine always scores. Bergamot also scores each source id itself (one
shared vocabulary) and pads the set to a multiple of 8: it may score a few pieces more than ours.
"""
import numpy as np

MAGIC = 0xF11A48D5013417F5
MASK = (1 << 64) - 1


def marian_checksum(words):
    """Marian's hashMem over uint64 `words` (src/common/hash.h: boost's hash_combine, std::hash the identity)."""
    seed = 0
    for v in words.tolist():
        seed = (seed ^ ((v + 0x9E3779B9 + (seed << 6) + (seed >> 2)) & MASK)) & MASK
    return seed


def lex_bytes(frequent, offsets, targets, eos_id):
    """The lex.s2t.bin bytes of our shortlist tensors (shortlist.frequent [F], shortlist.offsets [V+1],
    shortlist.targets [N], as numpy int32 arrays)."""
    always = np.union1d(frequent, [eos_id])
    lists = [np.union1d(targets[offsets[s]:offsets[s + 1]], always).astype(np.uint32) for s in range(len(offsets) - 1)]
    word_to_offset = np.concatenate([[0], np.cumsum([len(x) for x in lists])]).astype(np.uint64)
    short_lists = np.concatenate(lists)
    body = np.array([0, max(len(x) for x in lists), len(word_to_offset), len(short_lists)], dtype=np.uint64).tobytes()
    body += word_to_offset.tobytes() + short_lists.tobytes()
    checksum = marian_checksum(np.frombuffer(body[: len(body) // 8 * 8], dtype=np.uint64))
    return np.array([MAGIC, checksum], dtype=np.uint64).tobytes() + body
