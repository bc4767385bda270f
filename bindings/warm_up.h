// The engine's warm-up: the model-load path run once on a small synthetic tokenizer (warm_up.cc).
#pragma once

namespace crossattn {

/// Builds and uses a SentencePiece unigram model of `pieces` synthetic pieces (clamped to
/// [55, 36,559]: the single letters at least, every piece of up to three letters at most) as a model
/// load builds the real one (the Tokenizer: SentencePiece's parse and trie, the vocabulary's table,
/// one encoding), and hashes 1 MiB as a load checks the file's checksum, so that V8 optimizes that
/// code before a model file arrives. Returns the number of pieces loaded. Raises Error(kTokenizer)
/// only if the engine's own SentencePiece build rejects the synthetic model.
int warm_up(int pieces);

}  // namespace crossattn
