// torch.save's zip of a state dict, written in JavaScript for tests that need one without Python
// (torch/serialization.py `_save`, PyTorch's zipfile serialization): archive/data.pkl, a pickle
// (protocol 2) of an OrderedDict of `torch._utils._rebuild_tensor_v2` calls on storages named by
// persistent id, one archive/data/<key> member of raw little-endian bytes per storage, and
// archive/version. Members are stored, as torch.save stores them.
import { zipSync } from 'fflate';

/**
 * The pickle (protocol 2) torch.save writes for a state dict of `entries`, each { name, storage (the
 * storage class, 'FloatStorage'), key (its member), numel (its elements), offset, shape, stride (the
 * view the tensor is) }. Integers past 32 bits are written as LONG1, as Python's pickler writes them.
 */
export function statePickle(entries) {
  const bytes = [0x80, 2];
  const text = (t) => [...new TextEncoder().encode(t)];
  const global = (module, name) => bytes.push(0x63, ...text(`${module}\n${name}\n`));
  const string = (t) => { const b = text(t); bytes.push(0x58, ...new Uint8Array(Uint32Array.of(b.length).buffer), ...b); };
  const int = (n) => (n === (n | 0) ? bytes.push(0x4a, ...new Uint8Array(Int32Array.of(n).buffer))
    : bytes.push(0x8a, 8, ...new Uint8Array(BigInt64Array.of(BigInt(n)).buffer)));
  const tuple = (values) => { bytes.push(0x28); values.forEach(int); bytes.push(0x74); };
  global('collections', 'OrderedDict');
  bytes.push(0x29, 0x52, 0x28);  // OrderedDict(), MARK
  for (const e of entries) {
    string(e.name);
    global('torch._utils', '_rebuild_tensor_v2');
    bytes.push(0x28, 0x28);  // MARK (arguments), MARK (persistent id)
    string('storage'); global('torch', e.storage); string(e.key); string('cpu'); int(e.numel);
    bytes.push(0x74, 0x51);  // TUPLE, BINPERSID
    int(e.offset); tuple(e.shape); tuple(e.stride);
    bytes.push(0x89);  // requires_grad False
    global('collections', 'OrderedDict');
    bytes.push(0x29, 0x52, 0x74, 0x52);  // backward hooks OrderedDict(), TUPLE, REDUCE
  }
  bytes.push(0x75, 0x2e);  // SETITEMS, STOP
  return Uint8Array.from(bytes);
}

/** torch.save's zip (stored): archive/data.pkl, one archive/data/<key> per storage, archive/version. */
export function torchZip(entries, storages) {
  const members = { 'archive/data.pkl': statePickle(entries), 'archive/version': new TextEncoder().encode('3\n') };
  for (const [key, data] of Object.entries(storages)) members[`archive/data/${key}`] = data;
  return zipSync(members, { level: 0 });
}

