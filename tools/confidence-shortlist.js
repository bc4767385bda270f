// Which target pieces a model's lexical shortlist lets a translation of a given source produce:
// read from the model file's shortlist.frequent, shortlist.offsets and shortlist.targets tensors
// (int32, docs/model-format.md), as the engine's LexicalShortlist::candidates does
// (cpp/model/shortlist.h: the frequent pieces, eos, and each source piece's list; eos is left out
// here, the caller skips it). For measuring
// how forced decoding (which scores the whole vocabulary) differs from the page's translations.
import { readFileSync } from 'node:fs';

/**
 * The shortlist of the model file `path`: a function from source ids [S] to the Set of candidate
 * target ids, or null when the file has no shortlist.
 * @throws Error naming the file for a header that is not JSON or a tensor that is not int32.
 */
export function readShortlist(path) {
  const file = readFileSync(path);
  const headerLength = Number(file.readBigUInt64LE(0));
  let header;
  try {
    header = JSON.parse(file.subarray(8, 8 + headerLength).toString('utf8'));
  } catch {
    throw new Error(`${path}: the header is not JSON`);
  }
  const tensor = (name) => {
    const spec = header[name];
    if (!spec) return null;
    if (spec.dtype !== 'I32') throw new Error(`${path}: ${name} must be I32, not ${spec.dtype}`);
    const [begin, end] = spec.data_offsets.map((o) => 8 + headerLength + o);
    return new Int32Array(file.buffer.slice(file.byteOffset + begin, file.byteOffset + end));
  };
  const frequent = tensor('shortlist.frequent'), offsets = tensor('shortlist.offsets'), targets = tensor('shortlist.targets');
  if (!frequent || !offsets || !targets) return null;
  return (sourceIds) => {
    const ids = new Set(frequent);
    for (const s of sourceIds) for (let k = offsets[s]; k < offsets[s + 1]; ++k) ids.add(targets[k]);
    return ids;
  };
}
