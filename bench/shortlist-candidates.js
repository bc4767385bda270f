// The output rows a model's lexical shortlist leaves a sentence to score: the frequent pieces,
// eos and every source piece's list, without repeats, as the engine collects them
// (cpp/model/shortlist.cc, LexicalShortlist::candidates). The decode step reads these rows of the
// output layer instead of all vocab_size, so they set its bytes per token with a shortlist
// (bench/model.js, decodeCeiling). Reads only the file's header and its three shortlist tensors
// (docs/model-format.md: shortlist.frequent [F], shortlist.offsets [V_src + 1], shortlist.targets
// [N], int32).
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The candidates of a model file's shortlist, or null where the file has none.
 * @param {string} file a crossattn model file
 * @returns {((sourceIds: number[]) => Set<number>) | null} the target ids a sentence's source ids
 *   (Translation.sourceIds) leave to score
 */
export function shortlistCandidates(file) {
  const fd = openSync(file, 'r');
  try {
    const length = Buffer.alloc(8);
    readSync(fd, length, 0, 8, 0);
    const n = Number(length.readBigUInt64LE(0)), json = Buffer.alloc(n);
    readSync(fd, json, 0, n, 8);
    const { __metadata__: metadata = {}, ...tensors } = JSON.parse(json.toString());
    const int32 = (name) => {
      const [begin, end] = tensors[name].data_offsets, bytes = Buffer.alloc(end - begin);
      readSync(fd, bytes, 0, end - begin, 8 + n + begin);
      return new Int32Array(bytes.buffer, bytes.byteOffset, (end - begin) / 4);
    };
    if (!tensors['shortlist.offsets']) return null;
    const frequent = int32('shortlist.frequent'), offsets = int32('shortlist.offsets'), targets = int32('shortlist.targets');
    const { eos_id: eos } = JSON.parse(metadata.config);
    return (sourceIds) => {
      const rows = new Set(frequent).add(eos);
      for (const s of sourceIds) for (let i = offsets[s]; i < offsets[s + 1]; ++i) rows.add(targets[i]);
      return rows;
    };
  } finally {
    closeSync(fd);
  }
}
