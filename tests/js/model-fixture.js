// Test fixtures made from a committed model file: the same weights and tokenizer under another
// name, with provenance metadata (docs/model-format.md), as `crossattn convert` writes for an
// imported model. The file is rewritten as models/model_file.py's write_safetensors does: the
// header padded to 8 bytes with spaces, then the unchanged tensor data, and a fresh `checksum` (the
// XXH3-64 of the file with its 16 hex digits read as zeros).
import { readFileSync, writeFileSync } from 'node:fs';
import { xxhash3 } from 'hash-wasm';

const CHECKSUM_ZEROS = `xxh3:${'0'.repeat(16)}`;

/**
 * Writes `to`: the model file `from` with `config` merged into its config and `metadata` into its
 * metadata map (string values). Returns the path `to`.
 */
export async function relabelModel(from, to, { config = {}, metadata = {} } = {}) {
  const file = readFileSync(from);
  const length = Number(file.readBigUInt64LE(0));
  const header = JSON.parse(file.subarray(8, 8 + length).toString('utf8'));
  const old = header.__metadata__;
  header.__metadata__ = {
    ...old, ...metadata, config: JSON.stringify({ ...JSON.parse(old.config), ...config }), checksum: CHECKSUM_ZEROS,
  };
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (Buffer.byteLength(json) % 8)) % 8);
  const head = Buffer.alloc(8 + Buffer.byteLength(json));
  head.writeBigUInt64LE(BigInt(Buffer.byteLength(json)), 0);
  head.write(json, 8, 'utf8');
  const whole = Buffer.concat([head, file.subarray(8 + length)]);
  const digest = await xxhash3(whole);
  const at = whole.indexOf(CHECKSUM_ZEROS, 8, 'latin1');
  whole.write(`xxh3:${digest}`, at, 'latin1');
  writeFileSync(to, whole);
  return to;
}
