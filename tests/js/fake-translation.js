// Test helper: a translation as the engine returns it, from pieces; the alignment is [targetWords][sourceWords]
// of the engine's words (which " ⁇ " splits) with the given links.
import { decodePieces } from '../../dist/copy-through.js';

export function fake(source, target, links) {
  const words = (pieces) => {
    let w = -1;
    return pieces.map((p) => (p === '</s>' ? -1 : (w < 0 || p.startsWith('▁') ? ++w : w)));
  };
  const engineText = decodePieces(target.pieces.map((p) => (p === '<unk>' ? ' ⁇ ' : p)), words(target.pieces));
  const targetWords = engineText.split(/\s+/).filter(Boolean);
  const sourceWords = decodePieces(source.pieces, words(source.pieces)).split(/\s+/).filter(Boolean);
  const weights = targetWords.map((_, t) => Float32Array.from(sourceWords, (_, s) => (links.some(([a, b]) => a === s && b === t) ? 1 : 0)));
  return {
    text: engineText, sourceTokens: source.pieces, sourceIds: source.ids, sourceWords, sourceWordOfToken: words(source.pieces),
    targetTokens: target.pieces, targetIds: target.ids, targetWords, targetWordOfToken: words(target.pieces).map((w) => Math.min(w, targetWords.length - 1)),
    tokenLogProbs: target.pieces.map(() => -0.1), logProb: 0, score: 0, confidence: 1, wordConfidence: targetWords.map(() => 1),
    hypotheses: [{ text: engineText, targetTokens: target.pieces, targetIds: target.ids }], alignment: { links, weights }, ms: 0,
  };
}
