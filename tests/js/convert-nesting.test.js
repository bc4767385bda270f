// Deep nesting in the JSON, YAML and ONNX files the converter reads is a ConvertError from an
// explicit limit, measured before any recursion (issue 60, item 6): not a RangeError from the
// stack, and not the fatal out-of-memory error that 100,000 levels of `[` caused in the yaml library.
import protobuf from 'protobufjs/light.js';
import { expect, test } from 'vitest';
import { MAX_NESTING, parseJson, parseYamlMapping } from '../../dist/convert/bounded-parse.js';
import { ConvertError } from '../../dist/convert/convert-error.js';
import { memoryFiles } from '../../dist/convert/model-files.js';
import { readOnnx } from '../../dist/convert/onnx.js';
import { rebuildSentencePiece } from '../../dist/convert/tokenizer-json.js';

const nested = (n, open, close, inner = '1') => `${open.repeat(n)}${inner}${close.repeat(n)}`;

/** `attempt()` throws a ConvertError whose message says `pattern`, within `ms`. */
function refusedWithin(attempt, pattern, ms = 2000) {
  const started = performance.now();
  let error;
  try { attempt(); } catch (e) { error = e; }
  expect(error, 'refused').toBeInstanceOf(ConvertError);
  expect(error.message).toMatch(pattern);
  expect(performance.now() - started).toBeLessThan(ms);
}

test('JSON nested past the limit is refused by depth; at the limit it parses; brackets in strings do not count', () => {
  expect(parseJson(nested(MAX_NESTING, '[', ']'), 'f.json', 'config')).toHaveLength(1);
  for (const n of [MAX_NESTING + 1, 100_000, 1_000_000]) {
    refusedWithin(() => parseJson(nested(n, '[', ']'), 'f.json', 'config'), /^f\.json: config: nests deeper than 64 levels/);
    refusedWithin(() => parseJson(nested(n, '{"a":', '}'), 'f.json', 'config'), /nests deeper than 64/);
  }
  expect(parseJson(JSON.stringify({ text: '[['.repeat(5000), q: '\\"[' }), 'f.json', 'config').q).toBe('\\"[');
  refusedWithin(() => parseJson('{"a": [1,', 'f.json', 'config'), /^f\.json: config: not JSON/);
});

test('YAML nested past the limit is refused by depth, in flow, block and compact forms; a model.yml parses', () => {
  const modelYml = "type: transformer\ndim-vocabs:\n  - 32000\n  - 32000\n# a comment [[[[\nnote: '[[[[[[[[[['\nx: [1, {a: \"]]]\"}]\ntext: |\n  [[[[[[[[\n      [[[[[[[[\n";
  expect(parseYamlMapping(modelYml, 'model.yml')['dim-vocabs']).toEqual([32000, 32000]);
  const blocks = (n) => Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' 1\n';
  expect(parseYamlMapping(blocks(40), 'model.yml')).toHaveProperty('k0');
  for (const text of [`a: ${nested(30_000, '[', ']')}`, `a: ${nested(5000, '{b: ', '}')}`, `a:\n${'- '.repeat(5000)}x\n`, blocks(300),
    `a: ${nested(MAX_NESTING + 1, '[', ']')}`]) {
    refusedWithin(() => parseYamlMapping(text, 'model.yml'), /^model\.yml: yaml: nests deeper than 64 levels/);
  }
  // Past 64 Ki characters, refused by size before the scan (the yaml library's time grows with the square of the keys).
  refusedWithin(() => parseYamlMapping(`a: ${nested(100_000, '[', ']')}`, 'model.yml'), /^model\.yml: yaml: holds 200004 characters, more than the 65536/);
  refusedWithin(() => parseYamlMapping(Array.from({ length: 10_000 }, (_, i) => `k${i}: ${i}`).join('\n'), 'model.yml'), /more than the 65536/);
});

test('a YAML alias bomb is refused by the yaml library\'s alias limit', () => {
  const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 9; i++) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
  refusedWithin(() => parseYamlMapping(levels.join('\n'), 'model.yml'), /^model\.yml: yaml: is not valid YAML/);
});

test('a tokenizer.json of 100,000 nested normalizer Sequences is a ConvertError, not a stack overflow', () => {
  // Built as text: JSON.stringify would recurse too.
  const text = `{"model":{"type":"Unigram","unk_id":0,"vocab":[["<unk>",0]]},"normalizer":${'{"type":"Sequence","normalizers":['.repeat(100_000)}{"type":"Precompiled"}${']}'.repeat(100_000)}}`;
  const files = memoryFiles('https://example.org/m', 'm', new Map([['tokenizer.json', new TextEncoder().encode(text)]]));
  refusedWithin(() => rebuildSentencePiece(files, 'tokenizer.json'), /tokenizer\.json: tokenizer: nests deeper than 64 levels/);
});

test('an ONNX graph nested 10,000 subgraphs deep is a ConvertError from protobufjs\'s recursion limit', () => {
  // ModelProto.graph (7) > GraphProto.node (1) > NodeProto.attribute (5) > AttributeProto.g (6) > GraphProto ...
  const field = (id, body) => {
    const w = protobuf.Writer.create();
    w.uint32((id << 3) | 2).bytes(body);
    return w.finish();
  };
  let graph = new Uint8Array(0);
  for (let i = 0; i < 10_000; i++) graph = field(1, field(5, field(6, graph)));
  const files = memoryFiles('https://example.org/m', 'm', new Map([['onnx/encoder_model.onnx', field(7, graph)]]));
  refusedWithin(() => readOnnx(files, 'onnx/encoder_model.onnx'), /encoder_model\.onnx: graph: not an ONNX model \(max depth exceeded\)/);
});
